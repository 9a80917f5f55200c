// Issue 24, acceptance 2: `caveman enable <agent>` → the real agent (run by itself, not through
// caveman) completes a one-shot prompt against the provider stand-in through the proxy → disable,
// on a temp HOME, for Claude Code, Codex CLI, Gemini CLI, opencode and Qwen Code. Per agent:
//   1. enable exits 0 and edits only the agent's user config (plus MCP registration).
//   2. The proxy is NOT running when the agent starts: the agent's own start-up mechanism
//      (SessionStart hook / provider auth command / plugin) starts it — never a dead agent.
//      The prompt's answer is printed; `caveman verify --agent A` finds its usage row; for
//      codex/gemini/opencode/qwen the tool call reads a large corpus log that reaches the stand-in
//      compressed with a <<ccr:…>> handle.
//   3. `caveman doctor A` reports it enabled and nothing broken, `caveman status --json` lists
//      it; `caveman claude …` (the shortcut) runs the enabled install.
//   4. disable: every file byte-identical to before enable (or gone when enable created it).
// Usage: node cli/enable_test.mjs [claude|codex|gemini|opencode|qwen …] (default: all five).
import fs from 'node:fs';
import path from 'node:path';
import { check, corpusDir, finish } from '../lib/harness.mjs';
import { startMockUpstream, TEXT } from '../lib/mock_upstream.mjs';
import { agentsBin, caveman, claudeBin, latestHandledToolResult, makeUser, refuseTitleRequests, runAgent } from './cli_harness.mjs';

const logName = 'log-leveldb-build-error.log';
const logText = fs.readFileSync(path.join(corpusDir, 'public', logName), 'utf8');
const FINAL = 'All read.';

// Each agent: its env, the files enable may touch (with what they hold before), the one-shot.
const AGENTS = {
  claude: {
    bin: claudeBin,
    env: {},
    files: (h) => ({ [`${h}/.claude/settings.json`]: '{\n  "theme": "dark"\n}\n' }),
    argv: ['-p', 'Say hello.'],
    answer: TEXT,
    tool: null,
  },
  codex: {
    hooks: true,
    bin: path.join(agentsBin, 'codex'),
    env: { OPENAI_API_KEY: 'sk-dummy-key' },
    files: (h) => ({ [`${h}/.codex/config.toml`]: '# my codex config\nmodel_reasoning_effort = "low"\n' }),
    argv: ['exec', '--skip-git-repo-check', '-s', 'danger-full-access', '-c', 'tool_output_token_limit=100000',
      '-m', 'mock-model', 'Read the build log.'],
    tool: (file) => ({ name: 'exec_command', input: { cmd: `cat ${file}`, max_output_tokens: 100000 } }),
  },
  gemini: {
    hooks: true,
    bin: path.join(agentsBin, 'gemini'),
    env: { GEMINI_API_KEY: 'dummy-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    files: (h) => ({
      [`${h}/.gemini/settings.json`]: '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } }\n}\n',
      [`${h}/.gemini/.env`]: null,
    }),
    argv: ['-p', 'Read the build log.', '-m', 'gemini-2.5-flash', '--yolo'],
    tool: (file) => ({ name: 'read_file', input: { file_path: file } }),
  },
  opencode: {
    bin: path.join(agentsBin, 'opencode'),
    env: { OPENAI_API_KEY: 'sk-dummy-key', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' },
    files: (h) => ({
      [`${h}/.config/opencode/opencode.json`]: null,
      [`${h}/.config/opencode/plugin/caveman-proxy.js`]: null,
    }),
    argv: ['run', '-m', 'openai/gpt-4.1', 'Read the build log.'],
    tool: (file) => ({ name: 'read', input: { filePath: file } }),
  },
  qwen: {
    bin: path.join(agentsBin, 'qwen'),
    env: { OPENAI_API_KEY: 'sk-dummy-key', OPENAI_MODEL: 'mock-model' },
    files: (h) => ({ [`${h}/.qwen/settings.json`]: '{"$version":4,"security":{"auth":{"selectedType":"openai"}}}\n' }),
    argv: ['-p', 'Read the build log.', '--yolo'],
    tool: (file) => ({ name: 'read_file', input: { file_path: file } }),
  },
};

function snapshot(files) {
  const out = {};
  for (const f of Object.keys(files)) out[f] = fs.existsSync(f) ? fs.readFileSync(f) : null;
  return out;
}

