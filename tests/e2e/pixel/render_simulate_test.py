#!/usr/bin/env python3
"""caveman-engine pixel render|simulate as users run it (issue 14, acceptance 1 and 2):
- render: fixed texts → <file>.pxN.png (mode 0644) byte-identical across two runs and across
  densities' own reruns; every page decodes with an independent reader (pngcheck.py: python3
  zlib, CRCs, filters) at the width/height the JSONL reports, within the standard canvas;
  estTokens = ⌈⌈w/28⌉·⌈h/28⌉ × 1.10⌉; the summary line adds the pages up;
- bad input: empty file (no pages), invalid UTF-8 / emoji (droppedChars), control characters
  (shown, not dropped), a 10 MB file (--max-pages cap, omittedChars), bad flags and verbs (exit codes);
- simulate: one request file per wire format (Anthropic, OpenAI Chat, OpenAI Responses, Gemini)
  → TransformInfo with Compressed true / Reason applied / images counted; a model outside
  CAVE_PIXEL_MODELS → Compressed false with the reason and no image; an unknown body → exit 1.
"""
import json
import math
import os
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pngcheck  # noqa: E402

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-engine")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, flush=True)


def run(args, env_extra=None):
    env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "CAVEMAN_HOME": tmp}
    env.update(env_extra or {})
    return subprocess.run([BIN] + args, capture_output=True, env=env, timeout=120)


def jsonl(out):
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


def est_tokens(w, h):
    return math.ceil(math.ceil(w / 28) * math.ceil(h / 28) * 110 / 100)


tmp = tempfile.mkdtemp(prefix="caveman-pixel-e2e-")

# ---- render: golden texts, determinism, independent decoding ----------------------------
texts = {
    "prose.txt": "".join(f"Paragraph {i}: the cave painters mixed ochre\twith fat and charcoal.\n" for i in range(150)),
    "code.py": "".join(f"def f{i}(x):\n\treturn x * {i}  # comment {i}\n\n\n\n\n" for i in range(120)),
    "cjk.txt": "洞窟の壁画は約四万年前に描かれた。中文字符也可以渲染。\n" * 80,
}
for name, text in texts.items():
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    for density in ("conservative", "balanced", "max"):
        r1 = run(["pixel", "render", "--density", density, path])
        check(r1.returncode == 0, f"{name}/{density}: exit {r1.returncode}: {r1.stderr.decode()}")
        lines = jsonl(r1.stdout)
        pages, summary = lines[:-1], lines[-1]
        check(summary.get("summary") is True and summary["pages"] == len(pages), f"{name}/{density}: summary {summary}")
        check(summary["density"] == density, f"{name}/{density}: density {summary['density']}")
        first = [open(f"{path}.px{k + 1}.png", "rb").read() for k in range(len(pages))]
        r2 = run(["pixel", "render", "--density", density, path])
        second = [open(f"{path}.px{k + 1}.png", "rb").read() for k in range(len(pages))]
        check(r1.stdout == r2.stdout and first == second, f"{name}/{density}: second run differs")
        total = 0
        for k, page in enumerate(pages):
            png = f"{path}.px{k + 1}.png"
            check(stat.S_IMODE(os.stat(png).st_mode) == 0o644, f"{png}: mode {oct(os.stat(png).st_mode)}")
            w, h, ch, px = pngcheck.decode(png)
            check((w, h) == (page["width"], page["height"]), f"{png}: decoded {w}x{h} vs {page}")
            check(w <= 1568 and h <= 728, f"{png}: {w}x{h} exceeds the standard canvas")
            check(ch == (1 if density == "conservative" else 3), f"{png}: {ch} channels")
            check(page["estTokens"] == est_tokens(w, h), f"{png}: estTokens {page['estTokens']}")
            check(("layers" in page) == (density == "max"), f"{png}: layers key {page}")
            check(any(v < 128 for v in px[::ch]) or ch == 3, f"{png}: no ink")
            total += page["estTokens"]
        check(summary["imageEstTokens"] == total, f"{name}/{density}: imageEstTokens {summary['imageEstTokens']} != {total}")
        check(summary["imageEstTokens"] < summary["textEstTokens"], f"{name}/{density}: images not cheaper {summary}")

