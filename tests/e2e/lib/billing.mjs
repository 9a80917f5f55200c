// A provider stand-in that bills like the provider: the prompt caches of the Anthropic Messages
// API (explicit cache_control breakpoints) and of OpenAI (automatic prefix caching), the usage
// objects each reports, and a price table to turn usage into dollars. Pure functions over an
// in-memory cache and an injectable clock; no I/O beyond loading bench/prices.json once.
// Lifetimes run on a virtual clock when asked (createVirtualClock: an idle gap is advance(ms));
// keepaliveRequest() is the smallest request that reads a prefix again (docs/economics.md,
// "Prompt-cache lifetimes").
//
// Token counts are o200k_base (gpt-tokenizer), for every provider. Anthropic bills with its own
// tokenizer, so absolute Anthropic numbers are a stand-in; what the model gets right is which
// tokens are billed as uncached input, cache write (5 m / 1 h) or cache read, by the documented
// rules below. Rendering overhead (role markers, tool-schema templates) is not counted.
//
// Anthropic (https://platform.claude.com/docs/en/build-with-claude/prompt-caching):
//   - the prompt is one sequence of blocks, tools → system → messages; each tool definition,
//     system block and message content block is one unit (a string content is one text block)
//   - a `cache_control` marks a breakpoint; the cached prefix is every block up to and including
//     it; a top-level `cache_control` (automatic caching) marks the last block
//   - at most 4 breakpoints (more: 400); a "1h" breakpoint may not follow a "5m" one (400)
//   - per breakpoint, the cache is checked at the breakpoint and then at each earlier block
//     boundary, up to 20 blocks back; the longest live hit is read
//   - a breakpoint past the read point is written if its prefix reaches the model's minimum
//     cacheable length (otherwise silently not cached)
//   - entries live 5 minutes ("5m", default) or 1 hour ("1h"); each hit refreshes the lifetime at
//     no cost (a read at 4:59 keeps the entry another 5 minutes; at 5:00 it is gone and the
//     prefix is written again at 1.25x); a 1h write costs 2x input, a 5m write 1.25x, a read 0.1x
//   - usage: cache_read_input_tokens (prefix read), cache_creation_input_tokens (written, split
//     in cache_creation.ephemeral_5m/1h_input_tokens), input_tokens (after the last read/write
//     point); their sum is the whole prompt
// OpenAI (https://developers.openai.com/api/docs/guides/prompt-caching):
//   - automatic for prompts of at least 1,024 tokens; hits are whole 128-token steps of the
//     longest prefix seen before (cached_tokens is 0 or 1024 + 128 k)
//   - the cache is per model and per `prompt_cache_key` (the routing key)
//   - retention (prompt_cache_retention, per model in bench/prices.json `cache_retention`):
//     "in_memory" entries last 5 minutes of inactivity (the documented 5-10 minutes, lower end;
//     "always removed within an hour of last use" is then implied); "24h" entries last 24 hours
//     of inactivity. Omitted: "24h" on a model that offers both, unless the organisation has
//     Zero Data Retention (createBiller({ openaiZdr: true })), then "in_memory"; a model that
//     offers one policy uses it. A value the model does not offer is the API's 400.
//   - Responses: max_output_tokens below 16 is a 400
//   - usage.prompt_tokens_details.cached_tokens (Chat Completions),
//     usage.input_tokens_details.cached_tokens (Responses)
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

export const PRICES = createRequire(import.meta.url)('../../../bench/prices.json');

export const MINUTE_MS = 60_000;
export const ANTHROPIC_TTL_MS = { '5m': 5 * MINUTE_MS, '1h': 60 * MINUTE_MS };
export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_BLOCKS = 20;
export const OPENAI_MIN_TOKENS = 1024;
export const OPENAI_STEP_TOKENS = 128;
export const OPENAI_IDLE_MS = 5 * MINUTE_MS;
export const OPENAI_EXTENDED_MS = 24 * 60 * MINUTE_MS;
export const OPENAI_RETENTION_MS = { in_memory: OPENAI_IDLE_MS, '24h': OPENAI_EXTENDED_MS };
export const RESPONSES_MIN_OUTPUT_TOKENS = 16;

