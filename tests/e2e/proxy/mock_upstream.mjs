// A local stand-in for the LLM providers behind caveman-proxy: Anthropic Messages (+ count
// tokens), OpenAI Chat Completions / Responses / Embeddings and Gemini generateContent /
// streamGenerateContent, each as JSON and as SSE. It records every request it received
// (exact body bytes, headers) and the exact response bytes it sent, so tests can prove the
// proxy is a byte-exact pipe. Loopback only.
//
// As a module: const mock = await startMockUpstream(); mock.url, mock.requests, mock.script(fn),
// await mock.close(). Standalone: node mock_upstream.mjs PORT (prints the port).
import http from 'node:http';
import zlib from 'node:zlib';

export const USAGE = {
  anthropic: { input_tokens: 11, output_tokens: 7, cache_creation_input_tokens: 3, cache_read_input_tokens: 5 },
  chat: { prompt_tokens: 13, completion_tokens: 6, total_tokens: 19, prompt_tokens_details: { cached_tokens: 4 } },
  responses: {
    input_tokens: 17, input_tokens_details: { cached_tokens: 2 }, output_tokens: 8,
    output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 25,
  },
  gemini: { promptTokenCount: 21, candidatesTokenCount: 9, totalTokenCount: 30, cachedContentTokenCount: 6 },
};
const TEXT = 'Hello from the mock upstream';

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export async function startMockUpstream({ port = 0, eventDelayMs = 2 } = {}) {
  const requests = [];
  let scripted = null; // (record) => behaviour override for the next requests
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = {
        method: req.method, url: req.url, path: req.url.split('?')[0], headers: req.headers, body,
        response: [], status: 0, aborted: false, done: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!record.done) record.aborted = true;
      });
      const origWrite = res.write.bind(res);
      const origEnd = res.end.bind(res);
      res.write = (data, ...rest) => {
        if (data) record.response.push(Buffer.from(data));
        return origWrite(data, ...rest);
      };
      res.end = (data, ...rest) => {
        if (data) record.response.push(Buffer.from(data));
        record.done = true;
        return origEnd(data, ...rest);
      };
      handle(record, res).catch((e) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e));
      });
    });
  });

  async function handle(record, res) {
    if (scripted) {
      const handled = await scripted(record, res, helpers);
      if (handled) return;
    }
    let parsed = {};
    try {
      parsed = JSON.parse(record.body.toString('utf8') || '{}');
    } catch {
      parsed = { unparsable: true };
    }
    record.json = parsed;
    const p = record.path;
    if (p.endsWith('/v1/messages/count_tokens')) return json(res, 200, { input_tokens: 42 });
    if (p.endsWith('/v1/messages')) return anthropic(parsed, res);
    if (p.endsWith('/chat/completions')) return chat(parsed, res);
    if (p.endsWith('/responses')) return responses(parsed, res);
    if (p.endsWith('/embeddings')) {
      return json(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model: parsed.model, usage: { prompt_tokens: 4, total_tokens: 4 } });
    }
    const gem = /\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(p);
    if (gem) return gemini(gem[2], record.url.includes('alt=sse'), res);
    return json(res, 404, { error: { type: 'not_found_error', message: `mock: no route ${p}` } });
  }

  function json(res, status, obj, extra = {}) {
    const b = Buffer.from(JSON.stringify(obj));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': b.length, 'request-id': 'req_mock', ...extra });
    res.end(b);
  }

  async function sse(res, events) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [event, data] of events) {
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      res.write((event ? `event: ${event}\n` : '') + `data: ${payload}\n\n`);
      if (eventDelayMs > 0) await sleep(eventDelayMs);
    }
    res.end();
  }

  async function anthropic(body, res) {
    const model = body.model || 'mock-model';
    const content = [{ type: 'text', text: TEXT }];
    const usage = USAGE.anthropic;
    if (!body.stream) {
      return json(res, 200, { id: 'msg_mock', type: 'message', role: 'assistant', model, content,
        stop_reason: 'end_turn', stop_sequence: null, usage });
    }
    return sse(res, [
      ['message_start', { type: 'message_start', message: { id: 'msg_mock', type: 'message', role: 'assistant', model,
        content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['ping', { type: 'ping' }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: TEXT.slice(0, 5) } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: TEXT.slice(5) } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output_tokens } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  }

  async function chat(body, res) {
    const model = body.model || 'mock-model';
    const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model };
    if (!body.stream) {
      return json(res, 200, { id: 'chatcmpl-mock', object: 'chat.completion', created: 1700000000, model,
        choices: [{ index: 0, message: { role: 'assistant', content: TEXT, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: USAGE.chat });
    }
    const inc = body.stream_options && body.stream_options.include_usage;
    const u = inc ? { usage: null } : {};
    const events = [
      [null, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], ...u }],
      [null, { ...base, choices: [{ index: 0, delta: { content: TEXT.slice(0, 5) }, logprobs: null, finish_reason: null }], ...u }],
      [null, { ...base, choices: [{ index: 0, delta: { content: TEXT.slice(5) }, logprobs: null, finish_reason: null }], ...u }],
      [null, { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], ...u }],
    ];
    if (inc) events.push([null, { ...base, choices: [], usage: USAGE.chat }]);
    events.push([null, '[DONE]']);
    return sse(res, events);
  }

  async function responses(body, res) {
    const model = body.model || 'mock-model';
    const msg = { id: 'msg_mock', type: 'message', status: 'completed', role: 'assistant',
      content: [{ type: 'output_text', text: TEXT, annotations: [] }] };
    const resp = { id: 'resp_mock', object: 'response', created_at: 1700000000, status: 'completed', model,
      output: [msg], usage: USAGE.responses, error: null, incomplete_details: null };
    if (!body.stream) return json(res, 200, resp);
    let seq = 0;
    const common = { item_id: 'msg_mock', output_index: 0, content_index: 0 };
    return sse(res, [
      ['response.created', { type: 'response.created', sequence_number: seq++,
        response: { ...resp, status: 'in_progress', output: [], usage: null } }],
      ['response.output_item.added', { type: 'response.output_item.added', sequence_number: seq++, output_index: 0,
        item: { ...msg, status: 'in_progress', content: [] } }],
      ['response.content_part.added', { type: 'response.content_part.added', sequence_number: seq++, ...common,
        part: { type: 'output_text', text: '', annotations: [] } }],
      ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: seq++, ...common, delta: TEXT.slice(0, 5) }],
      ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: seq++, ...common, delta: TEXT.slice(5) }],
      ['response.output_text.done', { type: 'response.output_text.done', sequence_number: seq++, ...common, text: TEXT }],
      ['response.content_part.done', { type: 'response.content_part.done', sequence_number: seq++, ...common, part: msg.content[0] }],
      ['response.output_item.done', { type: 'response.output_item.done', sequence_number: seq++, output_index: 0, item: msg }],
      ['response.completed', { type: 'response.completed', sequence_number: seq++, response: resp }],
    ]);
  }

  async function gemini(method, alt, res) {
    if (method === 'countTokens') return json(res, 200, { totalTokens: 12 });
    const chunk = (text, finish, usage) => ({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
      ...(usage ? { usageMetadata: usage } : {}), modelVersion: 'gemini-mock',
    });
    if (method === 'generateContent') return json(res, 200, chunk(TEXT, true, USAGE.gemini));
    const parts = [chunk(TEXT.slice(0, 5), false, null), chunk(TEXT.slice(5), true, USAGE.gemini)];
    if (alt) return sse(res, parts.map((c) => [null, c]));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[' + JSON.stringify(parts[0]));
    await sleep(eventDelayMs);
    res.end(',\r\n' + JSON.stringify(parts[1]) + ']');
  }

  const helpers = { json, sse, sleep, gzip: zlib.gzipSync };
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = server.address().port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    requests,
    responseBytes: (r) => Buffer.concat(r.response),
    // fn(record, res, helpers) → true when it answered the request itself; null resets.
    script(fn) {
      scripted = fn;
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((r) => server.close(r));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mock = await startMockUpstream({ port: Number(process.argv[2] || 0) });
  console.log(mock.port);
}
