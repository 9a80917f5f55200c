// Session benchmark, long and paused (issue 37, acceptance 2): the real Claude Code under
// `caveman wrap claude`, one long-lived `claude -p --input-format stream-json` process per
// session fed one user turn at a time (the agent stays alive through every pause, as an
// interactive session does, so wrap's lease `/w/claude/@<pid>` holds), against the billing
// stand-in on a virtual clock that the proxy's test clock drives (CAVEMAN_TEST_CLOCK=manual).
//
// A long session chains --per-session generated sessions (bench/session/generate.mjs, seeds
// --seeds, --per-seed long sessions from each seed's first per-seed × per-session, in the generator's order) in one conversation: each generated session is one user
// turn (its prompt; its steps; its answer, checked), every project at the path it was generated
// at (the agent's --add-dir; Bash steps `cd` there), and a last user turn refers back to the
// first two turns' results (their first steps' needs, up to 4 each): the scripted model reads
// them where they sit in the conversation as the request carries them, else retrieves their
// handle, else runs the tool again — so a re-compacted result that hid a need costs a retrieve,
// and one that lost it fails the answer. Before every user turn after the first, a pause from
// the pause model (tests/e2e/lib/pauses.mjs, seeded by the session id) moves the proxy's clock
// (POST /caveman/test/clock, which sends the keepalive pings due on the way); every upstream
// request carries x-mock-idle-ms, so the stand-in bills at the proxy's time. Model requests
// inside a turn take no virtual time (a hit refreshes the cache; only the pauses can lapse it).
// After the last turn the agent's stdin closes, it exits, and 3 more hours pass: pings after
// the exit are counted (they must be 0).
//
// Configurations (each its own project copies, CAVEMAN_HOME, proxy and stand-in):
//   record 5m        `caveman wrap --off`: Claude Code as shipped on an API key (5-minute breakpoints)
//   record 1h        the same with CLAUDE_CODE_PROMPT_CACHE_TTL=1h (Claude Code 2.1.332: every
//                    breakpoint `ttl: "1h"`; the careful user's own setting)
//   compress         `caveman wrap`, keepalive and re-compaction off
//   + keepalive      re-compaction off
//   + re-compaction  compress mode as shipped
//   active 5m        `caveman wrap --mode active` without the lifetime choice (+ the optimizers)
//   active           every lever (+ the 5-minute / 1-hour choice)
//
// usage: node bench/session_lifetimes.mjs [--bin DIR] [--seeds 1,2,3] [--per-session 10] [--per-seed 2]
//          [--sessions N] [--only ID,ID] [--modes 'record 5m,active'] [--model ID] [--markdown]
//          [--json FILE] [--check]
//   --check  exit 1 unless every answer is correct in every configuration, active costs at most
//            0.60× record 5m and 0.80× record 1h summed, no session costs more under active than
//            under either record baseline, and no ping follows an agent's exit.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockUpstream } from '../tests/e2e/lib/mock_upstream.mjs';
import { createBiller, createVirtualClock, price } from '../tests/e2e/lib/billing.mjs';
import { pauseSchedule, MINUTE_MS, HOUR_MS } from '../tests/e2e/lib/pauses.mjs';
import { freePort, meterChurn, scriptedModel, setBinDir } from './session/harness.mjs';
import { generatedSessions, workDirFor } from './session/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const binDir = path.resolve(opt('--bin', process.env.CAVEMAN_BIN_DIR || path.join(root, 'build/release/bin')));
setBinDir(binDir);
const nodeBin = path.join(root, 'tests/e2e/node_modules/.bin');
const latestAgentsBin = process.env.CAVEMAN_AGENTS_BIN_DIR || '';
const claudeBin = path.join(latestAgentsBin || nodeBin, 'claude');
const model = opt('--model', 'claude-sonnet-4-6');
// --from-json FILE: the tables again from a run's --json, without running anything.
const saved = opt('--from-json', '') ? JSON.parse(fs.readFileSync(opt('--from-json', ''), 'utf8')) : null;
const seeds = saved ? saved.seeds : opt('--seeds', '1,2,3').split(',').map(Number);
const perSession = saved ? saved.perSession : Number(opt('--per-session', '10'));
const sessionsPerSeed = saved ? saved.sessionsPerSeed ?? 2 : Number(opt('--per-seed', '2'));
const markdown = args.includes('--markdown');
const strict = args.includes('--check');
const jsonOut = opt('--json', '');
const RECALL_STEPS = 2; // the last turn refers back to the first steps of this many early turns
const RECALL_NEEDS = 4; // needs per referred result
const AFTER_EXIT_MS = 3 * HOUR_MS;

