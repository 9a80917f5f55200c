// The OpenAI automatic prompt-cache model of tests/e2e/lib/billing.mjs against the documented
// rules (https://developers.openai.com/api/docs/guides/prompt-caching): caching from 1,024
// prompt tokens, hits in 128-token steps of the longest prefix seen, prompt_cache_key scoping.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MINUTE_MS, billOpenAI, openaiPromptTokens } from '../lib/billing.mjs';

const words = (n, w = ' cat') => w.repeat(n);

function account() {
  const cache = new Map();
  let now = 0;
  return {
    chat: (body, output = 3) => billOpenAI(cache, 'chat', { model: 'gpt-4.1', ...body }, output, now),
    responses: (body, output = 3) => billOpenAI(cache, 'responses', { model: 'gpt-4.1', ...body }, output, now),
    advance: (ms) => (now += ms),
  };
}

const chat = (...contents) => ({ messages: contents.map((c, i) => ({ role: i % 2 ? 'assistant' : 'user', content: c })) });
const promptTokens = (body) => openaiPromptTokens('chat', { model: 'gpt-4.1', ...body });
const steps = (n) => Math.floor(n / 128) * 128;

describe('OpenAI prompt cache', () => {
  test('a prompt under 1,024 tokens is never cached', () => {
    const a = account();
    const body = chat(words(1000));
    assert.ok(promptTokens(body).length < 1024);
    a.chat(body);
    assert.equal(a.chat(body).prompt_tokens_details.cached_tokens, 0);
  });

  test('the first request of a prompt reads nothing', () => {
    assert.equal(account().chat(chat(words(3000))).prompt_tokens_details.cached_tokens, 0);
  });

  test('a repeated prompt is read in whole 128-token steps', () => {
    const a = account();
    const body = chat(words(1500));
    const n = promptTokens(body).length;
    a.chat(body);
    const u = a.chat(body);
    assert.equal(u.prompt_tokens, n);
    assert.equal(u.prompt_tokens_details.cached_tokens, steps(n));
    assert.equal((u.prompt_tokens_details.cached_tokens - 1024) % 128, 0);
  });

  test('a longer prompt that extends an earlier one reads the shared steps', () => {
    const a = account();
    const first = chat(words(2000), words(50, ' ok'));
    a.chat(first);
    const second = chat(words(2000), words(50, ' ok'), words(700, ' dog'));
    assert.equal(a.chat(second).prompt_tokens_details.cached_tokens, steps(promptTokens(first).length));
  });

  test('a prefix just over 1,024 tokens is cached as 1,024', () => {
    const a = account();
    let n = 1000;
    while (promptTokens(chat(words(n))).length < 1100) n++;
    a.chat(chat(words(n)));
    assert.equal(a.chat(chat(words(n))).prompt_tokens_details.cached_tokens, 1024);
  });

  test('a change early in the prompt leaves only the steps before it', () => {
    const a = account();
    a.chat(chat(words(3000)));
    const changed = chat(words(600) + ' dog' + words(2399));
    const u = a.chat(changed);
    assert.equal(u.prompt_tokens_details.cached_tokens, 0, 'the change is inside the first 1,024 tokens');
    a.chat(chat(words(3000)));
    const late = chat(words(2500) + ' dog' + words(499));
    const hit = a.chat(late).prompt_tokens_details.cached_tokens;
    assert.ok(hit >= 1024 && hit <= 2500 && hit % 128 === 0, `cached ${hit}`);
  });

  test('prompt_cache_key scopes the cache: another key misses, the same key hits', () => {
    const a = account();
    const body = (key) => ({ ...chat(words(3000)), prompt_cache_key: key });
    a.chat(body('session-a'));
    assert.equal(a.chat(body('session-b')).prompt_tokens_details.cached_tokens, 0);
    assert.ok(a.chat(body('session-a')).prompt_tokens_details.cached_tokens > 0);
    assert.equal(a.chat(chat(words(3000))).prompt_tokens_details.cached_tokens, 0, 'no key is a scope of its own');
  });

  test('the model is part of the cache', () => {
    const a = account();
    a.chat(chat(words(3000)));
    assert.equal(a.chat({ model: 'gpt-5', ...chat(words(3000)) }).prompt_tokens_details.cached_tokens, 0);
  });

  test('in_memory entries expire after 5 idle minutes; each hit keeps them another 5', () => {
    const a = account();
    const body = { ...chat(words(3000)), prompt_cache_retention: 'in_memory' };
    a.chat(body);
    a.advance(5 * MINUTE_MS);
    assert.equal(a.chat(body).prompt_tokens_details.cached_tokens, 0, 'idle 5 minutes');
    // "Within one hour of the cache's last use": no cap from the first write while it is in use.
    for (let t = 4; t < 120; t += 4) {
      a.advance(4 * MINUTE_MS);
      assert.ok(a.chat(body).prompt_tokens_details.cached_tokens > 0, `kept alive at ${t} min`);
    }
  });

  test('prompt_cache_retention "24h" keeps entries a day', () => {
    const a = account();
    const body = { ...chat(words(3000)), prompt_cache_retention: '24h' };
    a.chat(body);
    a.advance(23 * 60 * MINUTE_MS);
    assert.ok(a.chat(body).prompt_tokens_details.cached_tokens > 0);
  });

  test('Chat Completions usage: prompt/completion/total tokens and prompt_tokens_details.cached_tokens', () => {
    const u = account().chat(chat(words(10)), 4);
    assert.deepEqual(Object.keys(u), ['prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'completion_tokens_details']);
    assert.equal(u.total_tokens, u.prompt_tokens + 4);
  });

  test('Responses usage: input_tokens_details.cached_tokens, instructions and input items in the prefix', () => {
    const a = account();
    const body = { instructions: words(1500), input: [{ role: 'user', content: 'hi' }] };
    a.responses(body);
    const u = a.responses({ ...body, input: [...body.input, { type: 'function_call', name: 'read', arguments: '{}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: words(400, ' dog') }] }, 9);
    assert.ok(u.input_tokens_details.cached_tokens >= 1024);
    assert.equal(u.output_tokens, 9);
    assert.equal(u.total_tokens, u.input_tokens + 9);
  });
});
