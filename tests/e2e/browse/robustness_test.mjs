// caveman-browse bad input with the real Chromium (acceptance item 3 of issue 11), through the
// official MCP SDK client, pages on loopback:
//   Chromium missing → cave_browser_unavailable with the install hint;
//   unreachable URL → clear error, the browser still usable;
//   a page that never finishes loading → time-out error, loading stopped, browser usable;
//   a 10,000-row table → focused query finds one row; the full view completes or fails cleanly;
//   JS dialogs (alert/confirm/prompt on click, alert during load) → answered and reported;
//   Chromium killed in the middle of a call → cave_browser_unavailable, next call works;
//   the server ending by EOF, SIGTERM and SIGKILL → no browser process and no temp profile left.
// After every phase no process of ours may remain (processes are found by the per-test home
// that holds the temp profiles, see lib.mjs).
import { check, finish, tempHome } from '../lib/harness.mjs';
import { call, checkNothingLeft, connectBrowse, processesMentioning, uidOf } from './lib.mjs';
import { startPageServer } from './page_server.mjs';
import fs from 'node:fs';

const server = await startPageServer();
const homes = [];
const newHome = () => { const h = tempHome('caveman-browse-bad-'); homes.push(h); return h; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The main browser process of a session: its command line names our home and the pipe.
function browserPids(home) {
  return processesMentioning(home, [process.pid])
    .filter((l) => l.includes('--remote-debugging-pipe') && !l.includes('--type='))
    .map((l) => Number(l.split(':')[0]));
}

try {
  // Chromium missing.
  {
    const home = newHome();
    const { client } = await connectBrowse(home, { CAVEMAN_BROWSE_CHROME: '/nonexistent/chromium' });
    const r = await call(client, 'browser_snapshot', { url: 'about:blank' });
    check(r.error === 'cave_browser_unavailable', `missing chromium: ${r.raw}`);
    check(/apt-get install chromium/.test(r.message ?? ''), `install hint: ${r.message}`);
    const e = await call(client, 'browser_eval', { expression: '1' });
    check(e.error === 'cave_browser_unavailable', `still unavailable, still answering: ${e.raw}`);
    await client.close();
    await checkNothingLeft(home, 'missing chromium');
  }

  const home = newHome();
  const { client } = await connectBrowse(home, { CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS: '8000' });

  // Unreachable URL.
  {
    const r = await call(client, 'browser_snapshot', { url: `http://127.0.0.1:${server.closedPort}/` });
    check(r.error === 'cave_browser_snapshot_failed', `unreachable: ${r.raw}`);
    check(/ERR_CONNECTION_REFUSED/.test(r.message ?? '') && /still usable/.test(r.message ?? ''), `clear message: ${r.message}`);
    const ok = await call(client, 'browser_snapshot', { url: `${server.base}/agent_checkout.html` });
    check(!ok.error && ok.payload.uids.includes('"Save order"'), `usable after unreachable: ${ok.raw.slice(0, 200)}`);
  }

  // A page that never finishes loading.
  {
    const t0 = Date.now();
    const r = await call(client, 'browser_snapshot', { url: `${server.base}/never-loads.html` });
    const ms = Date.now() - t0;
    check(r.error === 'cave_browser_snapshot_failed' && /did not finish loading/.test(r.message ?? ''), `never loads: ${r.raw}`);
    check(ms < 16000, `time-out honoured (${ms} ms)`);
    const partial = await call(client, 'browser_snapshot', {});
    check(!partial.error && partial.payload.uids.includes('Still loading'), `what did load is shown: ${partial.raw.slice(0, 300)}`);
    const ok = await call(client, 'browser_snapshot', { url: `${server.base}/dialogs.html` });
    check(!ok.error, `usable after a never-loading page: ${ok.raw.slice(0, 200)}`);
  }

  // JavaScript dialogs: answered (accepted, prompt default) and reported.
  {
    const snap = await call(client, 'browser_snapshot', { url: `${server.base}/dialogs.html` });
    const view = snap.payload.uids;
    for (const [button, type, message, result] of [
      ['Show alert', 'alert', 'Heads up: stock is low', 'alert closed'],
      ['Delete order', 'confirm', 'Delete order 7?', 'confirmed'],
      ['Ask name', 'prompt', 'Your name?', 'prompt: Ada'],
    ]) {
      const uid = uidOf(view, 'button', button);
      const r = await call(client, 'browser_act', { action: 'click', uid });
      check(!r.error, `${type}: ${r.raw}`);
      const seen = [...(r.payload?.dialogs ?? [])];
      const after = await call(client, 'browser_snapshot', { query: 'status' });
      seen.push(...(after.payload?.dialogs ?? []));
      check(seen.some((d) => d.type === type && d.message === message), `${type} reported: ${JSON.stringify(seen)}`);
      check(after.payload?.uids.includes(`"${result}"`), `${type} answered: ${after.payload?.uids}`);
    }
    const onLoad = await call(client, 'browser_snapshot', { url: `${server.base}/dialog_on_load.html` });
    check(!onLoad.error && onLoad.payload.uids.includes('"after alert"'), `alert during load: ${onLoad.raw.slice(0, 300)}`);
    check((onLoad.payload?.dialogs ?? []).some((d) => d.message === 'Welcome back'), 'alert during load reported');
  }

  // A 10,000-row table.
  {
    const t0 = Date.now();
    const r = await call(client, 'browser_snapshot', { url: `${server.base}/huge_table.html`, query: 'SKU-09999' }, 120000);
    const ms = Date.now() - t0;
    if (r.error) {
      // A slow machine: the page's own script or the tree outlasts the limit. The error says so.
      check(r.error === 'cave_browser_snapshot_failed' && /(not ready|did not finish loading) within/.test(r.message ?? ''),
            `huge page error is clear: ${r.raw}`);
    } else {
      check(uidOf(r.payload.uids, 'button', 'Restock SKU-09999') !== null, `huge page: the row is found:\n${r.payload.uids}`);
      check(r.structured.tokens_after < 300 && r.structured.tokens_before > 500000,
            `huge page: ${r.structured.tokens_before} raw → ${r.structured.tokens_after} tokens`);
    }
    console.log(`10,000-row table, focused snapshot: ${ms} ms, ${r.error ?? `${r.structured.tokens_before} → ${r.structured.tokens_after} tokens`}`);
    const t1 = Date.now();
    const ev = await call(client, 'browser_eval', { expression: '6 * 7' });
    check(ev.payload?.result === 42 && Date.now() - t1 < 5000, `usable at once after the huge page: ${ev.raw}`);
  }

  // Chromium killed in the middle of a call.
  {
    const pids = browserPids(home);
    check(pids.length === 1, `one browser: ${pids}`);
    const pending = call(client, 'browser_eval', { expression: 'new Promise((r) => setTimeout(() => r(42), 5000))' });
    await sleep(500);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const r = await pending;
    check(r.error === 'cave_browser_unavailable', `crash mid-call: ${r.raw}`);
    check(/next call starts a new browser/.test(r.message ?? ''), `crash message: ${r.message}`);
    await checkNothingLeft(home, 'after the crash');
    const again = await call(client, 'browser_snapshot', { url: `${server.base}/agent_checkout.html` });
    check(!again.error && again.payload.uids.includes('"Save order"'), `a new browser after the crash: ${again.raw.slice(0, 200)}`);
    check(browserPids(home).length === 1, 'exactly one new browser');
  }

  // EOF on stdin.
  await client.close();
  await checkNothingLeft(home, 'EOF');

  // SIGTERM and SIGKILL of the server while its browser runs.
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    const h = newHome();
    const s = await connectBrowse(h);
    const r = await call(s.client, 'browser_snapshot', { url: `${server.base}/agent_checkout.html` });
    check(!r.error, `${signal}: snapshot before: ${r.raw.slice(0, 200)}`);
    check(browserPids(h).length === 1, `${signal}: browser running`);
    process.kill(s.pid(), signal);
    await checkNothingLeft(h, signal);
    await s.client.close().catch(() => {});
  }
} finally {
  await server.close();
}
for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
finish('caveman-browse bad input');
