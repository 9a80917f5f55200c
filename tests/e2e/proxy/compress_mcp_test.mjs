// Acceptance 2 (issue 8): compress mode with CAVEMAN_RECOVERY=mcp. A Messages request whose
// latest tool_result holds a corpus log arrives upstream smaller, carrying a <<ccr:HANDLE>>
// marker that `caveman-engine retrieve HANDLE` (same CAVEMAN_HOME) resolves to the exact
// original; the next turn (history + a new tool_result holding a corpus JSON file, streamed)
// reaches the provider with a byte-identical prefix, and its own live block is compressed.
// Also: x-caveman-bypass forces record bytes, and a tiny tool result stays untouched.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, check, corpusDir, finish } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, recentRows, startProxy } from './harness.mjs';

const manifest = fs.readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1)
  .map((l) => l.split('\t'))
  .map(([file, kind, , , , mustKeep]) => ({ file, kind, mustKeep: (mustKeep || '').split(' ;; ').filter(Boolean) }));
const entry = (name) => manifest.find((m) => m.file.endsWith(name));
const LOG = entry('log-leveldb-build-error.log');
const JSONF = entry('json-npm-view-express.json');
const logText = fs.readFileSync(path.join(corpusDir, LOG.file), 'utf8');
const jsonText = fs.readFileSync(path.join(corpusDir, JSONF.file), 'utf8');

const mock = await startMockUpstream();
const proxy = await startProxy({
  yaml: providersYaml(mock.url),
  env: { CAVEMAN_MODE: 'compress', CAVEMAN_RECOVERY: 'mcp' },
});

async function post(body, headers = {}) {
  const before = mock.requests.length;
  const res = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-api03-dummy', 'anthropic-version': '2023-06-01', ...headers },
    body,
  });
  const text = await res.text();
  return { res, text, upstream: mock.requests[before] };
}

const markers = (s) => [...s.matchAll(/<<ccr:(ccr_[A-Za-z0-9_-]+)>>/g)].map((m) => m[1]);
function retrieve(handle) {
  return execFileSync(bin('caveman-engine'), ['retrieve', handle], {
    env: { PATH: process.env.PATH, HOME: proxy.home, CAVEMAN_HOME: proxy.home }, maxBuffer: 64 << 20,
  }).toString('utf8');
}

// Turn 1: the user asks, the assistant called Read, the latest user message holds the log.
const turn1 = [
  { role: 'user', content: 'Why does the leveldb build fail? Find the compiler error.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/build/error.log' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: logText }] },
];
const head = '{"model":"claude-mock","max_tokens":256,"messages":';
const body1 = head + JSON.stringify(turn1) + '}';
const r1 = await post(body1);
check(r1.res.status === 200, `turn 1 status ${r1.res.status}: ${r1.text.slice(0, 200)}`);
const up1 = r1.upstream.body.toString('utf8');
check(r1.upstream.body.length < Buffer.byteLength(body1), `turn 1 smaller upstream (${r1.upstream.body.length} < ${Buffer.byteLength(body1)})`);
const h1 = markers(up1);
check(h1.length === 1, `turn 1 carries one marker (got ${h1.length})`);
check(r1.res.headers.get('x-caveman-recovery-handle') === h1[0], 'x-caveman-recovery-handle names the marker');
check(Number(r1.res.headers.get('x-caveman-tokens-after')) < Number(r1.res.headers.get('x-caveman-tokens-before')),
  'x-caveman-tokens-after < before');
let sent1;
try {
  sent1 = JSON.parse(up1);
} catch (e) {
  check(false, `turn 1 upstream body is JSON: ${e}`);
}
if (sent1) {
  const block = sent1.messages[2].content[0].content;
  check(block.endsWith(`\n<<ccr:${h1[0]}>>`), 'replacement ends with the marker on its own line');
  for (const k of LOG.mustKeep) check(block.includes(k), `compressed log keeps ${JSON.stringify(k)}`);
  check(JSON.stringify(sent1.messages.slice(0, 2)) === JSON.stringify(turn1.slice(0, 2)), 'earlier messages unchanged');
}
// Everything outside the replaced string literal is byte-identical.
const lit1 = JSON.stringify(logText);
const at = body1.indexOf(lit1);
check(up1.startsWith(body1.slice(0, at)) && up1.endsWith(body1.slice(at + lit1.length)), 'bytes around the block untouched');
if (h1[0]) check(retrieve(h1[0]) === logText, 'caveman-engine retrieve returns the exact original log');

