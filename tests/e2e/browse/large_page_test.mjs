// caveman-browse on large real documentation pages (issue 26): Debian's Node.js API reference
// (/usr/share/doc/nodejs/api, Playwright snapshots of 90k–220k o200k tokens), served on
// loopback. Every snapshot succeeds as an outline within the token budget whose "… hidden"
// markers name a uid; expanding one shows that section; against @playwright/mcp's snapshot of
// the same page (each ≥ 20k tokens) the full view is ≤ 0.7× and a focused query ≥ 50× smaller;
// and no browser process, temp profile or org.chromium.Chromium.* directory is left afterwards.
// Exit 77 (skipped) when the docs are not installed.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { check, finish, tempHome } from '../lib/harness.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { call, checkNothingLeft, connectBrowse, text } from './lib.mjs';

const docs = '/usr/share/doc/nodejs/api';
const pages = ['fs.html', 'crypto.html', 'buffer.html', 'http.html', 'stream.html'];
if (!pages.every((p) => fs.existsSync(path.join(docs, p)))) {
  console.log(`skip: ${docs} not installed (apt-get install nodejs-doc)`);
  process.exit(77);
}

const server = http.createServer((req, res) => {
  const file = path.join(docs, path.normalize(new URL(req.url, 'http://x').pathname).replace(/^\/+/, ''));
  if (!file.startsWith(docs) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    res.end();
    return;
  }
  const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.css') ? 'text/css' : 'application/javascript';
  res.writeHead(200, { 'content-type': type });
  res.end(fs.readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const home = tempHome('caveman-browse-large-');
const budget = 25000;
const measured = {};  // page → {full, focused} tokens of caveman's tool results
const { client } = await connectBrowse(home);
try {
  for (const page of pages) {
    const t0 = Date.now();
    const s = await call(client, 'browser_snapshot', { url: `${base}/${page}` }, 120000);
    const ms = Date.now() - t0;
    check(!s.error, `${page}: ${s.raw?.slice(0, 300)}`);
    if (s.error) continue;
    const view = s.payload.uids;
    const tokens = countTokens(s.raw);
    console.log(`${page}: raw ${s.structured.tokens_before} → ${tokens} tokens in ${ms} ms`);
    measured[page] = { full: tokens, ms };
    check(tokens <= budget + 200, `${page}: ${tokens} tokens over the budget`);
    check(view.includes('… hidden: '), `${page}: outline markers`);
    check(/^\s*heading/m.test(view), `${page}: headings kept`);
    const marker = view.match(/… hidden: ([^;]*paragraph[^;]*); expand (u[0-9a-z]+)/);
    check(marker, `${page}: a marker with paragraphs and a uid`);
    if (marker) {
      const e = await call(client, 'browser_snapshot', { expand: marker[2] }, 120000);
      check(!e.error && e.payload.uids.split('\n').length > 2, `${page}: expand ${marker[2]}: ${e.raw?.slice(0, 300)}`);
      check(!e.payload?.uids.includes(`expand ${marker[2]}`), `${page}: the expansion does not hide itself again`);
    }
    const q = await call(client, 'browser_snapshot', { query: 'Added in' }, 120000);
    check(!q.error && countTokens(q.raw) * 50 <= s.structured.tokens_before, `${page}: focused query is small`);
    if (!q.error) measured[page].focused = countTokens(q.raw);
  }
  const unknown = await call(client, 'browser_snapshot', { expand: 'uzzzzz' });
  check(!unknown.error && unknown.payload.uids.includes('no node uzzzzz'), `unknown expand uid: ${unknown.raw}`);
} finally {
  await client.close();
}

await checkNothingLeft(home);

// The same pages through @playwright/mcp (its own Chromium profile, isolated, headless).
const chrome = process.env.CAVEMAN_BROWSE_CHROME || '/usr/lib/chromium/chromium';
const pwTmp = path.join(home, 'playwright-tmp');  // Playwright's leftovers are not ours to check
fs.mkdirSync(pwTmp, { recursive: true });
const pwTransport = new StdioClientTransport({
  command: process.execPath,
  args: [new URL('../node_modules/@playwright/mcp/cli.js', import.meta.url).pathname, '--headless', '--isolated', '--executable-path', chrome,
    '--no-sandbox', '--output-dir', path.join(home, 'playwright-output')],
  env: { ...process.env, HOME: home, TMPDIR: pwTmp }, stderr: 'pipe',
});
const pw = new Client({ name: 'caveman-browse-e2e-playwright', version: '1.0.0' });
try {
  await pw.connect(pwTransport);
  for (const page of pages) {
    const t0 = Date.now();
    await pw.callTool({ name: 'browser_navigate', arguments: { url: `${base}/${page}` } }, undefined, { timeout: 120000 });
    const r = await pw.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, { timeout: 120000 });
    const ms = Date.now() - t0;
    const theirs = countTokens(text(r));
    const ours = measured[page] ?? {};
    console.log(`${page}: @playwright/mcp ${theirs} tokens in ${ms} ms; caveman full ${ours.full} (${(ours.full / theirs).toFixed(2)}×) in ${ours.ms} ms, focused ${ours.focused} (${(theirs / ours.focused).toFixed(0)}× smaller)`);
    check(theirs >= 20000, `${page}: Playwright's snapshot is a large page (${theirs} tokens)`);
    check(ours.full <= 0.7 * theirs, `${page}: full view ${ours.full} ≤ 0.7 × Playwright's ${theirs}`);
    check(ours.focused * 50 <= theirs, `${page}: focused query ${ours.focused} ≥ 50× smaller than Playwright's ${theirs}`);
  }
} finally {
  await pw.close().catch(() => {});
  server.close();
}

fs.rmSync(home, { recursive: true, force: true });
finish('caveman-browse large pages');
