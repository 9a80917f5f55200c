// MCP 2026-07-28 over stdio against caveman-mcp, cavemem (`cavemem mcp`) and caveman-browse,
// with the spec-written client in ../lib/modern_mcp_client.mjs. Each check names the page and
// section of https://modelcontextprotocol.io/specification/2026-07-28/ it follows.
// HTTP rules: modern_http_test.mjs. Legacy behaviour stays covered by the SDK tests.
import fs from 'node:fs';
import path from 'node:path';
import { bin, check, finish, tempHome } from '../lib/harness.mjs';
import { LEGACY, MODERN, StdioConnection, requestMeta } from '../lib/modern_mcp_client.mjs';

function serverEnv(home) {
  const tmp = path.join(home, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  return { ...process.env, HOME: home, CAVEMAN_HOME: path.join(home, '.caveman'), TMPDIR: tmp };
}

const servers = [
  { name: 'caveman', binary: 'caveman-mcp', args: [] },
  { name: 'cavemem', binary: 'cavemem', args: ['mcp'] },
  { name: 'caveman-browse', binary: 'caveman-browse', args: [] },
];

const elicit = { elicitation: {} };

async function runServer(server) {
  const home = tempHome(`modern-${server.binary}-`);
  const conn = new StdioConnection(bin(server.binary), server.args, serverEnv(home));
  const label = server.binary;
  try {
    // server/discover "Response"; server/utilities/caching "Cacheable Model".
    const d = await conn.request('server/discover');
    const r = d.result ?? {};
    check(r.resultType === 'complete', `${label}: discover resultType ${JSON.stringify(d)}`);
    check(JSON.stringify(r.supportedVersions) === JSON.stringify([MODERN, ...LEGACY]), `${label}: supportedVersions ${r.supportedVersions}`);
    check(r.capabilities && typeof r.capabilities.tools === 'object', `${label}: discover capabilities`);
    check(r.serverInfo?.name === server.name && typeof r.serverInfo?.version === 'string', `${label}: discover serverInfo`);
    check(typeof r.instructions === 'string' && r.instructions.length > 0, `${label}: discover instructions`);
    check(Number.isInteger(r.ttlMs) && r.ttlMs >= 0 && ['public', 'private'].includes(r.cacheScope), `${label}: discover cache hints`);
    // basic/index "Per-response protocol fields": serverInfo in the result's _meta.
    check(r._meta?.['io.modelcontextprotocol/serverInfo']?.name === server.name, `${label}: discover _meta serverInfo`);

    // basic/index "ResultType" + caching "Cacheable Results" + changelog minor 3 (fixed order,
    // identical for every caller).
    const a = (await conn.request('tools/list')).result;
    const b = (await conn.request('tools/list', {}, requestMeta({ capabilities: elicit, clientInfo: { name: 'other', version: '9' } }))).result;
    check(a?.resultType === 'complete' && a.cacheScope === 'public' && Number.isInteger(a.ttlMs), `${label}: tools/list resultType and cache hints`);
    check(a.tools.length >= 4 && JSON.stringify(a.tools) === JSON.stringify(b.tools), `${label}: tools/list identical for every caller`);
    check(a.tools.every((t) => t.inputSchema && t.title), `${label}: tools carry 2026-07-28 fields`);

    // basic/index "Per-request protocol fields": missing required fields → -32602.
    const noCaps = requestMeta();
    delete noCaps['io.modelcontextprotocol/clientCapabilities'];
    check((await conn.request('tools/list', {}, noCaps)).error?.code === -32602, `${label}: missing clientCapabilities → -32602`);
    const noVersion = requestMeta();
    delete noVersion['io.modelcontextprotocol/protocolVersion'];
    check((await conn.request('tools/list', {}, noVersion)).error?.code === -32602, `${label}: missing protocolVersion → -32602`);
    check((await conn.request('server/discover', {}, null)).error?.code === -32602, `${label}: discover without _meta → -32602`);

    // basic/versioning "Protocol Version Negotiation": -32022 with supported/requested.
    const bad = await conn.request('tools/list', {}, requestMeta({ version: '1900-01-01' }));
    check(bad.error?.code === -32022 && bad.error.data?.requested === '1900-01-01' &&
          bad.error.data?.supported?.includes(MODERN), `${label}: unsupported version → -32022 ${JSON.stringify(bad.error)}`);

    // changelog "Major changes" 5 (ping, logging/setLevel removed; resource subscribe
    // methods replaced by subscriptions/listen): -32601.
    for (const m of ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']) {
      check((await conn.request(m)).error?.code === -32601, `${label}: ${m} → -32601`);
    }

    // basic/index "Per-request protocol fields" (-32021): answers to an elicitation from a
    // client that did not declare the capability.
    const toolName = a.tools[0].name;
    const noCap = await conn.request('tools/call', { name: toolName, arguments: {}, inputResponses: { x: { action: 'accept' } } });
    check(noCap.error?.code === -32021 && noCap.error.data?.requiredCapabilities?.elicitation !== undefined,
          `${label}: inputResponses without elicitation → -32021 ${JSON.stringify(noCap.error)}`);
    // basic/patterns/mrtr "Server Requirements" 4: a forged requestState is rejected.
    const forged = await conn.request('tools/call', { name: toolName, arguments: {}, requestState: 'v1.e30.00' }, requestMeta({ capabilities: elicit }));
    check(forged.error?.code === -32602, `${label}: forged requestState → -32602`);

    // tools/call: every result has resultType (an unknown tool is a tool error, not a protocol error).
    const unknown = await conn.request('tools/call', { name: 'no_such_tool', arguments: {} });
    check(unknown.result?.resultType === 'complete' && unknown.result.isError === true, `${label}: tools/call resultType`);

    // basic/versioning "Backward Compatibility": initialize selects legacy rules for this
    // process, and modern requests are still served statelessly next to it.
    const init = await conn.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } }, null);
    check(init.result?.protocolVersion === '2025-11-25', `${label}: legacy initialize`);
    const legacyList = await conn.request('tools/list', {}, null);
    check(legacyList.result && legacyList.result.resultType === undefined && legacyList.result.ttlMs === undefined, `${label}: legacy tools/list unchanged`);
    check((await conn.request('ping', {}, null)).result !== undefined, `${label}: legacy ping still answers`);
    const again = (await conn.request('tools/list')).result;
    check(again?.resultType === 'complete' && JSON.stringify(again.tools) === JSON.stringify(a.tools), `${label}: modern next to legacy`);

    // basic/patterns/mrtr note + changelog 5: no server-initiated requests and no log
    // notifications for requests that did not ask for a log level.
    const unsolicited = conn.lines.filter((m) => m.method !== undefined);
    check(unsolicited.length === 0, `${label}: nothing unsolicited (${JSON.stringify(unsolicited[0])})`);
  } finally {
    await conn.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

// basic/patterns/mrtr "Basic Workflow" with a real tool: caveman_retrieve over max_bytes.
async function mrtrRetrieve() {
  const home = tempHome('modern-mrtr-');
  const conn = new StdioConnection(bin('caveman-mcp'), [], serverEnv(home));
  try {
    const original = Array.from({ length: 400 }, (_, i) => `2026-01-01T00:00:00Z INFO worker=w1 step=${i} status=ok`).join('\n') + '\nERROR disk full\n';
    const c = await conn.request('tools/call', { name: 'caveman_compress', arguments: { input: original } });
    const handle = c.result?.structuredContent?.recovery_handle;
    check(typeof handle === 'string', `compress gave a handle ${JSON.stringify(c.result)}`);
    const args = { recovery_handle: handle, max_bytes: 1000 };
    const quiet = await conn.request('tools/call', { name: 'caveman_retrieve', arguments: args });
    check(quiet.result?.resultType === 'complete' && quiet.result.content[0].text === original, 'mrtr: no elicitation → acts without asking');
    const meta = requestMeta({ capabilities: elicit });
    const ask = (await conn.request('tools/call', { name: 'caveman_retrieve', arguments: args }, meta)).result;
    check(ask?.resultType === 'input_required' && ask.inputRequests?.confirm_size?.method === 'elicitation/create' &&
          typeof ask.requestState === 'string', `mrtr: input_required ${JSON.stringify(ask)}`);
    const accept = { confirm_size: { action: 'accept', content: { return_whole: true } } };
    const done = await conn.request('tools/call', { name: 'caveman_retrieve', arguments: args, inputResponses: accept, requestState: ask.requestState }, meta);
    check(done.result?.resultType === 'complete' && done.result.content[0].text === original, 'mrtr: retry with accept → exact original');
    const tampered = ask.requestState.slice(0, -1) + (ask.requestState.endsWith('0') ? '1' : '0');
    const t = await conn.request('tools/call', { name: 'caveman_retrieve', arguments: args, inputResponses: accept, requestState: tampered }, meta);
    check(t.error?.code === -32602, 'mrtr: tampered requestState → -32602');
    const other = await conn.request('tools/call', { name: 'caveman_retrieve', arguments: { ...args, max_bytes: 999 }, inputResponses: accept, requestState: ask.requestState }, meta);
    check(other.error?.code === -32602, 'mrtr: requestState replayed on other arguments → -32602');
    const keyFile = path.join(home, '.caveman', 'runtime', 'mcp-state.key');
    check(fs.existsSync(keyFile) && (fs.statSync(keyFile).mode & 0o777) === 0o600, 'mrtr: per-install key is 0600');
  } finally {
    await conn.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

for (const s of servers) await runServer(s);
await mrtrRetrieve();
finish('e2e_mcp_modern_stdio');
