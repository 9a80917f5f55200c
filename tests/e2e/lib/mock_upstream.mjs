// A scripted local stand-in for the LLM providers: Anthropic Messages (+ count_tokens, GET
// /v1/models), OpenAI Chat Completions / Responses / Embeddings and Gemini generateContent /
// streamGenerateContent / countTokens, each as JSON and as SSE (the formats the official SDKs
// and Claude Code accept). It records every request (exact body bytes, headers) and the exact
// response bytes it sent, so tests can prove a proxy is a byte-exact pipe. Loopback only.
//
// Module interface:
//   const mock = await startMockUpstream({ port = 0, eventDelayMs = 2, replies = [], log = null,
//                                          tls = null, billing = null });
//   tls: { key, cert } (PEM) serves HTTPS instead of plain HTTP
//   uniqueIds: true                 each Anthropic message gets its own id (msg_mock_<n>), as the
//                                   API does; Claude Code merges consecutive assistant turns that
//                                   share an id. Off: every message is 'msg_mock', as before.
//   billing: true, or a biller from createBiller() (./billing.mjs, e.g. with a test clock): Anthropic
//                                   messages, chat and responses replies carry the usage the
//                                   provider would bill (prompt caching modelled, o200k counts);
//                                   an Anthropic request with invalid breakpoints gets the 400
//                                   (OpenAI: an unsupported prompt_cache_retention, Responses
//                                   max_output_tokens < 16). A text reply longer than the
//                                   request's max_tokens / max_completion_tokens /
//                                   max_output_tokens is cut there and billed so (stop_reason
//                                   max_tokens, finish_reason length, status incomplete).
//                                   Off (null): the fixed USAGE numbers below, as before.
//   mock.biller                     the biller in use (null when billing is off)
//   mock.advance(ms)                an idle gap: moves the biller's virtual clock (a biller made
//                                   with createBiller({ clock: createVirtualClock() })). Over
//                                   HTTP: a model request with header `x-mock-idle-ms: N` is
//                                   billed N ms after the previous clock reading, and
//                                   POST /mock/clock {"advance_ms": N} answers {"now_ms": ...}.
//   mock.url / mock.port            'http://127.0.0.1:<port>' (https:// with tls) / the bound port
//   mock.connections                TCP connections accepted so far
//   mock.requests                   [{ method, url, path, headers, body: Buffer, json, reply,
//                                      status, response: [Buffer], aborted, done }] in arrival order
//   mock.responseBytes(record)      the exact bytes sent for that request
//   mock.modelRequests()            requests that asked for a model turn (not count_tokens/models)
//   mock.enqueue(...replies)        scripted replies, consumed in order by model turns
//                                   (Anthropic messages, chat, responses, Gemini generate*)
//   mock.script(fn)                 raw override: fn(record, res, helpers) → true when it
//                                   answered itself (helpers: json, sse, sleep, gzip); null resets
//   await mock.close()
// A reply is one of (when the queue is empty: the default text reply, TEXT below):
//   { text: 'answer' }                          assistant text
//   { tool_use: { name, input, id? } }          Anthropic tool_use / chat tool_calls /
//                                               responses function_call (stop = tool use)
//   { echo_tool_result: true, prefix? }         text = prefix ('tool said: ') + the text of
//                                               the request's latest tool result
//   { status: 529, body: {...} }                an error answer (JSON body)
//   any reply may add usage: {...} to replace the provider's USAGE numbers below.
// Standalone (for shell/python tests):
//   node mock_upstream.mjs [--port N] [--log FILE] [--replies JSON|@file.json] [--billing [--virtual-clock]]
// prints the bound port on stdout (one line), then serves until SIGTERM/SIGINT; with --log
// every request is appended as a JSON line {method, url, headers, body (utf8), reply}.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
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
export const TEXT = 'Hello from the mock upstream';

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// Text of a tool result value in any provider shape (string, content blocks, parts).
function resultText(v) {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (typeof b === 'string' ? b : b.text ?? resultText(b.content))).join('');
  if (typeof v === 'object') return v.text ?? JSON.stringify(v);
  return String(v);
}

