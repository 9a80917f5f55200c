// Issue 40, acceptance 2: the packed npm tarballs (scripts/npm_pack.sh: the `caveman` launcher
// package + caveman-linux-x64 with the seven binaries), installed offline with
// `npm install -g --prefix <tmp>` from the local tarballs into an empty prefix, with a fresh HOME
// and a PATH without the build tree, run:
//   * every bin entry (`<name> version --json` reaches the native binary of the platform package),
//     and `npx --package <tarballs> caveman-engine version --json` (the one-command form);
//   * `caveman start`: the proxy listens (/health/ready), SIGTERM to the npm shim stops it, exit 0;
//   * `caveman wrap claude -p …` with the real Claude Code (tests/e2e/node_modules) against the
//     mock upstream: the mock's answer, caveman-mcp recovery from the package, the session line;
//   * `claude mcp add` of the installed caveman-mcp: `claude mcp list` shows ✔ Connected;
//   * the packed binaries pass scripts/check_portable.py (no shared libstdc++/libgcc, glibc floor).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { binDir, check, finish, tempHome } from '../lib/harness.mjs';
import { startMockUpstream, TEXT } from '../lib/mock_upstream.mjs';
import { freePort, nodeBin, providersYaml } from '../cli/cli_harness.mjs';

const root = path.resolve('../..');
const BINARIES = ['caveman', 'caveman-proxy', 'caveman-engine', 'caveman-mcp', 'caveman-shrink',
  'caveman-browse', 'cavemem'];
const work = tempHome('caveman-npm-install-');
const tarballs = path.join(work, 'npm');
const prefix = path.join(work, 'prefix');
const home = path.join(work, 'home');
const proj = path.join(work, 'proj');
const platformDir = path.join(prefix, 'lib', 'node_modules', `caveman-${process.platform}-${process.arch}`);
fs.mkdirSync(home, { mode: 0o700 });
fs.mkdirSync(proj);

function run(argv, { env, cwd = proj, timeoutMs = 120000, input } = {}) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, input, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, signal: r.signal, stdout: r.stdout || '', stderr: r.stderr || '' };
}

