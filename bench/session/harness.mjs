// The session benchmark's pieces shared by its runners (bench/session_bench.mjs: the suite and the
// generated sessions; bench/session_lifetimes.mjs: long and paused sessions): the scripted model,
// how it reads a tool result, the ground truth, small process helpers, and the churn meter on the
// billing stand-in.
import { execFileSync, execSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anthropicBlocks, price } from '../../tests/e2e/lib/billing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The engine whose `expand` the expand reading uses (setBinDir: the runner's --bin).
let binDir = path.resolve(process.env.CAVEMAN_BIN_DIR || path.join(root, 'build/release/bin'));
export function setBinDir(dir) {
  binDir = path.resolve(dir);
}

export { freePort } from '../../tests/e2e/lib/harness.mjs';

export const kHandle = /<<ccr:(ccr_[0-9a-f]{32})>>|recovery_handle\\?"\s*:\s*\\?"(ccr_[0-9a-f]{32})|ccr:\/\/(ccr_obj_[0-9a-f]{32})/g;
export function textOf(v) {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).join('\n');
  return v.text ?? '';
}

// Read's gutter ("   12\t" or "12→") is not part of a file's text.
export const ungutter = (t) => t.replace(/^ *\d+(\t|→)/gm, '');
// A factored view (docs/formats.md) states every fact of the lines it stands for, once per
// template: the model reads it expanded, exactly as `caveman-engine expand` writes it.
const expansions = new Map();
export function expanded(text) {
  if (!/^\[/m.test(text)) return text;
  if (!expansions.has(text)) {
    let out = text;
    try {
      out = execFileSync(path.join(binDir, 'caveman-engine'), ['expand'], { input: text, encoding: 'utf8' });
    } catch { /* not a view: read as written */ }
    expansions.set(text, out);
  }
  return expansions.get(text);
}
// JSON reads the same minified or pretty-printed (as the corpus MANIFEST's json must-keeps):
// white space around JSON punctuation is not part of a fact.
export const squeeze = (t) => t.replace(/\s*([{}[\]:,])\s*/g, '$1');
// expand: the result as written, without its gutter, or expanded; literal: as written or without
// its gutter only (JSON white space is not part of a fact in either).
// Claude Code 2.1.3xx trims the white space that opens a Bash output (`uniq -c`'s "    400 2024"
// arrives as "400 2024"): a need that opens the output is visible without it.
export const visible = (text, need, how = 'expand') =>
  (how === 'literal' ? [text, ungutter(text)] : [text, ungutter(text), expanded(text), expanded(ungutter(text))])
    .some((t) => t.includes(need) || squeeze(t).includes(squeeze(need)) ||
      (need.trimStart() !== need && t.startsWith(need.trimStart())));
export const handlesIn = (text) => [...new Set([...text.matchAll(kHandle)].map((m) => m[1] || m[2] || m[3]))];

// The tool result for tool_use id `id` in a request body, as the upstream received it.
export function resultFor(body, id) {
  for (const m of [...(body.messages || [])].reverse()) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b && b.type === 'tool_result' && b.tool_use_id === id) return textOf(b.content);
  }
  return null;
}

