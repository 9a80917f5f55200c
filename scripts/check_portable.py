#!/usr/bin/env python3
"""Checks that the prebuilt binaries are portable the way docs/STATUS.md ("Platforms") says.

For each ELF executable given (or every product binary in --bin-dir):
  * no libstdc++ / libgcc_s in NEEDED (CAVEMAN_PORTABLE_RUNTIME links them statically), and no
    GLIBCXX_/CXXABI_/GCC_ symbol versions;
  * every NEEDED library is glibc or one of the documented runtime dependencies (RUNTIME_DEPS,
    listed with their Debian packages in docs/cli.md "Install from npm"): a new shared
    dependency fails here until it is documented;
  * the highest GLIBC_ symbol version required is at most GLIBC_FLOOR (the stated minimum glibc).
Reads the version-needs section with `readelf -V` (binutils). Exit 0 ok, 1 violation, 77 skipped
(--skip-unless with a value that is not ON: a build without CAVEMAN_PORTABLE_RUNTIME and
CAVEMAN_STATIC_DEPS).
"""
import argparse
import os
import re
import subprocess
import sys

GLIBC_FLOOR = (2, 36)  # Debian 12's glibc; keep in step with docs/STATUS.md and docs/cli.md
PRODUCT = ["caveman", "caveman-proxy", "caveman-engine", "caveman-mcp", "caveman-shrink",
           "caveman-browse", "cavemem"]
GLIBC_LIBS = re.compile(r"^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|"
                        r"ld-linux-[\w-]+\.so\.\d+)$")
# Shared libraries the binaries still need at run time (Debian 12 sonames; cmake/CavemanPortable.cmake
# says why these stay shared). sqlite3, yaml-cpp, gumbo and tree-sitter are static (CAVEMAN_STATIC_DEPS).
RUNTIME_DEPS = {
    "libssl.so.3", "libcrypto.so.3", "libz.so.1", "libspdlog.so.1.10", "libfmt.so.9",
    "libcpp-httplib.so.0.11",
}
FORBIDDEN = re.compile(r"^(libstdc\+\+\.so|libgcc_s\.so)")


def readelf(args, path):
    return subprocess.run(["readelf", *args, path], check=True, capture_output=True,
                          text=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf(["-d", "-W"], path))


def version_needs(path):
    """{file: {version names}} from .gnu.version_r."""
    out, current = {}, None
    for line in readelf(["-V", "-W"], path).splitlines():
        m = re.search(r"File: (\S+)\s+Cnt:", line)
        if m:
            current = m.group(1)
            out.setdefault(current, set())
            continue
        m = re.search(r"Name: (\S+)\s+Flags:", line)
        if m and current:
            out[current].add(m.group(1))
    return out


def parse_version(name):
    return tuple(int(x) for x in name.split("_", 1)[1].split("."))


def check(path):
    problems, top = [], None
    libs = needed(path)
    for lib in libs:
        if FORBIDDEN.match(lib):
            problems.append(f"NEEDED {lib} (libstdc++/libgcc must be linked statically)")
        elif not GLIBC_LIBS.match(lib) and lib not in RUNTIME_DEPS:
            problems.append(f"NEEDED {lib} is not a documented runtime dependency")
    for file, versions in version_needs(path).items():
        runtime = sorted(v for v in versions if v.startswith(("GLIBCXX_", "CXXABI_", "GCC_")))
        if runtime:
            problems.append(f"needs {len(runtime)} symbol version(s) of {file} ({runtime[0]}, …): "
                            "a shared GCC runtime")
        for v in versions:
            if v.startswith("GLIBC_") and re.fullmatch(r"GLIBC_\d+(\.\d+)*", v):
                ver = parse_version(v)
                top = max(top or ver, ver)
                if ver > GLIBC_FLOOR:
                    problems.append(f"needs {v} from {file}, above the floor "
                                    f"GLIBC_{'.'.join(map(str, GLIBC_FLOOR))}")
    return problems, top, libs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binaries", nargs="*")
    ap.add_argument("--bin-dir", help="check the seven product binaries in this directory")
    ap.add_argument("--skip-unless", nargs="+",
                    help="exit 77 unless every value is ON (CAVEMAN_PORTABLE_RUNTIME CAVEMAN_STATIC_DEPS)")
    args = ap.parse_args()
    if args.skip_unless is not None and any(
            v.upper() not in ("ON", "1", "TRUE", "YES") for v in args.skip_unless):
        print("skipped: built without CAVEMAN_PORTABLE_RUNTIME and CAVEMAN_STATIC_DEPS "
              "(the release preset turns both on)")
        return 77
    paths = list(args.binaries)
    if args.bin_dir:
        paths += [os.path.join(args.bin_dir, b) for b in PRODUCT]
    if not paths:
        ap.error("no binaries given")
    failed = False
    floor = ".".join(map(str, GLIBC_FLOOR))
    for p in paths:
        if not os.path.isfile(p):
            print(f"FAIL {p}: missing")
            failed = True
            continue
        problems, top, libs = check(p)
        top_s = "GLIBC_" + ".".join(map(str, top)) if top else "none"
        others = sorted(l for l in libs if not GLIBC_LIBS.match(l))
        status = "FAIL" if problems else "ok"
        print(f"{status} {os.path.basename(p)}: highest {top_s} (floor {floor}); "
              f"shared: {', '.join(others) or 'glibc only'}")
        for pr in problems:
            print(f"  - {pr}")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
