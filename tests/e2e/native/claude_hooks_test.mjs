// Issue 15, acceptance 2: the real Claude Code (`claude -p`) with Caveman's native hooks,
// through caveman-proxy (compress mode) to a scripted mock upstream. The mock asks for one
// Bash call that prints ~500 KB; the PostToolUse hook (caveman-proxy native-hook claude)
// replaces the output before Claude Code sends it, so the mock must receive a short
// compressed view or ccr:// stub — never the 500 KB — and caveman_retrieve (official MCP
// SDK client → caveman-mcp) must return the exact 500 KB. Also checked: the signed session
// marker reaches the proxy, is stripped before the mock and correlates the usage row; the
// Decision Ledger explains the replacement (native-why); the session's typed objects list.
//
// Hooks come from `caveman-proxy native-hook print-settings`, installed as a temporary
// Claude Code plugin (--plugin-dir), the way `caveman wrap claude` is to install them.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, check, finish, tempHome } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, startProxy } from '../proxy/harness.mjs';

const claudeBin = path.resolve('node_modules/.bin/claude');
const home = tempHome('caveman-native-e2e-');
const cavemanHome = path.join(home, '.caveman');
fs.mkdirSync(cavemanHome, { mode: 0o700 });
const project = path.join(home, 'proj');
fs.mkdirSync(project);

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

// Hooks: exactly what print-settings produces.
const settingsArgs = ['native-hook', 'print-settings'];
// Debugging aid: NATIVE_E2E_DUMP=<file> appends every hook payload to <file>.
if (process.env.NATIVE_E2E_DUMP) {
  settingsArgs.push('--command', `tee -a ${process.env.NATIVE_E2E_DUMP} | '${bin('caveman-proxy')}' native-hook claude`);
}
const settings = spawnSync(bin('caveman-proxy'), settingsArgs, { encoding: 'utf8' });
check(settings.status === 0, `print-settings exit ${settings.status}: ${settings.stderr}`);
fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
// Installed as `caveman wrap claude` is to install them (PROCESSES.md §2.5 step 11): a
// temporary plugin dir passed with --plugin-dir. NATIVE_E2E_SETTINGS=1: the user's
// ~/.claude/settings.json instead (the persistent `enable` path); both pass.
const pluginDir = path.join(home, 'caveman-plugin');
const claudeExtra = [];
if (!process.env.NATIVE_E2E_SETTINGS) {
  fs.mkdirSync(path.join(pluginDir, '.claude-plugin'), { recursive: true });
  fs.mkdirSync(path.join(pluginDir, 'hooks'));
  fs.writeFileSync(path.join(pluginDir, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'caveman', version: '0.0.0', description: 'Caveman native hooks' }));
  fs.writeFileSync(path.join(pluginDir, 'hooks', 'hooks.json'), settings.stdout);
  claudeExtra.push('--plugin-dir', pluginDir);
} else {
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), settings.stdout);
}
// Claude Code runs hooks only in a trusted workspace.
fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({
  hasCompletedOnboarding: true,
  projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
}));

const mock = await startMockUpstream();
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
  if (!sawResult && body.tools && body.tools.some((t) => t.name === 'Bash')) {
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

const proxy = await startProxy({
  home: cavemanHome,
  yaml: providersYaml(mock.url),
  env: { CAVEMAN_MODE: 'compress', CAVEMAN_RECOVERY: 'mcp', HOME: home },
});
let exitCode = 0;
try {
  const started = Date.now();
  // Asynchronous: the mock upstream answers from this process's event loop.
  const claude = await new Promise((resolve) => {
    const child = spawn(claudeBin, ['-p', 'Print big.log with Bash.', '--allowedTools', 'Bash',
      '--output-format', 'json', ...claudeExtra], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: `${path.dirname(bin('caveman-proxy'))}:/usr/local/bin:/usr/bin:/bin`,
        HOME: home,
        TERM: 'dumb',
        CAVEMAN_HOME: cavemanHome,
        ANTHROPIC_BASE_URL: proxy.url,
        ANTHROPIC_API_KEY: 'sk-ant-dummy',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // SessionStart writes ccr.db before it answers with the marker; on a loaded CI box
        // that can exceed the default 250 ms (silence = no correlation). Big outputs already
        // get 20 s by default.
        CAVEMAN_NATIVE_TIMEOUT_MS: '20000',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
  console.log(`claude -p: exit ${claude.status} in ${Date.now() - started} ms`);
  check(claude.status === 0, `claude exit ${claude.status}: ${claude.stderr}\n${claude.stdout}`);

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
  const db = spawnSync('python3', ['-c',
    'import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); ' +
    'print(json.dumps(c.execute("select session_id, session_correlation_basis from requests").fetchall()))',
    path.join(cavemanHome, 'caveman.db')], { encoding: 'utf8' });
  const rows = db.status === 0 ? JSON.parse(db.stdout) : [];
  const correlated = rows.filter(([sid, basis]) => basis === 'native_marker' && sid && sid.startsWith('claude:'));
  console.log(`usage rows: ${rows.length}, correlated by marker: ${correlated.length}`);
  check(correlated.length >= 1, `no usage row correlated by a session marker: ${db.stdout} ${db.stderr}`);

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
} catch (e) {
  check(false, `unexpected: ${e.stack}`);
  exitCode = 1;
} finally {
  await proxy.stop();
  await mock.close();
  fs.rmSync(home, { recursive: true, force: true });
}
finish('native hooks with the real Claude Code');
process.exit(exitCode);
