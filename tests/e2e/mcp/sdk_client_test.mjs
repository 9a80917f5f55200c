// The official MCP TypeScript SDK client against the real caveman-mcp binary over stdio:
// initialize with 2025-11-25 and with 2024-11-05, listTools, all five tools, and a
// compress → retrieve round trip that must be byte-exact for every corpus file.
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, check, corpusFiles, countTokens, finish, tempHome } from '../lib/harness.mjs';

async function connect(requestVersion) {
  const home = tempHome();
  const transport = new StdioClientTransport({
    command: bin('caveman-mcp'),
    env: { ...process.env, CAVEMAN_HOME: home, HOME: home },
    stderr: 'pipe',
  });
  let negotiated = null;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => { negotiated = v; setVersion?.(v); };
  if (requestVersion) {
    // The SDK always asks for its latest version; rewrite the request to ask for an older one.
    const send = transport.send.bind(transport);
    transport.send = (msg, opts) => {
      if (msg.method === 'initialize') msg.params.protocolVersion = requestVersion;
      return send(msg, opts);
    };
  }
  const client = new Client({ name: 'caveman-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, negotiated: () => negotiated, home };
}

const payload = (result) => JSON.parse(result.content[0].text);

for (const version of [null, '2024-11-05']) {
  const label = version ?? '2025-11-25 (SDK default)';
  const { client, negotiated } = await connect(version);
  check(negotiated() === (version ?? '2025-11-25'), `${label}: negotiated ${negotiated()}`);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(['caveman_compress', 'caveman_retrieve',
    'caveman_stats', 'caveman_toon_decode', 'caveman_toon_encode']), `${label}: tools ${names}`);
  const compress = tools.find((t) => t.name === 'caveman_compress');
  check(version ? compress.outputSchema === undefined : compress.outputSchema !== undefined,
    `${label}: outputSchema presence follows the negotiated version`);

  const stats0 = payload(await client.callTool({ name: 'caveman_stats', arguments: {} }));
  check(stats0.requests === 0 && stats0.basis === 'inferred' && stats0.scope === 'session', `${label}: stats`);
  const enc = await client.callTool({ name: 'caveman_toon_encode', arguments: { input: '{"a":[{"x":1},{"x":2}]}' } });
  check(payload(enc).output === 'a[2]{x}:\n  1\n  2', `${label}: toon encode ${JSON.stringify(payload(enc))}`);
  const dec = await client.callTool({ name: 'caveman_toon_decode', arguments: { input: 'a[2]{x}:\n  1\n  2' } });
  check(payload(dec).output === '{"a":[{"x":1},{"x":2}]}', `${label}: toon decode`);
  const bad = await client.callTool({ name: 'caveman_toon_decode', arguments: { input: 'a[9]{x}:\n  1' } });
  check(bad.isError === true && bad.content[0].text.includes('cave_invalid_toon'), `${label}: invalid toon`);
  const unknown = await client.callTool({ name: 'caveman_retrieve', arguments: { recovery_handle: 'ccr_ffffffffffffffffffffffffffffffff' } });
  check(unknown.isError === true && unknown.content[0].text.includes('cave_unknown_handle'), `${label}: unknown handle`);
  await client.close();
}

// Byte-exact round trip for every corpus file (one session; distinct handles never repeat).
const { client } = await connect(null);
let compressed = 0;
for (const file of corpusFiles()) {
  const input = fs.readFileSync(file.path, 'utf8');
  const result = await client.callTool({ name: 'caveman_compress', arguments: { input } });
  const p = payload(result);
  if (p.recovery_handle === null) {
    check(p.compressed === input, `${file.name}: pass-through must be byte-identical`);
    continue;
  }
  compressed += 1;
  check(p.tokens_after < p.tokens_before, `${file.name}: not smaller`);
  const back = await client.callTool({ name: 'caveman_retrieve', arguments: { recovery_handle: p.recovery_handle } });
  check(back.content.length === 1, `${file.name}: retrieve returns one text item`);
  check(back.content[0].text === input, `${file.name}: retrieve is not byte-exact`);
}
check(compressed >= 20, `only ${compressed} corpus files were compressed`);
const stats = payload(await client.callTool({ name: 'caveman_stats', arguments: {} }));
check(stats.requests === corpusFiles().length, 'stats counts every compress call');

// tools/list budget: the compact JSON of the result object ≤ 1,500 o200k tokens.
const listed = await client.listTools();
const cost = countTokens(JSON.stringify(listed));
check(cost <= 1500, `tools/list costs ${cost} tokens`);
console.log(`tools/list: ${cost} o200k tokens; corpus files compressed: ${compressed}`);
await client.close();
finish('MCP SDK client against caveman-mcp');
