// Issue 38, acceptance 1: caveman-browse starts Chromium whatever TMPDIR is. Chromium binds its
// singleton socket at <its TMPDIR>/org.chromium.Chromium.XXXXXX/SingletonSocket and aborts when
// that path is over 107 bytes; caveman-browse gives it a short private TMPDIR (cvb-XXXXXX under
// $TMPDIR while the socket fits there, else under /tmp).
//
// With TMPDIR unset and of 50 (shaped like macOS's /var/folders/xx/…/T/), 90 and 200 bytes, the
// MCP server (official SDK client) and the direct CLI each take a snapshot and an action on a
// loopback page; the browser's TMPDIR is checked while it runs (where it is, the socket fits),
// and afterwards no process of that browser is left, its TMPDIR and temp profile are gone, and
// nothing is left in TMPDIR.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, check, finish } from '../lib/harness.mjs';
import { browserLeftAfter, browserUnder, call, isBrowseTemp, uidOf } from './lib.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startPageServer } from './page_server.mjs';

const kSocketSuffix = '/org.chromium.Chromium.XXXXXX/SingletonSocket';
const kCvbName = 'cvb-XXXXXX'.length;
const server = await startPageServer();
const page = `${server.base}/act_diff.html`;
// Short, so that a 50-byte TMPDIR can be built inside it.
const root = fs.mkdtempSync('/tmp/cbt-');

