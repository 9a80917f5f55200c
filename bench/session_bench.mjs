// Session benchmark (issue 22): whole agent sessions, in dollars, with prompt caching modelled.
// The real Claude Code (`claude -p`, npm, temp HOME, dummy key) under `caveman wrap claude`, and
// one SDK-style agent (@anthropic-ai/sdk, no cache_control) under `caveman wrap node …`, work
// through scripted sessions (bench/session/sessions.mjs) on real code and data, once in record
// mode (`caveman wrap --off`) and once in compress mode (the default), each (session, mode) with
// its own project copy, CAVEMAN_HOME, proxy and provider stand-in. The stand-in
// (tests/e2e/lib/mock_upstream.mjs) bills every request like the Anthropic API
// (tests/e2e/lib/billing.mjs: breakpoints, 5-minute cache, o200k counts; bench/prices.json) on a
// virtual clock that advances --turn-seconds per model request, and plays the model:
//
// The scripted model is honest. Each step names the strings it needs from the tool result it asked
// for. When one is not in the result as the upstream received it (Read's line-number gutter
// aside), it first calls caveman_retrieve on the handle the result carries (Claude Code:
// caveman-mcp's mcp__caveman__caveman_retrieve; the SDK agent: the tool the proxy injects), else
// re-runs the tool once; a string still missing is a missing fact, and a session with a missing
// fact answers without it (its check fails). Edits use Claude Code's Edit, which needs the exact
// old text. The final answer is checked (expected facts in the agent's final result; the fixed
// project's tests pass).
//
// usage: node bench/session_bench.mjs [--bin DIR] [--sessions a,b | --first N] [--model ID]
//          [--turn-seconds S] [--markdown] [--check] [--json FILE] [--keep]
//          [--generated SEEDS [--generated-count N] [--with-suite]] [--reading expand|literal|both]
//          [--check-scripts]
//   --check  exit 1 unless every answer is correct in both modes, no session costs more in
//            compress than in record, compress churn is 0, and the suite total is at most
//            --max-ratio (default 0.75) of record (the hand-written suite; expand reading).
//   --generated SEEDS  run the sessions bench/session/generate.mjs makes for each seed (a comma
//            list, or `random`: a seed is drawn and printed) instead of the hand-written suite
//            (--with-suite: beside it); --generated-count N sessions per seed (default 16).
//   --reading  how the scripted model reads a tool result: `expand` (a need counts when it is
//            visible in the result, its gutter removed or its templates expanded by
//            `caveman-engine expand`), `literal` (only when literally in the result, Read's
//            gutter aside; no template expansion), `both` (default with --generated; else
//            expand): compress runs once with expand; when at some step the literal reading
//            would have missed a need the expand reading saw, compress runs again with literal,
//            else the literal figures are the same transcript's.
//   --check-scripts  exit 1 unless every session runs to completion and answers correctly in
//            record mode (a byte-exact pipe: the scripts are right); no ratio gate.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockUpstream } from '../tests/e2e/lib/mock_upstream.mjs';
import { createBiller, price, priceRow } from '../tests/e2e/lib/billing.mjs';
import { freePort, groundTruth, handlesIn, meterChurn, runChild, scriptedModel, setBinDir } from './session/harness.mjs';
import { sessions as allSessions } from './session/sessions.mjs';
import { generatedSessions } from './session/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const binDir = path.resolve(opt('--bin', process.env.CAVEMAN_BIN_DIR || path.join(root, 'build/release/bin')));
setBinDir(binDir);
const corpus = path.resolve(process.env.CAVEMAN_CORPUS_DIR || path.join(root, '../shared/corpus'), 'public');
const nodeBin = path.join(root, 'tests/e2e/node_modules/.bin');
// Claude Code: pinned in tests/e2e/package.json, or the newest (`make test-latest` sets
// CAVEMAN_AGENTS_BIN_DIR to a temp prefix's node_modules/.bin, searched first).
const latestAgentsBin = process.env.CAVEMAN_AGENTS_BIN_DIR || '';
const claudeBin = path.join(latestAgentsBin || nodeBin, 'claude');
const model = opt('--model', 'claude-sonnet-4-6');
const turnMs = Number(opt('--turn-seconds', '5')) * 1000;
const maxRatio = Number(opt('--max-ratio', '0.75'));
const markdown = args.includes('--markdown');
const strict = args.includes('--check');
const keep = args.includes('--keep');
const jsonOut = opt('--json', '');
// --launcher proxy: no `caveman` binary needed (caveman-proxy + caveman-mcp, no native hooks).
const launcher = opt('--launcher', 'wrap');
const dumpDir = opt('--dump', ''); // <session>-<mode>.jsonl: per model request, the last message and the reply

