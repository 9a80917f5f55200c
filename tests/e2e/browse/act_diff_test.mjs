// browser_act answers with what changed (issue 26, acceptance 3), through the official MCP SDK
// client with Chromium on loopback pages: typing changes a textbox (`~` with its uid), a click
// adds a list item (`+` lines with the new button's uid, usable at once), another removes one
// (`-`), a delayed change is caught by `wait` with text, an action that changes nothing answers
// "none", `full` gives the whole view, and following a link or `navigate` replaces the page:
// the whole new view. Then browser_snapshot{file} writes the view under $CAVEMAN_HOME/browse/
// and answers path, bytes and o200k tokens. Nothing may be left in TMPDIR afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { check, finish, tempHome } from '../lib/harness.mjs';
import { call, checkNothingLeft, connectBrowse, uidOf } from './lib.mjs';
import { startPageServer } from './page_server.mjs';

const home = tempHome('caveman-browse-act-');
const server = await startPageServer();
const { client } = await connectBrowse(home);
const lines = (r) => (r.payload?.changes ?? '').split('\n').filter(Boolean);

try {
  const first = await call(client, 'browser_snapshot', { url: `${server.base}/act_diff.html` });
  check(!first.error, `snapshot: ${first.raw}`);
  const view = first.payload.uids;
  const name = uidOf(view, 'textbox', 'New task');
  const add = uidOf(view, 'button', 'Add task');
  const done = uidOf(view, 'button', 'Done: Call Ada');
  check(name && add && done, `uids:\n${view}`);

  // Changed: the textbox's value, under its ancestors, and no whole view.
  const typed = await call(client, 'browser_act', { action: 'type', uid: name, text: 'Buy milk' });
  check(!typed.error && !('uids' in typed.payload), `type: ${typed.raw}`);
  check(lines(typed).includes(`~ [${name}] textbox "New task" = "Buy milk" {editable}`), `typed value changed:\n${typed.payload?.changes}`);
  check(!typed.payload.changes.includes('page "Tasks"'), 'the page line is no context');
  check(JSON.stringify(typed.structured?.counts) === '{"added":0,"removed":0,"changed":1}', `counts ${JSON.stringify(typed.structured?.counts)}`);
  check(!typed.raw.includes('"counts"'), 'counts only in structuredContent');

  // Added: a list item with a new button whose uid works right away.
  const added = await call(client, 'browser_act', { action: 'click', uid: add });
  check(!added.error, `add: ${added.raw}`);
  check(lines(added).includes(`> [${add}] button "Add task"`), `the target with its context:\n${added.payload?.changes}`);
  check(lines(added).includes('+   listitem') && lines(added).includes('+     text "Buy milk"'), 'added item');
  const newButton = added.payload?.changes.match(/^\+ +\[(u[0-9a-z_]+)\] button "Done: Buy milk"$/m)?.[1];
  check(newButton, 'added button has a uid');
  check(lines(added).includes('~   text "3 open tasks"'), 'changed count');
  check(added.structured?.counts?.added === 3 && added.structured?.counts?.changed === 1, `counts ${JSON.stringify(added.structured?.counts)}`);
  check(countTokens(added.raw) * 2 < countTokens(first.raw), `the change (${countTokens(added.raw)}) is far smaller than the view (${countTokens(first.raw)})`);

  // Removed: one item goes, with what it held counted.
  const removed = await call(client, 'browser_act', { action: 'click', uid: done });
  check(!removed.error, `done: ${removed.raw}`);
  check(lines(removed).includes('-   listitem … 2 more inside'), `removed item:\n${removed.payload?.changes}`);
  check(!removed.payload?.changes.includes('Buy milk') && lines(removed).includes('~   text "2 open tasks"'), 'only that item');
  check(removed.structured?.counts?.removed === 3, `counts ${JSON.stringify(removed.structured?.counts)}`);
  const gone = await call(client, 'browser_act', { action: 'click', uid: done });
  check(gone.error === 'cave_unknown_uid', `removed uid: ${gone.raw}`);
  const again = await call(client, 'browser_act', { action: 'click', uid: newButton });
  check(!again.error && again.payload.changes.includes('"1 open tasks"'), `new uid acts: ${again.raw}`);

  // A change that comes later: nothing at the click, then wait for the text.
  const slow = await call(client, 'browser_act', { action: 'click', uid: uidOf(view, 'button', 'Load results') });
  check(slow.payload?.changes === 'none', `nothing changed yet: ${slow.raw}`);
  const waited = await call(client, 'browser_act', { action: 'wait', text: 'Found 3 results' });
  check(lines(waited).includes('~   text "Found 3 results"'), `wait shows the change: ${waited.raw}`);
  const never = await call(client, 'browser_act', { action: 'wait', text: 'no such text' }, 30000);
  check(never.error === 'cave_browser_action_failed', `wait for missing text: ${never.raw}`);

  // Asked for: the whole view.
  const full = await call(client, 'browser_act', { action: 'scroll', uid: add, full: true });
  check(full.payload?.uids?.includes('"Found 3 results"') && !full.payload?.new_page,
        `full view: ${full.raw}`);

  // The page replaced by a link: the whole new view.
  const link = await call(client, 'browser_act', { action: 'click', uid: uidOf(view, 'link', 'Next page') });
  check(link.payload?.new_page === true && link.payload?.uids?.startsWith('page "Hello"') && !('recovery_handle' in link.payload) && link.structured?.recovery_handle, `link: ${link.raw}`);
  check(link.payload?.uids?.includes('"The service is back at 14:00 UTC."'), 'the new page in full');
  const nav = await call(client, 'browser_act', { action: 'navigate', url: `${server.base}/agent_checkout.html` });
  check(nav.payload?.new_page === true && uidOf(nav.payload?.uids ?? '', 'button', 'Save order'), `navigate: ${nav.raw}`);
  const denied = await call(client, 'browser_act', { action: 'navigate', url: 'file:///etc/passwd' });
  check(denied.error === 'cave_browser_url_denied', `navigate policy: ${denied.raw}`);

  // The view to a file: path, bytes, tokens; the same view names the same file.
  const f = await call(client, 'browser_snapshot', { file: true });
  check(!f.error && f.payload.file.startsWith(path.join(home, '.caveman', 'browse') + '/'), `file: ${f.raw}`);
  const written = fs.readFileSync(f.payload.file, 'utf8');
  check(written === nav.payload.uids, 'the file holds the view');
  check(f.payload.bytes === Buffer.byteLength(written) && f.payload.tokens === countTokens(written), `bytes/tokens: ${f.raw}`);
  check((fs.statSync(f.payload.file).mode & 0o777) === 0o600, 'file mode 0600');
  check(countTokens(f.raw) < 60, `answer is small: ${countTokens(f.raw)}`);
  const again2 = await call(client, 'browser_snapshot', { file: true });
  check(again2.payload?.file === f.payload.file, 'same view, same file');
  const named = await call(client, 'browser_snapshot', { file: 'checkout.txt', query: 'Plan' });
  check(named.payload?.file === path.join(home, '.caveman', 'browse', 'checkout.txt'), `named: ${named.raw}`);
  check(fs.readFileSync(named.payload.file, 'utf8').includes('combobox "Plan"'), 'focused view written');
  for (const bad of ['../escape.txt', '/tmp/x.txt', '.hidden', 7]) {
    const r = await call(client, 'browser_snapshot', { file: bad });
    check(r.error === 'cave_invalid_arguments', `file ${bad}: ${r.raw}`);
  }
} finally {
  await client.close();
  await server.close();
}

await checkNothingLeft(home);
fs.rmSync(home, { recursive: true, force: true });
finish('caveman-browse act diffs');
