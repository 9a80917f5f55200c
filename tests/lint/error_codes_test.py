#!/usr/bin/env python3
"""The `cave_*` codes are spelled in one place: engine/include/caveman/base/codes.h.

Fails when
- a source file other than the registry spells `cave_` (tests/ may: they pin the wire format;
  docs/ describes the codes; third_party/ is not ours), so a code cannot be typed twice;
- docs/errors.md and the registry disagree: a registered code (or `cave_<tool>_failed`
  template) that docs/errors.md does not list, or a listed code the registry does not hold;
- a registered constant or function is never used as `codes::<name>` outside the registry.

The parsers first run against an inline sample, so a regex that stops matching fails the test
instead of letting every check pass on nothing."""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
REGISTRY = pathlib.Path("engine/include/caveman/base/codes.h")
DOCS = pathlib.Path("docs/errors.md")
# Everything else in the tree is source; these are not (or not ours).
SKIP_TOP_DIRS = {"tests", "docs", "third_party", "build"}
SKIP_DIRS = {".git", "node_modules"}
SKIP_SUFFIXES = {".md"}

CONSTANT = re.compile(r'inline constexpr std::string_view (k\w+)\s*=\s*"(cave_[a-z0-9_]*)";')
FUNCTION = re.compile(r"^inline std::string (\w+)\(", re.M)
TEMPLATE = re.compile(r"\bcave_[a-z0-9_]*<[a-z]+>[a-z0-9_]*")
DOC_CODE = re.compile(r"`(cave_[a-z0-9_<>]+)`")
SPELLING = re.compile(r"cave_")


def parse_registry(text):
    """(codes, templates, names): code spellings, `cave_<x>_…` templates, constant/function names.
    A value ending in `_` (the prefix) is not a code."""
    constants = CONSTANT.findall(text)
    codes = {value for _, value in constants if not value.endswith("_")}
    names = [name for name, _ in constants] + FUNCTION.findall(text)
    return codes, set(TEMPLATE.findall(text)), names


def parse_docs(text):
    return set(DOC_CODE.findall(text))


def self_check():
    registry = '''
inline constexpr std::string_view kPrefix = "cave_";
inline constexpr std::string_view kNoHome = "cave_no_home";
inline constexpr std::string_view kProxyCompressionBytesSavedTotal =
    "cave_proxy_compression_bytes_saved_total";
// cave_<tool>_failed: a tool failed.
inline std::string tool_failed(std::string_view tool) {
'''
    codes, templates, names = parse_registry(registry)
    assert codes == {"cave_no_home", "cave_proxy_compression_bytes_saved_total"}, codes
    assert templates == {"cave_<tool>_failed"}, templates
    assert names == ["kPrefix", "kNoHome", "kProxyCompressionBytesSavedTotal", "tool_failed"], names
    docs = "| `cave_no_home`, `cave_<tool>_failed` | x |\nEvery code is a `cave_*` spelling."
    assert parse_docs(docs) == {"cave_no_home", "cave_<tool>_failed"}, parse_docs(docs)
    assert SPELLING.search('return Status::Io("cave_io_error", m);')
    assert not SPELLING.search("return Status::Io(codes::kIoError, m);")


def source_files():
    """Every file of the tree that is source, registry excluded, as (relative path, text)."""
    for folder, dirs, files in os.walk(ROOT):
        top = pathlib.Path(folder) == ROOT
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not (top and d in SKIP_TOP_DIRS))
        for name in sorted(files):
            path = pathlib.Path(folder, name)
            rel = path.relative_to(ROOT)
            if rel == REGISTRY or path.suffix in SKIP_SUFFIXES:
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue  # binary
            yield rel, data.decode("utf-8", errors="replace")


def main():
    self_check()
    codes, templates, names = parse_registry((ROOT / REGISTRY).read_text())
    documented = parse_docs((ROOT / DOCS).read_text())
    failures = []
    uses = set()
    use = re.compile(r"\bcodes::(\w+)")
    for rel, text in source_files():
        uses.update(use.findall(text))
        for lineno, line in enumerate(text.splitlines(), 1):
            if SPELLING.search(line):
                failures.append(f"{rel}:{lineno}: spells a code; name the constant of {REGISTRY}")
    registered = codes | templates
    for code in sorted(registered - documented):
        failures.append(f"{REGISTRY}: {code} is not listed in {DOCS}")
    for code in sorted(documented - registered):
        failures.append(f"{DOCS}: {code} is not in {REGISTRY}")
    for name in names:
        if name not in uses:
            failures.append(f"{REGISTRY}: codes::{name} is never used")
    for f in failures:
        print("FAIL " + f)
    print(f"{len(codes)} codes and {len(templates)} templates registered, {len(documented)} "
          f"documented, {len(names)} names; {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
