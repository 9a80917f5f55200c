// Issue 24, acceptance 3: Caveman's native hooks with the real Codex CLI and Gemini CLI
// (tests/e2e/agents, pinned by its package-lock), installed by `caveman wrap <agent>` for the
// session only, through the proxy wrap starts (compress mode) to the provider stand-in, on a
// temp HOME. Per agent:
//   1. The stand-in asks for one shell call printing a ~190 KB log. The agent's tool-after
//      hook (caveman-proxy native-hook <agent>) replaces it before the agent sends it: the
//      stand-in receives a short "[caveman]" view (Codex: the block reason as the tool output;
//      Gemini: "Tool result blocked: <view>"), never the middle of the log, and the handle in
//      it retrieves the whole output exactly (caveman-engine retrieve).
//   2. The session marker never reaches the stand-in and correlates the usage rows.
//   3. The shrink hook: a test command run through the shell tool (`sh ctest_noise.sh`, 2,000
//      lines and a failure) runs under caveman-shrink: the stand-in sees its footer and the
//      failure line, not the passing lines.
//   4. The user's own config files are byte-identical afterwards (wrap writes nothing there).
//   5. With a stand-in agent binary: what wrap hands the agent (Codex: `-c hooks.…` and the
//      trust of exactly those hooks; Gemini: GEMINI_CLI_SYSTEM_DEFAULTS_PATH → a session file
//      with the hooks, removed afterwards), and both opt-outs.
// Usage: node native/agent_hooks_test.mjs [codex|gemini …] (default: both).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, check, finish } from '../lib/harness.mjs';
import { latestToolResult, startMockUpstream } from '../lib/mock_upstream.mjs';
import { agentsBin, caveman, makeUser } from '../cli/cli_harness.mjs';

const FINAL = 'All read.';
const lines = [];
for (let i = 0; i < 3000; i++) lines.push(`2026-11-30T10:00:00Z INFO worker-${i % 7} processed batch ${i} in ${i % 97}ms`);
const expected = lines.join('\n') + '\n';

const AGENTS = {
  codex: {
    env: { OPENAI_API_KEY: 'sk-dummy-key' },
    config: (home) => path.join(home, '.codex/config.toml'),
    seed: '# my codex config\nmodel_reasoning_effort = "low"\n',
    tool: { name: 'exec_command', input: { cmd: 'cat big.log', max_output_tokens: 100000 } },
    shrinkTool: { name: 'exec_command', input: { cmd: 'sh ctest_noise.sh', max_output_tokens: 100000 } },
    argv: ['exec', '--skip-git-repo-check', '-s', 'danger-full-access', '-c', 'tool_output_token_limit=100000',
      '-m', 'mock-model', 'Print big.log.'],
  },
  gemini: {
    env: { GEMINI_API_KEY: 'dummy-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    config: (home) => path.join(home, '.gemini/settings.json'),
    seed: '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } }\n}\n',
    tool: { name: 'run_shell_command', input: { command: 'cat big.log' } },
    shrinkTool: { name: 'run_shell_command', input: { command: 'sh ctest_noise.sh' } },
    argv: ['-p', 'Print big.log.', '-m', 'gemini-2.5-flash', '--yolo'],
  },
};

function usageRows(cavemanHome) {
  const db = spawnSync('python3', ['-c',
    'import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); ' +
    'print(json.dumps(c.execute("select session_id, session_correlation_basis from requests order by rowid").fetchall()))',
    path.join(cavemanHome, 'caveman.db')], { encoding: 'utf8' });
  return db.status === 0 ? JSON.parse(db.stdout) : [];
}

// Gemini CLI loads the session's hooks file (wrap writes it under $CAVEMAN_HOME) only when root
// owns it and every directory above it, none writable by group or others (docs/native.md,
// "Gemini CLI hooks"): /tmp (1777) fails, and so does a checkout below it. Every temp HOME of
// this test therefore lives in a fresh 0700 directory below the first candidate that passes —
// the user's home, then the build tree — wherever the checkout is; removed at the end.
const root = process.getuid() === 0;
// Every directory from `dir` up to / writable by its owner only (and, as Gemini requires, owned
// by root when the test runs as root).
function ownerOnlyAncestors(dir) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    if ((st.mode & 0o022) !== 0 || (root && st.uid !== 0)) return false;
    if (d === path.dirname(d)) return true;
  }
}
function privateTmp() {
  const candidates = [os.homedir(), path.join(path.dirname(bin('caveman')), '..')];
  const base = candidates.find((d) => fs.existsSync(d) && ownerOnlyAncestors(d));
  if (!base) {
    throw new Error(`no directory among ${candidates.join(', ')} has every ancestor writable only by its owner ` +
      `(uid ${process.getuid()}); Gemini CLI would skip the session hooks below any of them`);
  }
  return fs.mkdtempSync(path.join(base, '.caveman-e2e-hooks-'));
}