// The user's environment: nothing of the build tree, no CAVEMAN_* overrides.
const port = await freePort();
const userEnv = {
  PATH: `${path.join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
  HOME: home,
  TERM: 'dumb',
  npm_config_cache: path.join(work, 'npm-cache'),
  CAVEMAN_LISTEN: `127.0.0.1:${port}`,
  CAVE_SSRF_ALLOWLIST: '127.0.0.1',
};
let mock = null;
let startChild = null;
try {
  // 1. Pack and install.
  const pack = run([path.join(root, 'scripts/npm_pack.sh'), binDir, tarballs], { cwd: root, timeoutMs: 300000 });
  check(pack.code === 0, `npm_pack.sh exits 0: ${pack.stderr.slice(-1500)}`);
  const files = fs.existsSync(tarballs) ? fs.readdirSync(tarballs) : [];
  const launcher = files.find((f) => /^caveman-\d[\w.-]*\.tgz$/.test(f));
  const platform = files.find((f) => f.startsWith(`caveman-${process.platform}-${process.arch}-`));
  check(launcher && platform, `tarballs caveman-<v> and caveman-${process.platform}-${process.arch}-<v>: ${files.join(' ')}`);
  if (!launcher || !platform) throw new Error('nothing to install');
  console.log(pack.stderr.trim());  // check_portable.py's verdict on the packed binaries
  const install = run(['npm', 'install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund',
    '--loglevel=error', path.join(tarballs, platform), path.join(tarballs, launcher)], { env: userEnv, timeoutMs: 300000 });
  check(install.code === 0, `npm install -g --offline exits 0: ${install.stderr.slice(-1500)}`);

  // 2. Every bin entry resolves to the platform package's native binary.
  for (const name of BINARIES) {
    const shim = path.join(prefix, 'bin', name);
    check(fs.existsSync(shim), `${shim} installed`);
    const v = run([name, 'version', '--json'], { env: userEnv });
    let doc = null;
    try {
      doc = JSON.parse(v.stdout);
    } catch {
      doc = null;
    }
    check(v.code === 0 && doc && doc.name === name, `${name} version --json through the npm shim: ${v.code} ${v.stdout.slice(0, 200)} ${v.stderr.slice(0, 300)}`);
  }
  const status = run(['caveman', 'status', '--json'], { env: userEnv });
  let st = {};
  try {
    st = JSON.parse(status.stdout);
  } catch {
    st = {};
  }
  const bins = Array.isArray(st.binaries) ? st.binaries : [];
  for (const name of BINARIES.filter((b) => b !== 'caveman')) {
    const b = bins.find((x) => x.name === name) || {};
    check(b.path === path.join(platformDir, 'bin', name) && b.source === 'env' && b.ok === true,
      `caveman status: ${name} is the platform package's, passed by the launcher: ${JSON.stringify(b)}`);
  }

  // 2b. The one-command form: npx with the two tarballs (what `npx caveman …` does from a registry).
  const npx = run(['npx', '--yes', '--offline', `--package=${path.join(tarballs, platform)}`,
    `--package=${path.join(tarballs, launcher)}`, '--', 'caveman-engine', 'version', '--json'],
  { env: { ...userEnv, PATH: '/usr/local/bin:/usr/bin:/bin' }, timeoutMs: 300000 });
  check(npx.code === 0 && npx.stdout.includes('"name":"caveman-engine"'),
    `npx caveman-engine version --json: ${npx.code} ${npx.stdout.slice(0, 200)} ${npx.stderr.slice(-600)}`);

  // 3. caveman start: listens; SIGTERM to the npm shim reaches the proxy; exit 0.
  startChild = spawn('caveman', ['start'], { cwd: proj, env: userEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let startOut = '';
  startChild.stdout.on('data', (d) => (startOut += d));
  startChild.stderr.on('data', (d) => (startOut += d));
  const startExit = new Promise((resolve) => startChild.on('exit', (code, signal) => resolve({ code, signal })));
  let ready = false;
  for (let i = 0; i < 150 && !ready; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      ready = res.ok;
    } catch {
      ready = false;
    }
  }
  check(ready, `caveman start: /health/ready answers on ${port}: ${startOut.slice(0, 600)}`);
  startChild.kill('SIGTERM');
  const ended = await Promise.race([startExit, new Promise((r) => setTimeout(() => r({ timeout: true }), 15000))]);
  check(ended.code === 0, `caveman start exits 0 after SIGTERM to the shim: ${JSON.stringify(ended)} ${startOut.slice(-400)}`);
  startChild = null;
  let stillListening = true;
  try {
    await fetch(`http://127.0.0.1:${port}/health/live`);
  } catch {
    stillListening = false;
  }
  check(!stillListening, 'nothing listens after the stop');

  // 4. caveman wrap claude against the mock upstream (real Claude Code, dummy key).
  mock = await startMockUpstream();
  const cavemanHome = path.join(home, '.caveman');
  fs.mkdirSync(cavemanHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(cavemanHome, 'caveman.yaml'), providersYaml(mock.url));
  const wrapEnv = {
    ...userEnv,
    PATH: `${userEnv.PATH}:${nodeBin}`,  // Claude Code from tests/e2e/node_modules
    ANTHROPIC_API_KEY: 'sk-ant-dummy-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const wrapped = await new Promise((resolve) => {
    const child = spawn('caveman', ['wrap', 'claude', '-p', 'Say hello.', '--output-format', 'json'],
      { cwd: proj, env: wrapEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  let result = null;
  try {
    result = JSON.parse(wrapped.stdout);
  } catch {
    result = null;
  }
  check(wrapped.code === 0, `caveman wrap claude exits 0 (got ${wrapped.code}): ${wrapped.stderr.slice(0, 800)}`);
  check(result && result.result === TEXT, `claude printed the mock's answer: ${wrapped.stdout.slice(0, 300)}`);
  check(/started caveman-proxy on 127\.0\.0\.1:\d+ \(compress, recovery via caveman-mcp\)/.test(wrapped.stderr),
    `wrap started the packaged proxy with caveman-mcp recovery: ${wrapped.stderr.slice(0, 400)}`);
  check(/caveman: session claude: [1-9]\d* request\(s\)/.test(wrapped.stderr), `session line: ${wrapped.stderr.slice(-300)}`);
  check(mock.modelRequests().length >= 1, 'the model request reached the stand-in');
  const statePath = path.join(cavemanHome, 'run', `${port}.json`);
  const state = fs.existsSync(statePath) ? JSON.parse(fs.readFileSync(statePath, 'utf8')) : null;
  if (state && state.pid) {
    const exe = fs.readlinkSync(`/proc/${state.pid}/exe`);
    check(exe === path.join(platformDir, 'bin', 'caveman-proxy'), `the wrap proxy is the package's native binary (${exe})`);
    process.kill(state.pid, 'SIGTERM');
  } else {
    check(false, `wrap left a run-state at ${statePath}`);
  }

  // 5. claude mcp add of the installed caveman-mcp (the npm shim on PATH).
  const claude = path.join(nodeBin, 'claude');
  const add = run([claude, 'mcp', 'add', '--scope', 'user', 'caveman', '--', path.join(prefix, 'bin', 'caveman-mcp')], { env: wrapEnv });
  check(add.code === 0, `claude mcp add exits 0: ${add.stderr}`);
  const list = run([claude, 'mcp', 'list'], { env: wrapEnv });
  check(/caveman: .* - ✔ Connected/.test(list.stdout + list.stderr), `claude mcp list shows ✔ Connected: ${list.stdout}${list.stderr}`);
  const rm = run([claude, 'mcp', 'remove', 'caveman', '-s', 'user'], { env: wrapEnv });
  check(rm.code === 0, `claude mcp remove: ${rm.stderr}`);
} catch (err) {
  check(false, `unexpected: ${err.stack || err}`);
} finally {
  if (startChild) startChild.kill('SIGKILL');
  if (mock) await mock.close?.();
  fs.rmSync(work, { recursive: true, force: true });
}
finish('npm tarballs installed offline run start, wrap claude and claude mcp add');