// Turn 2: history + the assistant's answer + a new tool_result (JSON), streamed.
const turn2 = [
  ...turn1,
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'npm view express@4.21.2 --json' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: jsonText }] },
];
const body2 = head + JSON.stringify(turn2).slice(0, -1) + '],"stream":true}';
check(body2.startsWith(body1.slice(0, -2)), 'client turn 2 extends turn 1');
const r2 = await post(body2);
check(r2.res.status === 200 && r2.text.includes('event: message_stop'), `turn 2 streamed (${r2.res.status})`);
const up2 = r2.upstream.body.toString('utf8');
const prefix1 = up1.slice(0, -2); // up1 without the closing "]}"
check(up2.startsWith(prefix1), 'turn 2 upstream starts with turn 1 upstream bytes (byte-identical prefix)');
const h2 = markers(up2);
check(h2.length === 2 && h2[0] === h1[0], `turn 2: old marker re-sent + one new (got ${h2})`);
check(r2.upstream.body.length < Buffer.byteLength(body2), 'turn 2 smaller upstream');
if (h2[1]) check(retrieve(h2[1]) === jsonText, 'caveman-engine retrieve returns the exact original JSON');
const sent2 = JSON.parse(up2);
const jsonBlock = sent2.messages[4].content[0].content;
// The JSON compressor emits compact JSON: the manifest's pretty-printed pairs match without the space.
for (const k of JSONF.mustKeep) {
  check(jsonBlock.includes(k) || jsonBlock.includes(k.replace(/": /g, '":')), `compressed JSON keeps ${JSON.stringify(k)}`);
}

// Turn 2 again (a client retry): the whole body is byte-identical to the first send.
const r2b = await post(body2);
check(Buffer.compare(r2b.upstream.body, r2.upstream.body) === 0, 'repeated turn 2 is byte-identical upstream');

// Bypass header: record behaviour for that request; the header itself is not forwarded.
const r3 = await post(body1, { 'x-caveman-bypass': '1' });
check(Buffer.compare(r3.upstream.body, Buffer.from(body1)) === 0, 'x-caveman-bypass: upstream got the exact client bytes');
check(r3.upstream.headers['x-caveman-bypass'] === undefined, 'x-caveman-bypass stripped');

// A small tool result (< 512 bytes) is not a candidate.
const small = head + JSON.stringify([turn1[0], turn1[1], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok\n'.repeat(50) }] }]) + '}';
const r4 = await post(small);
check(Buffer.compare(r4.upstream.body, Buffer.from(small)) === 0, 'small tool result forwarded byte-exact');

const { code } = await proxy.stop();
check(code === 0, `proxy exits 0 (got ${code})`);
const rows = recentRows(proxy.home).reverse();
check(rows.length === 5, `5 usage rows (got ${rows.length})`);
if (rows[0]) {
  check(rows[0].compression_tokens_before > rows[0].compression_tokens_after, 'row 1 has before > after');
  check(rows[0].recovery_handle === h1[0], `row 1 recovery_handle ${rows[0].recovery_handle}`);
}
if (rows[1]) check(rows[1].stream === 1 || rows[1].stream === true, 'row 2 is a stream');
await mock.close();
fs.rmSync(proxy.home, { recursive: true, force: true });
console.log(`turn 1: ${Buffer.byteLength(body1)} → ${r1.upstream.body.length} bytes; turn 2: ${Buffer.byteLength(body2)} → ${r2.upstream.body.length} bytes`);
finish('caveman-proxy compress mode with MCP recovery');