// A clock that moves only when told to: the stand-in's virtual time. advance(ms) models an idle
// gap (a human pause) or the time a request takes; now() is what the cache models read.
export function createVirtualClock(start = 0) {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`virtual clock: cannot advance by ${ms}`);
      t += ms;
      return t;
    },
  };
}

// An error the provider would answer instead of billing (status and its JSON body).
export class BillingError extends Error {
  constructor(provider, status, message, param = null, code = param ? 'invalid_parameter' : null) {
    super(message);
    this.status = status;
    this.body = provider === 'anthropic'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : { error: { message, type: 'invalid_request_error', param, code } };
  }
}

// Special-token text (e.g. "<|endoftext|>") inside a prompt is ordinary text to the provider.
export function tokenize(text) {
  return text ? encode(text, { disallowedSpecial: new Set() }) : [];
}
// The first n tokens of text (a reply cut at max_tokens).
export function truncateTokens(text, n) {
  const ids = tokenize(text);
  return ids.length <= n ? text : decode(ids.slice(0, n));
}
export function countTokens(text) {
  return tokenize(text).length;
}

const sha = (s) => crypto.createHash('sha256').update(s).digest('hex');

// Text of any content value: a string, a list of blocks, a block.
function contentText(v) {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(contentText).join('');
  return v.text ?? v.thinking ?? JSON.stringify(withoutCacheControl(v));
}

// The cache_control markers are not prompt content: moving a breakpoint must not change the
// prefix it covers. Removed at every depth.
function withoutCacheControl(v) {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

// The cache_control a block carries, on itself or a nested content block (a tool_result's).
function findCacheControl(block) {
  if (block.cache_control) return block.cache_control;
  if (Array.isArray(block.content)) {
    for (const b of block.content) if (b && typeof b === 'object' && b.cache_control) return b.cache_control;
  }
  return null;
}

// The text of a block that the model reads, for its token count.
function anthropicBlockText(section, block) {
  if (section === 'tools') return JSON.stringify(withoutCacheControl(block));
  switch (block.type) {
    case 'text': return block.text;
    case 'thinking': return block.thinking;
    case 'tool_use':
    case 'server_tool_use': return block.name + JSON.stringify(block.input ?? {});
    case 'tool_result': return contentText(block.content);
    default: return JSON.stringify(withoutCacheControl(block)); // images, documents: not modelled
  }
}

const asBlocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? []);

// The request as cacheable units in prefix order, each with its canonical key (what the prefix
// hash covers), o200k tokens and the breakpoint it carries (or null).
export function anthropicBlocks(body) {
  const units = [];
  const add = (section, role, block) => units.push({
    section, key: JSON.stringify([section, role, withoutCacheControl(block)]),
    tokens: countTokens(anthropicBlockText(section, block)), cacheControl: findCacheControl(block),
  });
  for (const tool of body.tools ?? []) add('tools', null, tool);
  for (const block of asBlocks(body.system)) add('system', null, block);
  for (const m of body.messages ?? []) for (const block of asBlocks(m.content)) add('messages', m.role, block);
  if (body.cache_control && units.length > 0 && !units[units.length - 1].cacheControl) {
    units[units.length - 1].cacheControl = body.cache_control; // automatic caching
  }
  return units;
}

// Strips a date suffix (-20250929, -2025-04-14) and resolves aliases: the price table's key.
export function modelKey(model, provider) {
  const table = PRICES[provider];
  const base = String(model ?? '').replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '').replace(/-latest$/, '');
  return table.aliases[base] ?? base;
}

// The documented minimum for the model; unknown models by class (Haiku 2048, others 1024).
export function minCacheableTokens(model) {
  const entry = PRICES.anthropic.models[modelKey(model, 'anthropic')];
  if (entry?.min_cacheable_tokens) return entry.min_cacheable_tokens;
  return /haiku/.test(String(model)) ? 2048 : 1024;
}

function breakpointTtl(cc) {
  return cc.ttl ?? '5m';
}