const generatedOpt = opt('--generated', '');
const withSuite = args.includes('--with-suite');
const checkScripts = args.includes('--check-scripts');
const reading = opt('--reading', generatedOpt ? 'both' : 'expand');
if (!['expand', 'literal', 'both'].includes(reading)) throw new Error(`--reading ${reading}: expand, literal or both`);
const seeds = generatedOpt === 'random' ? [1 + Math.floor(Math.random() * 1e6)]
  : generatedOpt ? generatedOpt.split(',').map(Number) : [];
if (generatedOpt) console.error(`session bench: generated sessions, seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')} (rerun with --generated ${seeds.join(',')})`);
let SESSIONS = !generatedOpt || withSuite ? allSessions({ root, corpus }) : [];
if (opt('--sessions', '')) {
  const want = opt('--sessions', '').split(',');
  SESSIONS = SESSIONS.filter((s) => want.includes(s.id));
}
SESSIONS = SESSIONS.slice(0, Number(opt('--first', '0')) || Infinity);
const genStart = Date.now();
const GENERATED = seeds.flatMap((seed) => generatedSessions({ root, seed, count: Number(opt('--generated-count', '16')), log: (m) => console.error(`  ${m}`) }));
if (generatedOpt && opt('--sessions', '')) {
  const want = opt('--sessions', '').split(',');
  GENERATED.splice(0, GENERATED.length, ...GENERATED.filter((s) => want.includes(s.id)));
}
const genSeconds = (Date.now() - genStart) / 1000;
for (const s of GENERATED) s.generated = true;