const ALL_MODES = [
  { id: 'record 5m', wrap: ['--off'], yaml: '' },
  { id: 'record 1h', wrap: ['--off'], yaml: '', env: { CLAUDE_CODE_PROMPT_CACHE_TTL: '1h' } },
  { id: 'compress', wrap: [], yaml: 'keepalive:\n  enabled: false\nrecompact:\n  enabled: false\n' },
  { id: '+ keepalive', wrap: [], yaml: 'recompact:\n  enabled: false\n' },
  { id: '+ re-compaction', wrap: [], yaml: '' },
  { id: 'active 5m', wrap: ['--mode', 'active'], yaml: 'optimizers:\n  anthropic-cache-ttl: false\n' },
  { id: 'active', wrap: ['--mode', 'active'], yaml: '' },
];
// --direct (debugging the scripts only): Claude Code talks to the stand-in without Caveman; the
// pauses move the stand-in's clock.
if (args.includes('--direct')) ALL_MODES.push({ id: 'direct', direct: true, wrap: [], yaml: '' });
const wantModes = saved ? Object.keys(saved.results[0].by) : args.includes('--direct') ? ['direct'] : opt('--modes', '') ? opt('--modes', '').split(',').map((x) => x.trim()) : ALL_MODES.map((m) => m.id);
const MODES = ALL_MODES.filter((m) => wantModes.includes(m.id));
if (MODES.length !== wantModes.length) throw new Error(`--modes: one of ${ALL_MODES.map((m) => m.id).join(', ')}`);

// ---------------------------------------------------------------------------------------------
// The long sessions: per seed, the generated sessions in the generator's order, perSession each.
const genStart = Date.now();
const perSeed = sessionsPerSeed * perSession;
const LONG = [];
for (const seed of saved ? [] : seeds) {
  const subs = generatedSessions({ root, seed, count: perSeed, log: (m) => console.error(`  ${m}`) });
  for (let i = 0; i + perSession <= subs.length; i += perSession) {
    LONG.push({ id: `long-${seed}-${i / perSession + 1}`, seed, subs: subs.slice(i, i + perSession) });
  }
}
const genSeconds = saved ? saved.genSeconds : (Date.now() - genStart) / 1000;
let SESSIONS = saved ? saved.results.map((r) => ({ id: r.id, subs: r.subs.map((id) => ({ id })), gaps: r.gaps })) : LONG;
if (opt('--only', '')) SESSIONS = SESSIONS.filter((s) => opt('--only', '').split(',').includes(s.id));
SESSIONS = SESSIONS.slice(0, Number(opt('--sessions', '0')) || Infinity);
for (const s of saved ? [] : SESSIONS) s.gaps = pauseSchedule(`session-lifetimes:${s.id}`, s.subs.length); // before turns 2..n+1 (the recall turn last)

const projOf = (sub) => path.join(workDirFor(sub.id), 'proj');

