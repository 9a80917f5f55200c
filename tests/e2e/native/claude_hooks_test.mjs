// Issue 15, acceptance 2: the real Claude Code (`caveman wrap claude -p …`) with Caveman's
// native hooks, installed by the wrap session itself, through the caveman-proxy that wrap
// starts (compress mode) to a scripted mock upstream. The mock asks for one Bash call that
// prints ~500 KB; the PostToolUse hook (caveman-proxy native-hook claude) replaces the output
// before Claude Code sends it, so the mock must receive a short compressed view or ccr://
// stub — never the 500 KB — and caveman_retrieve (official MCP SDK client → caveman-mcp)
// must return the exact 500 KB. Also checked: the signed session marker reaches the proxy, is
// stripped before the mock and correlates the usage row; the Decision Ledger explains the
// replacement (native-why); the session's typed objects list.
//
// Then, with a stand-in agent binary (CAVEMAN_AGENT_BIN, about 1 s in all): what wrap hands
// Claude Code (--plugin-dir <session dir>/plugin holding print-settings' exact document, the
// state root in the environment, the dir removed afterwards), the opt-outs (--no-hooks,
// CAVEMAN_WRAP_HOOKS=0), fail-open on a caveman-proxy that prints garbage, and `caveman status`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, check, finish } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { caveman, makeUser } from '../cli/cli_harness.mjs';

const mock = await startMockUpstream();
// SessionStart writes ccr.db before it answers with the marker; on a loaded CI box that can
// exceed the default 250 ms (silence = no correlation). Big outputs already get 20 s by
// default. Set for wrap, it must reach the hook processes through Claude Code's environment.
const user = await makeUser('caveman-native-e2e-', {
  mockUrl: mock.url, extraEnv: { CAVEMAN_NATIVE_TIMEOUT_MS: '20000' },
});
const { home, cavemanHome, proj: project } = user;

// The 500 KB the tool prints: log lines, deterministic.
const lines = [];
let size = 0;
for (let i = 0; size < 500 * 1024; i++) {
  const level = i % 1499 === 0 ? 'ERROR' : 'INFO';
  const line = `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z ${level} worker-${i % 7} processed batch ${i} in ${i % 97}ms`;
  lines.push(line);
  size += line.length + 1;
}
const expected = lines.join('\n') + '\n';
fs.writeFileSync(path.join(project, 'big.log'), expected);
const command = 'cat big.log';

// Claude Code runs hooks only in a trusted workspace.
fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({
  hasCompletedOnboarding: true,
  projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
}));