async function runSession(session, mode, how = 'expand') {
  // One path for every mode: the agent prints it (its system prompt's working directory, tool
  // results, stack traces), so a mode-dependent or random name would bill the modes different
  // tokens for the same session.
  const work = path.join(os.tmpdir(), `caveman-session-${session.id}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work);
  const home = path.join(work, 'home');
  const cavemanHome = path.join(home, '.caveman');
  const proj = path.join(work, 'proj');
  fs.mkdirSync(cavemanHome, { recursive: true, mode: 0o700 });
  fs.mkdirSync(proj);
  session.setup(proj);
  const truth = groundTruth(session, proj);
  let clock = Date.parse('2026-12-01T10:00:00Z');
  const biller = createBiller({ now: () => clock });
  const rows = [];
  const meter = meterChurn(biller, rows);
  const mock = await startMockUpstream({ billing: biller, uniqueIds: true, eventDelayMs: 0 });
  const { decide, st } = scriptedModel(session, proj, truth, how);
  mock.script((record) => {
    if (record.method !== 'POST' || !record.path.endsWith('/v1/messages')) return false;
    clock += turnMs;
    let body = {};
    try {
      body = JSON.parse(record.body.toString('utf8'));
    } catch {
      return false;
    }
    mock.enqueue(decide(body));
    return false;
  });
  fs.writeFileSync(path.join(cavemanHome, 'caveman.yaml'), `providers:\n  anthropic:\n    base_url: ${mock.url}\n`);
  const port = await freePort();
  const env = {
    PATH: `${binDir}:${latestAgentsBin ? `${latestAgentsBin}:` : ''}${nodeBin}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb',
    CAVEMAN_HOME: cavemanHome, CAVEMAN_LISTEN: `127.0.0.1:${port}`, CAVE_SSRF_ALLOWLIST: '127.0.0.1',
    ANTHROPIC_API_KEY: 'sk-ant-dummy-key', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    BASH_MAX_OUTPUT_LENGTH: '200000',
  };
  const wrap = mode === 'record' ? ['wrap', '--off'] : mode === 'active' ? ['wrap', '--mode', 'active'] : ['wrap'];
  // --direct (debugging the scripts only): the agent talks to the stand-in without Caveman.
  if (mode === 'direct') {
    wrap.length = 0;
    env.ANTHROPIC_BASE_URL = mock.url;
  }
  const argv = session.sdk
    ? [...wrap, 'node', path.join(here, 'session/sdk_agent.mjs'), '--prompt', session.prompt, '--model', model]
    : [...wrap, 'claude', '-p', session.prompt, '--output-format', 'json', '--model', model, '--max-turns', '80',
      '--allowedTools', 'Read,Edit,Bash,mcp__caveman__caveman_retrieve'];
  let r;
  let proxy = null;
  if (launcher === 'proxy' && mode !== 'direct') {
    // Without the `caveman` CLI: caveman-proxy started here, caveman-mcp given to Claude Code
    // through --mcp-config (what wrap does, minus its native hooks).
    const penv = { ...env, CAVEMAN_MODE: mode, ...(mode === 'compress' && !session.sdk ? { CAVEMAN_RECOVERY: 'mcp' } : {}) };
    proxy = spawn(path.join(binDir, 'caveman-proxy'), ['serve'], { env: penv, stdio: 'ignore' });
    for (let i = 0; i < 100; i += 1) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok) break;
      } catch {
        // not yet
      }
      await new Promise((res) => setTimeout(res, 100));
    }
    env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${port}`;
    argv.splice(0, wrap.length);
    if (mode === 'compress' && !session.sdk) {
      const cfg = path.join(work, 'mcp.json');
      fs.writeFileSync(cfg, JSON.stringify({ mcpServers: { caveman: { command: path.join(binDir, 'caveman-mcp'), args: [], env: { CAVEMAN_HOME: cavemanHome } } } }));
      argv.splice(argv.indexOf('--allowedTools'), 0, `--mcp-config=${cfg}`);
    }
  }
  try {
    r = mode === 'direct' || proxy ? await runChild(argv[0], argv.slice(1), env, proj)
      : await runChild(path.join(binDir, 'caveman'), argv, env, proj);
  } finally {
    try {
      const state = JSON.parse(fs.readFileSync(path.join(cavemanHome, 'run', `${port}.json`), 'utf8'));
      process.kill(state.pid, 'SIGTERM');
    } catch {
      // no proxy left
    }
    if (proxy) proxy.kill('SIGTERM');
    await mock.close();
  }
  if (dumpDir) {
    fs.mkdirSync(dumpDir, { recursive: true });
    const lines = mock.modelRequests().map((q) => {
      const b = JSON.parse(q.body.toString('utf8'));
      const last = (b.messages || []).at(-1);
      return JSON.stringify({ tools: (b.tools || []).map((t) => t.name), last, reply: q.reply });
    });
    fs.writeFileSync(path.join(dumpDir, `${session.id}-${mode}${how === 'literal' && mode === 'compress' ? '-literal' : ''}.jsonl`), lines.join('\n') + '\n');
  }
  let result = null;
  try {
    result = JSON.parse(r.stdout.trim().split('\n').pop());
  } catch {
    result = null;
  }
  const final = result ? String(result.result ?? '') : '';
  const expect = session.expect ?? session.expectFrom(truth.map((l) => (l || []).join('\n')));
  const missingFacts = expect.filter((e) => !final.includes(e));
  const verified = session.verify ? session.verify(proj) : true;
  const correct = r.code === 0 && missingFacts.length === 0 && verified;
  const sum = (f) => rows.reduce((n, x) => n + f(x), 0);
  const out = {
    id: session.id, mode, code: r.code, correct, missingFacts, verified, turns: result ? result.num_turns : 0,
    requests: rows.length,
    input: sum((x) => x.usage.input_tokens), write: sum((x) => x.usage.cache_creation_input_tokens),
    read: sum((x) => x.usage.cache_read_input_tokens), output: sum((x) => x.usage.output_tokens),
    usd: sum((x) => x.usd), peak: Math.max(0, ...rows.map((x) => x.prompt)), rewrite: sum((x) => x.rewrite),
    toolChurn: sum((x) => x.toolChurn),
    fixedTokens: meter.fixedTokens ?? 0,
    // What the fixed prefix alone costs: written once then read every turn when cached (Claude
    // Code's breakpoints), else sent as input every turn (the SDK agent).
    fixedUsd: (() => {
      const row = priceRow(model);
      const n = meter.fixedTokens ?? 0;
      const cached = rows.some((x) => x.usage.cache_creation_input_tokens + x.usage.cache_read_input_tokens > 0);
      return cached ? (n * row.cache_write_5m + (rows.length - 1) * n * row.cache_read) / 1e6 : (rows.length * n * row.input) / 1e6;
    })(),
    rewriteTurns: rows.filter((x) => x.rewrite > 0).length,
    retrieves: st.retrieves, rereads: st.rereads, missing: st.missing, aux: st.auxRequests, reading: how, divergent: st.divergent,
    handles: [...new Set(mock.requests.flatMap((q) => handlesIn(q.body.toString('utf8'))))].length,
    stderr: r.stderr.slice(-1500), final: final.slice(0, 400), perRequest: rows.map((x) => ({ ...x.usage, usd: x.usd, rewrite: x.rewrite })),
  };
  if (keep) {  // moved aside: the next mode runs in the same path
    out.work = path.join(fs.mkdtempSync(`${work}-${mode}-`), 'kept');
    fs.renameSync(work, out.work);
  } else fs.rmSync(work, { recursive: true, force: true });
  return out;
}


const modes = args.includes('--direct') ? ['direct'] : ['record', 'compress'];
const results = [];
// "compress + breakpoint planner": mode active (compression + the optimizers), where the agent
// sets no cache_control of its own (the SDK session).
const modesOf = (session) => (session.sdk && modes[0] !== 'direct' ? [...modes, 'active'] : modes);
const genResults = [];
const t0All = Date.now();
async function runPair(session) {
  const pair = {};
  for (const mode of modesOf(session)) {
    const t0 = Date.now();
    const how = mode === 'compress' && reading === 'literal' ? 'literal' : 'expand';
    const runs = [[mode, how]];
    for (let r = 0; r < runs.length; r += 1) {
      const [m, h] = runs[r];
      const key = m === 'compress' && h === 'literal' && reading === 'both' ? 'compressLiteral' : m;
      pair[key] = await runSession(session, m, h);
      const x = pair[key];
      console.error(`session ${session.id} ${m}${reading !== 'expand' && m === 'compress' ? ` (${h})` : ''}: rc=${x.code} requests=${x.requests} $${x.usd.toFixed(4)} correct=${x.correct} ` +
        `retrieves=${x.retrieves} rereads=${x.rereads} rewrite=${x.rewrite} missing=${JSON.stringify(x.missing).slice(0, 300)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      if (!x.correct) console.error(`  final: ${x.final}\n  missing facts: ${JSON.stringify(x.missingFacts)} verified=${x.verified}\n  stderr: ${x.stderr}`);
      if (m === 'compress' && h === 'expand' && reading === 'both') {
        // The literal reading decides differently only where it misses a need expand saw.
        if (x.divergent.length > 0) runs.push(['compress', 'literal']);
        else pair.compressLiteral = { ...x, reading: 'literal', reused: true };
      }
    }
  }
  return pair;
}
for (const session of SESSIONS) results.push({ session, ...(await runPair(session)) });
for (const session of GENERATED) genResults.push({ session, ...(await runPair(session)) });
const runSeconds = (Date.now() - t0All) / 1000;
const jsonOf = (r) => ({ id: r.session.id, ...Object.fromEntries(Object.keys(r).filter((m) => m !== 'session').map((m) => [m, r[m]])) });
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ seeds, generationSeconds: genSeconds, runSeconds, suite: results.map(jsonOf), generated: genResults.map((r) => ({ seed: r.session.seed, kind: r.session.kind, source: r.session.source, ...jsonOf(r) })) }, null, 1));
if (modes[0] === 'direct') {
  const all = [...results, ...genResults];
  const bad = all.filter((r) => !r.direct.correct).map((r) => r.session.id);
  console.error(`session bench --direct: ${all.length - bad.length}/${all.length} sessions correct${bad.length ? ` (wrong: ${bad.join(', ')})` : ''}; ` +
    `generation ${genSeconds.toFixed(0)} s, runs ${runSeconds.toFixed(0)} s`);
  process.exit(bad.length === 0 ? 0 : 1);
}

