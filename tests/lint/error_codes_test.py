#!/usr/bin/env python3
"""Every `cave_*` code in the source is registered in docs/errors.md, and every registered code
is still used: a typo cannot silently become a new code, and the registry cannot go stale.

Scans the C++ sources and data files of every component. A spelling that ends in `_` is a
prefix (`cave_native_hooks_…` in a comment), not a code; docs/errors.md's "Not codes" section
lists the other spellings that are not codes; `cave_<tool>_failed` stands for every tool."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPONENTS = ["engine", "proxy", "mcp", "shrink", "browse", "mem", "cli"]
SUFFIXES = {".cpp", ".h", ".json", ".yaml"}
CODE = re.compile(r"\bcave_[a-z0-9_]*[a-z0-9_]")


def used_codes():
    found = {}
    for comp in COMPONENTS:
        for path in sorted((ROOT / comp).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            for lineno, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                for m in CODE.finditer(line):
                    code = m.group(0)
                    if code.endswith("_"):
                        continue
                    found.setdefault(code, f"{path.relative_to(ROOT)}:{lineno}")
    return found


def registry():
    text = (ROOT / "docs/errors.md").read_text()
    head, _, not_codes = text.partition("## Not codes")
    codes = set(re.findall(r"`(cave_[a-z0-9_<>]+)`", head))
    ignored = set(re.findall(r"`(cave_[a-z0-9_]+)`", not_codes))
    return codes, ignored


def main():
    codes, ignored = registry()
    patterns = [re.compile("^" + re.sub(r"<[a-z]+>", "[a-z0-9_]+", c) + "$") for c in codes if "<" in c]
    plain = {c for c in codes if "<" not in c}
    used = used_codes()
    failures = []
    for code, where in sorted(used.items()):
        if code in plain or code in ignored or any(p.match(code) for p in patterns):
            continue
        failures.append(f"{where}: {code} is not registered in docs/errors.md")
    for code in sorted(plain - set(used)):
        failures.append(f"docs/errors.md: {code} is registered but no source uses it")
    for f in failures:
        print("FAIL " + f)
    print(f"{len(used)} spellings in the source, {len(plain)} registered codes, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