// The 400 the Messages API would answer for this request's breakpoints, or null.
export function validateAnthropic(body) {
  const marks = anthropicBlocks(body).filter((u) => u.cacheControl).map((u) => u.cacheControl);
  if (marks.length > MAX_BREAKPOINTS) {
    return new BillingError('anthropic', 400,
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks.length}.`);
  }
  let seen5m = false;
  for (const cc of marks) {
    const ttl = breakpointTtl(cc);
    if (cc.type !== 'ephemeral' || !(ttl in ANTHROPIC_TTL_MS)) {
      return new BillingError('anthropic', 400, `cache_control: unsupported ${JSON.stringify(cc)}`);
    }
    if (ttl === '1h' && seen5m) {
      return new BillingError('anthropic', 400, 'cache_control: a ttl="1h" breakpoint may not come after a ttl="5m" one');
    }
    seen5m ||= ttl === '5m';
  }
  return null;
}

// Cumulative prefix hashes: hashes[i] identifies blocks 0..i of this model's prompt.
function prefixHashes(model, units) {
  let h = sha(`anthropic\n${model}`);
  return units.map((u) => (h = sha(`${h}\n${u.key}`)));
}

function live(entry, now) {
  return entry !== undefined && now < entry.expiresAt;
}

// The longest live cached prefix reachable from any breakpoint (its block index, or -1); every
// hit found refreshes its entry's lifetime.
function anthropicRead(cache, hashes, breakpoints, now) {
  let read = -1;
  for (const b of breakpoints) {
    for (let j = b; j >= Math.max(0, b - LOOKBACK_BLOCKS); j--) {
      const entry = cache.get(hashes[j]);
      if (!live(entry, now)) continue;
      entry.expiresAt = now + entry.ttlMs;
      read = Math.max(read, j);
      break;
    }
  }
  return read;
}

// Bills one Messages request against `cache` (a Map the caller keeps) at time `now`: returns
// the usage the API would report. Throws the BillingError the API would answer instead.
export function billAnthropic(cache, body, outputTokens, now) {
  const error = validateAnthropic(body);
  if (error) throw error;
  const units = anthropicBlocks(body);
  const cum = [];
  units.reduce((sum, u, i) => (cum[i] = sum + u.tokens), 0);
  const total = cum.length > 0 ? cum[cum.length - 1] : 0;
  const before = (i) => (i >= 0 ? cum[i] : 0);
  const hashes = prefixHashes(body.model, units);
  const breakpoints = units.flatMap((u, i) => (u.cacheControl ? [i] : []));
  const read = anthropicRead(cache, hashes, breakpoints, now);
  const minimum = minCacheableTokens(body.model);
  const written = { '5m': 0, '1h': 0 };
  let point = read; // the end of the prefix billed as read or written so far
  for (const b of breakpoints) {
    if (b <= point || cum[b] < minimum) continue;
    const ttl = breakpointTtl(units[b].cacheControl);
    written[ttl] += cum[b] - before(point);
    cache.set(hashes[b], { ttlMs: ANTHROPIC_TTL_MS[ttl], expiresAt: now + ANTHROPIC_TTL_MS[ttl] });
    point = b;
  }
  return {
    input_tokens: total - before(point),
    cache_creation_input_tokens: written['5m'] + written['1h'],
    cache_read_input_tokens: before(read),
    cache_creation: { ephemeral_5m_input_tokens: written['5m'], ephemeral_1h_input_tokens: written['1h'] },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

// OpenAI prompts as token ids, one message (or item) at a time so that appending a turn never
// changes the tokens of the ones before it.
function openaiPieces(kind, body) {
  const pieces = [];
  if (kind === 'responses' && body.instructions) pieces.push(`developer\n${body.instructions}`);
  for (const tool of body.tools ?? []) pieces.push(JSON.stringify(tool));
  if (kind === 'chat') {
    for (const m of body.messages ?? []) {
      pieces.push(`${m.role}\n${contentText(m.content)}${m.tool_calls ? JSON.stringify(m.tool_calls) : ''}`);
    }
  } else if (typeof body.input === 'string') {
    pieces.push(`user\n${body.input}`);
  } else {
    for (const item of body.input ?? []) {
      if (item.type === 'function_call_output') pieces.push(`tool\n${contentText(item.output)}`);
      else if (item.type === 'function_call') pieces.push(`${item.name}${item.arguments}`);
      else pieces.push(`${item.role ?? item.type}\n${contentText(item.content)}`);
    }
  }
  return pieces;
}

export function openaiPromptTokens(kind, body) {
  return openaiPieces(kind, body).flatMap((p) => tokenize(p));
}

// The cache retention policies a model offers (bench/prices.json `cache_retention`); a model
// the table does not list takes either.
export function openaiRetentionPolicies(model) {
  const row = PRICES.openai.models[modelKey(model, 'openai')];
  return row?.cache_retention ?? ['in_memory', '24h'];
}

// The retention a request gets: its prompt_cache_retention, or the default for the model and
// the organisation (24h where the model offers it, unless Zero Data Retention). Throws the 400
// the API answers for a value the model does not offer.
export function openaiRetention(body, { zdr = false } = {}) {
  const offered = openaiRetentionPolicies(body.model);
  const asked = body.prompt_cache_retention;
  if (asked === undefined || asked === null) {
    if (offered.length === 1) return offered[0];
    return zdr ? 'in_memory' : '24h';
  }
  if (!offered.includes(asked)) {
    throw new BillingError('openai', 400, 'prompt_cache_retention is not supported on this model', 'prompt_cache_retention');
  }
  return asked;
}

// The 400 the OpenAI API would answer for this request's cache or output options, or null.
export function validateOpenAI(kind, body, { zdr = false } = {}) {
  if (kind === 'responses' && body.max_output_tokens != null && body.max_output_tokens < RESPONSES_MIN_OUTPUT_TOKENS) {
    return new BillingError('openai', 400, `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= ${RESPONSES_MIN_OUTPUT_TOKENS}, but got ${body.max_output_tokens} instead.`,
      'max_output_tokens', 'integer_below_min_value');
  }
  try {
    openaiRetention(body, { zdr });
  } catch (e) {
    if (e instanceof BillingError) return e;
    throw e;
  }
  return null;
}

// The most output tokens a request allows (Infinity when it sets no limit).
export function maxOutputTokens(kind, body) {
  const cap = kind === 'anthropic' ? body.max_tokens
    : kind === 'chat' ? body.max_completion_tokens ?? body.max_tokens
      : body.max_output_tokens;
  return Number.isInteger(cap) && cap > 0 ? cap : Infinity;
}

// The smallest request that reads the same cached prefix (a cache keepalive): the same body
// with the smallest output the API allows, not streamed. Anthropic: max_tokens 1 (with extended
// thinking the cap must exceed budget_tokens, and the thinking settings must stay as they are:
// changing them invalidates the cached messages); Chat Completions: max_completion_tokens 1;
// Responses: max_output_tokens 16, the API's minimum.
export function keepaliveRequest(kind, body) {
  const out = { ...body };
  delete out.stream;
  delete out.stream_options;
  if (kind === 'anthropic') {
    const budget = body.thinking?.type === 'enabled' ? body.thinking.budget_tokens : 0;
    out.max_tokens = budget > 0 ? budget + 1 : 1;
  } else if (kind === 'chat') {
    delete out.max_tokens;
    out.max_completion_tokens = 1;
  } else {
    out.max_output_tokens = RESPONSES_MIN_OUTPUT_TOKENS;
  }
  return out;
}

// Bills one Chat Completions ('chat') or Responses ('responses') request: the usage object.
// Throws the BillingError the API would answer instead.
export function billOpenAI(cache, kind, body, outputTokens, now, { zdr = false } = {}) {
  const error = validateOpenAI(kind, body, { zdr });
  if (error) throw error;
  const ids = openaiPromptTokens(kind, body);
  const cached = openaiCachedTokens(cache, body, ids, now, openaiRetention(body, { zdr }));
  if (kind === 'chat') {
    return {
      prompt_tokens: ids.length, completion_tokens: outputTokens, total_tokens: ids.length + outputTokens,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
  }
  return {
    input_tokens: ids.length, input_tokens_details: { cached_tokens: cached }, output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 }, total_tokens: ids.length + outputTokens,
  };
}

// The cached prefix length of `ids`, then every 128-token step of it is (re)stored with the
// request's retention: a hit keeps an entry alive like a write does.
function openaiCachedTokens(cache, body, ids, now, retention) {
  if (ids.length < OPENAI_MIN_TOKENS) return 0;
  let h = sha(`openai\n${body.model}\n${body.prompt_cache_key ?? ''}`);
  const steps = [];
  for (let end = OPENAI_STEP_TOKENS; end <= ids.length; end += OPENAI_STEP_TOKENS) {
    h = sha(`${h}\n${ids.slice(end - OPENAI_STEP_TOKENS, end).join(',')}`);
    if (end >= OPENAI_MIN_TOKENS) steps.push({ end, h });
  }
  let cached = 0;
  for (const { end, h: key } of steps) if (live(cache.get(key), now)) cached = end;
  const idle = OPENAI_RETENTION_MS[retention];
  for (const { h: key } of steps) {
    const old = cache.get(key);
    // An entry kept under both policies keeps the longer of the two lifetimes.
    const expiresAt = Math.max(now + idle, live(old, now) ? old.expiresAt : 0);
    cache.set(key, { retention, expiresAt });
  }
  return cached;
}

// The live cache entries at `now`, soonest expiry first: [{ expiresAt, ttlMs | retention }].
export function liveEntries(cache, now) {
  return [...cache.values()].filter((e) => live(e, now)).sort((a, b) => a.expiresAt - b.expiresAt);
}

// One billing account: both providers' caches and a clock. `clock` (createVirtualClock()) makes
// the account's time virtual: biller.advance(ms) then models an idle gap. `now` alone injects a
// clock function (tests); neither: wall time. `openaiZdr`: the organisation has Zero Data
// Retention (OpenAI's default retention is then in_memory instead of 24h).
export function createBiller({ clock = null, now = clock ? clock.now : () => Date.now(), openaiZdr = false } = {}) {
  const anthropicCache = new Map();
  const openaiCache = new Map();
  return {
    anthropicCache, openaiCache, clock, now,
    // The virtual clock moves by ms (an idle gap); an error on wall time.
    advance(ms) {
      if (!clock) throw new Error('billing: advance() needs a virtual clock (createBiller({ clock: createVirtualClock() }))');
      return clock.advance(ms);
    },
    // The BillingError the provider would answer for this request, or null.
    validate: (kind, body) => (kind === 'anthropic' ? validateAnthropic(body) : validateOpenAI(kind, body, { zdr: openaiZdr })),
    usage(kind, body, outputTokens) {
      if (kind === 'anthropic') return billAnthropic(anthropicCache, body, outputTokens, now());
      return billOpenAI(openaiCache, kind, body, outputTokens, now(), { zdr: openaiZdr });
    },
    // Live entries of a provider's cache now ('anthropic' or 'openai').
    live: (provider) => liveEntries(provider === 'anthropic' ? anthropicCache : openaiCache, now()),
  };
}

// Usage of any provider shape as the five billed quantities (tokens).
export function billedTokens(usage) {
  if (usage.prompt_tokens !== undefined) { // Chat Completions
    const read = usage.prompt_tokens_details?.cached_tokens ?? 0;
    return { input: usage.prompt_tokens - read, cache_write_5m: 0, cache_write_1h: 0, cache_read: read, output: usage.completion_tokens };
  }
  if (usage.input_tokens_details !== undefined) { // Responses
    const read = usage.input_tokens_details.cached_tokens ?? 0;
    return { input: usage.input_tokens - read, cache_write_5m: 0, cache_write_1h: 0, cache_read: read, output: usage.output_tokens };
  }
  const created = usage.cache_creation_input_tokens ?? 0; // Anthropic
  const w1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  return { input: usage.input_tokens ?? 0, cache_write_5m: created - w1h, cache_write_1h: w1h,
    cache_read: usage.cache_read_input_tokens ?? 0, output: usage.output_tokens ?? 0 };
}

// The price table row of a model (date suffixes and aliases resolved); throws when unknown.
export function priceRow(model) {
  for (const provider of ['anthropic', 'openai']) {
    const row = PRICES[provider].models[modelKey(model, provider)];
    if (row) return row;
  }
  throw new Error(`billing: no price for model ${model}`);
}

// Dollars of one usage object: each billed quantity at its own rate, and the total.
export function price(usage, model) {
  const row = priceRow(model);
  const tokens = billedTokens(usage);
  const usd = { total: 0 };
  for (const [part, n] of Object.entries(tokens)) {
    if (n > 0 && row[part] == null) throw new Error(`billing: ${model} has no ${part} price`);
    usd[part] = (n * (row[part] ?? 0)) / 1e6;
    usd.total += usd[part];
  }
  return { tokens, usd };
}