const usd = (n) => `$${n.toFixed(4)}`;
const k = (n) => n.toLocaleString('en-US');
const L = [];
const problems = [];
if (results.length > 0) {
const tot = (mode, f) => results.reduce((n, r) => n + f(r[mode]), 0);
const recUsd = tot('record', (x) => x.usd);
const cmpUsd = tot('compress', (x) => x.usd);
const ratio = recUsd > 0 ? cmpUsd / recUsd : 0;
for (const r of results) {
  for (const m of modes) if (!r[m].correct) problems.push(`${r.session.id}: ${m} answer wrong`);
  if (r.compress.usd > r.record.usd) problems.push(`${r.session.id}: compress ${usd(r.compress.usd)} > record ${usd(r.record.usd)}`);
  if (r.compress.rewrite > 0) problems.push(`${r.session.id}: compress rewrote ${r.compress.rewrite} cached tokens`);
  if (r.active && !r.active.correct) problems.push(`${r.session.id}: active answer wrong`);
  if (r.active && r.active.usd > 0.5 * r.record.usd) problems.push(`${r.session.id}: compress + planner ${usd(r.active.usd)} > 0.5 x record ${usd(r.record.usd)}`);
}
if (ratio > maxRatio) problems.push(`suite: compress = ${ratio.toFixed(2)}x record > ${maxRatio}`);

const claudeVersion = (() => {
  try {
    return execFileSync(claudeBin, ['--version']).toString().trim();
  } catch {
    return '?';
  }
})();
const how = launcher === 'proxy'
  ? `Claude Code ${claudeVersion} through caveman-proxy (started by the bench in the session's mode; compress with \`CAVEMAN_RECOVERY=mcp\`) with caveman-mcp ` +
    'given to Claude Code through `--mcp-config`, which is what `caveman wrap claude` sets up minus its native hooks (run with `--launcher proxy`); the SDK session: an ' +
    '`@anthropic-ai/sdk` agent pointed at the same proxy (no caveman-mcp: the proxy injects and answers `caveman_retrieve`)'
  : `Claude Code ${claudeVersion} under \`caveman wrap claude\` (the SDK session: an \`@anthropic-ai/sdk\` agent under \`caveman wrap node\`)`;
L.push(`Whole agent sessions in dollars, prompt caching modelled (\`bench/session_bench.mjs\`, issue 22). ${results.length} scripted sessions run by ${how}, ` +
  `once in record mode (\`--off\`: a byte-exact pipe) and once in compress mode, against the scripted provider stand-in billing like the Anthropic API ` +
  `(\`tests/e2e/lib/billing.mjs\`, [economics.md](economics.md): Claude Code's own \`cache_control\` breakpoints, 5-minute cache, o200k token counts) ` +
  `at the list price of ${model} (\`bench/prices.json\`), ${turnMs / 1000} s of virtual time per model request.`, '');
L.push(`**Suite total: compress = ${ratio.toFixed(2)}× record** (${usd(cmpUsd)} vs ${usd(recUsd)}); final answers correct: ` +
  `record ${results.filter((r) => r.record.correct).length}/${results.length}, compress ${results.filter((r) => r.compress.correct).length}/${results.length}; ` +
  `cache churn in compress mode caused by compression: ${tot('compress', (x) => x.rewrite)} tokens; ` +
  `prefix tokens written again because the agent's tool list changed mid-session: ${tot('compress', (x) => x.toolChurn)} ` +
  `(compress) vs ${tot('record', (x) => x.toolChurn)} (record) (wrap gives Claude Code caveman-mcp as \`alwaysLoad\`, so its first request already lists caveman_retrieve).`, '');
L.push('| session | mode | requests | uncached input | cache write | cache read | output | dollars | compress/record | retrieves | re-reads | answer | peak context | churn |');
L.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |');
for (const r of results) {
  for (const m of modesOf(r.session)) {
    const x = r[m];
    L.push(`| ${m === 'record' ? r.session.id : ''} | ${m === 'active' ? 'compress + planner' : m} | ${x.requests} | ${k(x.input)} | ${k(x.write)} | ${k(x.read)} | ${k(x.output)} | ${usd(x.usd)} | ` +
      `${m !== 'record' ? (x.usd / r.record.usd).toFixed(2) + '×' : ''} | ${x.retrieves} | ${x.rereads} | ${x.correct ? 'correct' : '**wrong**'} | ${k(x.peak)} | ${x.rewrite} |`);
  }
}
for (const m of modes) {
  L.push(`| **total** | ${m} | ${tot(m, (x) => x.requests)} | ${k(tot(m, (x) => x.input))} | ${k(tot(m, (x) => x.write))} | ${k(tot(m, (x) => x.read))} | ` +
    `${k(tot(m, (x) => x.output))} | **${usd(tot(m, (x) => x.usd))}** | ${m === 'compress' ? `**${ratio.toFixed(2)}×**` : ''} | ${tot(m, (x) => x.retrieves)} | ` +
    `${tot(m, (x) => x.rereads)} | ${results.filter((r) => r[m].correct).length}/${results.length} | ${k(Math.max(...results.map((r) => r[m].peak)))} | ${tot(m, (x) => x.rewrite)} |`);
}
const fixedRec = tot('record', (x) => x.fixedUsd);
const fixedCmp = tot('compress', (x) => x.fixedUsd);
L.push('', `Where the dollars go: the agents' fixed prefix (system prompt and tool schemas, never compressed: ` +
  `${results.map((r) => `${r.session.id} ${k(r.record.fixedTokens)}→${k(r.compress.fixedTokens)}`).join(', ')} tokens record→compress; ` +
  'compress mode adds caveman-mcp\'s caveman_retrieve to Claude Code\'s tools) costs ' +
  `${usd(fixedRec)} of record's ${usd(recUsd)} (${((100 * fixedRec) / recUsd).toFixed(0)}%) and ${usd(fixedCmp)} in compress: written once, then read every turn. ` +
  `Everything else (the conversation: prompts, tool calls, tool results, answers) costs ${usd(recUsd - fixedRec)} in record and ${usd(cmpUsd - fixedCmp)} in compress ` +
  `(${((cmpUsd - fixedCmp) / (recUsd - fixedRec)).toFixed(2)}×).`);
L.push('', 'How to read the table:',
  '- The scripted model is honest: every step names the strings it needs from the tool result it asked for (checked against the result as the provider received it; ' +
  'Read\'s line-number gutter aside). When one is missing it first calls `caveman_retrieve` on the result\'s handle (Claude Code: caveman-mcp\'s `mcp__caveman__caveman_retrieve`; ' +
  'the SDK agent: the tool the proxy injects and answers itself, whose two requests are both billed), else re-runs the tool once (**re-reads**). A string still missing is a missing fact: ' +
  'the model then answers without the facts and the check fails. Edits use Claude Code\'s Edit with the exact old text. **answer**: the expected facts are in the agent\'s final result ' +
  '(fix-failing-test: and the project\'s test suite passes afterwards).',
  '- **requests**: model requests billed (compress adds one per retrieve). **uncached input / cache write / cache read / output**: o200k tokens as billed; **dollars** at list price. ' +
  '**peak context**: the largest prompt of the session (input + cache write + cache read).',
  '- **churn** (cache-churn figure): per request, the tokens of the prefix it shares block for block (same bytes) with the session\'s previous request that were billed as ' +
  'cache write instead of cache read, summed over the session. New content (blocks after the shared prefix) is never churn, so a compressor that re-sent a historical tool ' +
  'result with other bytes, or moved a breakpoint so the cached prefix was missed, shows here. Record mode is the agent\'s own baseline.',
  '- **compress + planner** (the SDK session, whose agent sets no `cache_control`): `caveman wrap --mode active`, compression plus the proxy\'s ' +
  '`anthropic-cache-breakpoints` planner, which adds breakpoints so the stable prefix is cached (docs/proxy.md, "Cost modes"); not in the totals.');
L.push('', 'Sessions:', ...results.map((r) => `- ${r.session.id}: ${r.session.title}; ${r.session.steps.length} scripted steps.`));
// Where the dollars go, per billed part, over the suite.
const parts = (m) => results.flatMap((r) => r[m].perRequest).reduce((acc, u) => {
  const p = price(u, model).usd;
  for (const key of ['input', 'cache_write_5m', 'cache_write_1h', 'cache_read', 'output']) acc[key] = (acc[key] ?? 0) + (p[key] ?? 0);
  return acc;
}, {});
const pr = parts('record');
const pc = parts('compress');
L.push('', '| dollars by billed part | record | compress |', '| --- | ---: | ---: |');
for (const key of ['input', 'cache_write_5m', 'cache_write_1h', 'cache_read', 'output']) L.push(`| ${key} | ${usd(pr[key])} | ${usd(pc[key])} |`);
console.error(`session bench: compress = ${ratio.toFixed(2)}x record (${usd(cmpUsd)} vs ${usd(recUsd)})`);
}

