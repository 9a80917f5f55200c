// Whole browsing tasks, caveman-browse vs @playwright/mcp: tool calls, o200k tokens of every
// tool result, success and wall time per task (issue 26, scope 3).
//
// usage: node bench/browse_task_bench.mjs <bin dir> [task…]   (prints one JSON object on stdout)
//
// Each task is a script of steps on local pages (tests/testdata/browse/task_*.html, served on
// loopback by tests/e2e/browse/page_server.mjs), played against both servers through the
// official MCP SDK client, with the same Chromium. Every step is done the way an agent would
// do it with that server's tools, and an agent only knows what the tool results told it:
//   go(url, look?)   caveman browser_snapshot{url, query:look} (whole view without look);
//                    Playwright browser_navigate (its page snapshot goes to a file) and then
//                    browser_find{text:look}, or browser_snapshot without look.
//   click/type/select on (role, name)
//                    the control's uid/ref from the results seen on this page; when unknown,
//                    one focused look-up first (caveman browser_snapshot{query:name},
//                    Playwright browser_find{text:name}); then browser_act / browser_click,
//                    browser_type, browser_select_option.
//   wait(text)       caveman browser_act{wait,text}; Playwright browser_wait_for{text}.
//   dialog           Playwright browser_handle_dialog{accept}; caveman answers dialogs itself
//                    (the step checks the click's result reported it).
//   see(query, text) the text must be in a result since the last action; if not, one focused
//                    look-up (as above, with query) must show it.
// Success = every step succeeded and the task's final check (a JavaScript expression run
// through each server's eval tool, not counted) is true. Tokens: gpt-tokenizer o200k_base of
// the text content of each result (what the agent reads). Wall time: the steps, not the check.
// BROWSE_TASK_TRACE=1 prints every call and its result on stderr.
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

export const chrome = process.env.CAVEMAN_BROWSE_CHROME || '/usr/lib/chromium/chromium';

export const tasks = [
  { name: 'signup', label: 'sign in, then a 3-step form',
    steps: [['go', 'task_signup.html'], ['type', 'textbox', 'Username', 'ada'], ['type', 'textbox', 'Password', 'secret'],
      ['click', 'button', 'Sign in'], ['type', 'textbox', 'Full name', 'Ada Lovelace'], ['select', 'combobox', 'Plan', 'Team'],
      ['click', 'button', 'Next'], ['type', 'textbox', 'City', 'Lyon'], ['select', 'combobox', 'Country', 'France'],
      ['click', 'button', 'Create account'], ['see', 'Account created', 'Account created for Ada Lovelace (Team plan, Lyon, France)']],
    check: "document.getElementById('result').textContent === 'Account created for Ada Lovelace (Team plan, Lyon, France)'" },
  { name: 'table', label: 'filter a 300-row table, open a row',
    steps: [['go', 'task_table.html', 'Filter orders'], ['type', 'searchbox', 'Filter orders', 'ORD-0217'],
      ['click', 'button', 'Open ORD-0217'], ['see', 'Order ORD-0217', 'shipped to Oslo']],
    check: "document.getElementById('detail').textContent.includes('ORD-0217') && document.getElementById('detail').textContent.endsWith('Oslo')" },
  { name: 'docs', label: 'find an answer in a long reference page',
    steps: [['go', 'task_docs.html', 'retry limit'], ['see', 'retry limit', '7 retries']],
    check: "document.title === 'Queue client reference'" },
  { name: 'links', label: 'follow links across 3 pages',
    steps: [['go', 'task_links_1.html'], ['click', 'link', 'Products'], ['click', 'link', 'Widget Pro'], ['see', 'Price', 'EUR 129.00']],
    check: "location.pathname.endsWith('task_links_3.html')" },
  { name: 'dynamic', label: 'results that arrive after a click',
    steps: [['go', 'task_dynamic.html'], ['type', 'searchbox', 'Search help', 'battery'], ['click', 'button', 'Search'],
      ['wait', 'Found 3 results'], ['click', 'button', 'Open Battery care'], ['see', 'Battery care', 'Charge to 80%']],
    check: "document.getElementById('answer').textContent.includes('Charge to 80%')" },
  { name: 'dialog', label: 'confirm a dialog',
    steps: [['go', 'task_dialog.html'], ['click', 'button', 'Delete account'], ['dialog'], ['see', 'Account deleted', 'Account deleted']],
    check: "document.getElementById('out').textContent === 'Account deleted'" },
];