const toolId = 'toolu_native_e2e_1';
mock.script(async (record, res, h) => {
  if (!record.path.endsWith('/v1/messages')) return false;
  const body = JSON.parse(record.body.toString('utf8'));
  record.json = body;
  const text = JSON.stringify(body.messages || []);
  const model = body.model || 'mock-model';
  const sawResult = text.includes(toolId);
  const start = { type: 'message_start', message: { id: 'msg_n', type: 'message', role: 'assistant', model,
    content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };
  if (!sawResult && !text.includes('Say hello') && body.tools && body.tools.some((t) => t.name === 'Bash')) {
    await h.sse(res, [
      ['message_start', start],
      ['content_block_start', { type: 'content_block_start', index: 0,
        content_block: { type: 'tool_use', id: toolId, name: 'Bash', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command, description: 'print the log' }) } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 5 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
    return true;
  }
  await h.sse(res, [
    ['message_start', start],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 1 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
  return true;
});

// [session_id, session_correlation_basis, rowid] of every usage row, oldest first.
function usageRows() {
  const db = spawnSync('python3', ['-c',
    'import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); ' +
    'print(json.dumps(c.execute("select session_id, session_correlation_basis, rowid from requests order by rowid").fetchall()))',
    path.join(cavemanHome, 'caveman.db')], { encoding: 'utf8' });
  check(db.status === 0, `reading caveman.db: ${db.stderr}`);
  return db.status === 0 ? JSON.parse(db.stdout) : [];
}

let exitCode = 0;
try {
  const started = Date.now();
  // `caveman wrap` starts the proxy (compress, recovery via caveman-mcp), writes the plugin
  // and launches Claude Code; the mock upstream answers from this process's event loop.
  const claude = await caveman(user, ['wrap', 'claude', '-p', 'Print big.log with Bash.',
    '--allowedTools', 'Bash', '--output-format', 'json'], { timeoutMs: 90000 });
  console.log(`caveman wrap claude -p: exit ${claude.code} in ${Date.now() - started} ms`);
  check(claude.code === 0, `claude exit ${claude.code}: ${claude.stderr}\n${claude.stdout}`);
  check(/caveman: Claude Code → http:\/\/127\.0\.0\.1:\d+\/w\/claude\/@\d+ \(mode compress, recovery caveman-mcp, native hooks\)/
    .test(claude.stderr), `wrap announces the native hooks: ${claude.stderr.slice(0, 600)}`);

  const messages = mock.requests.filter((r) => r.path.endsWith('/v1/messages'));
  const withResult = messages.filter((r) => r.body.toString('utf8').includes(toolId) &&
    r.body.toString('utf8').includes('tool_result'));
  check(withResult.length >= 1, `no request carried the tool_result (${messages.length} message requests)`);
  for (const r of mock.requests) {
    check(!r.body.toString('utf8').includes('[[caveman-session-v1'), 'a session marker reached the upstream');
  }
  let ref = '';
  if (withResult.length > 0) {
    const body = JSON.parse(withResult[0].body.toString('utf8'));
    let resultText = '';
    for (const m of body.messages) {
      if (!Array.isArray(m.content)) continue;
      for (const block of m.content) {
        if (block.type !== 'tool_result' || block.tool_use_id !== toolId) continue;
        resultText = typeof block.content === 'string' ? block.content
          : block.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      }
    }
    console.log(`tool_result at the upstream: ${resultText.length} chars (tool printed ${expected.length} bytes)`);
    if (process.env.NATIVE_E2E_VERBOSE) console.log(resultText);
    else console.log(resultText.split('\n').slice(0, 4).join('\n'));
    check(resultText.length > 0 && resultText.length < 100000,
      `tool_result is ${resultText.length} chars, expected a short view`);
    check(!resultText.includes('processed batch 3500 in'), 'the middle of the 500 KB reached the upstream');
    check(resultText.includes('[caveman]'), 'the tool_result does not carry the native runtime note');
    const m = /ccr:\/\/(ccr_obj_[0-9a-f]{32})|"recovery_handle":"(ccr_[0-9a-f]{32})"/.exec(resultText);
    check(m !== null, 'no ccr:// id or ccr_ handle in the tool_result');
    if (m) ref = m[1] ? `ccr://${m[1]}` : m[2];
  }

  // Usage rows: the marker correlated the requests with the native session.
  const rows = usageRows();
  const correlated = rows.filter(([sid, basis]) => basis === 'native_marker' && sid && sid.startsWith('claude:'));
  console.log(`usage rows: ${rows.length}, correlated by marker: ${correlated.length}`);
  check(correlated.length >= 1, `no usage row correlated by a session marker: ${JSON.stringify(rows)}`);

  if (ref) {
    // caveman_retrieve through the official MCP SDK returns the exact 500 KB.
    const transport = new StdioClientTransport({
      command: bin('caveman-mcp'), args: [],
      env: { PATH: process.env.PATH, HOME: home, CAVEMAN_HOME: cavemanHome }, stderr: 'pipe',
    });
    const client = new Client({ name: 'caveman-native-e2e', version: '1.0.0' });
    await client.connect(transport);
    const got = await client.callTool({ name: 'caveman_retrieve', arguments: { recovery_handle: ref } });
    const text = (got.content || []).filter((c) => c.type === 'text').map((c) => c.text)[0] || '';
    check(!got.isError, `caveman_retrieve error: ${JSON.stringify(got.content).slice(0, 300)}`);
    check(text === expected, `caveman_retrieve returned ${text.length} chars, expected the exact ${expected.length}`);
    console.log(`caveman_retrieve(${ref}): ${text.length} chars, exact=${text === expected}`);
    await client.close();

    const env = { PATH: process.env.PATH, HOME: home, CAVEMAN_HOME: cavemanHome };
    const cli = spawnSync(bin('caveman-engine'), ['retrieve', ref], { env, maxBuffer: 64 << 20 });
    check(cli.status === 0 && cli.stdout.equals(Buffer.from(expected)),
      `caveman-engine retrieve ${ref}: exit ${cli.status} ${cli.stderr}`);

    // The session's typed objects, and the decision that replaced the output.
    const session = correlated.length > 0 ? correlated[0][0] : '';
    const listed = spawnSync(bin('caveman-engine'), ['objects', 'list', session], { env, encoding: 'utf8' });
    check(listed.status === 0, `objects list: ${listed.stderr}`);
    if (listed.status === 0) {
      const objs = JSON.parse(listed.stdout).objects;
      const types = objs.map((o) => o.type);
      console.log(`typed objects of ${session}: ${types.join(', ')}`);
      check(types.includes('TaskContract') && types.includes('TaskDecision'), `objects: ${types}`);
      const decision = objs.find((o) => o.type === 'TaskDecision');
      const id = decision ? JSON.parse(decision.data).decision_id : '';
      const why = spawnSync(bin('caveman-proxy'), ['native-why', '--decision', id], { env, encoding: 'utf8' });
      check(why.status === 0 && JSON.parse(why.stdout).decision.recovery_ref === ref,
        `native-why ${id}: ${why.status} ${why.stdout} ${why.stderr}`);
    }
  }

  // --no-hooks, with the prompt as a positional argument right after wrap's own args (it
  // must not be taken for a second --mcp-config file): Claude Code answers, and no request of
  // this run carries a session marker, so no new usage row is correlated.
  const before = mock.requests.length;
  const lastRow = rows.length > 0 ? rows[rows.length - 1][2] : 0;
  const plain = await caveman(user, ['wrap', '--no-hooks', 'claude', 'Say hello.', '-p',
    '--output-format', 'json'], { timeoutMs: 60000 });
  check(plain.code === 0 && JSON.parse(plain.stdout || '{}').result === 'done',
    `wrap --no-hooks claude: exit ${plain.code} ${plain.stdout.slice(0, 300)} ${plain.stderr.slice(0, 600)}`);
  check(!plain.stderr.includes('native hooks'), `--no-hooks: no hooks announced: ${plain.stderr.slice(0, 400)}`);
  check(mock.requests.length > before, '--no-hooks run reached the mock');
  // The proxy's usage writer runs just after each response: give it a moment.
  let plainRows = [];
  for (let t = 0; t < 20 && plainRows.length === 0; t++) {
    plainRows = usageRows().filter(([, , rowid]) => rowid > lastRow);
    if (plainRows.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  check(plainRows.length >= 1 && plainRows.every(([, basis]) => basis !== 'native_marker'),
    `--no-hooks run: usage rows without a session marker: ${JSON.stringify(plainRows)}`);

  // What wrap hands Claude Code, seen by a stand-in agent binary (the proxy is already up).
  const fakeDir = path.join(user.work, 'fake');
  fs.mkdirSync(fakeDir);
  const fakeClaude = path.join(fakeDir, 'claude');
  fs.writeFileSync(fakeClaude, [
    '#!/bin/sh',
    'out="$FAKE_OUT"; : > "$out/args"',
    'for a in "$@"; do printf "%s\\n" "$a" >> "$out/args"; done',
    'printf "%s|%s" "$CAVEMAN_HOME" "$CAVEMAN_NATIVE_TIMEOUT_MS" > "$out/env"',
    'prev=""; for a in "$@"; do if [ "$prev" = "--plugin-dir" ]; then cp -r "$a" "$out/plugin"; echo "$a" > "$out/dir"; fi; prev="$a"; done',
    'exit 0', ''].join('\n'), { mode: 0o755 });
  const agent = async (args, env = {}) => {
    for (const f of ['args', 'env', 'dir']) fs.rmSync(path.join(fakeDir, f), { force: true });
    fs.rmSync(path.join(fakeDir, 'plugin'), { recursive: true, force: true });
    const r = await caveman(user, ['wrap', ...args, 'claude', 'a prompt'],
      { env: { CAVEMAN_AGENT_BIN: fakeClaude, FAKE_OUT: fakeDir, ...env } });
    const read = (f) => (fs.existsSync(path.join(fakeDir, f)) ? fs.readFileSync(path.join(fakeDir, f), 'utf8') : '');
    return { ...r, args: read('args').split('\n').filter(Boolean), env: read('env'), dir: read('dir').trim() };
  };
  const printed = spawnSync(bin('caveman-proxy'), ['native-hook', 'print-settings'], { encoding: 'utf8' });
  check(printed.status === 0, `print-settings: ${printed.stderr}`);
  const a = await agent([]);
  check(a.code === 0, `stand-in claude: exit ${a.code} ${a.stderr}`);
  const i = a.args.indexOf('--plugin-dir');
  check(i >= 0 && a.args[i + 1] === a.dir && /caveman-wrap-[^/]+\/plugin$/.test(a.dir),
    `--plugin-dir <session dir>/plugin in argv: ${JSON.stringify(a.args)}`);
  check(a.args.some((x) => x.startsWith('--mcp-config=')) && a.args[a.args.length - 1] === 'a prompt',
    `argv keeps --mcp-config=… and the user's prompt last: ${JSON.stringify(a.args)}`);
  const copied = path.join(fakeDir, 'plugin');
  check(fs.existsSync(path.join(copied, 'hooks', 'hooks.json')) &&
    fs.readFileSync(path.join(copied, 'hooks', 'hooks.json'), 'utf8') === printed.stdout,
  'hooks/hooks.json is exactly print-settings\' output');
  const manifest = JSON.parse(fs.readFileSync(path.join(copied, '.claude-plugin', 'plugin.json'), 'utf8'));
  check(manifest.name === 'caveman', `plugin.json: ${JSON.stringify(manifest)}`);
  check(a.env === `${cavemanHome}|20000`, `CAVEMAN_HOME and CAVEMAN_NATIVE_* reach the agent: ${a.env}`);
  check(a.dir && !fs.existsSync(a.dir), 'the plugin dir is removed when the agent exits');

  const off = await agent([], { CAVEMAN_WRAP_HOOKS: '0' });
  check(off.code === 0 && !off.args.includes('--plugin-dir'), `CAVEMAN_WRAP_HOOKS=0: ${JSON.stringify(off.args)}`);
  const noHooks = await agent(['--no-hooks']);
  check(noHooks.code === 0 && !noHooks.args.includes('--plugin-dir'), `--no-hooks: ${JSON.stringify(noHooks.args)}`);
  // A caveman-proxy that prints garbage: warned about, the agent still starts, without hooks.
  const garbage = path.join(fakeDir, 'caveman-proxy');
  fs.writeFileSync(garbage, '#!/bin/sh\necho "not a hooks document"\n', { mode: 0o755 });
  const bad = await agent([], { CAVEMAN_PROXY_BIN: garbage });
  check(bad.code === 0 && !bad.args.includes('--plugin-dir') && bad.args.includes('a prompt'),
    `garbage print-settings: agent launched without hooks: ${bad.code} ${JSON.stringify(bad.args)}`);
  check(bad.stderr.includes('warning: cave_native_hooks_invalid'), `garbage is warned about: ${bad.stderr.slice(0, 500)}`);

  const st = await caveman(user, ['status', '--json']);
  const status = JSON.parse(st.stdout || '{}');
  check(status.claude_hooks && status.claude_hooks.enabled === true && status.claude_hooks.available === true,
    `status --json claude_hooks: ${JSON.stringify(status.claude_hooks)}`);
  const stOff = await caveman(user, ['status'], { env: { CAVEMAN_WRAP_HOOKS: '0' } });
  check(stOff.stdout.includes('claude hooks: off (CAVEMAN_WRAP_HOOKS=0)'), `status text: ${stOff.stdout}`);
} catch (e) {
  check(false, `unexpected: ${e.stack}`);
  exitCode = 1;
} finally {
  await user.cleanup();
  await mock.close();
}
finish('caveman wrap claude installs the native hooks; the real Claude Code masks a 500 KB Bash output');
process.exit(exitCode);
