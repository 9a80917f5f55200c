#!/usr/bin/env node
// Captures the real `tools/list` result of @playwright/mcp and chrome-devtools-mcp (both
// pinned in tests/e2e/package.json) as caveman-shrink fixtures. Offline: the servers only
// start a browser when a tool is called, and tools/list needs none.
//
//   node tests/e2e/shrink/capture_catalogs.mjs [outdir]   (default tests/testdata/shrink)
//
// Speaks raw line-delimited JSON-RPC over stdio (no SDK) and writes the `result` member of
// the tools/list response as compact JSON, i.e. the catalog as it travels on the wire.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const e2e = join(here, '..');
const outdir = process.argv[2] ?? join(e2e, '..', 'testdata', 'shrink');

const servers = [
  {
    file: 'playwright_mcp_0.0.83.tools.json',
    cmd: ['node', join(e2e, 'node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated',
          '--executable-path', '/usr/bin/chromium', '--no-sandbox'],
  },
  {
    file: 'chrome_devtools_mcp_1.11.0.tools.json',
    cmd: ['node', join(e2e, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
          '--headless', '--isolated', '--executablePath', '/usr/bin/chromium',
          '--chromeArg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux'],
  },
];

function listTools([command, ...args]) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('timeout')); }, 60000);
    let buf = '';
    const send = (msg) => child.stdin.write(JSON.stringify(msg) + '\n');
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        if (msg.id === 0) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
        } else if (msg.id === 1) {
          clearTimeout(timer);
          child.kill('SIGTERM');
          if (msg.error) reject(new Error(JSON.stringify(msg.error)));
          else resolve({ server: msg, result: msg.result });
        }
      }
    });
    child.on('error', reject);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'caveman-shrink-capture', version: '0' } } });
  });
}

for (const s of servers) {
  const { result } = await listTools(s.cmd);
  const text = JSON.stringify(result);
  writeFileSync(join(outdir, s.file), text);
  console.log(`${s.file}: ${result.tools.length} tools, ${text.length} bytes`);
}
