#!/usr/bin/env bash
# TOON codec benchmark → docs/BENCHMARKS.md section `toon`.
#
# usage: bench/toon_bench.sh [bin dir, default build/release/bin]
# Input: a ≥ 5 MiB uniform JSON array of flat objects, generated from a fixed seed by
# bench/toon_bench.mjs. Measured side by side in this one run, single thread, one warm-up then
# several timed runs each (median reported, min alongside): Caveman's toon_encode/toon_decode
# (bench program toon_bench) and the reference implementation @toon-format/toon (node, the
# version pinned in tests/e2e/package.json). The outputs must be byte-identical: the TOON text,
# and the decoded JSON against JSON.stringify of the reference decoder's value.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
runs=${TOON_BENCH_RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

node bench/toon_bench.mjs gen "$work/input.json"
ours=$("$bin/toon_bench" "$work/input.json" "$runs" "$work/cpp.toon" "$work/cpp.json")
ref=$(node bench/toon_bench.mjs run "$work/input.json" "$runs" "$work/js.toon" "$work/js.json")
toon_same=no
json_same=no
cmp -s "$work/cpp.toon" "$work/js.toon" && toon_same=yes
cmp -s "$work/cpp.json" "$work/js.json" && json_same=yes
input_same=no
cmp -s "$work/cpp.json" "$work/input.json" && input_same=yes
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
load=$(cut -d' ' -f1 /proc/loadavg)

python3 - "$ours" "$ref" "$toon_same" "$json_same" "$input_same" "$cpu" "$load" \
  >"$work/section.md" <<'PY'
import json, sys
ours, ref = json.loads(sys.argv[1]), json.loads(sys.argv[2])
toon_same, json_same, input_same = (sys.argv[i] == "yes" for i in (3, 4, 5))
cpu, load = sys.argv[6], sys.argv[7]
mib = 1024 * 1024
jb, tb = ours["json_bytes"], ours["toon_bytes"]
def mbs(nbytes, ms): return nbytes / mib / (ms / 1000)
enc, dec = ours["encode_ms_median"], ours["decode_ms_median"]
js_enc, js_enc_parse = ref["encodeOnly"]["median"], ref["parseEncode"]["median"]
js_dec, js_dec_str = ref["decodeOnly"]["median"], ref["decodeStringify"]["median"]
enc_x, dec_x = js_enc / enc, js_dec / dec
ok = enc_x >= 2 and dec_x >= 2 and toon_same and json_same
print(f"""### TOON encode / decode

Input: a uniform array of flat objects, {jb} bytes of compact JSON ({jb / mib:.2f} MiB,
generated from a fixed seed by `bench/toon_bench.mjs`); its TOON is {tb} bytes
({100 * tb / jb:.1f}% of the JSON). Single thread, one warm-up then {ours['runs']} timed runs
each, median (min in brackets), all measured in one run of `bench/toon_bench.sh` on {cpu}
(1-minute load average {load} when the run ended: absolute times are only comparable within
one run). Reference: `@toon-format/toon` {ref['version']} (the TOON 3.3 implementation) on node
{ref['node']}.

| codec | encode (JSON → TOON) | decode (TOON → JSON) |
| --- | ---: | ---: |
| Caveman `toon_encode` / `toon_decode` (text in, text out) | {enc:.1f} ms ({ours['encode_ms_min']:.1f}) = {mbs(jb, enc):.1f} MiB/s | {dec:.1f} ms ({ours['decode_ms_min']:.1f}) = {mbs(tb, dec):.1f} MiB/s |
| `@toon-format/toon` `encode(value)` / `decode(text)` (no JSON text step) | {js_enc:.1f} ms ({ref['encodeOnly']['min']:.1f}) = {mbs(jb, js_enc):.1f} MiB/s | {js_dec:.1f} ms ({ref['decodeOnly']['min']:.1f}) = {mbs(tb, js_dec):.1f} MiB/s |
| `@toon-format/toon` with `JSON.parse` / `JSON.stringify` | {js_enc_parse:.1f} ms ({ref['parseEncode']['min']:.1f}) | {js_dec_str:.1f} ms ({ref['decodeStringify']['min']:.1f}) |

Caveman is **{enc_x:.1f}×** the reference's speed at encoding and **{dec_x:.1f}×** at decoding,
counting Caveman's JSON parsing and writing but not the reference's (with them:
{js_enc_parse / enc:.1f}× and {js_dec_str / dec:.1f}×). Target ≥ 2× both ways:
{'met' if enc_x >= 2 and dec_x >= 2 else 'NOT met'}.

Byte-identical output: TOON text {'identical' if toon_same else 'DIFFERENT'} to the reference's
`encode`; decoded JSON {'identical' if json_same else 'DIFFERENT'} to `JSON.stringify` of the
reference's `decode` (and {'identical' if input_same else 'different'} to the input JSON).
Overall: {'PASS' if ok else 'FAIL'}.""")
PY
bench/update_section.py toon <"$work/section.md"
echo "bench: toon section written" >&2
if [[ $toon_same != yes || $json_same != yes ]]; then
  echo "bench: toon outputs differ from the reference" >&2
  exit 1
fi
