// An SDK-style agent, as many teams write one: the official Anthropic SDK (@anthropic-ai/sdk),
// `messages.create` without streaming and without any `cache_control`, two tools run locally
// (read_file: the file with a line-number gutter, like Claude Code's Read; run: a shell command),
// looping until the model answers. The base URL comes from ANTHROPIC_BASE_URL (set by
// `caveman wrap`). Prints {"result": <final text>, "num_turns": <model requests it made>}.
//
// usage: node sdk_agent.mjs --prompt TEXT [--model claude-sonnet-4-6] [--max-turns 60]
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../tests/e2e/package.json'));
const Anthropic = require('@anthropic-ai/sdk').default ?? require('@anthropic-ai/sdk');

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const prompt = opt('--prompt', '');
const model = opt('--model', 'claude-sonnet-4-6');
const maxTurns = Number(opt('--max-turns', '60'));

const tools = [
  { name: 'read_file', description: 'Read a text file. Lines come back numbered (cat -n style). Use offset (1-based line) and limit for large files.',
    input_schema: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } }, required: ['path'] } },
  { name: 'run', description: 'Run a shell command in the project directory; returns stdout and stderr.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
];

function runTool(name, input) {
  try {
    if (name === 'read_file') {
      const lines = fs.readFileSync(path.resolve(input.path), 'utf8').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const start = Math.max(1, input.offset ?? 1);
      const end = Math.min(lines.length, start - 1 + (input.limit ?? 2000));
      const out = [];
      for (let i = start; i <= end; i += 1) out.push(`${String(i).padStart(6)}\t${lines[i - 1]}`);
      return out.join('\n');
    }
    if (name === 'run') {
      return execSync(input.command, { shell: '/bin/bash', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 << 20 });
    }
    return `unknown tool ${name}`;
  } catch (e) {
    return `error: ${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`;
  }
}

const client = new Anthropic({ maxRetries: 0 });
const messages = [{ role: 'user', content: prompt }];
let turns = 0;
let result = '';
while (turns < maxTurns) {
  turns += 1;
  const msg = await client.messages.create({ model, max_tokens: 4096, tools, messages });
  messages.push({ role: 'assistant', content: msg.content });
  const calls = msg.content.filter((b) => b.type === 'tool_use');
  if (msg.stop_reason !== 'tool_use' || calls.length === 0) {
    result = msg.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    break;
  }
  messages.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: runTool(c.name, c.input) })) });
}
console.log(JSON.stringify({ result, num_turns: turns }));
