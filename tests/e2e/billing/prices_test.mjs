// bench/prices.json and price(): every billed quantity at its own rate, from the table's
// documented source.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PRICES, price, priceRow } from '../lib/billing.mjs';

const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

describe('price table', () => {
  test('each provider names its source and the date it was read', () => {
    for (const provider of ['anthropic', 'openai']) {
      assert.ok(PRICES[provider].source.every((s) => s.startsWith('https://')), provider);
      assert.match(PRICES[provider].retrieved, /^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('every row has input, cache write 5m/1h, cache read and output', () => {
    for (const provider of ['anthropic', 'openai']) {
      for (const [model, row] of Object.entries(PRICES[provider].models)) {
        for (const k of ['input', 'cache_write_5m', 'cache_write_1h', 'cache_read', 'output']) assert.ok(k in row, `${model}.${k}`);
      }
    }
  });

  test('Anthropic cache prices are the documented multiples of input: 1.25x, 2x, 0.1x', () => {
    for (const [model, row] of Object.entries(PRICES.anthropic.models)) {
      close(row.cache_write_5m, row.input * 1.25);
      close(row.cache_write_1h, row.input * 2);
      close(row.cache_read, row.input * 0.1);
      assert.ok(row.min_cacheable_tokens === null || row.min_cacheable_tokens >= 1024, model);
    }
  });

  test('OpenAI rows list the retention policies they accept, from a dated source', () => {
    assert.match(PRICES.openai.cache_retention_retrieved, /^\d{4}-\d{2}-\d{2}$/);
    for (const [model, row] of Object.entries(PRICES.openai.models)) {
      assert.ok(Array.isArray(row.cache_retention) && row.cache_retention.length > 0, model);
      assert.ok(row.cache_retention.every((r) => r === 'in_memory' || r === '24h'), model);
    }
    assert.deepEqual(PRICES.openai.models['gpt-5.5'].cache_retention, ['24h']);
    assert.deepEqual(PRICES.openai.models['gpt-4.1-mini'].cache_retention, ['in_memory']);
  });

  test('dated model ids and aliases resolve to their row', () => {
    assert.equal(priceRow('claude-sonnet-4-5-20250929'), PRICES.anthropic.models['claude-sonnet-4-5']);
    assert.equal(priceRow('claude-opus-4-20250514'), PRICES.anthropic.models['claude-opus-4-0']);
    assert.equal(priceRow('gpt-4.1-2025-04-14'), PRICES.openai.models['gpt-4.1']);
    assert.throws(() => priceRow('mock-model'), /no price/);
  });
});

describe('price()', () => {
  test('Anthropic usage: uncached input, 5m and 1h writes, reads and output each at their rate', () => {
    const usage = { input_tokens: 1000, cache_creation_input_tokens: 3000, cache_read_input_tokens: 100000, output_tokens: 500,
      cache_creation: { ephemeral_5m_input_tokens: 2000, ephemeral_1h_input_tokens: 1000 } };
    const { tokens, usd } = price(usage, 'claude-sonnet-4-6');
    assert.deepEqual(tokens, { input: 1000, cache_write_5m: 2000, cache_write_1h: 1000, cache_read: 100000, output: 500 });
    close(usd.input, 0.003);
    close(usd.cache_write_5m, 0.0075);
    close(usd.cache_write_1h, 0.006);
    close(usd.cache_read, 0.03);
    close(usd.output, 0.0075);
    close(usd.total, 0.054);
  });

  test('Anthropic usage without the 5m/1h breakdown bills every write at the 5-minute rate', () => {
    const { usd } = price({ input_tokens: 0, cache_creation_input_tokens: 1e6, cache_read_input_tokens: 0, output_tokens: 0 }, 'claude-haiku-4-5');
    close(usd.total, 1.25);
  });

  test('Chat Completions usage: cached tokens at the cached rate, the rest at input', () => {
    const { tokens, usd } = price({ prompt_tokens: 5000, completion_tokens: 100, total_tokens: 5100,
      prompt_tokens_details: { cached_tokens: 4096 } }, 'gpt-4.1');
    assert.deepEqual(tokens, { input: 904, cache_write_5m: 0, cache_write_1h: 0, cache_read: 4096, output: 100 });
    close(usd.total, (904 * 2 + 4096 * 0.5 + 100 * 8) / 1e6);
  });

  test('Responses usage: input_tokens_details.cached_tokens', () => {
    const { tokens } = price({ input_tokens: 2000, input_tokens_details: { cached_tokens: 1152 }, output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2010 }, 'gpt-5');
    assert.deepEqual(tokens, { input: 848, cache_write_5m: 0, cache_write_1h: 0, cache_read: 1152, output: 10 });
  });

  test('a cache write on a model without a write price is an error, not a silent $0', () => {
    assert.throws(() => price({ input_tokens: 0, cache_creation_input_tokens: 10, output_tokens: 0 }, 'gpt-4.1'), /no cache_write_5m price/);
  });
});
