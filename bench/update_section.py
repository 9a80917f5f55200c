#!/usr/bin/env python3
"""Replace one marked section of docs/BENCHMARKS.md with new content.

usage: bench/update_section.py NAME [FILE] < content.md   (FILE defaults to docs/BENCHMARKS.md)
The section is delimited by <!-- BEGIN NAME --> and <!-- END NAME -->; it is appended at the
end of the file when absent. The file is rewritten atomically (temp file + rename). Empty
content (a bench that failed) leaves the file unchanged and exits 1.
"""
import os
import sys

name = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = os.path.join(root, sys.argv[2]) if len(sys.argv) > 2 else os.path.join(root, "docs", "BENCHMARKS.md")
content = sys.stdin.read().rstrip("\n") + "\n"
if not content.strip():  # a bench that failed wrote nothing: keep the section it had
    sys.exit(f"update_section: no content for section {name}; {os.path.relpath(path, root)} unchanged")
begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
doc = ""
if os.path.exists(path):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
block = f"{begin}\n{content}{end}"
if begin in doc and end in doc:
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    doc = head + block + tail
else:
    doc = doc.rstrip("\n") + "\n\n" + block + "\n"
tmp = path + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(doc)
os.replace(tmp, path)