async function realRun(name, mock) {
  const a = AGENTS[name];
  const user = await makeUser(`caveman-hooks-${name}-`, {
    mockUrl: mock.url, extraEnv: { CAVEMAN_NATIVE_TIMEOUT_MS: '20000' },
  });
  user.env.PATH = `${user.env.PATH}:${agentsBin}`;
  const cfg = a.config(user.home);
  fs.mkdirSync(path.dirname(cfg), { recursive: true });
  fs.writeFileSync(cfg, a.seed);
  fs.writeFileSync(path.join(user.proj, 'big.log'), expected);
  try {
    mock.enqueue({ tool_use: a.tool }, { text: FINAL });
    const seen = mock.requests.length;
    const started = Date.now();
    const r = await caveman(user, ['wrap', name, ...a.argv], { env: a.env, timeoutMs: 240000 });
    console.log(`caveman wrap ${name}: exit ${r.code} in ${Date.now() - started} ms`);
    check(r.code === 0, `${name}: wrap exits 0 (got ${r.code}): ${r.stderr.slice(-800)}`);
    check(r.stdout.includes(FINAL), `${name}: printed the stand-in's answer: ${r.stdout.slice(-300)}`);
    if (name === 'gemini' && !root) {
      // Only root can own the session file the way Gemini CLI requires: wrap says so and runs
      // Gemini without hooks.
      check(/cave_native_hooks_failed: Gemini CLI will skip .*Only root can meet that/.test(r.stderr) &&
        !/, native hooks\)/.test(r.stderr), `gemini (uid ${process.getuid()}): wrap says the hooks would be skipped: ${r.stderr.slice(0, 800)}`);
      return;
    }
    check(/, native hooks\)/.test(r.stderr), `${name}: wrap announces the native hooks: ${r.stderr.slice(0, 400)}`);
    const mine = mock.requests.slice(seen);
    for (const q of mine) {
      check(!q.body.toString('utf8').includes('[[caveman-session-v1'), `${name}: a session marker reached the stand-in`);
    }
    const results = mine.map((q) => {
      try {
        return latestToolResult(JSON.parse(q.body.toString('utf8'))) ?? '';
      } catch {
        return '';
      }
    }).filter((t) => t.length > 0);
    const output = results.length ? results[results.length - 1] : '';
    console.log(`${name}: tool result at the stand-in: ${output.length} chars (the tool printed ${expected.length})`);
    console.log(output.slice(0, 300));
    check(output.length > 0 && output.length < 20000, `${name}: a short view reached the stand-in (${output.length} chars)`);
    check(!output.includes('processed batch 1500 in'), `${name}: the middle of the log reached the stand-in`);
    check(output.includes('[caveman]'), `${name}: the view carries the runtime's note`);
    const m = /ccr:\/\/(ccr_obj_[0-9a-f]{32})|recovery_handle\\?":\\?"(ccr_[0-9a-f]{32})/.exec(output);
    check(m !== null, `${name}: a ccr:// id or ccr_ handle in the view`);
    if (m) {
      const ref = m[1] ? `ccr://${m[1]}` : m[2];
      const back = execFileSync(bin('caveman-engine'), ['retrieve', ref], { env: user.env, maxBuffer: 64 << 20 }).toString('utf8');
      // Codex hands the hook the command's output itself; Gemini its llmContent, which wraps
      // the output with the command line.
      const exact = name === 'codex' ? back === expected : back.includes(expected);
      check(exact, `${name}: retrieve ${ref} gives back the whole output (${back.length} B)`);
      console.log(`${name}: retrieve ${ref}: ${back.length} B, whole output=${exact}`);
    }
    let rows = [];
    for (let t = 0; t < 20; t++) {
      rows = usageRows(user.cavemanHome);
      if (rows.some(([sid, basis]) => basis === 'native_marker' && sid.startsWith(`${name}:`))) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    check(rows.some(([sid, basis]) => basis === 'native_marker' && sid.startsWith(`${name}:`)),
      `${name}: a usage row correlated by the session marker: ${JSON.stringify(rows)}`);
    // The shrink hook: a test command through the shell tool runs under caveman-shrink.
    fs.writeFileSync(path.join(user.proj, 'ctest_noise.sh'),
      'i=0; while [ $i -lt 2000 ]; do echo "test $i passed in 1ms"; i=$((i+1)); done; echo "FAILED: test_wire"; exit 1\n');
    mock.enqueue({ tool_use: a.shrinkTool }, { text: FINAL });
    const seen2 = mock.requests.length;
    const s = await caveman(user, ['wrap', name, ...a.argv], { env: a.env, timeoutMs: 240000 });
    check(s.code === 0, `${name}: shrink run exits 0: ${s.stderr.slice(-600)}`);
    const shrunk = mock.requests.slice(seen2).map((q) => {
      try {
        return latestToolResult(JSON.parse(q.body.toString('utf8'))) ?? '';
      } catch {
        return '';
      }
    }).filter((t) => t.length > 0).pop() ?? '';
    console.log(`${name}: shrink hook: ${shrunk.length} chars at the stand-in`);
    check(/\[caveman-shrink\] exit 1/.test(shrunk) && shrunk.includes('FAILED: test_wire') && !shrunk.includes('test 1000 passed'),
      `${name}: the test command ran under caveman-shrink: ${shrunk.slice(0, 400)}`);
    check(fs.readFileSync(cfg, 'utf8') === a.seed, `${name}: the user's config is byte-identical`);
  } finally {
    await user.cleanup();
  }
}

