// The pause model (tests/e2e/lib/pauses.mjs; docs/economics.md, "Pause model"): seeded and
// reproducible, each component within its range, the sample's shares and mean match the stated
// distribution, and it includes the 5–60 minute gaps that lapse a 5-minute cache but not a 1-hour one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_MIXTURE, HOUR_MS, MINUTE_MS, SECOND_MS, createPauseModel, createRng, fractionLonger, meanGapMs, pauseSchedule,
} from '../lib/pauses.mjs';

const N = 50_000;
const sample = (seed = 'sample') => {
  const m = createPauseModel({ seed });
  return Array.from({ length: N }, () => m.next());
};

describe('pause model', () => {
  test('the same seed gives the same gaps; another seed other gaps', () => {
    assert.deepEqual(pauseSchedule('fix-failing-test', 40), pauseSchedule('fix-failing-test', 40));
    assert.deepEqual(pauseSchedule(7, 40), pauseSchedule(7, 40));
    assert.notDeepEqual(pauseSchedule('fix-failing-test', 40), pauseSchedule('explore-module', 40));
  });

  test('the generator is pinned: these gaps are what every platform draws for this seed', () => {
    // mulberry32 over a string hash; a change here changes every benchmark's pauses.
    const rng = createRng('pinned');
    assert.deepEqual([rng(), rng(), rng()], [0.1392562799155712, 0.3591327304020524, 0.8704180656932294]);
    assert.deepEqual(pauseSchedule('pinned', 6), [24410, 1671661, 25182, 27680, 16152, 32479]);
  });

  test('each gap lies in its component\'s range', () => {
    const ranges = Object.fromEntries(DEFAULT_MIXTURE.map((c) => [c.kind, c]));
    for (const { ms, kind } of sample()) {
      assert.ok(ms >= ranges[kind].minMs && ms <= ranges[kind].maxMs, `${kind} ${ms}`);
    }
  });

  test('component shares match the weights (±1.5 points over 50,000 gaps)', () => {
    const counts = {};
    for (const { kind } of sample()) counts[kind] = (counts[kind] ?? 0) + 1;
    for (const c of DEFAULT_MIXTURE) {
      assert.ok(Math.abs(counts[c.kind] / N - c.weight) < 0.015, `${c.kind}: ${counts[c.kind] / N} vs ${c.weight}`);
    }
  });

  test('the stated lapse fractions: P(> 5 min) = 0.286, P(5–60 min) = 0.236, P(> 1 h) = 0.05, mean 11.1 min', () => {
    assert.ok(Math.abs(fractionLonger(5 * MINUTE_MS) - 0.2861) < 1e-4);
    assert.ok(Math.abs(fractionLonger(5 * MINUTE_MS) - fractionLonger(HOUR_MS) - 0.2361) < 1e-4);
    assert.equal(fractionLonger(HOUR_MS), 0.05);
    assert.equal(fractionLonger(0), 1);
    assert.equal(fractionLonger(4 * HOUR_MS), 0);
    assert.ok(Math.abs(meanGapMs() / MINUTE_MS - 11.08) < 0.01);
  });

  test('the sample agrees with the exact fractions and mean', () => {
    const gaps = sample('agree').map((g) => g.ms);
    for (const t of [30 * SECOND_MS, 2 * MINUTE_MS, 5 * MINUTE_MS, 10 * MINUTE_MS, 30 * MINUTE_MS, HOUR_MS, 2 * HOUR_MS]) {
      const seen = gaps.filter((g) => g > t).length / N;
      assert.ok(Math.abs(seen - fractionLonger(t)) < 0.01, `P(> ${t / MINUTE_MS} min): ${seen} vs ${fractionLonger(t)}`);
    }
    const mean = gaps.reduce((a, b) => a + b, 0) / N;
    assert.ok(Math.abs(mean / meanGapMs() - 1) < 0.05, `mean ${mean / MINUTE_MS} min`);
  });

  test('a 20-turn session usually pauses between 5 and 60 minutes at least once', () => {
    let withMidPause = 0;
    for (let s = 0; s < 500; s++) {
      if (pauseSchedule(`session-${s}`, 19).some((g) => g > 5 * MINUTE_MS && g <= HOUR_MS)) withMidPause += 1;
    }
    // 1 − (1 − 0.236)^19 = 0.994
    assert.ok(withMidPause / 500 > 0.97, `${withMidPause} / 500`);
  });

  test('a custom mixture is checked: weights sum to 1, ranges are positive', () => {
    assert.throws(() => createPauseModel({ mixture: [{ kind: 'a', weight: 0.5, minMs: 1, maxMs: 2 }] }), /sum/);
    assert.throws(() => createPauseModel({ mixture: [{ kind: 'a', weight: 1, minMs: 0, maxMs: 2 }] }), /bad component/);
    const fixed = createPauseModel({ mixture: [{ kind: 'lunch', weight: 1, minMs: HOUR_MS, maxMs: HOUR_MS }] });
    assert.deepEqual(fixed.next(), { ms: HOUR_MS, kind: 'lunch' });
  });
});