// The last turn: what the first RECALL_STEPS turns' first non-Edit steps found, read again.
function recallTurn(session, models) {
  const steps = [];
  for (let t = 0; t < Math.min(RECALL_STEPS, session.subs.length); t += 1) {
    const sub = session.subs[t];
    const i = sub.steps.findIndex((s) => s.tool !== 'Edit' && Array.isArray(s.need) && s.need.length > 0);
    if (i < 0) continue;
    const s = sub.steps[i];
    const need = s.need.length <= RECALL_NEEDS ? s.need
      : Array.from({ length: RECALL_NEEDS }, (_, k) => s.need[Math.floor((k * s.need.length) / RECALL_NEEDS)]);
    const input = { ...s.input };
    if (input.file_path) input.file_path = path.join(projOf(sub), input.file_path);
    if (input.command) input.command = `cd ${projOf(sub)} && ${input.command}`;
    steps.push({ recall: () => models[t].st.stepIds[i], tool: s.tool, input, need, turn: t + 1 });
  }
  const facts = steps.flatMap((s) => s.need);
  return {
    id: `${session.id}-recall`,
    prompt: `Before we wrap up, go back to what we found at the start: quote again the lines of ${steps.map((s) => `turn ${s.turn}'s first result`).join(' and ')} that mattered.`,
    steps,
    answer: `From the early results:\n${facts.map((f) => `- ${f}`).join('\n')}`,
    expect: facts.map((f) => f.slice(0, 80)),
  };
}

function readLines(stream, onLine) {
  let buf = '';
  stream.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) onLine(line);
    }
  });
}