// What wrap hands the agent, seen by a stand-in binary (no proxy needed beyond wrap's own).
async function standIn(name, mock) {
  const user = await makeUser(`caveman-hooks-fake-${name}-`, { mockUrl: mock.url });
  const out = path.join(user.work, 'out');
  fs.mkdirSync(out);
  const fake = path.join(user.work, name);
  fs.writeFileSync(fake, [
    '#!/bin/sh',
    'for a in "$@"; do printf "%s\\n" "$a"; done > "$OUT/args"',
    'printf "%s|%s" "$CAVEMAN_HOME" "$GEMINI_CLI_SYSTEM_DEFAULTS_PATH" > "$OUT/env"',
    '[ -n "$GEMINI_CLI_SYSTEM_DEFAULTS_PATH" ] && cp "$GEMINI_CLI_SYSTEM_DEFAULTS_PATH" "$OUT/defaults"',
    'exit 0', ''].join('\n'), { mode: 0o755 });
  const run = async (args, env = {}) => {
    for (const f of ['args', 'env', 'defaults']) fs.rmSync(path.join(out, f), { force: true });
    const r = await caveman(user, ['wrap', ...args, name, 'a prompt'], { env: { CAVEMAN_AGENT_BIN: fake, OUT: out, ...env } });
    const read = (f) => (fs.existsSync(path.join(out, f)) ? fs.readFileSync(path.join(out, f), 'utf8') : '');
    return { ...r, args: read('args').split('\n').filter(Boolean), env: read('env'), defaults: read('defaults') };
  };
  try {
    const printed = JSON.parse(execFileSync(bin('caveman-proxy'), ['native-hook', 'print-settings', '--agent', name], { encoding: 'utf8' }));
    const on = await run([]);
    check(on.code === 0 && on.args[on.args.length - 1] === 'a prompt', `${name} stand-in: ${on.code} ${on.stderr}`);
    if (name === 'codex') {
      const hooks = on.args.filter((x) => /^hooks\.[A-Z][A-Za-z]+=/.test(x));
      check(hooks.length === Object.keys(printed.hooks).length, `codex: one -c per event: ${hooks.length}`);
      check(on.args.some((x) => x.startsWith('hooks.PostToolUse=[{hooks=[{command=') && x.includes('native-hook codex')),
        `codex: PostToolUse hook in -c: ${JSON.stringify(on.args).slice(0, 600)}`);
      const state = on.args.find((x) => x.startsWith('hooks.state='));
      check(state && (state.match(/trusted_hash="sha256:[0-9a-f]{64}"/g) || []).length === hooks.length,
        `codex: trust for exactly caveman's hooks: ${state}`);
      check(!on.args.includes('--dangerously-bypass-hook-trust'), 'codex: hook trust is never bypassed');
    } else if (!root) {
      check(/cave_native_hooks_failed/.test(on.stderr) && !on.env.includes('system-defaults'),
        `gemini (uid ${process.getuid()}): no session file Gemini would skip: ${on.stderr.slice(0, 600)}`);
    } else {
      const [home, defaults] = on.env.split('|');
      check(home === user.cavemanHome && defaults.startsWith(`${user.cavemanHome}/run/gemini-caveman-wrap-`) &&
        defaults.endsWith('/system-defaults.json'),
        `gemini: env ${on.env}`);
      const doc = JSON.parse(on.defaults || '{}');
      const strip = (hooks) => JSON.stringify(hooks, (k, v) => (k === 'env' ? undefined : v));
      check(strip(doc.hooks) === strip(printed.hooks), 'gemini: the session defaults hold print-settings\' hooks');
      check(doc.hooks.AfterTool[0].hooks[0].env.CAVEMAN_HOME === user.cavemanHome, 'gemini: each hook carries the state root');
      check(defaults && !fs.existsSync(defaults), 'gemini: the session file is removed when the agent exits');
    }
    for (const [args, env] of [[['--no-hooks'], {}], [[], { CAVEMAN_WRAP_HOOKS: '0' }]]) {
      const off = await run(args, env);
      check(off.code === 0 && !off.args.some((x) => x.startsWith('hooks.')) && !off.env.includes('system-defaults'),
        `${name}: opt-out ${JSON.stringify(args)} ${JSON.stringify(env)}: ${JSON.stringify(off.args).slice(0, 300)}`);
    }
    if (name === 'gemini') {
      // Issue 39: a CAVEMAN_HOME below a world-writable directory. Gemini CLI would skip the
      // session file there: doctor says so, and wrap writes none and warns (the agent starts).
      fs.chmodSync(user.work, 0o777);
      const skip = `Gemini CLI will skip the hooks' settings file ${user.cavemanHome}/run/gemini-`;
      const d = await caveman(user, ['doctor', 'gemini']);
      console.log(d.stdout);
      check(d.code === 1 && d.stdout.includes(`broken  caveman wrap gemini: ${skip}`) &&
        d.stdout.includes(`${user.work} is writable by others (mode 777)`) && d.stdout.includes('run:    caveman enable gemini'),
      `gemini: doctor reports that Gemini CLI skips the hooks below a world-writable directory: ${d.code} ${d.stdout}`);
      const w = await run([]);
      check(w.code === 0 && w.args[w.args.length - 1] === 'a prompt' && !w.env.includes('system-defaults') &&
        w.stderr.includes(`cave_native_hooks_failed: ${skip}`) && !/, native hooks\)/.test(w.stderr),
      `gemini: wrap below a world-writable directory warns and starts Gemini without hooks: ${w.code} ${w.stderr.slice(0, 800)}`);
      check(!fs.existsSync(path.join(user.cavemanHome, 'run')) ||
        !fs.readdirSync(path.join(user.cavemanHome, 'run')).some((f) => f.startsWith('gemini-')),
      'gemini: no session directory left below the world-writable directory');
      fs.chmodSync(user.work, 0o700);
    }
  } finally {
    await user.cleanup();
  }
}

const mock = await startMockUpstream();
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(AGENTS);
let exitCode = 0;
const privateDir = privateTmp();
process.env.TMPDIR = privateDir;  // makeUser's temp HOMEs (the agents themselves get their own)
console.log(`temp HOMEs below ${privateDir}`);
try {
  for (const name of wanted) {
    await standIn(name, mock);
    await realRun(name, mock);
  }
} catch (e) {
  check(false, `unexpected: ${e.stack}`);
  exitCode = 1;
} finally {
  await mock.close();
  fs.rmSync(privateDir, { recursive: true, force: true });
}
finish(`native hooks with the real ${wanted.join(' and ')}: a large shell output masked before the provider, exact retrieve`);
process.exit(exitCode);
