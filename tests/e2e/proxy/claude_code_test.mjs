// Acceptance 3 (issue 8): Claude Code itself (`claude -p`, a dummy key, ANTHROPIC_BASE_URL at
// caveman-proxy, the scripted mock upstream behind it) completes turns through the proxy:
//  - record mode: one plain turn; the upstream sees Claude Code's own request
//    (/v1/messages?beta=true, x-api-key as sent) and Claude Code prints the mock's answer;
//  - compress mode with CAVEMAN_RECOVERY=mcp: the mock asks for Read of a corpus build log,
//    Claude Code runs the tool and sends the tool_result back; the proxy compresses it (a
//    <<ccr:…>> marker reaches the mock) and the handle resolves to exactly what Claude Code sent.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, check, corpusDir, finish, tempHome } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, recentRows, startProxy } from './harness.mjs';

// Pinned in tests/e2e/package.json; `make test-latest` points CAVEMAN_AGENTS_BIN_DIR at the newest.
const claude = path.join(process.env.CAVEMAN_AGENTS_BIN_DIR || path.resolve('node_modules/.bin'), 'claude');
const logText = fs.readFileSync(path.join(corpusDir, 'public/log-leveldb-build-error.log'), 'utf8');

// Runs `claude -p` asynchronously (the mock lives in this process's event loop).
function runClaude(work, baseUrl, prompt, extra = []) {
  return new Promise((resolve) => {
    const child = spawn(claude, ['-p', prompt, '--output-format', 'json', ...extra], {
      cwd: path.join(work, 'proj'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin', HOME: path.join(work, 'home'), TERM: 'dumb',
        ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: 'sk-ant-dummy-key', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      let result = null;
      try {
        result = JSON.parse(stdout);
      } catch {
        result = null;
      }
      resolve({ code, stdout, stderr, result });
    });
  });
}

function workDir() {
  const work = tempHome('caveman-proxy-claude-');
  fs.mkdirSync(path.join(work, 'home'));
  fs.mkdirSync(path.join(work, 'proj'));
  return work;
}

// Record mode: one plain turn.
{
  const mock = await startMockUpstream();
  const proxy = await startProxy({ yaml: providersYaml(mock.url) });
  const work = workDir();
  const r = await runClaude(work, proxy.url, 'Say hello.');
  check(r.code === 0, `record: claude exits 0 (got ${r.code}): ${r.stderr.slice(0, 400)}`);
  check(r.result && r.result.result === 'Hello from the mock upstream', `record: claude printed the mock's answer: ${r.stdout.slice(0, 300)}`);
  const turns = mock.modelRequests();
  check(turns.length === 1, `record: one model request upstream (got ${turns.length})`);
  const up = turns[0];
  if (up) {
    check(up.url === '/v1/messages?beta=true', `record: path and query kept (${up.url})`);
    check(up.headers['x-api-key'] === 'sk-ant-dummy-key', 'record: x-api-key forwarded as sent');
    check(/^claude-cli\//.test(up.headers['user-agent'] || ''), `record: Claude Code's user-agent (${up.headers['user-agent']})`);
    check(up.json && up.json.stream === true, 'record: Claude Code streams');
  }
  const { code } = await proxy.stop();
  check(code === 0, `record: proxy exits 0 (got ${code})`);
  const rows = recentRows(proxy.home);
  check(rows.length === turns.length, `record: one usage row per upstream call (${rows.length})`);
  if (rows[0]) {
    check(rows[0].provider === 'anthropic' && rows[0].status_code === 200, 'record: row provider/status');
    check(rows[0].input_tokens === 11 && rows[0].output_tokens === 7, `record: row carries the mock's usage (${rows[0].input_tokens}/${rows[0].output_tokens})`);
  }
  await mock.close();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(proxy.home, { recursive: true, force: true });
}

// Compress mode with MCP recovery: a Read tool loop over a corpus build log.
{
  const work = workDir();
  const file = path.join(work, 'proj', 'build.log');
  fs.writeFileSync(file, logText);
  const mock = await startMockUpstream({
    replies: [{ tool_use: { name: 'Read', input: { file_path: file } } }, { echo_tool_result: true }],
  });
  const proxy = await startProxy({ yaml: providersYaml(mock.url), env: { CAVEMAN_MODE: 'compress', CAVEMAN_RECOVERY: 'mcp' } });
  const r = await runClaude(work, proxy.url, 'Read build.log and tell me why the build failed.', ['--allowedTools', 'Read']);
  check(r.code === 0, `compress: claude exits 0 (got ${r.code}): ${r.stderr.slice(0, 400)}`);
  check(r.result && r.result.num_turns === 2, `compress: two turns (tool use, answer): ${r.stdout.slice(0, 300)}`);
  const turns = mock.modelRequests();
  check(turns.length === 2, `compress: two model requests upstream (got ${turns.length})`);
  const second = turns[1];
  const body = second ? second.body.toString('utf8') : '';
  const handles = [...body.matchAll(/<<ccr:(ccr_[A-Za-z0-9_-]+)>>/g)].map((m) => m[1]);
  check(handles.length === 1, `compress: the tool_result reached the mock with one marker (got ${handles.length})`);
  // The model saw the compressed view: the mock echoes the tool result it received.
  check(r.result && r.result.result.includes('<<ccr:'), 'compress: Claude Code printed the compressed tool result');
  const { code } = await proxy.stop();
  check(code === 0, `compress: proxy exits 0 (got ${code})`);
  if (handles[0]) {
    const original = execFileSync(bin('caveman-engine'), ['retrieve', handles[0]], {
      env: { PATH: process.env.PATH, HOME: proxy.home, CAVEMAN_HOME: proxy.home }, maxBuffer: 64 << 20,
    }).toString('utf8');
    // Claude Code's Read output numbers the lines ("N\t<line>"); the store holds exactly that.
    const lines = logText.endsWith('\n') ? logText.slice(0, -1).split('\n') : logText.split('\n');
    const numbered = lines.map((l, i) => `${i + 1}\t${l}`).join('\n');
    check(original.includes(numbered), `compress: retrieve returns the whole numbered log Claude Code sent (${original.length} bytes)`);
    check(original.length < numbered.length + 2048, 'compress: and nothing much besides');
  }
  const rows = recentRows(proxy.home).reverse();
  check(rows.length === 2, `compress: two usage rows (got ${rows.length})`);
  if (rows[1]) {
    check(rows[1].compression_tokens_before > rows[1].compression_tokens_after, 'compress: row 2 booked fewer tokens after');
    check(rows[1].recovery_handle === handles[0], `compress: row 2 recovery_handle (${rows[1].recovery_handle})`);
  }
  await mock.close();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(proxy.home, { recursive: true, force: true });
}

finish('Claude Code through caveman-proxy (record and compress+mcp)');
