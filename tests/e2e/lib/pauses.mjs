// The pause model of the session benchmark (issue 37; docs/economics.md, "Pause model"): the
// idle gap between the end of one user turn (the agent's answer) and the user's next prompt, on
// the stand-in's virtual clock. Gaps are drawn, seeded, from a mixture of log-uniform ranges:
//
//   reply  60%  10 s – 2 min    read the answer, type the next prompt
//   check  20%  2 – 10 min      read a diff, run the program, a short interruption
//   away   15%  10 – 60 min     a meeting, a review, a call
//   break   5%  1 – 3 h         lunch, the end of the afternoon
//
// P(gap > 5 min) = 0.286 (a 5-minute cache lapses), P(5 min < gap ≤ 60 min) = 0.236 (a 5-minute
// cache lapses, a 1-hour one does not), P(gap > 1 h) = 0.05; mean 11.1 min.
//
//   const pauses = createPauseModel({ seed: 'fix-failing-test' });
//   pauses.next()        → { ms, kind }   the gap before the next user prompt
//   pauses.schedule(n)   → [ms × n]       the gaps before user turns 2..n+1
// The same seed gives the same gaps on every platform (a 32-bit PRNG, no Math.random).

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;

export const DEFAULT_MIXTURE = Object.freeze([
  Object.freeze({ kind: 'reply', weight: 0.6, minMs: 10 * SECOND_MS, maxMs: 2 * MINUTE_MS }),
  Object.freeze({ kind: 'check', weight: 0.2, minMs: 2 * MINUTE_MS, maxMs: 10 * MINUTE_MS }),
  Object.freeze({ kind: 'away', weight: 0.15, minMs: 10 * MINUTE_MS, maxMs: 60 * MINUTE_MS }),
  Object.freeze({ kind: 'break', weight: 0.05, minMs: 60 * MINUTE_MS, maxMs: 3 * HOUR_MS }),
]);

// A 32-bit seed from a string or a number (xmur3-style string hash).
export function seedOf(seed) {
  if (typeof seed === 'number' && Number.isFinite(seed)) return seed >>> 0;
  const s = String(seed);
  let h = 1779033703 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

// mulberry32: uniform in [0, 1) from a 32-bit state.
export function createRng(seed) {
  let a = seedOf(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkMixture(mixture) {
  if (!Array.isArray(mixture) || mixture.length === 0) throw new TypeError('pauses: the mixture is empty');
  let total = 0;
  for (const c of mixture) {
    if (!(c.weight >= 0) || !(c.minMs > 0) || !(c.maxMs >= c.minMs)) throw new RangeError(`pauses: bad component ${JSON.stringify(c)}`);
    total += c.weight;
  }
  if (Math.abs(total - 1) > 1e-9) throw new RangeError(`pauses: weights sum to ${total}, not 1`);
  return mixture;
}

// A seeded generator of idle gaps from `mixture` (default: DEFAULT_MIXTURE).
export function createPauseModel({ seed = 0, mixture = DEFAULT_MIXTURE } = {}) {
  checkMixture(mixture);
  const rng = createRng(seed);
  const next = () => {
    const u = rng();
    let acc = 0;
    let c = mixture[mixture.length - 1];
    for (const x of mixture) {
      acc += x.weight;
      if (u < acc) {
        c = x;
        break;
      }
    }
    // Log-uniform within the component: as many gaps of 10–20 s as of 1–2 min.
    const ms = Math.round(c.minMs * (c.maxMs / c.minMs) ** rng());
    return { ms, kind: c.kind };
  };
  return { next, schedule: (n) => Array.from({ length: n }, () => next().ms) };
}

// The gaps before user turns 2..n+1 of a session (n gaps), from its seed.
export function pauseSchedule(seed, n, mixture = DEFAULT_MIXTURE) {
  return createPauseModel({ seed, mixture }).schedule(n);
}

// P(gap > ms) under the mixture, exactly.
export function fractionLonger(ms, mixture = DEFAULT_MIXTURE) {
  checkMixture(mixture);
  let p = 0;
  for (const c of mixture) {
    if (ms < c.minMs) p += c.weight;
    else if (ms < c.maxMs) p += (c.weight * Math.log(c.maxMs / ms)) / Math.log(c.maxMs / c.minMs);
  }
  return p;
}

// The mean gap of the mixture (ms).
export function meanGapMs(mixture = DEFAULT_MIXTURE) {
  checkMixture(mixture);
  return mixture.reduce((s, c) => s + c.weight * (c.maxMs === c.minMs ? c.minMs : (c.maxMs - c.minMs) / Math.log(c.maxMs / c.minMs)), 0);
}
