// caveman-proxy under bad input (issue 8): a chunked upload is forwarded byte-exact; an
// upstream that hangs is cut off by CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS with a JSON error
// instead of hanging the client; 1,000 concurrent connections are all answered (bounded
// worker pool + queue, no crash, no reset) and the proxy keeps serving afterwards;
// malformed JSON is forwarded untouched in compress mode.
import http from 'node:http';
import { check, finish } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, recentRows, startProxy } from './harness.mjs';

const mock = await startMockUpstream({ eventDelayMs: 0 });
const proxy = await startProxy({ yaml: providersYaml(mock.url), env: { CAVEMAN_MODE: 'compress', CAVEMAN_RECOVERY: 'mcp' } });
// A second proxy with a short upstream timeout, for the hung upstream.
const impatient = await startProxy({ yaml: providersYaml(mock.url), env: { CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS: '1500' } });
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

// One raw request; `pieces` are written separately without a content-length (chunked).
function send(pathname, pieces, headers = {}, base = proxy.url) {
  return new Promise((resolve) => {
    const req = http.request(`${base}${pathname}`, {
      method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-api03-test', ...headers },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => resolve({ status: 0, error: String(e) }));
    });
    req.on('error', (e) => resolve({ status: 0, error: String(e) }));
    (async () => {
      for (const p of pieces) {
        req.write(p);
        await new Promise((r) => setTimeout(r, 5));
      }
      req.end();
    })();
  });
}

// Chunked upload: the provider receives exactly the bytes, however they were framed.
{
  const body = JSON.stringify({ model: 'claude-mock', max_tokens: 8, messages: [{ role: 'user', content: 'chunked '.repeat(500) }] });
  const before = mock.requests.length;
  const pieces = [body.slice(0, 7), body.slice(7, 1000), body.slice(1000)];
  const r = await send('/v1/messages', pieces);
  check(r.status === 200, `chunked upload: 200 (got ${r.status} ${r.error || ''})`);
  const up = mock.requests[before];
  check(up && up.body.toString('utf8') === body, 'chunked upload: upstream got the exact bytes');
}

// Malformed JSON in compress mode: forwarded untouched, the provider's answer relayed.
{
  const bad = '{"model":"m","messages":[{"role":"user","content":"' + 'x'.repeat(2000) + '"}';
  const before = mock.requests.length;
  const r = await send('/v1/messages', [bad]);
  check(r.status === 200, `malformed JSON: relayed (got ${r.status})`);
  check(mock.requests[before]?.body.toString('utf8') === bad, 'malformed JSON: upstream got the exact bytes');
}

// An upstream that never answers: a bounded wait, then a JSON error.
{
  mock.script(async (record) => record.url.includes('hang=1')); // claims the request, never answers
  const t0 = Date.now();
  const r = await send('/v1/messages?hang=1', ['{"model":"m","messages":[]}'], {}, impatient.url);
  const ms = Date.now() - t0;
  mock.script(null);
  check(r.status >= 500 && r.status < 600, `hung upstream: 5xx (got ${r.status} ${r.error || ''})`);
  check(/cave_gateway_error/.test(r.body || ''), `hung upstream: JSON error envelope: ${r.body}`);
  check(ms < 15000, `hung upstream: answered in ${ms} ms (timeout 1500 ms)`);
  check((await impatient.stop()).code === 0, 'impatient proxy exits 0');
}

// 1,000 concurrent connections.
{
  const before = mock.requests.length;
  const body = JSON.stringify({ model: 'claude-mock', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
  const results = await Promise.all(Array.from({ length: 1000 }, () => send('/v1/messages', [body])));
  const byStatus = {};
  for (const r of results) byStatus[r.status] = (byStatus[r.status] || 0) + 1;
  check((byStatus[200] || 0) === 1000, `1000 concurrent: all answered 200 (${JSON.stringify(byStatus)})`);
  check(mock.requests.length - before === (byStatus[200] || 0), '1000 concurrent: one upstream call per success');
  const live = await fetch(`${proxy.url}/health/live`);
  check(live.status === 200, 'after the burst: still serving');
  const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
  check(/^cave_proxy_inflight_requests 0$/m.test(metrics), `after the burst: nothing in flight\n${metrics}`);
}

const { code } = await proxy.stop();
check(code === 0, `proxy exits 0 (got ${code})`);
const rows = recentRows(proxy.home, 2000);
check(rows.length === 1002, `one usage row per request (got ${rows.length}, want 1002)`);
await mock.close();
finish('caveman-proxy robustness (chunked upload, malformed JSON, hung upstream, 1000 connections)');
