// MCP 2026-07-28 Streamable HTTP against `caveman-mcp --http` (the only one of the three
// servers with an HTTP transport), with the spec-written client in
// ../lib/modern_mcp_client.mjs. Each check names its section of
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// unless it says otherwise. Legacy sessions stay covered by http_conformance_test.sh; a
// legacy session here checks they still work next to modern requests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, check, finish, tempHome } from '../lib/harness.mjs';
import { MODERN, encodeHeaderValue, httpPost, modernBody, requestMeta } from '../lib/modern_mcp_client.mjs';

const home = tempHome('modern-http-');
const env = { ...process.env, HOME: home, CAVEMAN_HOME: path.join(home, '.caveman') };
const server = spawn(bin('caveman-mcp'), ['--http', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolve, reject) => {
  let err = '';
  const t = setTimeout(() => reject(new Error(`no listen line: ${err}`)), 15000);
  server.stderr.on('data', (d) => {
    err += d;
    const m = err.match(/listening on (http:\/\/\S+)/);
    if (m) { clearTimeout(t); resolve(m[1]); }
  });
});

try {
  let id = 1;
  // "Sending Messages" + server/discover: a request → 200 JSON; no session id minted.
  const d = await httpPost(url, modernBody(id++, 'server/discover'));
  check(d.status === 200 && d.body?.result?.resultType === 'complete' && d.body.result.supportedVersions[0] === MODERN, `discover 200 ${d.status}`);
  check(d.headers.get('mcp-session-id') === null, 'no Mcp-Session-Id on modern replies ("Earlier Streamable HTTP Revisions")');
  const list = await httpPost(url, modernBody(id++, 'tools/list'));
  check(list.status === 200 && list.body.result.cacheScope === 'public' && Number.isInteger(list.body.result.ttlMs), 'tools/list cache hints');

  // "Server Validation": missing / mismatched / invalid headers → 400 + -32020.
  const call = modernBody(id++, 'tools/call', { name: 'caveman_stats', arguments: {} });
  const cases = {
    'missing Mcp-Method': { 'Mcp-Method': undefined },
    'missing MCP-Protocol-Version': { 'MCP-Protocol-Version': undefined },
    'missing Mcp-Name': { 'Mcp-Name': undefined },
    'mismatched Mcp-Method': { 'Mcp-Method': 'tools/list' },
    'mismatched Mcp-Name': { 'Mcp-Name': 'caveman_compress' },
    'mismatched MCP-Protocol-Version': { 'MCP-Protocol-Version': '2025-11-25' },
    'invalid base64 Mcp-Name': { 'Mcp-Name': '=?base64?***?=' },
  };
  for (const [label, headers] of Object.entries(cases)) {
    const r = await httpPost(url, call, headers);
    check(r.status === 400 && r.body?.error?.code === -32020, `${label} → 400 -32020 (got ${r.status} ${JSON.stringify(r.body)})`);
  }
  const ok = await httpPost(url, call);
  check(ok.status === 200 && ok.body?.result?.resultType === 'complete', `matching headers → 200 ${ok.status}`);
  // "Value Encoding": a non-ASCII Mcp-Name in the =?base64?…?= form is decoded before comparing.
  const uname = 'caveman_stäts';
  const enc = await httpPost(url, modernBody(id++, 'tools/call', { name: uname, arguments: {} }));
  check(encodeHeaderValue(uname).startsWith('=?base64?') && enc.status === 200 && enc.body?.result?.isError === true,
        `base64 Mcp-Name decoded and matched (unknown tool → tool error) ${enc.status}`);
  const encWrong = await httpPost(url, modernBody(id++, 'tools/call', { name: uname, arguments: {} }), { 'Mcp-Name': encodeHeaderValue('caveman_stats') });
  check(encWrong.status === 400 && encWrong.body?.error?.code === -32020, 'base64 Mcp-Name that decodes to another name → -32020');

  // "Protocol Version Header": unsupported version → 400 + -32022; unknown method → 404 + -32601.
  const old = await httpPost(url, modernBody(id++, 'tools/list', {}, requestMeta({ version: '1900-01-01' })));
  check(old.status === 400 && old.body?.error?.code === -32022 && old.body.error.data?.supported?.includes(MODERN), `unsupported version → 400 -32022 ${old.status}`);
  const nf = await httpPost(url, modernBody(id++, 'ping'));
  check(nf.status === 404 && nf.body?.error?.code === -32601, `removed method → 404 -32601 ${nf.status}`);
  // basic/index "Per-request protocol fields": missing field → 400 + -32602; missing capability → 400 + -32021.
  const noMeta = await httpPost(url, modernBody(id++, 'tools/list', {}, null), { 'MCP-Protocol-Version': MODERN });
  check(noMeta.status === 400 && noMeta.body?.error?.code === -32602, `missing _meta → 400 -32602 ${noMeta.status}`);
  const noCap = await httpPost(url, modernBody(id++, 'tools/call', { name: 'caveman_stats', arguments: {}, inputResponses: { a: {} } }));
  check(noCap.status === 400 && noCap.body?.error?.code === -32021, `missing capability → 400 -32021 ${noCap.status}`);
  // "Sending Messages" 5: a notification → 202, no body.
  const note = await httpPost(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: requestMeta() } });
  check(note.status === 202, `notification → 202 (${note.status})`);
  // "Receiving Messages": a request that asked for a log level gets a per-request SSE stream
  // that ends with the response.
  const sse = await httpPost(url, modernBody(id++, 'tools/list', {}, requestMeta({ extra: { 'io.modelcontextprotocol/logLevel': 'info' } })));
  check(sse.status === 200 && sse.contentType.startsWith('text/event-stream') && sse.body?.result?.resultType === 'complete', `SSE reply ${sse.contentType}`);
  // "Security & Endpoint": a foreign Origin → 403.
  const foreign = await httpPost(url, modernBody(id++, 'tools/list'), { Origin: 'http://evil.example' });
  check(foreign.status === 403, `foreign Origin → 403 (${foreign.status})`);

  // "Earlier Streamable HTTP Revisions": legacy sessions keep working next to modern requests.
  const legacyHeaders = { 'Mcp-Method': undefined, 'MCP-Protocol-Version': undefined };
  const init = await httpPost(url, { jsonrpc: '2.0', id: id++, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'l', version: '1' } } }, legacyHeaders);
  const sid = init.headers.get('mcp-session-id');
  check(init.status === 200 && sid, 'legacy initialize mints a session');
  const legacyList = await httpPost(url, { jsonrpc: '2.0', id: id++, method: 'tools/list' }, { ...legacyHeaders, 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
  check(legacyList.status === 200 && legacyList.body.result.resultType === undefined, 'legacy tools/list unchanged');
  const del = await fetch(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
  check(del.status === 200, 'legacy DELETE ends the session');
  const get = await fetch(url, { method: 'GET' });
  check(get.status === 405, 'GET → 405');
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  fs.rmSync(home, { recursive: true, force: true });
}
finish('e2e_mcp_modern_http');