const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function connect(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'caveman-browse-task-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// One server as an agent sees it: every call is counted; `known` holds the results seen on the
// current page (to find uids/refs), `recent` those since the last action (to see outcomes).
class Agent {
  constructor(client, tools) {
    this.client = client;
    this.tools = tools;
    this.reset();
  }

  reset() {
    this.calls = 0;
    this.tokens = 0;
    this.known = [];
    this.recent = [];
  }

  async call(name, args, { page = false } = {}) {
    this.calls += 1;
    const r = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    const t = text(r);
    this.tokens += countTokens(t);
    if (process.env.BROWSE_TASK_TRACE) console.error(`${name} ${JSON.stringify(args)} → ${countTokens(t)}\n${t}\n`);
    if (page || this.tools.replaced(t)) this.known = [];
    this.known.push(this.tools.readable(t));
    this.recent.push(this.tools.readable(t));
    return { t, error: r.isError };
  }

  locate(role, name) {
    const re = this.tools.refPattern(role, name);
    for (let i = this.known.length - 1; i >= 0; i--) {
      const m = this.known[i].match(re);
      if (m) return m[1];
    }
    return null;
  }

  async ref(role, name) {
    let ref = this.locate(role, name);
    if (!ref) {
      await this.tools.look(this, name);
      ref = this.locate(role, name);
    }
    return ref;
  }
}

// caveman's results are JSON; the agent reads the strings inside.
function readableJson(t) {
  try {
    const j = JSON.parse(t);
    return [j.uids, j.changes, j.dialogs && JSON.stringify(j.dialogs)].filter(Boolean).join('\n');
  } catch {
    return t;
  }
}

const caveman = {
  name: 'caveman',
  readable: readableJson,
  refPattern: (role, name) => new RegExp(`\\[(u[0-9a-z_]+)\\] ${role} "${escape(name)}"`),
  replaced: (t) => t.startsWith('{"ok":true,"new_page":true'),
  go: (a, url, look) => a.call('browser_snapshot', look ? { url, query: look } : { url }, { page: true }),
  look: (a, query) => a.call('browser_snapshot', { query }),
  act: (a, action, uid, value) =>
    a.call('browser_act', { action, uid, ...(action === 'type' ? { text: value } : action === 'select' ? { option: value } : {}) }),
  wait: (a, t) => a.call('browser_act', { action: 'wait', text: t }),
  dialog: async (a) => a.recent.some((t) => t.includes('"type":"confirm"')),
  check: async (client, expr) => JSON.parse(text(await client.callTool({ name: 'browser_eval', arguments: { expression: expr } }))).result === true,
};

const playwright = {
  name: 'playwright',
  readable: (t) => t,
  refPattern: (role, name) => new RegExp(`${role} "${escape(name)}"[^\\n]*\\[ref=([a-z0-9]+)\\]`),
  url: '',
  // Another page (a followed link) makes the refs seen so far useless.
  replaced(t) {
    const url = t.match(/^- Page URL: (\S+)$/m)?.[1];
    if (!url || url === this.url) return false;
    this.url = url;
    return true;
  },
  go: async (a, url, look) => {
    playwright.url = url;
    await a.call('browser_navigate', { url }, { page: true });
    return look ? a.call('browser_find', { text: look }) : a.call('browser_snapshot', {});
  },
  look: (a, query) => a.call('browser_find', { text: query }),
  act: (a, action, ref, value, name) => {
    if (action === 'click') return a.call('browser_click', { element: name, target: ref });
    if (action === 'type') return a.call('browser_type', { element: name, target: ref, text: value });
    return a.call('browser_select_option', { element: name, target: ref, values: [value] });
  },
  wait: (a, t) => a.call('browser_wait_for', { text: t }),
  dialog: async (a) => !(await a.call('browser_handle_dialog', { accept: true })).error,
  check: async (client, expr) =>
    /### Result\s*\n\s*true\b/.test(text(await client.callTool({ name: 'browser_evaluate', arguments: { function: `() => (${expr})` } }))),
};

// Plays one step; false when it failed.
async function step(a, tools, base, s) {
  const [kind, ...args] = s;
  if (kind === 'go') {
    a.recent = [];
    return !(await tools.go(a, `${base}/${args[0]}`, args[1])).error;
  }
  if (kind === 'see') {
    if (a.recent.some((t) => t.includes(args[1]))) return true;
    return (await tools.look(a, args[0])).t.includes(args[1]);
  }
  if (kind === 'dialog') return tools.dialog(a);
  const ref = kind === 'wait' ? null : await a.ref(args[0], args[1]);
  if (kind !== 'wait' && !ref) return false;
  a.recent = [];
  const r = kind === 'wait' ? await tools.wait(a, args[0]) : await tools.act(a, kind, ref, args[2], args[1]);
  return !r.error;
}

async function runTask(client, tools, base, task) {
  const a = new Agent(client, tools);
  const failed = [];
  const t0 = process.hrtime.bigint();
  for (const s of task.steps) {
    if (!(await step(a, tools, base, s))) failed.push(s.join(' '));
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const checked = await tools.check(client, task.check).catch(() => false);
  return { calls: a.calls, tokens: a.tokens, ok: failed.length === 0 && checked, failed, checked, ms: Math.round(ms) };
}

// Runs `names` (default: every task) on both servers; caveman runs with `cavemanEnv` added.
export async function runBench({ binDir, names = [], home, cavemanEnv = {} }) {
  const chosen = names.length ? tasks.filter((t) => names.includes(t.name)) : tasks;
  const server = await startPageServer();
  const pw = await connect(process.execPath,
    [path.join(root, 'tests/e2e/node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--executable-path', chrome,
     '--no-sandbox', '--output-dir', path.join(home, 'playwright-output')], {});
  const cm = await connect(path.join(binDir, 'caveman-browse'), [],
    { CAVEMAN_HOME: path.join(home, '.caveman'), CAVEMAN_BROWSE_EPHEMERAL: '1', CAVEMAN_BROWSE_CHROME: chrome, ...cavemanEnv });
  const rows = [];
  try {
    for (const task of chosen) {
      rows.push({ name: task.name, label: task.label, steps: task.steps.length,
        caveman: await runTask(cm, caveman, server.base, task),
        playwright: await runTask(pw, playwright, server.base, task) });
    }
  } finally {
    await pw.close().catch(() => {});
    await cm.close().catch(() => {});
    await server.close();
  }
  const pwVersion = JSON.parse(fs.readFileSync(path.join(root, 'tests/e2e/node_modules/@playwright/mcp/package.json'))).version;
  return { chrome: execFileSync(chrome, ['--version']).toString().trim(), playwright_mcp: pwVersion, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const binDir = path.resolve(process.argv[2] ?? 'build/release/bin');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'caveman-browse-tasks-'));
  try {
    console.log(JSON.stringify(await runBench({ binDir, names: process.argv.slice(3), home })));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
