// caveman-browse vs @playwright/mcp: o200k tokens of the snapshot text an agent receives, on
// the same pages, in one run, with the same Chromium.
//
// usage: node bench/browse_bench.mjs <bin dir> [runs]   (prints one JSON object on stdout)
//
// Both servers run through the official MCP SDK client over stdio against pages served by a
// loopback HTTP server (tests/e2e/browse/page_server.mjs). For each page:
//   playwright  browser_navigate(url), then browser_snapshot → tokens of its text content
//   full        caveman browser_snapshot{url}                → tokens of its text content
//   focused     caveman browser_snapshot{query} on that page → tokens of its text content
// "Text content" is every text item of the tool result joined with "\n": exactly what an
// agent reads (caveman's JSON wrapper {"uids","recovery_handle"} included). caveman also sends
// the full payload with its token counters as structuredContent (for programs; its counters
// are where raw_ax_tokens and full_outline_tokens come from). Token counts
// are gpt-tokenizer's o200k_base (identical to caveman-engine count, see e2e_tokens_exactness).
// Token columns are the first run's (fresh browsers on both sides); the per-run counts are kept
// because later runs grow a little (uids/refs follow node ids). Times are the median wall-clock of `runs` snapshot calls (page already open for Playwright,
// navigation included for caveman full).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(path.join(root, 'tests/e2e/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { countTokens } = require('gpt-tokenizer/encoding/o200k_base');
const { startPageServer } = await import(pathToFileURL(path.join(root, 'tests/e2e/browse/page_server.mjs')).href);

const binDir = path.resolve(process.argv[2] ?? 'build/release/bin');
const runs = Number(process.argv[3] ?? 3);
const chrome = process.env.CAVEMAN_BROWSE_CHROME || '/usr/lib/chromium/chromium';

const pages = process.env.BROWSE_BENCH_PAGES ? JSON.parse(process.env.BROWSE_BENCH_PAGES) : [
  { page: 'order_dashboard.html', label: '200-row order table', table: true, query: 'ORD-0173' },
  { page: 'agent_checkout.html', label: 'small checkout form', query: 'Email Plan Save order' },
  { page: 'docs_article.html', label: 'docs article', query: 'total_deadline timeout' },
  { page: 'orders.html', label: 'nav + form + 50-row table', table: true, query: 'order 1042 refund' },
  // Small pages, where a fixed per-call wrapper weighs most.
  { page: 'login.html', label: 'sign-in form', query: 'Password' },
  { page: 'hello.html', label: 'heading + one paragraph', query: 'back at' },
  { page: 'about:blank', url: 'about:blank', label: 'empty page', query: 'anything' },
];

const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function connect(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'caveman-browse-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client, name, args) {
  const t0 = process.hrtime.bigint();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)}: ${text(r).slice(0, 500)}`);
  return { text: text(r), structured: r.structuredContent, ms };
}

const server = await startPageServer();
const home = execFileSync('mktemp', ['-d', path.join(os.tmpdir(), 'caveman-browse-bench-XXXXXX')]).toString().trim();
const playwright = await connect(
  process.execPath,
  [path.join(root, 'tests/e2e/node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--executable-path', chrome,
   '--no-sandbox', '--output-dir', path.join(home, 'playwright-output')],
  {},
);
const caveman = await connect(path.join(binDir, 'caveman-browse'), [], {
  CAVEMAN_HOME: home,
  CAVEMAN_BROWSE_EPHEMERAL: '1',
  CAVEMAN_BROWSE_CHROME: chrome,
});

const rows = [];
try {
  for (const p of pages) {
    const url = p.url ?? `${server.base}/${p.page}`;
    const pw = { ms: [] };
    const full = { ms: [] };
    const focused = { ms: [] };
    for (let i = 0; i < runs; i++) {
      await call(playwright, 'browser_navigate', { url });
      const s = await call(playwright, 'browser_snapshot', {});
      pw.text = s.text;
      pw.ms.push(s.ms);
      (pw.counts ??= []).push(countTokens(s.text));
      const f = await call(caveman, 'browser_snapshot', { url });
      full.text = f.text;
      full.structured = f.structured;
      (full.counts ??= []).push(countTokens(f.text));
      full.ms.push(f.ms);
      const q = await call(caveman, 'browser_snapshot', { query: p.query });
      focused.text = q.text;
      (focused.counts ??= []).push(countTokens(q.text));
      focused.ms.push(q.ms);
    }
    const payload = full.structured;
    rows.push({
      page: p.page,
      label: p.label,
      table: !!p.table,
      query: p.query,
      raw_ax_tokens: payload.tokens_before,
      // The first run is the fresh-browser figure; later runs in the same browsers differ a
      // little (uids and refs grow with node ids), so the range is kept too.
      playwright_tokens: pw.counts[0],
      full_tokens: full.counts[0],
      full_outline_tokens: payload.view_tokens,
      focused_tokens: focused.counts[0],
      focused_tokens_per_run: focused.counts,
      playwright_ms: median(pw.ms),
      full_ms: median(full.ms),
      focused_ms: median(focused.ms),
      playwright_chars: pw.text.length,
      playwright_tokens_per_run: pw.counts,
      full_tokens_per_run: full.counts,
      full_chars: full.text.length,
    });
  }
} finally {
  await playwright.close().catch(() => {});
  await caveman.close().catch(() => {});
  await server.close();
  execFileSync('rm', ['-rf', home]);
}

const version = execFileSync(chrome, ['--version']).toString().trim();
const pwVersion = JSON.parse(fs.readFileSync(path.join(root, 'tests/e2e/node_modules/@playwright/mcp/package.json'))).version;
console.log(JSON.stringify({ chrome: version, playwright_mcp: pwVersion, runs, rows }));
