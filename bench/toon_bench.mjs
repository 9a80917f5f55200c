// The JS side of bench/toon_bench.sh: the reference TOON implementation @toon-format/toon
// (pinned in tests/e2e/package.json) and the benchmark input.
//
// node bench/toon_bench.mjs gen <out.json>
//   Writes the input: a uniform array of flat objects (ids, names, emails, booleans, decimals,
//   nulls, enum strings, an occasional string that needs quoting), ≥ 5 MiB of compact JSON,
//   generated from a fixed seed so every run measures the same bytes.
// node bench/toon_bench.mjs run <input.json> <runs> <out.toon> <out.json>
//   Times encode and decode (one warm-up, then `runs` timed runs each) and writes the outputs.
//   Prints one JSON object: encode alone (value already parsed) and JSON.parse + encode;
//   decode alone and decode + JSON.stringify (milliseconds, min and median).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'tests/e2e/node_modules/@toon-format/toon');

function generate(out) {
  let seed = 20251129;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota',
    'kappa', 'lambda', 'mu'];
  const target = 5 * 1024 * 1024;
  const parts = [];
  let size = 2;
  for (let i = 0; size < target; i++) {
    const row = {
      id: i,
      name: `${words[i % 12]} ${words[(i * 7) % 12]}`,
      email: `user${i}@example.com`,
      active: rnd() < 0.5,
      score: Math.round(rnd() * 100000) / 100,
      manager: rnd() < 0.3 ? null : 1000 + Math.floor(rnd() * 50),
      city: words[Math.floor(rnd() * 12)],
      note: rnd() < 0.1 ? 'needs review: yes, soon' : 'ok',
    };
    const text = JSON.stringify(row);
    parts.push(text);
    size += text.length + 1;
  }
  fs.writeFileSync(out, `[${parts.join(',')}]`);
}

function timeRuns(runs, f) {
  f();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    f();
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { min: ms[0], median: ms[Math.floor(ms.length / 2)] };
}

async function run(input, runs, outToon, outJson) {
  const { encode, decode } = await import(path.join(pkgDir, 'dist/index.mjs'));
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  const json = fs.readFileSync(input, 'utf8');
  const value = JSON.parse(json);
  const toon = encode(value);
  const back = JSON.stringify(decode(toon));
  fs.writeFileSync(outToon, toon);
  fs.writeFileSync(outJson, back);
  let sink = 0;
  const encodeOnly = timeRuns(runs, () => { sink += encode(value).length; });
  const parseEncode = timeRuns(runs, () => { sink += encode(JSON.parse(json)).length; });
  const decodeOnly = timeRuns(runs, () => { sink += decode(toon) === null ? 0 : 1; });
  const decodeStringify = timeRuns(runs, () => { sink += JSON.stringify(decode(toon)).length; });
  console.log(JSON.stringify({ version, node: process.version, runs, sink, encodeOnly,
    parseEncode, decodeOnly, decodeStringify }));
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'gen') generate(args[0]);
else if (cmd === 'run') await run(args[0], Number(args[1]), args[2], args[3]);
else {
  console.error('usage: toon_bench.mjs gen <out.json> | run <input.json> <runs> <out.toon> <out.json>');
  process.exit(2);
}
