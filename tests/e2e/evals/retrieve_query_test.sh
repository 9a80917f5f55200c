#!/usr/bin/env bash
# `caveman-engine retrieve <handle> <query>` on a real store: a compressed pretty-printed
# orders array narrows to whole order objects with gap sentinels; a blank query and no query
# return the exact original; an unknown handle exits 1 naming cave_unknown_handle.
set -euo pipefail
engine=${CAVEMAN_BIN_DIR:?}/caveman-engine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAVEMAN_CCR_DB=$tmp/ccr.db

python3 - >"$tmp/orders.json" <<'PY'
import json
orders = [{"id": f"ord-{1000 + i}", "customer": f"customer-{i % 9}",
           "status": "unfulfilled" if i == 23 else "fulfilled", "total": f"{10 + i}.50",
           "items": [{"sku": f"sku-{i}", "qty": 1}]} for i in range(60)]
print(json.dumps({"orders": orders, "page": 1}, indent=2))
PY
"$engine" compress --type json <"$tmp/orders.json" >"$tmp/out.json" 2>"$tmp/report.json"
handle=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["recovery_handle"])' "$tmp/report.json")
[[ $handle == ccr_* ]] || { echo "FAIL: no handle: $(cat "$tmp/report.json")"; exit 1; }

"$engine" retrieve "$handle" >"$tmp/exact.json"
cmp -s "$tmp/exact.json" "$tmp/orders.json" || { echo "FAIL: retrieve is not byte-exact"; exit 1; }
"$engine" retrieve "$handle" "   " >"$tmp/blank.json"
cmp -s "$tmp/blank.json" "$tmp/orders.json" || { echo "FAIL: blank query is not byte-exact"; exit 1; }

"$engine" retrieve "$handle" "unfulfilled" >"$tmp/view.txt"
python3 - "$tmp/view.txt" "$tmp/orders.json" <<'PY'
import json, sys
view, original = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sentinel = "\u2026 [caveman: non-adjacent] \u2026"
assert len(view.encode()) < len(original.encode()), "view not smaller"
parts = view.split("\n\n")
assert parts[0] == sentinel and parts[-1] == sentinel, parts
records = [json.loads(p) for p in parts if p != sentinel]   # every unit parses on its own
assert [r["id"] for r in records] == ["ord-1023"], records
assert records[0]["status"] == "unfulfilled" and records[0]["items"] == [{"sku": "sku-23", "qty": 1}]
print("ok: query view is the one whole order, between sentinels")
PY

set +e
"$engine" retrieve ccr_00000000000000000000000000000000 "x" >"$tmp/none.txt" 2>"$tmp/err.txt"
rc=$?
set -e
[[ $rc == 1 ]] || { echo "FAIL: unknown handle exited $rc"; exit 1; }
grep -q cave_unknown_handle "$tmp/err.txt" || { echo "FAIL: no cave_unknown_handle"; cat "$tmp/err.txt"; exit 1; }
echo "ok: exact retrieve, blank query, unknown handle"
