#!/usr/bin/env python3
"""caveman-shrink ratios: o200k tokens before/after for real tool catalogs and noisy command
output, measured by running the built binaries (token counts from `caveman-engine count`,
which the e2e tests check against gpt-tokenizer).

usage: bench/shrink_bench.py BIN_DIR   (prints the docs/BENCHMARKS.md section on stdout)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

bin_dir = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.environ.get("CAVEMAN_CORPUS_DIR", os.path.join(root, "..", "shared", "corpus"))
home = tempfile.mkdtemp(prefix="caveman-shrink-bench-")
env = dict(os.environ, CAVEMAN_CCR_DB=os.path.join(home, "ccr.db"), LC_ALL="C.UTF-8")
SHRINK = os.path.join(bin_dir, "caveman-shrink")
ENGINE = os.path.join(bin_dir, "caveman-engine")


def tokens(data):
    r = subprocess.run([ENGINE, "count"], input=data, capture_output=True, check=True)
    return int(r.stdout)


def pct(before, after):
    return "%.1f%%" % (100.0 * (before - after) / before) if before else "0.0%"


def shrink_catalog(data):
    r = subprocess.run([SHRINK], input=data, capture_output=True, env=env, check=True)
    report = json.loads(r.stderr.decode().strip().splitlines()[-1])
    return r.stdout, report


def engine_toolschema(data):
    r = subprocess.run([ENGINE, "compress", "--type", "toolschema"], input=data,
                       capture_output=True, env=env, check=True)
    return r.stdout


def catalog_variants(path):
    raw = open(path, "rb").read()
    doc = json.loads(raw)
    tools = doc.get("tools") or doc.get("result", {}).get("tools")
    anthropic = {"tools": [{"name": t["name"], "description": t.get("description", ""),
                            "input_schema": t["inputSchema"]} for t in tools]}
    openai = {"tools": [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                                                            "parameters": t["inputSchema"]}} for t in tools]}
    return len(tools), [("as listed", raw),
                        ("Anthropic `tools`", json.dumps(anthropic, separators=(",", ":"), ensure_ascii=False).encode()),
                        ("OpenAI `tools`", json.dumps(openai, separators=(",", ":"), ensure_ascii=False).encode())]


out = []
out.append("## caveman-shrink\n")
out.append("`bench/shrink_bench.sh` (o200k tokens from `caveman-engine count`; basis: inferred). "
           "Every catalog row keeps every tool name, parameter name, type, enum value and `required` "
           "entry (checked by `tests/e2e/shrink/catalog_test.mjs`); the original is one "
           "`caveman-shrink recover <handle>` away.\n")
out.append("### Tool catalogs\n")
out.append("| catalog | tools | shape | bytes before → after | tokens before → after | fewer tokens | `caveman-engine compress --type toolschema` |")
out.append("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
catalogs = [
    ("@playwright/mcp 0.0.83 `tools/list`", os.path.join(root, "tests/testdata/shrink/playwright_mcp_0.0.83.tools.json")),
    ("chrome-devtools-mcp 1.11.0 `tools/list`", os.path.join(root, "tests/testdata/shrink/chrome_devtools_mcp_1.11.0.tools.json")),
    ("corpus `json-mcp-playwright-tools-list.json` (JSON-RPC line)", os.path.join(corpus, "public/json-mcp-playwright-tools-list.json")),
]
for label, path in catalogs:
    if not os.path.exists(path):
        continue
    count, variants = catalog_variants(path)
    for shape, data in variants:
        if "corpus" in label and shape != "as listed":
            continue
        shrunk, report = shrink_catalog(data)
        before, after = tokens(data), tokens(shrunk)
        assert report.get("tokens_before") == before and report.get("tokens_after") == after, report
        engine_out = engine_toolschema(data)
        engine_after = tokens(engine_out)
        same = "same bytes" if engine_out == shrunk else "differs"
        out.append("| %s | %d | %s | %d → %d | %d → %d | **%s** | %s (%s) |" % (
            label, count, shape, len(data), len(shrunk), before, after, pct(before, after),
            pct(before, engine_after), same))
out.append("")
out.append("\"as listed\" is the catalog exactly as the server sends it; the Anthropic/OpenAI rows are the "
           "same tools converted the way clients forward them (annotations already gone, `$schema` and "
           "`additionalProperties:false` still there), so they start smaller. The last column is the engine's "
           "`toolschema` compressor on the same input: the same shrinker (`caveman/toolschema.h`), so "
           "the same bytes and the same saving; caveman-mcp's `caveman_compress` with "
           "`content_type: toolschema` runs it too.\n")

# Noisy command output.
out.append("### Command output (`caveman-shrink -- <cmd>`)\n")
out.append("| command | exit | bytes before → shown | tokens before → shown | fewer tokens | must-keep lines shown |")
out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
work = tempfile.mkdtemp(prefix="caveman-shrink-bench-gxx-")
with open(os.path.join(work, "broken.cpp"), "w") as f:
    f.write("#include <iostream>\n#include <map>\n#include <string>\n#include <vector>\n"
            "int main() {\n  std::map<std::string, std::vector<int>> m;\n"
            "  m[\"a\"].push_back(\"not an int\");\n  std::cout << m << std::endl;\n"
            "  return undefined_variable;\n}\n")
manifest = {}
mf = os.path.join(corpus, "MANIFEST.tsv")
if os.path.exists(mf):
    for line in open(mf, encoding="utf-8").read().splitlines()[1:]:
        cols = line.split("\t")
        manifest[os.path.basename(cols[0])] = cols[5].split(" ;; ")
commands = [("g++ on a file with 3 deliberate errors",
             ["g++", "-std=c++17", "-fdiagnostics-color=never", "-c", "broken.cpp", "-o", "/dev/null"], None)]
for name, exit_code in [("log-leveldb-build-error.log", 2), ("terminal-ninja-make-build.ansi", 0),
                        ("log-gtest-ninja-test.log", 0), ("log-dpkg.log", 0),
                        ("search-grep-python-raise-valueerror.txt", 0)]:
    path = os.path.join(corpus, "public", name)
    if os.path.exists(path):
        commands.append(("`cat %s`%s" % (name, "; exit %d" % exit_code if exit_code else ""),
                         ["sh", "-c", "cat \"$0\"; exit %d" % exit_code, path], name))
for label, argv, name in commands:
    raw = subprocess.run(argv, cwd=work, capture_output=True)
    original = raw.stdout + raw.stderr
    r = subprocess.run([SHRINK, "--"] + argv, cwd=work, capture_output=True, env=env)
    shown = r.stdout
    body = shown[:shown.rstrip(b"\n").rfind(b"\n") + 1]  # without the footer line
    before, after = tokens(original), tokens(body)
    if name and name in manifest:
        keep = manifest[name]
        # A factored view states its lines as templates and values: read it expanded, as the
        # corpus bench does (elided lines stay markers, so an elision still counts as missing).
        readable = subprocess.run([ENGINE, "expand"], input=body, capture_output=True).stdout or body
        plain = re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]", b"", readable)
        kept = sum(1 for k in keep if k.encode() in plain)
        keep_txt = "%d/%d MANIFEST must_keep" % (kept, len(keep))
    else:
        errors = [l for l in original.decode().splitlines() if "error:" in l]
        kept = sum(1 for l in errors if (l + "\n").encode() in body)
        keep_txt = "%d/%d `error:` lines" % (kept, len(errors))
    out.append("| %s | %d | %d → %d | %d → %d | **%s** | %s |" % (
        label, r.returncode, len(original), len(body), before, after, pct(before, after), keep_txt))
out.append("")
out.append("Shown bytes/tokens exclude the one-line footer (`[caveman-shrink] exit N · … · full output: "
           "caveman-shrink recover ccr_…`). A non-zero exit always shows every error line and the last 20 lines.")
shutil.rmtree(work, ignore_errors=True)
shutil.rmtree(home, ignore_errors=True)
print("\n".join(out))
