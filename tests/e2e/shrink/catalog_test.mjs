#!/usr/bin/env node
// caveman-shrink on real tool catalogs, as a client would use it (issue 10, acceptance 1):
// - the captured tools/list results of @playwright/mcp 0.0.83 and chrome-devtools-mcp 1.11.0
//   (tests/testdata/shrink) lose ≥ 50% of their o200k tokens, counted independently here with
//   gpt-tokenizer (the Anthropic/OpenAI conversions, which clients make without annotations,
//   ≥ 40%);
// - in every shape (MCP result, bare array, Anthropic input_schema, OpenAI function.parameters)
//   every tool name, property name, `required` entry and enum value survives, the container
//   and each tool's schema member stay where they were, and each input schema is still a valid
//   JSON Schema (ajv: meta-schema validation and compilation, draft 2020-12 and draft-07);
// - a minimal valid call built from each original schema still validates against the shrunk
//   one (the model's calls keep working);
// - `caveman-shrink recover <handle>` returns the original byte for byte;
// - invalid JSON passes through unchanged with a warning and exit 0; a $ref cycle does not hang;
// - `caveman-shrink lint` reports every tool.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(process.env.CAVEMAN_BIN_DIR ?? join(here, '../../../build/dev/bin'), 'caveman-shrink');
const fixtures = join(here, '../../testdata/shrink');
const home = mkdtempSync(join(tmpdir(), 'caveman-shrink-e2e-'));
const env = { ...process.env, CAVEMAN_CCR_DB: join(home, 'ccr.db') };
let failures = 0;
let checks = 0;

function check(ok, what) {
  checks++;
  if (!ok) {
    failures++;
    console.log(`FAIL: ${what}`);
  }
}

function shrink(input, args = []) {
  const r = spawnSync(bin, args, { input, env, timeout: 60000, maxBuffer: 64 << 20 });
  const stderr = r.stderr.toString();
  const lines = stderr.trim().split('\n');
  let report = null;
  try { report = JSON.parse(lines[lines.length - 1]); } catch { /* checked by callers */ }
  return { code: r.status, out: r.stdout.toString(), stderr, report };
}

const tokens = (s) => encode(s).length;

// Tools of any supported container, with their schema and dialect.
function toolsOf(doc) {
  const list = Array.isArray(doc) ? doc : doc.tools ?? doc.functions ?? doc.result?.tools ?? [doc];
  return list.filter((t) => t && typeof t === 'object').map((t) => {
    const fn = t.function && typeof t.function === 'object' ? t.function : null;
    const holder = fn ?? t;
    const key = ['inputSchema', 'input_schema', 'parameters'].find((k) => k in holder);
    return { name: holder.name, key, schema: key ? holder[key] : undefined, nested: !!fn };
  });
}

// Tool names, property names (with their path), required entries and enum values.
function facts(doc) {
  const out = [];
  for (const tool of toolsOf(doc)) {
    out.push(`tool ${tool.name}`);
    const walk = (s, path) => {
      if (Array.isArray(s)) return s.forEach((x) => walk(x, path));
      if (!s || typeof s !== 'object') return;
      for (const [k, v] of Object.entries(s)) {
        if (k === 'properties' && v && typeof v === 'object') {
          for (const [p, ps] of Object.entries(v)) {
            out.push(`param ${path}.${p}`);
            walk(ps, `${path}.${p}`);
          }
        } else if (k === 'required' && Array.isArray(v)) {
          v.forEach((r) => out.push(`required ${path}:${r}`));
        } else if (k === 'enum' && Array.isArray(v)) {
          v.filter((e) => e !== null).forEach((e) => out.push(`enum ${path}=${JSON.stringify(e)}`));
        } else if (k !== 'default' && k !== 'const' && k !== 'examples') {
          walk(v, path);
        }
      }
    };
    walk(tool.schema, tool.name);
  }
  return out.sort();
}

// A minimal call the original schema accepts: required properties only, first enum value or
// a value of the first listed type.
function minimalInstance(schema) {
  if (!schema || typeof schema !== 'object') return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return minimalInstance(schema.anyOf[0]);
  if (Array.isArray(schema.oneOf)) return minimalInstance(schema.oneOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const o = {};
      for (const r of schema.required ?? []) o[r] = minimalInstance(schema.properties?.[r] ?? {});
      return o;
    }
    case 'array': {
      const n = schema.minItems ?? 0;
      return Array.from({ length: n }, () => minimalInstance(schema.items ?? {}));
    }
    case 'string': return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer': case 'number': {
      if (typeof schema.minimum === 'number') return Math.ceil(schema.minimum);
      if (typeof schema.exclusiveMinimum === 'number') return Math.floor(schema.exclusiveMinimum) + 1;
      return 1;
    }
    case 'boolean': return true;
    case 'null': return null;
    default: return 'x';
  }
}

const ajv2020 = new Ajv2020({ strict: true, allErrors: true });
const ajv07 = new Ajv({ strict: true, allErrors: true });
function validSchema(schema, what) {
  for (const [name, ajv] of [['2020-12', ajv2020], ['draft-07', ajv07]]) {
    const ok = ajv.validateSchema(schema);
    check(ok, `${what}: not a valid ${name} schema: ${ajv.errorsText(ajv.errors)}`);
    try {
      ajv.compile(schema);
    } catch (e) {
      check(false, `${what}: ${name} compile failed: ${e.message}`);
    }
  }
}

const asBareArray = (d) => d.tools;
const asAnthropic = (d) => ({ tools: d.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) });
const asOpenAI = (d) => ({ tools: d.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })) });