// The generated sessions (issue 35): per seed and reading, the totals; per session, both readings.
if (genResults.length > 0) {
  const readings = reading === 'both' ? [['expand', 'compress'], ['literal', 'compressLiteral']] : [[reading, 'compress']];
  const sum = (rs, key, f) => rs.reduce((n, r) => n + f(r[key]), 0);
  const line = (label, rs, name, key) => {
    const rec = sum(rs, 'record', (x) => x.usd);
    const cmp = sum(rs, key, (x) => x.usd);
    return `| ${label} | ${name} | ${rs.length} | ${usd(rec)} | ${usd(cmp)} | **${(cmp / rec).toFixed(2)}×** | ${rs.filter((r) => r.record.correct).length}/${rs.length} | ` +
      `${rs.filter((r) => r[key].correct).length}/${rs.length} | ${sum(rs, key, (x) => x.retrieves)} | ${sum(rs, key, (x) => x.rereads)} | ` +
      `${rs.filter((r) => r[key].usd > r.record.usd).length} | ${rs.filter((r) => r[key].missing.length > 0).length} |`;
  };
  const G = [];
  G.push('### Generated sessions (issue 35)', '');
  G.push(`Sessions made by \`bench/session/generate.mjs\` from sources the seed picks (never fixtures): a real loopback node service run with seeded traffic and faults ` +
    '(its access and app logs), a definition across a real npm package under `tests/e2e/node_modules`, JSON/CSV dumps of that tree\'s package metadata, a seeded ' +
    'one-character bug caught by a real test suite or a generated test of a real package, and a seeded multi-hunk change to real package files in git. Each step\'s needs ' +
    'come from running the step in the project before the session (record-mode ground truth), the answer from the same outputs. Same harness, agent and billing as ' +
    `above. Seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}; \`node bench/session_bench.mjs --generated ${seeds.join(',')}\` reproduces them ` +
    `(generation ${genSeconds.toFixed(0)} s, runs ${runSeconds < 120 ? `${runSeconds.toFixed(0)} s` : `${(runSeconds / 60).toFixed(0)} min`} for ${genResults.length} sessions` +
    `${results.length ? ' and the hand-written suite' : ''}, ${os.cpus().length} cores; launcher: ${launcher === 'proxy' ? 'caveman-proxy + caveman-mcp (`--launcher proxy`)' : '`caveman wrap claude`'}).`, '');
  G.push('Readings: **expand** counts a need when it is visible in the result as received, Read\'s gutter removed or the view\'s templates expanded by ' +
    '`caveman-engine expand` (the hand-written suite\'s reading); **literal** only when it is literally there (gutter aside, no template expansion; JSON white space ' +
    'ignored in both). Compress runs once with expand; when a need was visible only expanded, it runs again with literal, else the literal figures are the same transcript\'s.', '');
  G.push('| seed | reading | sessions | record | compress | compress/record | correct (record) | correct (compress) | retrieves | re-reads | dearer than record | facts lost |');
  G.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const seed of seeds) {
    const rs = genResults.filter((r) => r.session.seed === seed);
    for (const [name, key] of readings) G.push(line(String(seed), rs, name, key));
  }
  if (seeds.length > 1) for (const [name, key] of readings) G.push(line('**all**', genResults, name, key));
  G.push('', `| session | source | requests | record | ${readings.map(([n]) => `compress (${n}) | ratio | retrieves | answer`).join(' | ')} |`);
  G.push(`| --- | --- | ---: | ---: | ${readings.map(() => '---: | ---: | ---: | ---').join(' | ')} |`);
  for (const r of genResults) {
    G.push(`| ${r.session.id} | ${r.session.source.replace(/\|/g, '/')} | ${r.record.requests} | ${usd(r.record.usd)} | ` +
      readings.map(([, key]) => `${usd(r[key].usd)} | ${(r[key].usd / r.record.usd).toFixed(2)}× | ${r[key].retrieves}${r[key].rereads ? ` (+${r[key].rereads} re-reads)` : ''} | ${r[key].correct ? 'correct' : '**wrong**'}`).join(' | ') + ' |');
  }
  const lost = genResults.flatMap((r) => readings.flatMap(([name, key]) => (r[key].missing.length ? [`${r.session.id} (${name}): ${r[key].missing.slice(0, 3).map((m) => `\`${m.slice(0, 100).replace(/`/g, "'")}\``).join(', ')}${r[key].missing.length > 3 ? ` and ${r[key].missing.length - 3} more` : ''}`] : [])));
  if (lost.length) G.push('', 'Needed facts compress mode never showed (not even after a retrieve or a re-read):', ...lost.map((x) => `- ${x}`));
  // Where the two readings part: needs a compressed result showed only through its templates.
  const parts = genResults.filter((r) => r.compress.divergent.length > 0);
  if (parts.length && reading === 'both') {
    G.push('', `Needs visible only expanded (the literal reading missed them in compress mode's results, so it retrieved or re-read): ${parts.length} of ${genResults.length} sessions:`,
      ...parts.map((r) => `- ${r.session.id}: ${r.compress.divergent.length} need(s), e.g. ${r.compress.divergent.slice(0, 2).map((d) => `\`${d.need.slice(0, 90).replace(/`/g, "'")}\``).join(', ')}`));
  }
  const kinds = [...new Set(genResults.map((r) => r.session.kind))];
  G.push('', 'By kind (all seeds): ' + kinds.map((kd) => {
    const rs = genResults.filter((r) => r.session.kind === kd);
    return `${kd} ${readings.map(([n, key]) => `${(sum(rs, key, (x) => x.usd) / sum(rs, 'record', (x) => x.usd)).toFixed(2)}× (${n})`).join(', ')}`;
  }).join('; ') + '.');
  if (L.length) L.push('');
  L.push(...G);
  for (const r of genResults) {
    if (!r.record.correct) problems.push(`${r.session.id}: record answer wrong (the script is wrong)`);
    if (r.record.code !== 0) problems.push(`${r.session.id}: record run exited ${r.record.code}`);
    if (r.compress.code !== 0) problems.push(`${r.session.id}: compress run exited ${r.compress.code}`);
  }
  for (const [name, key] of readings) {
    const rec = sum(genResults, 'record', (x) => x.usd);
    const cmp = sum(genResults, key, (x) => x.usd);
    console.error(`session bench: generated (${name}): compress = ${(cmp / rec).toFixed(2)}x record (${usd(cmp)} vs ${usd(rec)}), ` +
      `correct ${genResults.filter((r) => r[key].correct).length}/${genResults.length}, retrieves ${sum(genResults, key, (x) => x.retrieves)}, ` +
      `dearer than record ${genResults.filter((r) => r[key].usd > r.record.usd).length}`);
  }
}
console.log(L.join('\n'));
if (problems.length) console.error(`session bench: ${problems.join('; ')}`);
console.error(`session bench: ${problems.length} problem(s); generation ${genSeconds.toFixed(0)} s, runs ${runSeconds.toFixed(0)} s` +
  (seeds.length ? `; seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}` : ''));
const scriptProblems = problems.filter((x) => / record (answer wrong|run exited)|compress run exited/.test(x));
process.exit((strict && problems.length > 0) || (checkScripts && scriptProblems.length > 0) ? 1 : 0);
