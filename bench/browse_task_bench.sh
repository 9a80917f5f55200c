#!/usr/bin/env bash
# Whole browsing tasks, caveman-browse vs @playwright/mcp → docs/BENCHMARKS.md section
# `browse-tasks`.
#
# usage: bench/browse_task_bench.sh [bin dir, default build/release/bin]
# One run of bench/browse_task_bench.mjs: six scripted tasks on loopback pages
# (tests/testdata/browse/task_*.html) through the official SDK client against both servers,
# same Chromium; per task tool calls, o200k tokens of every tool result, success, wall time.
# Exit 1 when a target of issue 26 is missed (the section is written anyway, marked).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

node bench/browse_task_bench.mjs "$bin" >"$work/result.json"
load=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/result.json" "$load" >"$work/section.md" <<'PY' || true
import json, sys
res = json.load(open(sys.argv[1]))
load = sys.argv[2]
rows = res["rows"]
mark = lambda cond: "✓" if cond else "✗ MISSED"
ok = lambda r: "yes" if r["ok"] else "NO (" + ", ".join(r["failed"] or ["final check"]) + ")"
out = ["## caveman-browse vs @playwright/mcp over whole tasks\n"]
out.append(
    f"Six scripted multi-step tasks on local pages (`tests/testdata/browse/task_*.html`, served on 127.0.0.1), "
    f"played step by step against caveman-browse and `@playwright/mcp` {res['playwright_mcp']} through the official "
    f"MCP SDK client, same browser ({res['chrome']}, headless). The same steps on both sides, each done the way an "
    "agent would with that server's tools and knowing only what the results told it: a control's uid/ref is taken "
    "from the results seen on the page, else found with one focused look-up (caveman `browser_snapshot {query}`, "
    "Playwright `browser_find {text}`); opening a page is caveman `browser_snapshot {url}` (with `query` when the step "
    "says what it looks for) and Playwright `browser_navigate` (its snapshot goes to a file) + `browser_snapshot` "
    "(or `browser_find`); clicks, typing, selects, waits and dialogs are each server's own tools (caveman answers "
    "dialogs itself). Tokens: o200k_base tokens of the text of every tool result (what the agent reads). Success: "
    "every step succeeded and the task's final check (a JavaScript expression through each server's eval tool, not "
    f"counted) holds. Produced by `bench/browse_task_bench.sh` (`make bench`); load average during the run: {load}.\n")
out.append("| task | steps | caveman calls | caveman tokens | Playwright calls | Playwright tokens | caveman / Playwright | caveman ok | Playwright ok | caveman time | Playwright time |")
out.append("|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|")
tc = tp = cc = cp = 0
for r in rows:
    c, p = r["caveman"], r["playwright"]
    tc, tp, cc, cp = tc + c["tokens"], tp + p["tokens"], cc + c["calls"], cp + p["calls"]
    out.append(f"| {r['label']} (`{r['name']}`) | {r['steps']} | {c['calls']} | {c['tokens']:,} | {p['calls']} | {p['tokens']:,} | "
               f"{c['tokens'] / p['tokens']:.2f}× | {ok(c)} | {ok(p)} | {c['ms']:,} ms | {p['ms']:,} ms |")
out.append(f"| **all tasks** | | {cc} | {tc:,} | {cp} | {tp:,} | {tc / tp:.2f}× | | | | |")
out.append("")
out.append("Targets (issue 26):\n")
out.append(f"- caveman total ≤ 0.5× Playwright's ({tc:,} vs {tp:,}: {tc / tp:.2f}×) {mark(tc <= 0.5 * tp)}")
worst = max(rows, key=lambda r: r["caveman"]["tokens"] / r["playwright"]["tokens"])
out.append(f"- never more than Playwright on a task (highest: `{worst['name']}`, "
           f"{worst['caveman']['tokens'] / worst['playwright']['tokens']:.2f}×) "
           f"{mark(all(r['caveman']['tokens'] <= r['playwright']['tokens'] for r in rows))}")
out.append(f"- every task succeeds on caveman-browse {mark(all(r['caveman']['ok'] for r in rows))}; "
           f"on Playwright: {'all' if all(r['playwright']['ok'] for r in rows) else 'see the table'}")
out.append("")
out.append("Where the difference comes from: caveman's `browser_act` answers with the change in the view (added, "
           "removed, changed lines with uids), so no snapshot is needed after an action; Playwright 0.0.x answers an "
           "action with the code it ran and a link to a snapshot file, so the agent looks up the next control or the "
           "outcome with `browser_find` (or reads a whole snapshot). Wall times are one run on a busy shared machine, "
           "only indicative; caveman's include reading the page's tree after every action.")
print("\n".join(out))
PY
test -s "$work/section.md"
bench/update_section.py browse-tasks <"$work/section.md"
if grep -q 'MISSED' "$work/section.md"; then
  echo "browse_task_bench: a target was missed (see docs/BENCHMARKS.md section browse-tasks)" >&2
  exit 1
fi