const results = [];
for (const file of ['playwright_mcp_0.0.83.tools.json', 'chrome_devtools_mcp_1.11.0.tools.json']) {
  const original = readFileSync(join(fixtures, file), 'utf8');
  const mcp = JSON.parse(original);
  const variants = [
    ['mcp tools/list', original],
    ['bare array', JSON.stringify(asBareArray(mcp))],
    ['anthropic', JSON.stringify(asAnthropic(mcp))],
    ['openai', JSON.stringify(asOpenAI(mcp))],
  ];
  for (const [shape, input] of variants) {
    const what = `${file} (${shape})`;
    const r = shrink(input);
    check(r.code === 0, `${what}: exit ${r.code}: ${r.stderr}`);
    check(r.report && /^ccr_[0-9a-f]{32}$/.test(r.report.recovery_handle ?? ''), `${what}: no handle in ${r.stderr}`);
    let out;
    try { out = JSON.parse(r.out); } catch (e) { check(false, `${what}: output is not JSON: ${e.message}`); continue; }
    const before = tokens(input);
    const after = tokens(r.out);
    const ratio = 1 - after / before;
    results.push({ file, shape, before, after, ratio });
    check(r.report.tokens_before === before && r.report.tokens_after === after,
      `${what}: reported ${r.report.tokens_before}->${r.report.tokens_after}, gpt-tokenizer counts ${before}->${after}`);
    // The acceptance bar is on the catalogs as captured (and the same tools as a bare array).
    // The Anthropic/OpenAI variants are built the way clients convert MCP tools — without the
    // annotations — so they start smaller; they must still lose at least 40%.
    const bar = shape === 'mcp tools/list' || shape === 'bare array' ? 0.5 : 0.4;
    check(ratio >= bar, `${what}: only ${(100 * ratio).toFixed(1)}% fewer o200k tokens (${before} -> ${after}), need ${100 * bar}%`);
    // Same facts, same shape.
    const fb = facts(JSON.parse(input));
    const fa = facts(out);
    check(JSON.stringify(fb) === JSON.stringify(fa), `${what}: selection facts differ: lost ${fb.filter((f) => !fa.includes(f)).slice(0, 5)}`);
    check(Array.isArray(out) === Array.isArray(JSON.parse(input)), `${what}: container changed`);
    const tb = toolsOf(JSON.parse(input));
    const ta = toolsOf(out);
    check(tb.length === ta.length, `${what}: tool count ${tb.length} -> ${ta.length}`);
    ta.forEach((t, i) => {
      check(t.name === tb[i].name && t.key === tb[i].key && t.nested === tb[i].nested, `${what}: tool ${i} changed shape`);
      check(t.schema?.type === 'object', `${what}: ${t.name} schema lost type object`);
      validSchema(t.schema, `${what}: ${t.name}`);
      const call = minimalInstance(tb[i].schema);
      const validOriginal = ajv2020.compile(tb[i].schema);
      const validShrunk = ajv2020.compile(t.schema);
      check(validOriginal(call), `${what}: ${t.name}: test call invalid for the original (test bug)`);
      check(validShrunk(call), `${what}: ${t.name}: a valid call is rejected by the shrunk schema: ${ajv2020.errorsText(validShrunk.errors)}`);
    });
    // Recover is byte-exact.
    const rec = spawnSync(bin, ['recover', r.report.recovery_handle], { env, maxBuffer: 64 << 20 });
    check(rec.status === 0 && rec.stdout.toString() === input, `${what}: recover is not byte-exact`);
    // Shrinking is stable: a second pass has nothing left to take.
    const again = shrink(r.out);
    check(again.code === 0 && again.out === r.out, `${what}: second pass changed the catalog`);
  }
  // lint names every tool.
  const lint = spawnSync(bin, ['lint', join(fixtures, file)], { env });
  const table = lint.stdout.toString();
  check(lint.status === 0 && table.startsWith('TOOL '), `${file}: lint failed: ${lint.stderr}`);
  for (const t of mcp.tools) check(table.includes(`\n${t.name} `), `${file}: lint misses ${t.name}`);
}

// Bad input.
for (const bad of ['{"tools":[', 'not json at all', '\u0000\u0001binary']) {
  const r = shrink(bad);
  check(r.code === 0 && r.out === bad, `invalid JSON ${JSON.stringify(bad)}: exit ${r.code}, output changed`);
  check(/warning: cave_invalid_catalog/.test(r.stderr), `invalid JSON ${JSON.stringify(bad)}: no warning`);
  check(r.report && r.report.ratio === 0 && !('recovery_handle' in r.report), `invalid JSON: report ${JSON.stringify(r.report)}`);
}
const cyclic = JSON.stringify({ tools: [{ name: 'tree', description: 'Walk a tree. The tree is given as nested nodes with children of the same shape as their parent.',
  inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', title: 'Tree', properties: { root: { $ref: '#/$defs/node' } },
    $defs: { node: { type: 'object', title: 'Node', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } }, loop: { $ref: '#' } } } } } }] });
const started = Date.now();
const cyc = shrink(cyclic);
check(cyc.code === 0 && Date.now() - started < 30000, `$ref cycle: exit ${cyc.code}`);
const cycOut = JSON.parse(cyc.out);
check(JSON.stringify(cycOut.tools[0].inputSchema.$defs.node.properties.children.items) === '{"$ref":"#/$defs/node"}', '$ref cycle: $ref changed');
validSchema(cycOut.tools[0].inputSchema, '$ref cycle');

for (const r of results) {
  console.log(`${r.file} (${r.shape}): ${r.before} -> ${r.after} o200k tokens (${(100 * r.ratio).toFixed(1)}% fewer)`);
}
rmSync(home, { recursive: true, force: true });
console.log(failures ? `${failures} of ${checks} checks failed` : `ok: ${checks} checks`);
process.exit(failures ? 1 : 0);
