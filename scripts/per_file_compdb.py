#!/usr/bin/env python3
"""Writes a compile database with one entry per source file from a unity build's database.

  scripts/per_file_compdb.py BUILD_DIR OUT_DIR     (writes OUT_DIR/compile_commands.json)

A unity build (CAVEMAN_UNITY_BUILD, docs/architecture.md) lists its batches, not the files in
them; clang-tidy and editors need the files. Each file a batch includes gets the batch's
command with the batch's name replaced by the file's. Entries of files compiled alone are
copied as they are.
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def main():
    build, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    result = []
    for e in entries:
        unity = e["file"]
        if "/Unity/unity_" not in unity:
            result.append(e)
            continue
        with open(unity, encoding="utf-8") as f:
            sources = INCLUDE.findall(f.read())
        for src in sources:
            item = dict(e, file=src)
            if "command" in item:
                item["command"] = item["command"].replace(unity, src)
            if "arguments" in item:
                item["arguments"] = [src if a == unity else a for a in item["arguments"]]
            result.append(item)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
