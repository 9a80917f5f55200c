#!/usr/bin/env python3
"""Contracts are cited from the repository's own docs, and every citation resolves.

1. No file in the repository names the original implementation's specification files (the
   engine, processes, design and style notes that live outside the repository): a reader of a
   clone could not look them up. The contract belongs in docs/ (docs/spec/README.md).
2. Every `docs/<page>.md` or `docs/<page>.md#<anchor>` that a source, build, script or test
   file cites exists, and so does the anchor: a GitHub heading anchor of that page or an
   explicit `<a id="…">`.
3. Every relative Markdown link inside docs/ (`[text](page.md#anchor)`) resolves the same way.

Skipped: .git, build trees and node_modules; checks 2 and 3 also skip vendored third_party/ and
test data, which quote other projects' text and paths."""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", "node_modules", "__pycache__"}
SKIP_PREFIXES = ("build",)
NOT_CITING = ("third_party/", "tests/testdata/")
# Spelled in pieces so this file does not match itself.
OUTSIDE_SPEC = re.compile(r"\b(?:" + "|".join(["ENGINE", "PROCESSES", "DESIGN", "STYLE"]) + r")\.md\b")
CITATION = re.compile(r"(?<![\w/.-])docs/([\w./-]+?\.md)(?:#([\w-]+))?")
MD_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+?\.md)(?:#([^)\s]+))?\)")
CITING_SUFFIXES = {".cpp", ".h", ".cc", ".hpp", ".c", ".py", ".mjs", ".js", ".ts", ".sh", ".cmake",
                   ".txt", ".yaml", ".yml", ".json", ".html", ".md", ".toml", ".in"}


def repo_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        base = pathlib.Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not (
            (base / d).relative_to(ROOT).as_posix().startswith(SKIP_PREFIXES)))
        for name in sorted(filenames):
            path = base / name
            if path.is_file() and not path.is_symlink():
                yield path, path.relative_to(ROOT)


def read_text(path):
    try:
        return path.read_bytes().decode("utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def github_slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


_anchor_cache = {}


def anchors_of(page):
    if page not in _anchor_cache:
        found, counts, fenced = set(), {}, False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
                continue
            if fenced:
                continue
            found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = github_slug(m.group(1))
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        _anchor_cache[page] = found
    return _anchor_cache[page]


def check_target(page, anchor, where, failures):
    if not page.is_file():
        failures.append(f"{where}: cites {page.relative_to(ROOT)}, which does not exist")
    elif anchor and anchor not in anchors_of(page):
        failures.append(f"{where}: {page.relative_to(ROOT)} has no anchor #{anchor}")


def main():
    failures = []
    citations = links = 0
    for path, rel in repo_files():
        text = read_text(path)
        if text is None:
            continue
        in_docs = rel.parts[0] == "docs" and path.suffix == ".md"
        citing = not rel.as_posix().startswith(NOT_CITING) and (
            path.suffix in CITING_SUFFIXES or path.name == "CMakeLists.txt")
        for lineno, line in enumerate(text.splitlines(), 1):
            where = f"{rel.as_posix()}:{lineno}"
            m = OUTSIDE_SPEC.search(line)
            if m:
                failures.append(f"{where}: names {m.group(0)}, a file outside the repository; "
                                "cite the contract in docs/ instead")
            if citing:
                for c in CITATION.finditer(line):
                    citations += 1
                    check_target(ROOT / "docs" / c.group(1), c.group(2), where, failures)
            if in_docs:
                for l in MD_LINK.finditer(line):
                    if l.group(1).startswith("docs/"):
                        continue  # a repository path, checked above
                    links += 1
                    target = (path.parent / l.group(1)).resolve()
                    if ROOT not in target.parents:
                        failures.append(f"{where}: links outside the repository: {l.group(1)}")
                        continue
                    check_target(target, l.group(2), where, failures)
    for f in failures:
        print("FAIL " + f)
    print(f"{citations} docs/ citations, {links} links inside docs/, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