function checkCompressed(name, mock, seen) {
  const output = latestHandledToolResult(mock, seen);
  // Codex and Gemini CLI get native hooks from enable: the hook masks the output (its note
  // names a recovery_handle or a ccr:// id) before the proxy would (a <<ccr:…>> marker).
  const hooked = /recovery_handle\\?":\\?"ccr_[0-9a-f]{32}|ccr:\/\/ccr_obj_[0-9a-f]{32}/;
  const handle = AGENTS[name].hooks ? hooked : /<<ccr:ccr_[A-Za-z0-9_-]+>>/;
  check(handle.test(output), `${name}: the tool output reached the stand-in with a recovery handle: ${output.slice(-300)}`);
  check(output.length > 0 && output.length < logText.length / 2,
    `${name}: the tool output at the stand-in (${output.length} B) is under half the file (${logText.length} B)`);
}

async function testAgent(name, mock) {
  const a = AGENTS[name];
  const user = await makeUser(`caveman-enable-${name}-`, { mockUrl: mock.url });
  user.env.PATH = `${user.env.PATH}:${agentsBin}`;
  const files = a.files(user.home);
  for (const [f, text] of Object.entries(files)) {
    if (text === null) continue;
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }
  if (name === 'claude') {  // Claude Code runs hooks only in a trusted workspace
    fs.writeFileSync(path.join(user.home, '.claude.json'), JSON.stringify({
      hasCompletedOnboarding: true, projects: { [user.proj]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }));
  }
  const before = snapshot(files);
  try {
    const en = await caveman(user, ['enable', name], { env: a.env, timeoutMs: 120000 });
    check(en.code === 0, `${name}: enable exits 0: ${en.stdout}${en.stderr}`);
    if (a.hooks) check(/^  hooks: /m.test(en.stdout), `${name}: enable installed the native hooks: ${en.stdout}${en.stderr}`);
    check(user.runState() === null, `${name}: no proxy runs before the agent starts`);

    // The agent by itself, proxy stopped: its start-up mechanism brings the proxy up.
    const file = path.join(user.proj, logName);
    fs.writeFileSync(file, logText);
    if (a.tool) mock.enqueue({ tool_use: a.tool(file) }, { text: FINAL });
    const seen = mock.requests.length;
    const r = await runAgent(user, [a.bin, ...a.argv], { env: a.env });
    check(r.code === 0, `${name}: the enabled agent exits 0 with the proxy stopped at start (got ${r.code}): ${r.out.slice(-800)}`);
    check(r.out.includes(a.answer ?? FINAL), `${name}: printed the stand-in's answer: ${r.out.slice(-300)}`);
    check(user.runState() !== null, `${name}: the agent started the proxy`);
    if (a.tool) checkCompressed(name, mock, seen);
    const v = await caveman(user, ['verify', '--agent', name, '--wait', '5']);
    check(v.code === 0, `${name}: verify finds a usage row: ${v.stdout}${v.stderr}`);

    const d = await caveman(user, ['doctor', name], { env: a.env });
    check(d.code === 0 && d.stdout.includes('ok      enabled'), `${name}: doctor: ${d.stdout}${d.stderr}`);
    const st = await caveman(user, ['status', '--json'], { env: a.env });
    const listed = JSON.parse(st.stdout || '{}').enabled ?? [];
    check(listed.some((e) => e.agent === name && e.base_url.endsWith(`/w/${name}`)), `${name}: status lists it enabled: ${st.stdout.slice(-400)}`);
    if (name === 'claude') {  // the shortcut runs the enabled install (proxy already up)
      const s = await caveman(user, [name, ...a.argv], { env: a.env, timeoutMs: 120000 });
      check(s.code === 0 && s.stderr.includes('(enabled)') && s.stdout.includes(TEXT),
        `${name}: caveman ${name} uses the enabled install: ${s.stderr.slice(-400)}`);
    }

    await user.stopProxy();
    const dis = await caveman(user, ['disable', name], { env: a.env, timeoutMs: 120000 });
    check(dis.code === 0, `${name}: disable exits 0: ${dis.stdout}${dis.stderr}`);
    const after = snapshot(files);
    for (const f of Object.keys(files)) {
      if (before[f] === null) check(after[f] === null, `${name}: ${f} created by enable is gone`);
      else check(after[f] !== null && after[f].equals(before[f]), `${name}: ${f} byte-identical after disable`);
    }
    check(!fs.existsSync(path.join(user.cavemanHome, 'enable', `${name}.json`)), `${name}: enable marker removed`);
  } finally {
    await user.cleanup();
  }
}

const mock = await startMockUpstream();
refuseTitleRequests(mock);
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(AGENTS);
try {
  for (const name of wanted) await testAgent(name, mock);
} finally {
  await mock.close();
}
finish(`caveman enable → real agent with the proxy stopped → disable (${wanted.join(', ')}): byte-identical configs`);