// The latest tool result of a request body, whatever the provider.
export function latestToolResult(body) {
  let found = null;
  for (const m of body.messages || []) {
    if (m.role === 'tool') found = resultText(m.content);
    if (Array.isArray(m.content)) {
      for (const b of m.content) if (b && b.type === 'tool_result') found = resultText(b.content);
    }
  }
  if (Array.isArray(body.input)) {
    for (const item of body.input) if (item && item.type === 'function_call_output') found = resultText(item.output);
  }
  for (const c of body.contents || []) {
    for (const p of c.parts || []) if (p.functionResponse) found = resultText(p.functionResponse.response);
  }
  return found;
}

export async function startMockUpstream({ port = 0, eventDelayMs = 2, replies = [], log = null, tls = null,
  billing = null, uniqueIds = false } = {}) {
  // Loaded only when asked for: the o200k tables cost start-up time other tests need not pay.
  const billingLib = billing ? await import('./billing.mjs') : null;
  const biller = billing === true ? billingLib.createBiller() : billing || null;
  const requests = [];
  const queue = [...replies];
  let scripted = null;
  let toolIds = 0;
  let messageIds = 0;
  const onRequest = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = {
        method: req.method, url: req.url, path: req.url.split('?')[0], headers: req.headers, body,
        json: null, reply: null, status: 0, response: [], aborted: false, done: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!record.done) record.aborted = true;
      });
      const origWrite = res.write.bind(res);
      const origEnd = res.end.bind(res);
      const origHead = res.writeHead.bind(res);
      res.writeHead = (status, ...rest) => {
        record.status = status;
        return origHead(status, ...rest);
      };
      res.write = (data, ...rest) => {
        if (data) record.response.push(Buffer.from(data));
        return origWrite(data, ...rest);
      };
      res.end = (data, ...rest) => {
        if (data) record.response.push(Buffer.from(data));
        record.done = true;
        return origEnd(data, ...rest);
      };
      handle(record, res)
        .catch((e) => {
          if (!res.headersSent) res.writeHead(500);
          res.end(String(e));
        })
        .finally(() => {
          if (!log) return;
          fs.appendFileSync(log, JSON.stringify({ method: record.method, url: record.url, headers: record.headers,
            body: record.body.toString('utf8'), reply: record.reply }) + '\n');
        });
    });
  };
  const server = tls ? https.createServer(tls, onRequest) : http.createServer(onRequest);
  let connections = 0;
  server.on('connection', () => ++connections);

  function nextReply(record, body) {
    const reply = queue.length > 0 ? queue.shift() : { text: TEXT };
    record.reply = reply;
    if (reply.echo_tool_result) {
      return { ...reply, text: (reply.prefix ?? 'tool said: ') + (latestToolResult(body) ?? '') };
    }
    return reply;
  }

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
    if (record.method === 'GET' && p.endsWith('/v1/models')) {
      return json(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', type: 'model',
        display_name: 'Mock', created_at: '2025-01-01T00:00:00Z' }], has_more: false, first_id: 'mock-model', last_id: 'mock-model' });
    }
    if (p === '/mock/clock' && record.method === 'POST') {
      if (!biller?.clock) return json(res, 409, { error: { type: 'mock_error', message: 'mock: no virtual clock (billing with a createVirtualClock())' } });
      try {
        if (parsed.advance_ms !== undefined) biller.advance(parsed.advance_ms);
      } catch (e) {
        return json(res, 400, { error: { type: 'mock_error', message: String(e.message) } });
      }
      return json(res, 200, { now_ms: biller.clock.now() });
    }
    if (p.endsWith('/v1/messages/count_tokens')) return json(res, 200, { input_tokens: 42 });
    if (p.endsWith('/embeddings')) {
      return json(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model: parsed.model, usage: { prompt_tokens: 4, total_tokens: 4 } });
    }
    const gem = /\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(p);
    if (gem && gem[2] === 'countTokens') return json(res, 200, { totalTokens: 12 });
    const kind = p.endsWith('/v1/messages') ? 'anthropic' : p.endsWith('/chat/completions') ? 'chat'
      : p.endsWith('/responses') ? 'responses' : gem ? 'gemini' : null;
    if (!kind) return json(res, 404, { error: { type: 'not_found_error', message: `mock: no route ${p}` } });
    const billed = biller && kind !== 'gemini';
    const idle = record.headers['x-mock-idle-ms'];
    if (billed && idle !== undefined) {
      if (!biller.clock) return json(res, 409, { error: { type: 'mock_error', message: 'mock: x-mock-idle-ms needs a virtual clock' } });
      biller.advance(Number(idle));
    }
    const refused = billed ? biller.validate(kind, parsed) : null;
    if (refused) return json(res, refused.status, refused.body);
    let reply = nextReply(record, parsed);
    if (reply.status) return json(res, reply.status, reply.body ?? { error: { type: 'mock_error', message: 'scripted error' } });
    if (billed && !reply.tool_use) {
      // The provider stops at the request's output limit (a keepalive asks for 1 token).
      const cap = billingLib.maxOutputTokens(kind, parsed);
      if (billingLib.countTokens(reply.text) > cap) reply = { ...reply, text: billingLib.truncateTokens(reply.text, cap), truncated: true };
    }
    const usage = reply.usage ?? (billed ? biller.usage(kind, parsed, billingLib.countTokens(outputText(reply))) : null);
    if (kind === 'anthropic') return anthropic(parsed, reply, res, usage);
    if (kind === 'chat') return chat(parsed, reply, res, usage);
    if (kind === 'responses') return responses(parsed, reply, res, usage);
    return gemini(gem[2], record.url.includes('alt=sse'), reply, res);
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

  // What the model "wrote": its output tokens are counted from this.
  function outputText(reply) {
    return reply.tool_use ? reply.tool_use.name + JSON.stringify(reply.tool_use.input ?? {}) : reply.text;
  }

  function toolCall(reply) {
    const t = reply.tool_use;
    return { id: t.id ?? `toolu_mock${++toolIds}`, name: t.name, input: t.input ?? {} };
  }

  async function anthropic(body, reply, res, billedUsage) {
    const model = body.model || 'mock-model';
    const id = uniqueIds ? `msg_mock_${++messageIds}` : 'msg_mock';
    const usage = billedUsage ?? USAGE.anthropic;
    const tool = reply.tool_use ? toolCall(reply) : null;
    const content = tool ? [{ type: 'tool_use', ...tool }] : [{ type: 'text', text: reply.text }];
    const stop = tool ? 'tool_use' : reply.truncated ? 'max_tokens' : 'end_turn';
    if (!body.stream) {
      return json(res, 200, { id, type: 'message', role: 'assistant', model, content,
        stop_reason: stop, stop_sequence: null, usage });
    }
    const blocks = tool
      ? [['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', ...tool, input: {} } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(tool.input) } }]]
      : [['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['ping', { type: 'ping' }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text.slice(0, 5) } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text.slice(5) } }]];
    return sse(res, [
      ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model,
        content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
      ...blocks,
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null },
        // Billed: the cumulative totals, as the API sends them; else only output_tokens, as before.
        usage: biller ? usage : { output_tokens: usage.output_tokens } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  }

  async function chat(body, reply, res, billedUsage) {
    const model = body.model || 'mock-model';
    const usage = billedUsage ?? USAGE.chat;
    const tool = reply.tool_use ? toolCall(reply) : null;
    const call = tool && { id: tool.id, type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.input) } };
    const finish = tool ? 'tool_calls' : reply.truncated ? 'length' : 'stop';
    const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model };
    if (!body.stream) {
      const message = tool ? { role: 'assistant', content: null, tool_calls: [call], refusal: null }
        : { role: 'assistant', content: reply.text, refusal: null };
      return json(res, 200, { id: 'chatcmpl-mock', object: 'chat.completion', created: 1700000000, model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage });
    }
    const inc = body.stream_options && body.stream_options.include_usage;
    const u = inc ? { usage: null } : {};
    const delta = (d, f = null) => [null, { ...base, choices: [{ index: 0, delta: d, logprobs: null, finish_reason: f }], ...u }];
    const events = [delta({ role: 'assistant', content: tool ? null : '' })];
    if (tool) {
      events.push(delta({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: tool.name, arguments: '' } }] }));
      events.push(delta({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }));
    } else {
      events.push(delta({ content: reply.text.slice(0, 5) }), delta({ content: reply.text.slice(5) }));
    }
    events.push(delta({}, finish));
    if (inc) events.push([null, { ...base, choices: [], usage }]);
    events.push([null, '[DONE]']);
    return sse(res, events);
  }

  async function responses(body, reply, res, billedUsage) {
    const model = body.model || 'mock-model';
    const tool = reply.tool_use ? toolCall(reply) : null;
    const item = tool
      ? { id: 'fc_mock', type: 'function_call', status: 'completed', call_id: tool.id, name: tool.name, arguments: JSON.stringify(tool.input) }
      : { id: 'msg_mock', type: 'message', status: reply.truncated ? 'incomplete' : 'completed', role: 'assistant',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
    const resp = { id: 'resp_mock', object: 'response', created_at: 1700000000, status: reply.truncated ? 'incomplete' : 'completed', model,
      output: [item], usage: billedUsage ?? USAGE.responses, error: null,
      incomplete_details: reply.truncated ? { reason: 'max_output_tokens' } : null };
    if (!body.stream) return json(res, 200, resp);
    let seq = 0;
    const ev = (type, extra) => [type, { type, sequence_number: seq++, ...extra }];
    const events = [ev('response.created', { response: { ...resp, status: 'in_progress', output: [], usage: null } })];
    if (tool) {
      events.push(ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }),
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: item.arguments }),
        ev('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: item.arguments }));
    } else {
      const common = { item_id: item.id, output_index: 0, content_index: 0 };
      events.push(ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
        ev('response.content_part.added', { ...common, part: { type: 'output_text', text: '', annotations: [] } }),
        ev('response.output_text.delta', { ...common, delta: reply.text.slice(0, 5) }),
        ev('response.output_text.delta', { ...common, delta: reply.text.slice(5) }),
        ev('response.output_text.done', { ...common, text: reply.text }),
        ev('response.content_part.done', { ...common, part: item.content[0] }));
    }
    events.push(ev('response.output_item.done', { output_index: 0, item }),
      ev(reply.truncated ? 'response.incomplete' : 'response.completed', { response: resp }));
    return sse(res, events);
  }

  async function gemini(method, alt, reply, res) {
    const usage = reply.usage ?? USAGE.gemini;
    const tool = reply.tool_use ? toolCall(reply) : null;
    const chunk = (part, finish, u) => ({
      candidates: [{ content: { role: 'model', parts: [part] }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
      ...(u ? { usageMetadata: u } : {}), modelVersion: 'gemini-mock',
    });
    const whole = tool ? { functionCall: { name: tool.name, args: tool.input } } : { text: reply.text };
    if (method === 'generateContent') return json(res, 200, chunk(whole, true, usage));
    const parts = tool ? [chunk(whole, true, usage)]
      : [chunk({ text: reply.text.slice(0, 5) }, false, null), chunk({ text: reply.text.slice(5) }, true, usage)];
    if (alt) return sse(res, parts.map((c) => [null, c]));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[' + JSON.stringify(parts[0]));
    await sleep(eventDelayMs);
    res.end(parts.slice(1).map((c) => ',\r\n' + JSON.stringify(c)).join('') + ']');
  }

  const helpers = { json, sse, sleep, gzip: zlib.gzipSync };
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = server.address().port;
  return {
    biller,
    port: bound,
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${bound}`,
    requests,
    get connections() {
      return connections;
    },
    responseBytes: (r) => Buffer.concat(r.response),
    modelRequests: () => requests.filter((r) => r.reply !== null),
    advance(ms) {
      if (!biller) throw new Error('mock: advance() needs billing');
      return biller.advance(ms);
    },
    enqueue(...items) {
      queue.push(...items);
    },
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
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  let replies = [];
  const r = opt('--replies');
  if (r) replies = JSON.parse(r.startsWith('@') ? fs.readFileSync(r.slice(1), 'utf8') : r);
  let billing = args.includes('--billing');
  if (billing && args.includes('--virtual-clock')) {
    const lib = await import('./billing.mjs');
    billing = lib.createBiller({ clock: lib.createVirtualClock(Date.now()) });
  }
  const mock = await startMockUpstream({ port: Number(opt('--port') || 0), replies, log: opt('--log') || null, billing });
  console.log(mock.port);
  const stop = () => mock.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
