// Acceptance 3 (issue 14): caveman-proxy in `mode: pixel` against the local mock upstream.
// - an allowlisted model's long user message arrives upstream as PNG image blocks (Anthropic
//   Messages for claude-fable-5, OpenAI Chat for gpt-5.6), the short question stays text, the
//   images decode (pngcheck.py), the response names the recovery handle and
//   `caveman-engine retrieve HANDLE` returns the exact original request bytes;
// - a model outside CAVE_PIXEL_MODELS, a short message and `x-cave-transforms:
//   caveman.pass-through.v1` arrive byte-identical; only the rewritten requests' usage rows carry
//   a recovery handle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, check, finish, tempHome } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, recentRows, startProxy } from '../proxy/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const longText = Array.from({ length: 180 }, (_, i) =>
  `Line ${i}: the cave painters of Lascaux mixed ochre, charcoal and fat; sample ${i * 7}.`).join('\n');

const mock = await startMockUpstream();
const proxy = await startProxy({
  yaml: providersYaml(mock.url),
  env: { CAVEMAN_MODE: 'pixel', CAVE_PIXEL_DENSITY: 'balanced' },
});
const scratch = tempHome('caveman-pixel-proxy-');

async function post(route, body, headers = {}) {
  const before = mock.requests.length;
  const auth = route.includes('messages') && !route.includes('chat')
    ? { 'x-api-key': 'sk-ant-api03-dummy', 'anthropic-version': '2023-06-01' }
    : { authorization: 'Bearer sk-proj-dummy' };
  const res = await fetch(`${proxy.url}${route}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...auth, ...headers }, body,
  });
  const text = await res.text();
  return { res, text, upstream: mock.requests[before] };
}

function retrieve(handle) {
  return execFileSync(bin('caveman-engine'), ['retrieve', handle], {
    env: { PATH: process.env.PATH, HOME: proxy.home, CAVEMAN_HOME: proxy.home }, maxBuffer: 64 << 20,
  }).toString('utf8');
}

function decodePng(b64, name) {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, Buffer.from(b64, 'base64'));
  const out = execFileSync('python3', [path.join(here, 'pngcheck.py'), 'info', file]).toString();
  return JSON.parse(out);
}

try {
  // 1. Anthropic Messages, allowlisted model: long text → images, question stays.
  const body1 = JSON.stringify({
    model: 'claude-fable-5', max_tokens: 64,
    messages: [{ role: 'user', content: [{ type: 'text', text: longText }, { type: 'text', text: 'Which pigments?' }] }],
  });
  const r1 = await post('/v1/messages', body1);
  check(r1.res.status === 200, `anthropic status ${r1.res.status}: ${r1.text.slice(0, 200)}`);
  const sent1 = JSON.parse(r1.upstream.body.toString('utf8'));
  const content = sent1.messages[0].content;
  const images = content.filter((b) => b.type === 'image');
  check(images.length >= 1, `anthropic: image blocks upstream (got ${content.map((b) => b.type).join(',')})`);
  check(content.at(-1).type === 'text' && content.at(-1).text === 'Which pigments?', 'anthropic: the question stays text');
  check(!r1.upstream.body.toString('utf8').includes('Lascaux mixed ochre'), 'anthropic: the long text itself is not sent');
  for (const [i, img] of images.entries()) {
    check(img.source.media_type === 'image/png', 'anthropic: image/png');
    const info = decodePng(img.source.data, `a${i}.png`);
    check(info.width > 0 && info.width <= 2576 && info.height <= 1456 && info.ink > 0, `anthropic image ${i}: ${JSON.stringify(info)}`);
  }
  const handle = r1.res.headers.get('x-caveman-recovery-handle');
  check(/^ccr_[0-9a-f]{32}$/.test(handle || ''), `anthropic: x-caveman-recovery-handle ${handle}`);
  check((r1.res.headers.get('x-cave-optimization') || '') === 'pixel-render', `x-cave-optimization ${r1.res.headers.get('x-cave-optimization')}`);
  check(content.some((b) => b.type === 'text' && b.text.includes(`<<ccr:${handle}>>`)), 'anthropic: the note names the handle');
  if (handle) check(retrieve(handle) === body1, 'retrieve returns the exact original request');

  // 2. OpenAI Chat, allowlisted gpt-5.6: string content → image_url parts.
  const body2 = JSON.stringify({ model: 'gpt-5.6', messages: [{ role: 'user', content: longText }] });
  const r2 = await post('/v1/chat/completions', body2);
  check(r2.res.status === 200, `chat status ${r2.res.status}: ${r2.text.slice(0, 200)}`);
  const sent2 = JSON.parse(r2.upstream.body.toString('utf8'));
  const parts = sent2.messages[0].content;
  check(Array.isArray(parts) && parts[0].type === 'image_url' && parts[0].image_url.url.startsWith('data:image/png;base64,'),
    `chat: image_url parts upstream`);
  if (Array.isArray(parts) && parts[0].image_url) {
    const info = decodePng(parts[0].image_url.url.split(',')[1], 'c0.png');
    check(info.width <= 1568 && info.height <= 728, `chat image on the standard canvas: ${JSON.stringify(info)}`);
  }
  const handle2 = r2.res.headers.get('x-caveman-recovery-handle');
  if (handle2) check(retrieve(handle2) === body2, 'chat: retrieve returns the exact original');

  // 3. Not allowlisted → byte-identical.
  const body3 = JSON.stringify({ model: 'claude-3-5-sonnet-20241022', max_tokens: 64, messages: [{ role: 'user', content: longText }] });
  const r3 = await post('/v1/messages', body3);
  check(r3.res.status === 200, `non-allowlisted status ${r3.res.status}`);
  check(r3.upstream.body.equals(Buffer.from(body3)), 'non-allowlisted model: upstream body byte-identical');
  check(!r3.res.headers.get('x-caveman-recovery-handle'), 'non-allowlisted: no recovery handle');

  // 4. Short message and the pass-through header → byte-identical.
  const body4 = JSON.stringify({ model: 'claude-fable-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
  const r4 = await post('/v1/messages', body4);
  check(r4.upstream.body.equals(Buffer.from(body4)), 'short message: byte-identical');
  const r5 = await post('/v1/messages', body1, { 'x-cave-transforms': 'caveman.pass-through.v1' });
  check(r5.upstream.body.equals(Buffer.from(body1)), 'pass-through header: byte-identical');

  // Usage rows: a recovery handle exactly on the two rewritten requests (the optimizer id is
  // checked through x-cave-optimization above; `stats --recent` does not list it).
  await new Promise((r) => setTimeout(r, 300));
  const rows = recentRows(proxy.home, 20);
  const withHandle = rows.filter((row) => row.recovery_handle).map((row) => row.recovery_handle).sort();
  check(JSON.stringify(withHandle) === JSON.stringify([handle, handle2].sort()),
    `usage rows with a recovery handle: ${JSON.stringify(withHandle)} of ${rows.length}`);
} finally {
  await proxy.stop();
  await mock.close();
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(proxy.home, { recursive: true, force: true });
}
finish('pixel proxy mode');
