// A small MCP 2026-07-28 client written from the specification (the official TypeScript SDK
// is still legacy-only). It speaks stdio (newline-delimited JSON-RPC) and Streamable HTTP,
// puts the per-request `_meta` fields on every request (basic/index "Per-request protocol
// fields"), mirrors them into the HTTP headers (basic/transports/streamable-http "Request
// Metadata"), and returns raw replies so tests can check every field.
import { spawn } from 'node:child_process';

export const MODERN = '2026-07-28';
export const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export function requestMeta({ version = MODERN, capabilities = {}, clientInfo = { name: 'caveman-modern-e2e', version: '1.0.0' }, extra = {} } = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': clientInfo,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

// One stdio server process. request() resolves with the whole JSON-RPC reply; every line
// the server writes is kept in `lines` so tests can assert nothing unsolicited was sent.
export class StdioConnection {
  constructor(command, args, env) {
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = [];
    this.pending = new Map();
    this.stderr = '';
    this.nextId = 1;
    let buf = '';
    this.child.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        this.lines.push(msg);
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          waiter(msg);
        }
      }
    });
    this.child.stderr.on('data', (d) => { this.stderr += d; });
  }

  send(message, timeoutMs = 30000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to ${message.method} (id ${message.id})\n${this.stderr}`)), timeoutMs);
      this.pending.set(message.id, (m) => { clearTimeout(timer); resolve(m); });
      this.child.stdin.write(JSON.stringify(message) + '\n');
    });
  }

  // A modern request: params plus `_meta` (pass meta: null to send params untouched).
  request(method, params = {}, meta = requestMeta()) {
    const p = meta === null ? params : { ...params, _meta: meta };
    return this.send({ jsonrpc: '2.0', id: this.nextId++, method, params: p });
  }

  async close() {
    this.child.stdin.end();
    await new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      const t = setTimeout(() => { this.child.kill('SIGKILL'); resolve(); }, 5000);
      this.child.on('exit', () => { clearTimeout(t); resolve(); });
    });
  }
}

// Value Encoding (streamable-http "Value Encoding"): plain ASCII as is, else the
// =?base64?…?= sentinel over the UTF-8 bytes.
export function encodeHeaderValue(value) {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) &&
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

// The standard request headers a conforming client sends for `body`.
export function standardHeaders(body) {
  const h = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Mcp-Method': body.method,
  };
  const v = body.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (v !== undefined) h['MCP-Protocol-Version'] = v;
  if (['tools/call', 'prompts/get'].includes(body.method) && body.params?.name !== undefined) h['Mcp-Name'] = encodeHeaderValue(body.params.name);
  if (body.method === 'resources/read' && body.params?.uri !== undefined) h['Mcp-Name'] = encodeHeaderValue(body.params.uri);
  return h;
}

// One POST; returns {status, contentType, headers, body (the JSON-RPC reply or null)}. An
// SSE reply is parsed: its last `data:` event is the response.
export async function httpPost(url, body, headerOverrides = {}) {
  const headers = { ...standardHeaders(body), ...headerOverrides };
  for (const [k, v] of Object.entries(headers)) if (v === undefined) delete headers[k];
  const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const contentType = res.headers.get('content-type') || '';
  const text = await res.text();
  let parsed = null;
  if (contentType.startsWith('text/event-stream')) {
    const events = text.split(/\r?\n\r?\n/).map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n')).filter(Boolean);
    parsed = events.length ? JSON.parse(events[events.length - 1]) : null;
  } else if (text) {
    parsed = JSON.parse(text);
  }
  return { status: res.status, contentType, headers: res.headers, body: parsed, events: text };
}

export function modernBody(id, method, params = {}, meta = requestMeta()) {
  return { jsonrpc: '2.0', id, method, params: meta === null ? params : { ...params, _meta: meta } };
}
