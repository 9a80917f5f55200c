// caveman-browse through the official MCP SDK client, with the real Debian Chromium, against
// pages served on loopback by this test (acceptance item 1 of issue 11):
//   tools/list (exactly the four tools) → snapshot of the checkout form → act: type into the
//   Email textbox, select the Team plan, click Save (offscreen: scrolled into view) → snapshot
//   without url shows the change → browser_recover returns the raw AX JSON exactly (its
//   SHA-256 is the handle, it parses as Chrome's getFullAXTree reply, its o200k token count is
//   the payload's tokens_before, and it holds the post-action state) → a query narrows it.
// Then: a focused query on the 200-row dashboard and a click on the found row's button, a uid
// from the old page (cave_unknown_uid), browser_eval, the URL policy, and finally that no
// browser process or temp profile is left once the client closes.
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { check, finish, tempHome } from '../lib/harness.mjs';
import { call, checkNothingLeft, connectBrowse, handleOf, uidOf } from './lib.mjs';
import { startPageServer } from './page_server.mjs';

const home = tempHome('caveman-browse-e2e-');
const server = await startPageServer();
const { client } = await connectBrowse(home);

try {
  check(client.getServerVersion()?.name === 'caveman-browse', `server name ${client.getServerVersion()?.name}`);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(['browser_act', 'browser_eval', 'browser_recover', 'browser_snapshot']),
        `tools ${names}`);

  // 1. The checkout form.
  const first = await call(client, 'browser_snapshot', { url: `${server.base}/agent_checkout.html` });
  check(!first.error, `first snapshot: ${first.raw}`);
  const view1 = first.payload.uids;
  const email = uidOf(view1, 'textbox', 'Email');
  const plan = uidOf(view1, 'combobox', 'Plan');
  const save = uidOf(view1, 'button', 'Save order');
  check(email && plan && save, `controls have uids:\n${view1}`);
  check(view1.includes('"Not saved"'), 'status line shown');
  check(!/\[u[0-9a-z_]+\] (heading|status|form)/.test(view1), 'no uids on structural nodes');
  check(first.payload.recovery_handle.startsWith('ccr_'), 'recovery handle');
  check(first.structured.tokens_after === countTokens(first.raw), `tokens_after ${first.structured.tokens_after} counts the text the agent reads (${countTokens(first.raw)})`);
  check(first.structured.tokens_after < first.structured.tokens_before, 'payload smaller than the raw tree');
  check(JSON.stringify(Object.keys(first.payload)) === '["uids","recovery_handle"]', `agent text: ${Object.keys(first.payload)}`);
  check(JSON.stringify(Object.keys(first.structured)) ===
        '["uids","recovery_handle","tokens_before","view_tokens","tokens_after","ratio","basis"]', `structuredContent: ${Object.keys(first.structured)}`);
  check(first.structured.uids === view1 && first.structured.recovery_handle === first.payload.recovery_handle, 'same outline and handle in both');

  const typed = await call(client, 'browser_act', { action: 'type', uid: email, text: 'ada@example.com' });
  check(!typed.error && typed.payload.changes.includes(`[${email}] textbox "Email" = "ada@example.com"`),
        `type answers the change: ${typed.raw}`);
  const selected = await call(client, 'browser_act', { action: 'select', uid: plan, option: 'Team' });
  check(!selected.error && selected.payload.changes.includes('combobox "Plan" = "Team"'), `select: ${selected.raw}`);
  const clicked = await call(client, 'browser_act', { action: 'click', uid: save });
  check(!clicked.error && clicked.payload.changes.includes('Saved order for ada@example.com'), `click: ${clicked.raw}`);

  const second = await call(client, 'browser_snapshot', {});
  check(!second.error, `second snapshot: ${second.raw}`);
  const view2 = second.payload.uids;
  check(view2.includes('"Saved order for ada@example.com on the Team plan"'), `the click changed the page:\n${view2}`);
  check(/textbox "Email" = "ada@example\.com"/.test(view2), 'typed text shown as the value');
  check(/combobox "Plan" = "Team"/.test(view2), 'selected option shown as the value');

  // Recover: the exact raw tree behind the second snapshot.
  const handle = second.payload.recovery_handle;
  const rec = await call(client, 'browser_recover', { recovery_handle: handle });
  check(!rec.error, `recover: ${rec.raw.slice(0, 300)}`);
  check(handleOf(rec.raw) === handle, 'recovered bytes hash to the handle (byte-exact original)');
  let tree = null;
  try { tree = JSON.parse(rec.raw); } catch { /* checked below */ }
  check(Array.isArray(tree?.nodes) && tree.nodes.length > 10, 'raw getFullAXTree reply {nodes:[…]}');
  check(tree?.nodes?.every((n) => typeof n.nodeId === 'string' && 'ignored' in n), 'Chrome AX node shape');
  check(countTokens(rec.raw) === second.structured.tokens_before, 'tokens_before counts the raw tree');
  check(rec.raw.includes('Saved order for ada@example.com on the Team plan'), 'raw tree holds the new state');
  const backend = parseInt(email.slice(1).split('_')[0], 36);
  check(tree?.nodes?.some((n) => n.backendDOMNodeId === backend && n.role?.value === 'textbox'),
        'uid = base-36 backendDOMNodeId of the textbox');
  const narrowed = await call(client, 'browser_recover', { recovery_handle: `<<${handle}>>`, query: 'Saved order' });
  check(!narrowed.error && narrowed.raw.length < rec.raw.length && narrowed.raw.includes('Saved order'),
        'recover with a query narrows the tree');
  const unknown = await call(client, 'browser_recover', { recovery_handle: 'ccr_00000000000000000000000000000000' });
  check(unknown.error === 'cave_unknown_handle', `unknown handle: ${unknown.raw}`);

  // 2. A focused query on the 200-row table, then act on what it found.
  const focused = await call(client, 'browser_snapshot', { url: `${server.base}/order_dashboard.html`, query: 'ORD-0173' });
  check(!focused.error, `focused: ${focused.raw}`);
  const fview = focused.payload.uids;
  const review = uidOf(fview, 'button', 'Review ORD-0173');
  check(review && fview.includes('"EUR 193.00"'), `the whole row is kept:\n${fview}`);
  check(!fview.includes('ORD-0172') && !fview.includes('ORD-0174'), 'neighbouring rows dropped');
  check(countTokens(focused.raw) < 200, `focused payload ${countTokens(focused.raw)} tokens`);
  // The old page's uid is stale now.
  const stale = await call(client, 'browser_act', { action: 'click', uid: save });
  check(stale.error === 'cave_unknown_uid', `stale uid: ${stale.raw}`);
  const never = await call(client, 'browser_act', { action: 'click', uid: 'u9zzzz' });
  check(never.error === 'cave_unknown_uid', `unknown uid: ${never.raw}`);
  const reviewClick = await call(client, 'browser_act', { action: 'click', uid: review });
  check(!reviewClick.error, `review click: ${reviewClick.raw}`);
  const after = await call(client, 'browser_snapshot', { query: 'Reviewing' });
  check(after.payload?.uids.includes('"Reviewing ORD-0173"'), `status after the click:\n${after.payload?.uids}`);
  const waited = await call(client, 'browser_act', { action: 'wait' });
  check(waited.payload?.changes === 'none', `wait: ${waited.raw}`);
  const bogus = await call(client, 'browser_act', { action: 'hover', uid: review });
  check(bogus.error === 'cave_unknown_action', `unknown action: ${bogus.raw}`);

  // 3. eval and the URL policy.
  const ev = await call(client, 'browser_eval', { expression: 'document.querySelectorAll("tbody tr").length' });
  check(ev.payload?.result === 200, `eval: ${ev.raw}`);
  const thrown = await call(client, 'browser_eval', { expression: 'nope.nope' });
  check(thrown.error === 'cave_browser_eval_failed', `eval error: ${thrown.raw}`);
  for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://version', 'view-source:http://127.0.0.1/']) {
    const denied = await call(client, 'browser_snapshot', { url });
    check(denied.error === 'cave_browser_url_denied', `${url}: ${denied.raw}`);
  }
  const bad = await call(client, 'browser_snapshot', { wait: 999999 });
  check(bad.error === 'cave_invalid_arguments', `wait out of range: ${bad.raw}`);
} finally {
  await client.close();
  await server.close();
}

await checkNothingLeft(home);
fs.rmSync(path.join(home), { recursive: true, force: true });
finish('caveman-browse SDK client');
