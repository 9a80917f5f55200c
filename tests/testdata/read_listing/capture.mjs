// Captures the exact tool_result text the real Claude Code binary produces for its Read tool
// (issue 27). One `claude -p` session against the scripted mock Anthropic upstream
// (tests/e2e/lib/mock_upstream.mjs; temp HOME, dummy key, no caveman in between = record
// mode) asks for one Read per case, in order; each following model request carries that
// Read's tool_result, which is written byte for byte to <case>.read beside <case>.file (the
// bytes of the file Claude Code read). cases.tsv lists case, file (the .file it read), MANIFEST
// kind, offset and limit (0 = not given).
//
// Files are cut from ../shared/corpus/public so the fixtures stay small: the first file of each
// MANIFEST kind with over 100 lines, its first kLines lines (JSON whole: a cut one is no JSON
// document), read whole and with offset/limit; special cases: a limited JSON read, no final
// newline, an empty file, CRLF line ends (Read drops the CRs), TAB-led lines (Go), fewer than
// 8 lines, a 20 KB one-line file.
//
// usage: node tests/testdata/read_listing/capture.mjs [--out DIR]   (default: this directory)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockUpstream } from '../../e2e/lib/mock_upstream.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const args = process.argv.slice(2);
const outDir = path.resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : here);
const corpusRoot = path.resolve(process.env.CAVEMAN_CORPUS_DIR || path.join(root, '../shared/corpus'));
const claude = path.join(root, 'tests/e2e/node_modules/.bin/claude');
const kLines = 150;

function headLines(text, n) {
  const lines = text.split('\n');
  return lines.length <= n ? text : lines.slice(0, n).join('\n') + '\n';
}

// The first MANIFEST file of each kind with at least 100 lines (listing-* files are gutters
// already: skipped).
function firstOfEachKind() {
  const rows = fs.readFileSync(path.join(corpusRoot, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1)
    .filter(Boolean).map((l) => l.split('\t'));
  const seen = new Map();
  for (const [file, kind] of rows) {
    const lines = fs.readFileSync(path.join(corpusRoot, file), 'utf8').split('\n').length;
    if (!file.includes('/listing-') && !seen.has(kind) && lines > 100) seen.set(kind, file);
  }
  return [...seen.entries()];
}

function buildCases() {
  const cases = [];
  for (const [kind, file] of firstOfEachKind()) {
    // A JSON file stays whole (a cut one is no JSON document); the others are cut.
    const full = fs.readFileSync(path.join(corpusRoot, file), 'utf8');
    const text = kind === 'json' ? full : headLines(full, kLines);
    const base = kind.replace(/[^a-z]/g, '');
    cases.push({ id: `${base}-whole`, kind, text });
    cases.push({ id: `${base}-offset`, kind, text, offset: 31, limit: 60, file: `${base}-whole` });
  }
  const code = fs.readFileSync(path.join(corpusRoot, 'public/code-go-net-http-client.go'), 'utf8');
  const log = fs.readFileSync(path.join(corpusRoot, 'public/log-dpkg.log'), 'utf8');
  const json = fs.readFileSync(path.join(corpusRoot, 'public/json-npm-view-express.json'), 'utf8');
  const lock = fs.readFileSync(path.join(corpusRoot, 'public/json-package-lock.json'), 'utf8');
  cases.push({ id: 'json-limit', kind: 'json', text: headLines(lock, 400), limit: 120 });
  cases.push({ id: 'json-no-final-newline', kind: 'json', text: json.replace(/\n$/, '') });
  cases.push({ id: 'code-tab-led', kind: 'code', text: headLines(code, kLines) });
  cases.push({ id: 'log-crlf', kind: 'log', text: headLines(log, 80).replace(/\n/g, '\r\n') });
  cases.push({ id: 'log-no-final-newline', kind: 'log', text: headLines(log, 40).replace(/\n$/, '') });
  cases.push({ id: 'short-5-lines', kind: 'text', text: 'one\ntwo\n\nfour\nfive\n' });
  cases.push({ id: 'empty', kind: 'text', text: '' });
  cases.push({ id: 'long-line', kind: 'json',
    text: fs.readFileSync(path.join(corpusRoot, 'public/json-mcp-playwright-tools-list.json'), 'utf8') });
  return cases;
}

function runClaude(env, cwd, prompt) {
  return new Promise((resolve) => {
    const child = spawn(claude, ['-p', prompt, '--output-format', 'json', '--allowedTools', 'Read'],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

function toolResultText(block) {
  if (typeof block.content === 'string') return block.content;
  return (block.content || []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'caveman-read-capture-'));
const home = path.join(work, 'home');
const proj = path.join(work, 'proj');
fs.mkdirSync(home);
fs.mkdirSync(proj);
const cases = buildCases();
const mock = await startMockUpstream();
try {
  for (const c of cases) {
    const file = path.join(proj, `${c.id}.txt`);
    fs.writeFileSync(file, c.text);
    const input = { file_path: file, ...(c.offset ? { offset: c.offset } : {}), ...(c.limit ? { limit: c.limit } : {}) };
    mock.enqueue({ tool_use: { name: 'Read', input, id: `toolu_${c.id.replace(/-/g, '_')}` } });
  }
  mock.enqueue({ text: 'Done.' });
  const env = {
    PATH: `${path.dirname(claude)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb',
    ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const r = await runClaude(env, proj, 'Read each file I name, one after the other.');
  if (r.code !== 0) throw new Error(`claude exited ${r.code}: ${r.out.slice(-800)}`);
  // Each Read's result is the tool_result with its tool_use id in some later request.
  const results = new Map();
  for (const req of mock.modelRequests()) {
    for (const m of JSON.parse(req.body.toString('utf8')).messages || []) {
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === 'tool_result') results.set(b.tool_use_id, toolResultText(b));
      }
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  const manifest = ['case\tfile\tkind\toffset\tlimit'];
  for (const c of cases) {
    const got = results.get(`toolu_${c.id.replace(/-/g, '_')}`);
    if (got === undefined) throw new Error(`no tool_result for ${c.id}`);
    if (!c.file) fs.writeFileSync(path.join(outDir, `${c.id}.file`), c.text);
    fs.writeFileSync(path.join(outDir, `${c.id}.read`), got);
    manifest.push([c.id, c.file || c.id, c.kind, c.offset || 0, c.limit || 0].join('\t'));
  }
  fs.writeFileSync(path.join(outDir, 'cases.tsv'), manifest.join('\n') + '\n');
  console.log(`captured ${cases.length} Read results into ${outDir}`);
} finally {
  await mock.close();
  fs.rmSync(work, { recursive: true, force: true });
}