# ---- bad input ---------------------------------------------------------------------------
empty = os.path.join(tmp, "empty.txt")
open(empty, "w").close()
r = run(["pixel", "render", empty])
check(r.returncode == 0 and jsonl(r.stdout) == [{"summary": True, "pages": 0, "textEstTokens": 0, "imageEstTokens": 0,
                                                 "density": "balanced"}], f"empty: {r.returncode} {r.stdout!r}")
weird = os.path.join(tmp, "weird.txt")
with open(weird, "wb") as f:
    f.write(b"ok \xff\xfe bytes, emoji \xf0\x9f\x98\x80, bell \x07 escape \x1b[0m del \x7f end\n")
r = run(["pixel", "render", weird])
pages = jsonl(r.stdout)[:-1]
check(r.returncode == 0 and len(pages) == 1 and pages[0]["droppedChars"] == 3, f"weird: {r.stdout!r}")
huge = os.path.join(tmp, "huge.txt")
with open(huge, "w") as f:
    f.write("0123456789abcdef" * (10 * 1024 * 1024 // 16))
r = run(["pixel", "render", "--density", "max", "--max-pages", "2", huge])
lines = jsonl(r.stdout)
check(r.returncode == 0 and lines[-1]["pages"] == 2 and lines[-1].get("omittedChars") == 10 * 1024 * 1024 - 2 * 92582,
      f"10 MB: {r.returncode} {lines[-1] if lines else r.stderr!r}")
for k in range(2):
    p = f"{huge}.px{k + 1}.png"
    if os.path.exists(p):
        os.remove(p)

r = run(["pixel"])
check(r.returncode == 2 and b"usage" in r.stderr, f"pixel alone: {r.returncode}")
r = run(["pixel", "help"])
check(r.returncode == 0 and b"usage" in r.stdout, f"pixel help: {r.returncode}")
r = run(["pixel", "paint"])
check(r.returncode == 1, f"unknown verb: {r.returncode}")
r = run(["pixel", "render", "--density", "ultra", empty])
check(r.returncode == 1 and b"cave_invalid_arguments" in r.stderr, f"bad density flag: {r.returncode}")
r = run(["pixel", "render", os.path.join(tmp, "missing.txt")])
check(r.returncode == 1 and b"cave_" in r.stderr, f"missing file: {r.returncode} {r.stderr!r}")
r = run(["pixel", "render", "--dense", os.path.join(tmp, "prose.txt")])
check(jsonl(r.stdout)[-1]["density"] == "max", "--dense means max")
r = run(["pixel", "render", "--multicol", "2", "--density", "max", os.path.join(tmp, "prose.txt")])
check(jsonl(r.stdout)[-1]["density"] == "conservative", "--multicol 2 forces conservative")
r = run(["pixel", "render", os.path.join(tmp, "prose.txt")], {"CAVE_PIXEL_DENSITY": "max"})
check(jsonl(r.stdout)[-1]["density"] == "max", "CAVE_PIXEL_DENSITY=max")
r = run(["pixel", "render", "--density", "balanced", os.path.join(tmp, "prose.txt")], {"CAVE_PIXEL_DENSITY": "max"})
check(jsonl(r.stdout)[-1]["density"] == "balanced", "the flag beats the environment")

# ---- simulate: the four wire formats --------------------------------------------------------
long_text = texts["prose.txt"]
requests = {
    "anthropic.json": {"model": "claude-fable-5", "max_tokens": 64,
                       "messages": [{"role": "user", "content": [{"type": "text", "text": long_text},
                                                                 {"type": "text", "text": "Summarize."}]}]},
    "chat.json": {"model": "gpt-5.6", "messages": [{"role": "system", "content": "Be brief."},
                                                   {"role": "user", "content": long_text}]},
    "responses.json": {"model": "gpt-5.6", "input": [{"role": "user", "content": [{"type": "input_text", "text": long_text}]}]},
    "gemini.json": {"contents": [{"role": "user", "parts": [{"text": long_text}]}]},
}
expected_format = {"anthropic.json": "anthropic", "chat.json": "openai-chat", "responses.json": "openai-responses",
                   "gemini.json": "gemini"}
for name, body in requests.items():
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(body, f)
    args = ["pixel", "simulate"] + (["--model", "gpt-5.6"] if name == "gemini.json" else []) + [path]
    r = run(args)
    check(r.returncode == 0, f"simulate {name}: exit {r.returncode} {r.stderr!r}")
    info = json.loads(r.stdout)
    check(info["Compressed"] is True and info["Reason"] == "applied", f"simulate {name}: {info}")
    check(info["Format"] == expected_format[name], f"simulate {name}: format {info.get('Format')}")
    check(info["ImageCount"] >= 1 and info["ImageBytes"] > 0 and info["ImagePixels"] > 0, f"simulate {name}: images {info}")
    check(info["ImageTokensEstimate"] < info["TextTokensEstimate"], f"simulate {name}: estimate {info}")
    check(info["Recoverable"] is False, f"simulate {name}: simulate stores nothing")
    for key in ("OrigChars", "CompressedChars", "StaticChars", "DynamicChars", "DynamicBlockCount", "ReminderImgs",
                "ToolResultImgs", "DroppedChars", "PassthroughReasons", "KeptSharpBlocks", "TruncatedToolResults",
                "OmittedChars", "CollapsedTurns", "CollapsedChars", "CollapsedImages", "HistoryReason"):
        check(key in info, f"simulate {name}: missing {key}")
    # Outside the allowlist: never an image.
    r = run(["pixel", "simulate", "--model", "claude-3-5-sonnet", path])
    info = json.loads(r.stdout) if r.returncode == 0 else {}
    check(r.returncode == 0 and info.get("Compressed") is False and info.get("ImageCount") == 0
          and info.get("Reason", "").startswith("model_not_allowed"), f"simulate {name} (not allowed): {r.stdout!r}")
    r = run(["pixel", "simulate", path], {"CAVE_PIXEL_MODELS": "off"})
    check(json.loads(r.stdout)["Compressed"] is False, f"simulate {name} with CAVE_PIXEL_MODELS=off")

r = run(["pixel", "simulate", "--model", "claude-fable-5", "--density", "max", os.path.join(tmp, "anthropic.json")])
check(json.loads(r.stdout).get("Density") == "max", f"--density max: {r.stdout!r}")
r = run(["pixel", "simulate", "--model", "my-model", os.path.join(tmp, "anthropic.json")],
        {"CAVE_PIXEL_MODELS": "my-model"})
check(json.loads(r.stdout).get("Density") == "conservative", f"non-capable reader: {r.stdout!r}")
short = os.path.join(tmp, "short.json")
with open(short, "w") as f:
    json.dump({"model": "gpt-5.6", "messages": [{"role": "user", "content": "hi"}]}, f)
r = run(["pixel", "simulate", short])
check(json.loads(r.stdout)["Reason"] == "below_min_chars (2 < 2000)", f"short: {r.stdout!r}")
unknown = os.path.join(tmp, "unknown.json")
with open(unknown, "w") as f:
    json.dump({"prompt": "x"}, f)
r = run(["pixel", "simulate", unknown])
check(r.returncode == 1 and b"cave_" in r.stderr and r.stdout == b"", f"unknown format: {r.returncode}")

import shutil  # noqa: E402
shutil.rmtree(tmp, ignore_errors=True)
if failures:
    print(f"pixel render/simulate: {len(failures)} failure(s)")
    sys.exit(1)
print("ok: pixel render/simulate")
