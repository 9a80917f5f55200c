// caveman-proxy in front of an https:// upstream, the path every hosted provider takes: the
// real @anthropic-ai/sdk through the proxy to a TLS stand-in whose certificate is trusted
// through SSL_CERT_FILE (the OpenSSL default store the proxy uses). JSON and SSE answers
// arrive byte-exact with usage rows, over one kept-alive TLS connection. The certificate is
// verified: an untrusted certificate and a certificate for another name are refused with
// cave_upstream_tls (502, one attempt) before a single request byte reaches the upstream.
// Behind an outbound proxy (HTTPS_PROXY, NO_PROXY): one CONNECT tunnel per connection with
// the proxy's credentials on the CONNECT only; a refused CONNECT is 502 cave_upstream_proxy.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { check, finish, tempHome } from '../lib/harness.mjs';
import { startConnectProxy } from '../lib/connect_proxy.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, recentRows, recordingFetch, startProxy } from './harness.mjs';

const dir = tempHome('caveman-tls-e2e-');

// A self-signed certificate for `subjectAltName`, written as PEM files under dir.
function makeCertificate(name, subjectAltName) {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=${subjectAltName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl req failed: ${r.stderr}`);
  return { certPath: cert, tls: { key: fs.readFileSync(key), cert: fs.readFileSync(cert) } };
}

const loopback = makeCertificate('caveman-test-loopback', 'IP:127.0.0.1');
const otherName = makeCertificate('caveman-test-other', 'DNS:other.test');
const user = [{ role: 'user', content: 'Say hello over TLS. ' + 'x'.repeat(1000) }];

// A trusted certificate for the address the proxy dials: JSON and a stream, byte-exact.
{
  const mock = await startMockUpstream({ tls: loopback.tls });
  check(mock.url.startsWith('https://127.0.0.1:'), `the stand-in serves https (${mock.url})`);
  const proxy = await startProxy({ yaml: providersYaml(mock.url), env: { SSL_CERT_FILE: loopback.certPath } });
  const sdkLog = [];
  const anthropic = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-ant-test-key', fetch: recordingFetch(sdkLog), maxRetries: 0 });
  try {
    const m = await anthropic.messages.create({ model: 'claude-mock', max_tokens: 64, messages: user });
    check(m.content[0].text === 'Hello from the mock upstream', 'JSON answer over TLS');
    const stream = await anthropic.messages.create({ model: 'claude-mock', max_tokens: 64, messages: user, stream: true });
    const types = [];
    for await (const ev of stream) types.push(ev.type);
    check(types[types.length - 1] === 'message_stop', `SSE answer over TLS (${types})`);
  } catch (e) {
    check(false, `SDK call through the proxy to the TLS upstream threw: ${e.stack || e}`);
  }
  check(mock.requests.length === 2, `the upstream received 2 requests (got ${mock.requests.length})`);
  // Both requests rode one TLS connection: a handshake per request would cost a round trip.
  check(mock.connections === 1, `one kept-alive TLS connection for both requests (got ${mock.connections})`);
  for (let i = 0; i < Math.min(2, mock.requests.length, sdkLog.length); i++) {
    const sent = mock.requests[i];
    check(sent.body.equals(sdkLog[i].requestBody), `request ${i}: upstream got the SDK's exact bytes`);
    const received = await sdkLog[i].responseBytes;
    check(received.equals(mock.responseBytes(sent)), `request ${i}: SDK got the upstream's exact bytes`);
  }
  await proxy.stop();
  const rows = recentRows(proxy.home);
  check(rows.length === 2, `two usage rows (got ${rows.length})`);
  await mock.close();
}

// Refused certificates: nothing reaches the upstream, the client gets a clear 502.
async function expectRefused(label, tls, certFile, cause) {
  const mock = await startMockUpstream({ tls });
  const proxy = await startProxy({ yaml: providersYaml(mock.url), env: certFile ? { SSL_CERT_FILE: certFile } : {} });
  const res = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-key', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-mock', max_tokens: 8, messages: user }),
  });
  const text = await res.text();
  check(res.status === 502, `${label}: 502 (got ${res.status})`);
  check(text.includes('cave_upstream_tls'), `${label}: error names cave_upstream_tls: ${text}`);
  check(text.includes(cause), `${label}: the message says why (${cause}): ${text}`);
  check(mock.connections === 1, `${label}: one connection, not retried (got ${mock.connections})`);
  check(mock.requests.length === 0, `${label}: no request reached the upstream`);
  await proxy.stop();
  check(proxy.stderr().includes('cave_upstream_tls'), `${label}: the proxy's log names the cause`);
  await mock.close();
}
// The system store does not know the self-signed certificate.
await expectRefused('untrusted certificate', loopback.tls, null, 'self-signed certificate');
// Trusted, but issued for other.test, not 127.0.0.1.
await expectRefused('certificate for another name', otherName.tls, otherName.certPath, 'does not name 127.0.0.1');