// One long session under one configuration.
async function runLong(session, mode) {
  const work = path.join(os.tmpdir(), `caveman-lsession-${session.id}`);
  fs.rmSync(work, { recursive: true, force: true });
  const home = path.join(work, 'home');
  const cavemanHome = path.join(home, '.caveman');
  const cwd = path.join(work, 'proj');
  fs.mkdirSync(cavemanHome, { recursive: true, mode: 0o700 });
  fs.mkdirSync(cwd, { recursive: true });
  // Every generated project where it was generated (its outputs name that path).
  for (const sub of session.subs) {
    fs.rmSync(workDirFor(sub.id), { recursive: true, force: true });
    fs.mkdirSync(projOf(sub), { recursive: true });
    sub.setup(projOf(sub));
  }
  const biller = createBiller({ clock: createVirtualClock(Date.parse('2026-12-01T09:00:00Z')) });
  const rows = [];
  const meter = meterChurn(biller, rows);
  const mock = await startMockUpstream({ billing: biller, uniqueIds: true, eventDelayMs: 0 });
  const models = session.subs.map((sub, t) => scriptedModel(sub, projOf(sub), sub.steps.map(() => null), 'expand', { idPrefix: `t${t + 1}x`, cd: projOf(sub) }));
  const recall = recallTurn(session, models);
  const turns = [...session.subs, recall];
  let current = -1;
  let lazyRecall = null;
  const modelOf = (t) => {
    if (t < models.length) return models[t];
    if (!lazyRecall) {
      // The ids of the referred calls are known once those turns ran.
      const steps = recall.steps.map((s) => ({ ...s, recall: s.recall() }));
      lazyRecall = scriptedModel({ ...recall, steps }, cwd, steps.map(() => null), 'expand', { idPrefix: 'rcl' });
    }
    return lazyRecall;
  };
  let pings = 0;
  let strayAfterExit = 0;
  let exited = false;
  mock.script((record) => {
    if (record.method !== 'POST' || !record.path.endsWith('/v1/messages')) return false;
    let body = {};
    try {
      body = JSON.parse(record.body.toString('utf8'));
    } catch {
      return false;
    }
    // A keepalive ping (docs/proxy.md, "Cache lifetimes"): max_tokens 1 (thinking: budget + 1), not streamed.
    if (!body.stream && (body.max_tokens === 1 || (body.thinking?.budget_tokens && body.max_tokens === body.thinking.budget_tokens + 1))) {
      pings += 1;
      if (exited) strayAfterExit += 1;
      mock.enqueue({ text: 'OK' });
      return false;
    }
    mock.enqueue(current >= 0 ? modelOf(current).decide(body) : { text: 'OK' });
    return false;
  });
  fs.writeFileSync(path.join(cavemanHome, 'caveman.yaml'), `providers:\n  anthropic:\n    base_url: ${mock.url}\n${mode.yaml}`);
  const port = await freePort();
  const env = {
    PATH: `${binDir}:${latestAgentsBin ? `${latestAgentsBin}:` : ''}${nodeBin}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb',
    CAVEMAN_HOME: cavemanHome, CAVEMAN_LISTEN: `127.0.0.1:${port}`, CAVE_SSRF_ALLOWLIST: '127.0.0.1',
    ANTHROPIC_API_KEY: 'sk-ant-dummy-key', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    BASH_MAX_OUTPUT_LENGTH: '200000', CAVEMAN_TEST_CLOCK: 'manual', ...(mode.env || {}),
  };
  const argv = ['wrap', ...mode.wrap, 'claude', '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose',
    '--model', model, '--max-turns', '80', '--allowedTools', 'Read,Edit,Bash,mcp__caveman__caveman_retrieve',
    ...session.subs.flatMap((sub) => ['--add-dir', projOf(sub)])];
  if (mode.direct) {
    argv.splice(0, 1 + mode.wrap.length);
    env.ANTHROPIC_BASE_URL = mock.url;
  }
  const child = spawn(mode.direct ? claudeBin : path.join(binDir, 'caveman'), argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let waiting = null;
  readLines(child.stdout, (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.type === 'result' && waiting) waiting(m);
  });
  const clock = async (ms) => {
    if (mode.direct) return { now_ms: biller.advance(ms), pings: 0 };
    const r = await fetch(`http://127.0.0.1:${port}/caveman/test/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: ms }) });
    if (!r.ok) throw new Error(`test clock: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const turnOut = [];
  let code = null;
  let finished = false;
  try {
    for (let t = 0; t < turns.length; t += 1) {
      if (t > 0) await clock(session.gaps[t - 1]);
      current = t;
      const result = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${session.id} ${mode.id}: turn ${t + 1} timed out; stderr: ${stderr.slice(-800)}`)), 600000);
        waiting = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
        exit.then((c) => reject(new Error(`${session.id} ${mode.id}: the agent exited (${c}) in turn ${t + 1}; stderr: ${stderr.slice(-800)}`)));
        child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: turns[t].prompt } }) + '\n');
      });
      waiting = null;
      const final = String(result.result ?? '');
      const missingFacts = turns[t].expect.filter((e) => !final.includes(e));
      turnOut.push({ turn: t + 1, id: turns[t].id, isError: !!result.is_error, missingFacts, final: final.slice(0, 300) });
    }
    child.stdin.end();
    code = await Promise.race([exit, new Promise((r) => setTimeout(() => r('timeout'), 60000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    // wrap exits right after its agent; nothing may follow.
    await new Promise((r) => setTimeout(r, 300));
    exited = true;
    await clock(AFTER_EXIT_MS);
    finished = true;
  } finally {
    if (!finished) {  // the proxy's log and usage rows, for the failure's cause
      const kept = fs.mkdtempSync(`${work}-failed-`);
      fs.cpSync(cavemanHome, kept, { recursive: true, filter: (src) => !src.endsWith('ccr.db') });
      console.error(`  ${session.id} ${mode.id}: failed; the proxy's state kept in ${kept}`);
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    try {
      const state = JSON.parse(fs.readFileSync(path.join(cavemanHome, 'run', `${port}.json`), 'utf8'));
      process.kill(state.pid, 'SIGTERM');
    } catch {
      // no proxy left
    }
    await mock.close();
  }
  // Verified projects (a fixed bug's tests pass).
  for (let t = 0; t < session.subs.length; t += 1) {
    const sub = session.subs[t];
    if (sub.verify && turnOut[t] && !sub.verify(projOf(sub))) turnOut[t].verifyFailed = true;
  }
  const allModels = [...models, lazyRecall].filter(Boolean);
  for (const [t, m] of allModels.entries()) if (turnOut[t]) turnOut[t].missing = m.st.missing;
  const correctTurns = turnOut.filter((x) => !x.isError && x.missingFacts.length === 0 && !x.verifyFailed && x.missing.length === 0).length;
  // Pings, from the stand-in's records: their dollars.
  let pingUsd = 0;
  for (const r of mock.modelRequests()) {
    const b = r.json || {};
    if (b.stream || !(b.max_tokens === 1 || (b.thinking?.budget_tokens && b.max_tokens === b.thinking.budget_tokens + 1))) continue;
    try {
      pingUsd += price(JSON.parse(Buffer.concat(r.response).toString()).usage, model).usd.total;
    } catch {
      // an unparsable answer bills nothing
    }
  }
  // Usage rows the proxy wrote: re-compactions and what they saved.
  let recompactions = 0;
  let recompactSaved = 0;
  try {
    const db = path.join(cavemanHome, 'caveman.db');
    if (fs.existsSync(db)) {
      const out = execFileSync('sqlite3', [db, 'select count(*), coalesce(sum(recompact_saved_tokens),0) from requests where recompact_saved_tokens > 0'], { encoding: 'utf8' });
      [recompactions, recompactSaved] = out.trim().split('|').map(Number);
    }
  } catch {
    // no sqlite3 on this machine: not counted
  }
  const sum = (f) => rows.reduce((n, x) => n + f(x), 0);
  // Churn on a warm prefix: a rewrite within 5 minutes of the previous request (an entry that
  // lapsed is written again by every configuration; that is the pause, not a byte changed).
  const warmChurn = rows.reduce((n, x, i) => n + (i > 0 && x.at - rows[i - 1].at < 5 * MINUTE_MS ? x.rewrite : 0), 0);
  const out = {
    id: session.id, mode: mode.id, code, turns: turnOut, correctTurns, totalTurns: turns.length,
    correct: code === 0 && correctTurns === turns.length,
    requests: rows.length - pings, pings, pingUsd, strayAfterExit,
    input: sum((x) => x.usage.input_tokens), write: sum((x) => x.usage.cache_creation_input_tokens),
    write1h: sum((x) => x.usage.cache_creation?.ephemeral_1h_input_tokens ?? 0),
    read: sum((x) => x.usage.cache_read_input_tokens), output: sum((x) => x.usage.output_tokens),
    usd: sum((x) => x.usd), peak: Math.max(0, ...rows.map((x) => x.prompt)), finalPrompt: rows.length ? rows.filter((x) => x.usage.output_tokens > 1).at(-1)?.prompt ?? 0 : 0,
    fixedTokens: meter.fixedTokens ?? 0, warmChurn,
    retrieves: allModels.reduce((n, m) => n + m.st.retrieves, 0), rereads: allModels.reduce((n, m) => n + m.st.rereads, 0),
    recallRetrieves: lazyRecall ? lazyRecall.st.retrieves : 0, recallRereads: lazyRecall ? lazyRecall.st.rereads : 0,
    recompactions, recompactSaved, stderr: stderr.slice(-1500),
  };
  if (args.includes('--keep')) {  // debugging: the next configuration runs in the same paths
    out.work = fs.mkdtempSync(`${work}-kept-`);
    fs.renameSync(path.join(cavemanHome, 'caveman.db'), path.join(out.work, 'caveman.db'));
    console.error(`  kept ${out.work}`);
  }
  fs.rmSync(work, { recursive: true, force: true });
  for (const sub of session.subs) fs.rmSync(workDirFor(sub.id), { recursive: true, force: true });
  return out;
}

// ---------------------------------------------------------------------------------------------
const t0 = Date.now();
const results = saved ? SESSIONS.map((session, i) => ({ session, by: saved.results[i].by })) : [];
for (const session of saved ? [] : SESSIONS) {
  const row = { session, by: {} };
  for (const mode of MODES) {
    const t1 = Date.now();
    let x;
    try {
      x = await runLong(session, mode);
    } catch (e) {
      console.error(`session ${session.id} ${mode.id}: FAILED ${e.message}`);
      x = { id: session.id, mode: mode.id, failed: String(e.message).slice(0, 600), correct: false, correctTurns: 0, totalTurns: session.subs.length + 1, usd: NaN, requests: 0, pings: 0, pingUsd: 0, strayAfterExit: 0, turns: [] };
    }
    row.by[mode.id] = x;
    console.error(`session ${session.id} ${mode.id}: rc=${x.code} requests=${x.requests} pings=${x.pings} $${x.usd?.toFixed(4)} ` +
      `correct ${x.correctTurns}/${x.totalTurns} retrieves=${x.retrieves} rereads=${x.rereads} peak=${x.peak} warmChurn=${x.warmChurn} ` +
      `recompactions=${x.recompactions} (${((Date.now() - t1) / 1000).toFixed(0)} s)`);
    for (const tt of x.turns || []) {
      if (tt.isError || tt.missingFacts.length || tt.verifyFailed || tt.missing?.length) console.error(`  turn ${tt.turn} (${tt.id}): error=${tt.isError} missingFacts=${JSON.stringify(tt.missingFacts).slice(0, 300)} missing=${JSON.stringify(tt.missing).slice(0, 300)} verifyFailed=${!!tt.verifyFailed} final=${tt.final.slice(0, 200)}`);
    }
  }
  results.push(row);
}
const runSeconds = saved ? saved.runSeconds : (Date.now() - t0) / 1000;
if (jsonOut && !saved) fs.writeFileSync(jsonOut, JSON.stringify({ seeds, perSession, sessionsPerSeed, genSeconds, runSeconds, results: results.map((r) => ({ id: r.session.id, subs: r.session.subs.map((s) => s.id), gaps: r.session.gaps, by: r.by })) }, null, 1));

// ---------------------------------------------------------------------------------------------
const usd = (n) => (Number.isFinite(n) ? `$${n.toFixed(4)}` : 'failed');
const k = (n) => Number(n || 0).toLocaleString('en-US');
const mins = (ms) => (ms >= HOUR_MS ? `${(ms / HOUR_MS).toFixed(2)} h` : ms >= 10 * MINUTE_MS ? `${Math.round(ms / MINUTE_MS)} min`
  : ms >= MINUTE_MS ? `${(ms / MINUTE_MS).toFixed(1)} min` : `${Math.round(ms / 1000)} s`);
const ids = MODES.map((m) => m.id);
const has = (id) => ids.includes(id);
const ok = (id) => results.every((r) => Number.isFinite(r.by[id].usd));  // a failed run (in JSON: null) leaves no total
const tot = (id, f = (x) => x.usd) => results.reduce((n, r) => n + f(r.by[id]), 0);
const totUsd = (id) => (ok(id) ? tot(id) : NaN);
const problems = [];
const claudeVersion = (() => {
  try {
    return execFileSync(claudeBin, ['--version']).toString().trim();
  } catch {
    return '?';
  }
})();
const L = [];
L.push('## session-lifetimes: long, paused sessions of Claude Code (issue 37)', '');
L.push(`\`bench/session_lifetimes.sh\` (\`node bench/session_lifetimes.mjs --seeds ${seeds.join(',')} --per-session ${perSession} --per-seed ${sessionsPerSeed} --markdown\`): ` +
  `${results.length} long sessions of Claude Code ${claudeVersion.replace(/ \(Claude Code\)$/, '')} under \`caveman wrap claude\`, one \`claude -p --input-format stream-json\` process per session fed one user turn at a time ` +
  '(the agent stays alive through the pauses, as an interactive session does), against the scripted, honest model of the session benchmark on the billing stand-in ' +
  `(${model}, list prices, o200k counts). Each session chains ${perSession} generated sessions (\`bench/session/generate.mjs\`, seeds ${seeds.join(', ')}, in the generator's order) ` +
  'as its user turns, each in its own real project (the agent\'s `--add-dir`), and a last turn that quotes again the first results of turns 1 and 2 ' +
  `(up to ${RECALL_NEEDS} needs each, read where they sit in the conversation as the request carries them, else retrieved, else re-run). ` +
  'Before every user turn after the first, a pause from the pause model (tests/e2e/lib/pauses.mjs; [economics.md](economics.md#pause-model)) on the proxy\'s test clock, which the stand-in follows; ' +
  'model requests inside a turn take no virtual time. Every answer is checked (the turn\'s expected facts in the agent\'s result; a fixed bug\'s tests pass).', '');
L.push('Configurations: **record 5m** Claude Code as shipped on an API key (`caveman wrap --off`: a byte-exact pipe); **record 1h** the same with ' +
  '`CLAUDE_CODE_PROMPT_CACHE_TTL=1h` (every breakpoint `ttl: "1h"`: the careful user\'s own setting); **compress** without the lifetime levers; **+ keepalive**; ' +
  '**+ re-compaction** (compress mode as shipped); **active 5m** (`--mode active`, the optimizers, no lifetime choice); **active** (every lever: + the 5-minute / 1-hour choice). ' +
  'Dollars include the keepalive pings (their count in brackets).', '');
L.push(`| session | requests | final prompt | pauses | > 5 min | ${ids.join(' | ')} | active / record 5m | active / record 1h |`);
L.push(`| --- | ---: | ---: | --- | ---: | ${ids.map(() => '---:').join(' | ')} | ---: | ---: |`);
for (const r of results) {
  const b = r.by[ids[0]];
  const cells = ids.map((id) => `${usd(r.by[id].usd ?? NaN)}${r.by[id].pings ? ` (${r.by[id].pings})` : ''}`);
  const a = has('active') ? r.by.active.usd : NaN;
  L.push(`| ${r.session.id} | ${b.requests} | ${k(b.finalPrompt)} | ${r.session.gaps.map(mins).join(', ')} | ${r.session.gaps.filter((g) => g > 5 * MINUTE_MS).length} | ${cells.join(' | ')} | ` +
    `${has('record 5m') && has('active') ? `${(a / r.by['record 5m'].usd).toFixed(2)}×` : ''} | ${has('record 1h') && has('active') ? `${(a / r.by['record 1h'].usd).toFixed(2)}×` : ''} |`);
}
const ratio5 = has('active') && has('record 5m') ? tot('active') / tot('record 5m') : NaN;
const ratio1 = has('active') && has('record 1h') ? tot('active') / tot('record 1h') : NaN;
L.push(`| **total** | ${tot(ids[0], (x) => x.requests)} | | | ${results.reduce((n, r) => n + r.session.gaps.filter((g) => g > 5 * MINUTE_MS).length, 0)} | ` +
  `${ids.map((id) => `**${usd(totUsd(id))}**${tot(id, (x) => x.pings) ? ` (${tot(id, (x) => x.pings)})` : ''}`).join(' | ')} | **${ratio5.toFixed(2)}×** | **${ratio1.toFixed(2)}×** |`);
L.push('', '| configuration | answers correct | sessions correct | requests | cache write (1 h part) | cache read | pings (dollars) | retrieves (last turn) | re-reads (last turn) | re-compactions (tokens saved) | churn on a warm prefix | peak prompt |');
L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const id of ids) {
  L.push(`| ${id} | ${tot(id, (x) => x.correctTurns)}/${tot(id, (x) => x.totalTurns)} | ${results.filter((r) => r.by[id].correct).length}/${results.length} | ${tot(id, (x) => x.requests)} | ` +
    `${k(tot(id, (x) => x.write || 0))} (${k(tot(id, (x) => x.write1h || 0))}) | ${k(tot(id, (x) => x.read || 0))} | ${tot(id, (x) => x.pings)} (${usd(tot(id, (x) => x.pingUsd))}) | ` +
    `${tot(id, (x) => x.retrieves || 0)} (${tot(id, (x) => x.recallRetrieves || 0)}) | ${tot(id, (x) => x.rereads || 0)} (${tot(id, (x) => x.recallRereads || 0)}) | ` +
    `${tot(id, (x) => x.recompactions || 0)} (${k(tot(id, (x) => x.recompactSaved || 0))}) | ${k(tot(id, (x) => x.warmChurn || 0))} | ${k(Math.max(...results.map((r) => r.by[id].peak || 0)))} |`);
}
// Each lever's dollars: the step from the configuration before it, summed over the sessions.
const steps = [['compression', 'record 5m', 'compress'], ['keepalive', 'compress', '+ keepalive'], ['re-compaction', '+ keepalive', '+ re-compaction'],
  ['active\'s optimizers (the frontier planner)', '+ re-compaction', 'active 5m'], ['the lifetime choice', has('active 5m') ? 'active 5m' : '+ re-compaction', 'active']]
  .filter(([, a, b]) => has(a) && has(b) && ok(a) && ok(b));
if (steps.length) {
  L.push('', 'Each lever, summed over the sessions (the step from the configuration before it; negative saves): ' + steps.map(([name, a, b]) => {
    const d = tot(b) - tot(a);
    const worse = results.filter((r) => r.by[b].usd > r.by[a].usd).map((r) => r.session.id);
    return `${name} ${d < 0 ? '−' : '+'}$${Math.abs(d).toFixed(4)} (${(tot(b) / tot(a)).toFixed(2)}×${worse.length ? `; dearer in ${worse.join(', ')}` : ''})`;
  }).join('; ') + '.');
}
L.push('', 'Sessions (their turns, in order; the last turn refers back to turns 1 and 2):',
  ...results.map((r) => `- ${r.session.id}: ${r.session.subs.map((s) => s.id).join(', ')}, recall.`));
L.push('', `Targets (issue 37, acceptance 2): active ≤ 0.60× record 5m (${ratio5.toFixed(2)}×) ${ratio5 <= 0.6 ? 'met' : '**missed**'}; ` +
  `≤ 0.80× record 1h (${ratio1.toFixed(2)}×) ${ratio1 <= 0.8 ? 'met' : '**missed**'}; every answer correct ` +
  `(${ids.map((id) => `${id} ${tot(id, (x) => x.correctTurns)}/${tot(id, (x) => x.totalTurns)}`).join(', ')}); ` +
  `sessions dearer under active than a record baseline: ${has('active') ? results.filter((r) => r.by.active.usd > Math.min(r.by['record 5m']?.usd ?? Infinity, r.by['record 1h']?.usd ?? Infinity)).map((r) => r.session.id).join(', ') || 'none' : 'n/a'}; ` +
  `pings after an agent exited: ${tot(ids[0], () => 0) + ids.reduce((n, id) => n + tot(id, (x) => x.strayAfterExit || 0), 0)}. ` +
  `Generation ${genSeconds.toFixed(0)} s, runs ${(runSeconds / 60).toFixed(0)} min (${os.cpus().length} cores).`);
for (const id of ids) {
  for (const r of results) if (!r.by[id].correct) problems.push(`${r.session.id} ${id}: ${r.by[id].correctTurns}/${r.by[id].totalTurns} answers correct${r.by[id].failed ? ` (${r.by[id].failed.slice(0, 200)})` : ''}`);
  if (tot(id, (x) => x.strayAfterExit || 0) > 0) problems.push(`${id}: pings after the agent exited`);
}
if (has('active')) {
  if (!(ratio5 <= 0.6)) problems.push(`active = ${ratio5.toFixed(2)}x record 5m > 0.60`);
  if (!(ratio1 <= 0.8)) problems.push(`active = ${ratio1.toFixed(2)}x record 1h > 0.80`);
  for (const r of results) if (r.by.active.usd > Math.min(r.by['record 5m']?.usd ?? Infinity, r.by['record 1h']?.usd ?? Infinity)) problems.push(`${r.session.id}: active dearer than a record baseline`);
}
if (markdown) console.log(L.join('\n'));
else console.error(L.join('\n'));
if (problems.length) console.error(`session lifetimes: ${problems.join('; ')}`);
console.error(`session lifetimes: ${problems.length} problem(s); generation ${genSeconds.toFixed(0)} s, runs ${runSeconds.toFixed(0)} s`);
process.exit(strict && problems.length > 0 ? 1 : 0);
