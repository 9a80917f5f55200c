#!/usr/bin/env python3
"""Independent PNG checker for the pixel e2e tests (python3 + zlib only, no Pillow).

  pngcheck.py info FILE...                    one JSON line per file: width, height, channels, ink
  pngcheck.py crop FILE X Y W H SCALE OUT     write an upscaled crop (for eyeballing a page)

Verifies the signature, every chunk CRC, IHDR (8-bit gray or RGB, no interlace), inflates the
IDAT stream and undoes the five PNG filters; any problem exits 1 with a message.
"""
import json
import struct
import sys
import zlib


def fail(msg):
    print(f"pngcheck: {msg}", file=sys.stderr)
    sys.exit(1)


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: bad signature")
    pos, idat, ihdr, seen_end = 8, b"", None, False
    while pos + 12 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        ctype = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            fail(f"{path}: CRC mismatch in {ctype!r}")
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        elif ctype == b"IEND":
            seen_end = True
            break
        pos += 12 + length
    if ihdr is None or not seen_end:
        fail(f"{path}: missing IHDR or IEND")
    width, height, depth, ctype, comp, filt, interlace = ihdr
    if depth != 8 or ctype not in (0, 2) or comp or filt or interlace:
        fail(f"{path}: unsupported IHDR {ihdr}")
    ch = 1 if ctype == 0 else 3
    raw = zlib.decompress(idat)
    stride = width * ch
    if len(raw) != (stride + 1) * height:
        fail(f"{path}: inflated size {len(raw)} != {(stride + 1) * height}")
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            elif f == 4:
                pp = a + b - c
                pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            else:
                fail(f"{path}: bad filter {f}")
            line[i] = (line[i] + p) & 0xFF
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, ch, bytes(out)


def encode(width, height, ch, pixels):
    raw = b"".join(b"\x00" + pixels[y * width * ch:(y + 1) * width * ch] for y in range(height))

    def chunk(t, b):
        return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xFFFFFFFF)

    hdr = struct.pack(">IIBBBBB", width, height, 8, 0 if ch == 1 else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", hdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "info":
        for path in sys.argv[2:]:
            w, h, ch, px = decode(path)
            ink = sum(1 for i in range(0, len(px), ch) if px[i] < 128 or (ch == 3 and min(px[i:i + 3]) < 128))
            print(json.dumps({"file": path, "width": w, "height": h, "channels": ch, "ink": ink}))
        return
    if len(sys.argv) == 9 and sys.argv[1] == "crop":
        path, x0, y0, cw, chh, scale, out = sys.argv[2], *map(int, sys.argv[3:8]), sys.argv[8]
        w, h, ch, px = decode(path)
        cw, chh = min(cw, w - x0), min(chh, h - y0)
        res = bytearray()
        for y in range(chh * scale):
            for x in range(cw * scale):
                i = ((y0 + y // scale) * w + x0 + x // scale) * ch
                res += px[i:i + ch]
        open(out, "wb").write(encode(cw * scale, chh * scale, ch, bytes(res)))
        return
    fail("usage: pngcheck.py info FILE... | crop FILE X Y W H SCALE OUT")


if __name__ == "__main__":
    main()