// A TMPDIR of exactly `length` bytes (with its trailing slash when `macos`), created 0700.
function tmpdirOf(length, macos) {
  const head = macos ? `${root}/var/folders/7x/` : `${root}/t`;
  const tail = macos ? '/T/' : '';
  const pad = length - head.length - tail.length;
  check(pad > 0, `room for a ${length}-byte TMPDIR under ${root}`);
  const dir = head + (macos ? '3mgr1l0j3wq4ty5_4cfr0z6r0000gn'.repeat(4).slice(0, pad) : 'd'.repeat(pad)) + tail;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

// The environment of one case: its own home, TMPDIR as given (undefined: unset).
function envOf(home, tmpdir) {
  const env = { ...process.env, HOME: home, CAVEMAN_HOME: path.join(home, '.caveman'), CAVEMAN_BROWSE_EPHEMERAL: '0' };
  delete env.TMPDIR;
  delete env.CAVEMAN_BROWSE_CDP;
  delete env.CAVEMAN_BROWSE_USER_DATA_DIR;
  delete env.CAVEMAN_CCR_DB;
  if (tmpdir !== undefined) env.TMPDIR = tmpdir;
  return env;
}

// Where the browser's TMPDIR must be for this TMPDIR, and that its socket fits there.
function checkBrowserTmp(label, browser, tmpdir) {
  check(browser !== null, `${label}: a browser runs`);
  if (!browser) return;
  const trimmed = tmpdir?.replace(/\/+$/, '');
  const fits = trimmed !== undefined && trimmed.length + 1 + kCvbName + kSocketSuffix.length <= 107;
  const expected = fits ? trimmed : '/tmp';
  check(browser.tmp?.startsWith(`${expected}/cvb-`) && browser.tmp.length === expected.length + 1 + kCvbName,
    `${label}: the browser's TMPDIR is a cvb-* under ${expected}: ${browser.tmp}`);
  check((browser.tmp ?? '').length + kSocketSuffix.length <= 107, `${label}: Chromium's socket fits in 107 bytes`);
  const mode = browser.tmp && fs.existsSync(browser.tmp) ? fs.statSync(browser.tmp).mode & 0o777 : -1;
  check(mode === 0o700, `${label}: the browser's TMPDIR is private (${mode.toString(8)})`);
}

async function checkLeft(label, browser, tmpdir, profileGoes) {
  if (!browser) return;
  const left = await browserLeftAfter(browser, { profileGoes });
  check(left.length === 0, `${label}: no browser process, TMPDIR or temp profile left:\n${left.join('\n')}`);
  if (tmpdir !== undefined) {
    const stray = fs.readdirSync(tmpdir);
    check(stray.length === 0, `${label}: nothing left in TMPDIR: ${stray}`);
  }
}

async function mcpCase(label, tmpdir) {
  const home = fs.mkdtempSync(path.join(root, 'h-'));
  const transport = new StdioClientTransport({ command: bin('caveman-browse'), env: envOf(home, tmpdir), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'caveman-browse-tmpdir-e2e', version: '1.0.0' });
  await client.connect(transport);
  let browser = null;
  try {
    const snap = await call(client, 'browser_snapshot', { url: page });
    check(!snap.error, `${label}: snapshot: ${snap.raw}\n${stderr}`);
    const box = uidOf(snap.payload?.uids ?? '', 'textbox', 'New task');
    check(box, `${label}: textbox uid in:\n${snap.payload?.uids}`);
    const typed = await call(client, 'browser_act', { action: 'type', uid: box ?? 'u1', text: 'Buy milk' });
    check(!typed.error && typed.payload?.changes?.includes('"Buy milk"'), `${label}: act: ${typed.raw}`);
    browser = browserUnder(transport.pid);
    checkBrowserTmp(label, browser, tmpdir);
    if (browser && tmpdir !== undefined) {
      check(path.normalize(browser.profile).startsWith(`${tmpdir.replace(/\/+$/, '')}/caveman-browse-`), `${label}: temp profile in TMPDIR: ${browser.profile}`);
    }
  } finally {
    await client.close();
  }
  await checkLeft(label, browser, tmpdir, true);
  fs.rmSync(home, { recursive: true, force: true });
}

async function cliCase(label, tmpdir) {
  const home = fs.mkdtempSync(path.join(root, 'h-'));
  const env = envOf(home, tmpdir);
  // Asynchronous: the page server runs in this process.
  const run = (...args) => new Promise((resolve) => {
    execFile(bin('caveman-browse'), args, { env, encoding: 'utf8', timeout: 60000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
  const statePath = path.join(home, '.caveman', 'browse-session.json');
  let browser = null;
  try {
    const snap = await run('snapshot', page);
    check(snap.status === 0, `${label}: snapshot: ${snap.status} ${snap.stderr}`);
    const box = uidOf(snap.stdout ?? '', 'textbox', 'New task');
    check(box, `${label}: textbox uid in:\n${snap.stdout}`);
    const typed = await run('act', box ?? 'u1', 'type', 'Buy', 'milk');
    check(typed.status === 0 && typed.stdout.includes('"Buy milk'), `${label}: act: ${typed.status} ${typed.stdout} ${typed.stderr}`);
    const state = fs.existsSync(statePath) ? JSON.parse(fs.readFileSync(statePath, 'utf8')) : {};
    browser = state.pid ? browserUnder(state.pid) : null;
    checkBrowserTmp(label, browser, tmpdir);
    check(browser && state.browser_tmp === browser.tmp, `${label}: the state names the browser's TMPDIR: ${state.browser_tmp}`);
  } finally {
    const closed = await run('close');
    check(closed.status === 0, `${label}: close: ${closed.status} ${closed.stderr}`);
  }
  // The CLI's profile ($CAVEMAN_HOME/browse-profile) is kept by design; its TMPDIR goes.
  await checkLeft(label, browser, tmpdir, false);
  fs.rmSync(home, { recursive: true, force: true });
}

try {
  const cases = [
    ['TMPDIR unset', undefined],
    ['TMPDIR of 50 bytes (macOS-like)', tmpdirOf(50, true)],
    ['TMPDIR of 90 bytes', tmpdirOf(90, false)],
    ['TMPDIR of 200 bytes', tmpdirOf(200, false)],
  ];
  for (const [label, tmpdir] of cases) {
    check(tmpdir === undefined || [50, 90, 200].includes(tmpdir.length), `${label}: ${tmpdir?.length}`);
    await mcpCase(`MCP server, ${label}`, tmpdir);
    await cliCase(`CLI, ${label}`, tmpdir);
  }
  const stray = fs.readdirSync(root).filter(isBrowseTemp);
  check(stray.length === 0, `nothing of caveman-browse left in ${root}: ${stray}`);
} finally {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
}
finish('caveman-browse with TMPDIR unset, 50, 90 and 200 bytes');