// The scripted model of one session run: decide(body) → the reply to this model request.
// opts (bench/session_lifetimes.mjs, several sessions' steps in one conversation): idPrefix makes
// tool_use ids unique across them (toolu_<idPrefix>0001); cd runs each Bash command in that
// directory (`cd DIR && command`: the session's project is not the agent's working directory).
// st.stepIds[i]: the tool_use id of step i's call.
export function scriptedModel(session, proj, truth, how = 'expand', { idPrefix = 'sess', cd = '' } = {}) {
  const st = { step: -1, pending: null, remaining: [], stepResult: '', tried: new Set(), reran: false,
    retrieves: 0, rereads: 0, missing: [], ids: 0, auxRequests: 0, answered: false, divergent: [], stepIds: [] };
  const resolve = (input) => {
    const out = { ...input };
    for (const k of ['file_path', 'path']) if (out[k] && !path.isAbsolute(out[k]) && !session.sdk) out[k] = path.join(proj, out[k]);
    if (cd && typeof out.command === 'string') out.command = `cd ${cd} && ${out.command}`;
    return out;
  };
  const needsOf = (i) => (session.steps[i].need === 'output' ? truth[i] : session.steps[i].need);
  const call = (kind, name, input) => {
    st.pending = { kind, id: `toolu_${idPrefix}${String(++st.ids).padStart(4, '0')}` };
    if (kind === 'step') st.stepIds[st.step] = st.pending.id;
    return { tool_use: { id: st.pending.id, name, input } };
  };
  const answer = () => {
    st.answered = true;
    st.pending = null;
    if (st.missing.length > 0) {
      return { text: `I could not establish the answer: these were not visible to me: ${st.missing.map((m) => JSON.stringify(m.slice(0, 80))).join(', ')}` };
    }
    const text = session.answer ?? session.answerFrom(truth.map((lines) => (lines || []).join('\n')));
    return { text };
  };
  const advance = (body) => {
    for (;;) {
      st.step += 1;
      st.tried = new Set();
      st.reran = false;
      if (st.step >= session.steps.length) return answer();
      const s = session.steps[st.step];
      // Claude Code's Edit needs the exact old text: without it the model cannot edit.
      if (s.tool === 'Edit' && st.missing.some((m) => s.input.old_string.includes(m) || m.includes(s.input.old_string))) continue;
      st.remaining = [...needsOf(st.step)];
      // A step that refers back to an earlier result (s.recall: that call's tool_use id): the
      // model first reads it where it is, in the conversation as this request carries it; then,
      // as for any result, a retrieve of its handle, else the tool run again (s.tool, s.input).
      if (s.recall) {
        st.pending = { kind: 'recall', id: s.recall };
        return decide(body);
      }
      return call('step', s.tool, resolve(s.input));
    }
  };
  function decide(body) {
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      st.auxRequests += 1; // not the agent's loop (none seen with Claude Code 2.1.197 -p)
      return { text: 'OK' };
    }
    if (st.answered) return { text: 'Done.' };
    if (!st.pending) return advance(body);
    const text = resultFor(body, st.pending.id) ?? '';
    const { kind } = st.pending;
    if (kind !== 'retrieve') st.stepResult = text;
    // Where the other reading would have decided otherwise (a need one reading sees and the
    // other does not): the transcript of the other reading would differ from here on.
    const other = how === 'expand' ? 'literal' : 'expand';
    for (const n of st.remaining) {
      if (visible(text, n, how) !== visible(text, n, other)) st.divergent.push({ step: st.step, need: n.slice(0, 120) });
    }
    st.remaining = st.remaining.filter((n) => !visible(text, n, how));
    if (st.remaining.length === 0) return advance(body);
    const retrieve = body.tools.find((t) => /(^|__)caveman_retrieve$/.test(t.name));
    const handle = retrieve && handlesIn(st.stepResult).find((h) => !st.tried.has(h));
    if (handle) {
      st.tried.add(handle);
      st.retrieves += 1;
      // The argument as the tool's schema names it: caveman-mcp's recovery_handle, or the
      // handle of the tool the proxy injects for agents without caveman-mcp.
      const props = (retrieve.input_schema && retrieve.input_schema.properties) || {};
      return call('retrieve', retrieve.name, { [('recovery_handle' in props) ? 'recovery_handle' : 'handle']: handle });
    }
    const s = session.steps[st.step];
    if (!st.reran && s.tool !== 'Edit') {
      st.reran = true;
      st.rereads += 1;
      st.tried = new Set();
      return call('reread', s.tool, resolve(s.input));
    }
    st.missing.push(...st.remaining);
    return advance(body);
  }
  return { decide, st };
}

// What the session's commands print, run in the fresh project before the session: the ground
// truth for steps that need their whole output.
export function groundTruth(session, proj) {
  return session.steps.map((s) => {
    if (s.need !== 'output') return null;
    const out = execSync(s.input.command, { cwd: proj, shell: '/bin/bash', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  });
}

export function runChild(cmd, argv, env, cwd, timeoutMs = 600000) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// The churn meter: wraps biller.usage so that each billed request appends to `rows`
// { usage, usd, prompt, rewrite, toolChurn, newTokens }; meter.fixedTokens is the first request's
// system prompt + tool schemas.
export function meterChurn(biller, rows) {
  let prev = null;
  const meter = { rows, fixedTokens: null };
  const billUsage = biller.usage;
  biller.usage = (kind, body, outputTokens) => {
    const u = billUsage(kind, body, outputTokens);
    // Churn: tokens of the prefix this request shares with the previous one (same blocks, same
    // bytes) that were written to the cache again instead of read.
    const units = anthropicBlocks(body);
    // A tool list that changed (Claude Code adds caveman-mcp's tools once the server has
    // connected, after its first request) rewrites the prefix too; that is the agent's doing,
    // not a byte compression rewrote, and is counted apart.
    const toolsKey = (us) => us.filter((x) => x.section === 'tools').map((x) => x.key).join('|');
    const toolsChanged = prev !== null && toolsKey(units) !== toolsKey(prev);
    let common = 0;
    if (prev) {
      for (let i = 0; i < Math.min(units.length, prev.length) && units[i].key === prev[i].key; i += 1) common += units[i].tokens;
    }
    prev = units;
    if (meter.fixedTokens === null) meter.fixedTokens = units.filter((x) => x.section !== 'messages').reduce((n, x) => n + x.tokens, 0);
    const cw = u.cache_creation_input_tokens;
    const rewritten = cw > 0 ? Math.min(cw, Math.max(0, common - u.cache_read_input_tokens)) : 0;
    const rewrite = toolsChanged ? 0 : rewritten;
    const toolChurn = toolsChanged ? rewritten : 0;
    const prompt = u.input_tokens + cw + u.cache_read_input_tokens;
    rows.push({ usage: u, usd: price(u, body.model).usd.total, prompt, rewrite, toolChurn, newTokens: prompt - common, at: biller.now() });
    return u;
  };
  return meter;
}
