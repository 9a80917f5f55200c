// The JS peers on the same input as tokens_bench: gpt-tokenizer@4.0.0 (countTokens and encode)
// and js-tiktoken@1.0.21 (encode), o200k_base, single thread, best of N runs, by wall clock and
// by process CPU time (process.cpuUsage: all of node's threads, GC and JIT included).
// usage: node bench/tokens_bench.mjs <file> [runs]   (prints one JSON object)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/e2e/package.json'));
const gpt = require('gpt-tokenizer/encoding/o200k_base');
const { Tiktoken } = require('js-tiktoken/lite');
const o200kModule = require('js-tiktoken/ranks/o200k_base');
const o200k = o200kModule.default ?? o200kModule;

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 3);
const buf = fs.readFileSync(file);
const text = buf.toString('utf8');
const mb = buf.length / 1e6;

function best(n, f) {
  let bestMs = Infinity;
  let bestCpuMs = Infinity;
  let result;
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = f();
    bestMs = Math.min(bestMs, performance.now() - t0);
    const c = process.cpuUsage(c0);
    bestCpuMs = Math.min(bestCpuMs, (c.user + c.system) / 1000);
  }
  return { mbPerS: mb / (bestMs / 1000), cpuMbPerS: mb / (bestCpuMs / 1000), result };
}

const none = { disallowedSpecial: new Set() };
const gptCount = best(runs, () => gpt.countTokens(text, none));
const gptEncode = best(runs, () => gpt.encode(text, none).length);
const tiktoken = new Tiktoken(o200k);
const jsTiktoken = best(Math.min(runs, 2), () => tiktoken.encode(text, [], []).length);
const entry = (b) => ({ mb_s: +b.mbPerS.toFixed(2), cpu_mb_s: +b.cpuMbPerS.toFixed(2), tokens: b.result });
console.log(JSON.stringify({
  bytes: buf.length,
  gpt_tokenizer_count: entry(gptCount),
  gpt_tokenizer_encode: entry(gptEncode),
  js_tiktoken_encode: entry(jsTiktoken),
}));