// Behind an outbound proxy (HTTPS_PROXY with Basic credentials): the request goes through
// one CONNECT tunnel, TLS end to end inside it; the credentials go to the proxy only. The
// proxy is given by name (`localhost`), resolved by caveman-proxy itself.
async function postMessages(proxy) {
  const res = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-key', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-mock', max_tokens: 8, messages: user }),
  });
  return { status: res.status, text: await res.text() };
}
{
  const mock = await startMockUpstream({ tls: loopback.tls });
  const outbound = await startConnectProxy({ user: 'alice', password: 's@cret' });
  const env = { SSL_CERT_FILE: loopback.certPath, HTTPS_PROXY: `http://alice:s%40cret@localhost:${outbound.port}` };
  const proxy = await startProxy({ yaml: providersYaml(mock.url), env });
  for (let i = 0; i < 2; i++) {
    const r = await postMessages(proxy);
    check(r.status === 200 && r.text.includes('Hello from the mock upstream'), `via HTTPS_PROXY, call ${i}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  check(outbound.connects.length === 1, `one CONNECT for two calls (got ${outbound.connects.length})`);
  const c = outbound.connects[0] ?? {};
  check(c.target === `127.0.0.1:${mock.port}`, `CONNECT names the upstream (${c.target})`);
  check(c.authorization === 'Basic ' + Buffer.from('alice:s@cret').toString('base64'), 'CONNECT carries the decoded credentials');
  check(mock.requests.length === 2 && mock.requests.every((r) => !('proxy-authorization' in r.headers)),
    'the provider never sees the proxy credentials');
  await proxy.stop();
  check(!proxy.stderr().includes('s@cret') && !proxy.stderr().includes('s%40cret'), 'the password is not logged');

  // NO_PROXY names the upstream: dialled directly.
  const direct = await startProxy({ yaml: providersYaml(mock.url), env: { ...env, NO_PROXY: 'localhost,127.0.0.1' } });
  const before = outbound.connects.length;
  const r = await postMessages(direct);
  check(r.status === 200, `NO_PROXY: direct call ${r.status}`);
  check(outbound.connects.length === before, 'NO_PROXY: no CONNECT');
  await direct.stop();

  // Wrong credentials: the proxy's 407 is a clear 502, not the provider's answer.
  const refused = await startProxy({ yaml: providersYaml(mock.url),
    env: { ...env, HTTPS_PROXY: `http://alice:wrong@127.0.0.1:${outbound.port}` } });
  const connectsBefore = outbound.connects.length;
  const bad = await postMessages(refused);
  check(bad.status === 502 && bad.text.includes('cave_upstream_proxy') && bad.text.includes('407') &&
    bad.text.includes('refused the credentials'),
    `wrong proxy credentials: 502 cave_upstream_proxy naming the 407 (${bad.status} ${bad.text})`);
  check(outbound.connects.length === connectsBefore + 1, 'a refused CONNECT is not retried');
  await refused.stop();
  check(!refused.stderr().includes('wrong'), 'the refused password is not logged');

  // An unreachable outbound proxy: retried, then a 502 that names the proxy.
  const gone = await startConnectProxy();
  const gonePort = gone.port;
  await gone.close();
  const noProxy = await startProxy({ yaml: providersYaml(mock.url), env: { ...env, HTTPS_PROXY: `http://127.0.0.1:${gonePort}` } });
  const down = await postMessages(noProxy);
  check(down.status === 502, `unreachable proxy: 502 (${down.status})`);
  await noProxy.stop();
  check(noProxy.stderr().includes(`outbound proxy http://127.0.0.1:${gonePort}`), 'the log names the unreachable proxy');
  await outbound.close();
  await mock.close();
}

fs.rmSync(dir, { recursive: true, force: true });
finish('caveman-proxy to an https upstream: certificates verified, outbound proxy tunnels');
