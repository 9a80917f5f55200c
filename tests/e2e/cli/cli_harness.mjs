// Helpers for the caveman CLI e2e tests: an isolated user (temp HOME, CAVEMAN_HOME, a free
// loopback port, a clean PATH with the built binaries and Claude Code from npm), running
// `caveman` asynchronously (the mock upstream shares this event loop), and stopping the
// background proxy a wrap session left running (by the pid of its run-state file).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { binDir, bin, freePort, tempHome } from '../lib/harness.mjs';

export { freePort };
import { latestToolResult } from '../lib/mock_upstream.mjs';

export const nodeBin = path.resolve('node_modules/.bin');
// `make test-latest` (scripts/test_latest.sh) installs the newest agents into a temp prefix and
// sets CAVEMAN_AGENTS_BIN_DIR to its node_modules/.bin (claude, codex, gemini, opencode, qwen):
// then every agent test runs those instead of the pinned ones.
export const latestAgentsBin = process.env.CAVEMAN_AGENTS_BIN_DIR || '';
// Claude Code: pinned in tests/e2e/package.json, or the newest.
export const claudeBinDir = latestAgentsBin || nodeBin;
export const claudeBin = path.join(claudeBinDir, 'claude');
// The other real coding agents, pinned in tests/e2e/agents (Codex, Gemini CLI, opencode, Qwen Code).
export const agentsBin = latestAgentsBin || path.resolve('agents/node_modules/.bin');

export function providersYaml(mockUrl) {
  return `providers:\n  anthropic:\n    base_url: ${mockUrl}\n  openai:\n    base_url: ${mockUrl}\n` +
    `  gemini:\n    base_url: ${mockUrl}\n`;
}

// A user with its own HOME, state root, project dir and proxy port.
export async function makeUser(prefix, { mockUrl = null, extraEnv = {} } = {}) {
  const work = tempHome(prefix);
  const home = path.join(work, 'home');
  const cavemanHome = path.join(home, '.caveman');
  const proj = path.join(work, 'proj');
  fs.mkdirSync(cavemanHome, { recursive: true, mode: 0o700 });
  fs.mkdirSync(proj);
  if (mockUrl) fs.writeFileSync(path.join(cavemanHome, 'caveman.yaml'), providersYaml(mockUrl));
  const port = await freePort();
  const env = {
    PATH: `${binDir}:${latestAgentsBin ? `${latestAgentsBin}:` : ''}${nodeBin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'dumb',
    CAVEMAN_HOME: cavemanHome,
    CAVEMAN_LISTEN: `127.0.0.1:${port}`,
    CAVE_SSRF_ALLOWLIST: '127.0.0.1',
    ANTHROPIC_API_KEY: 'sk-ant-dummy-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extraEnv,
  };
  return {
    work, home, cavemanHome, proj, port, env,
    runStatePath: path.join(cavemanHome, 'run', `${port}.json`),
    runState() {
      try {
        return JSON.parse(fs.readFileSync(this.runStatePath, 'utf8'));
      } catch {
        return null;
      }
    },
    // SIGTERM the proxy a wrap session started, and wait until it is gone.
    async stopProxy() {
      const s = this.runState();
      if (!s) return;
      try {
        process.kill(s.pid, 'SIGTERM');
      } catch {
        return;
      }
      for (let i = 0; i < 100; i += 1) {
        try {
          process.kill(s.pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      process.kill(s.pid, 'SIGKILL');
    },
    async cleanup() {
      await this.stopProxy();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

// Runs `caveman args…` without blocking the event loop; resolves {code, stdout, stderr}.
export function caveman(user, args, { timeoutMs = 60000, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(bin('caveman'), args, {
      cwd: user.proj, env: { ...user.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

// Runs an agent binary (argv[0] a path) in the user's project; resolves {code, out} with
// stdout and stderr interleaved.
export function runAgent(user, argv, { env = {}, timeoutMs = 240000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: user.proj, env: { ...user.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

// The latest tool result of the requests the stand-in received after the first `seen` that
// carry a recovery handle ("" when none did).
export function latestHandledToolResult(mock, seen) {
  const withResult = mock.requests.slice(seen).filter((q) => q.body.includes('ccr'));
  const body = withResult.length ? withResult[withResult.length - 1].body.toString('utf8') : '';
  return body ? latestToolResult(JSON.parse(body)) ?? '' : '';
}

// opencode asks a small model for a session title first; the stand-in refuses it (non-fatal
// for opencode) so it does not take the scripted replies.
export function refuseTitleRequests(mock) {
  mock.script((record, res, h) => {
    if (!record.body.toString('utf8').includes('title generator')) return false;
    h.json(res, 400, { error: { type: 'invalid_request_error', message: 'no titles here' } });
    return true;
  });
}
