// The scripted sessions of the session benchmark (bench/session_bench.mjs). Each session builds a
// throwaway project from real code and data (npm packages installed under tests/e2e/node_modules,
// the public corpus), then the scripted model works through its steps:
//   { tool, input, need }   one tool call. `need`: the strings the model needs from the result it
//                           gets back (Read's line-number gutter is not part of a string); the
//                           string 'output' stands for every line the command prints, as the
//                           harness computes by running it in the project before the session.
//   { tool: 'Edit', … }     Claude Code's Edit: old_string must be the file's exact text, so the
//                           step before it needs that text.
// `answer` is the final text; it states the facts (`expect`) the session's check looks for in
// the agent's final result. `verify(proj)` adds a check of the project itself (tests pass).
// Paths in `file_path` / `path` are relative to the project and resolved by the harness.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const copy = (from, to) => fs.cpSync(from, to, { recursive: true });

// The project's `tape` (bench/session/tape.js): a test runner the sessions' suites run under.
export function tapeShim(proj) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  fs.mkdirSync(path.join(proj, 'node_modules/tape'), { recursive: true });
  fs.mkdirSync(path.join(proj, 'node_modules/.bin'), { recursive: true });
  fs.copyFileSync(path.join(here, 'tape.js'), path.join(proj, 'node_modules/tape/index.js'));
  fs.copyFileSync(path.join(here, 'tape-cli.js'), path.join(proj, 'node_modules/.bin/tape'));
  fs.chmodSync(path.join(proj, 'node_modules/.bin/tape'), 0o755);
}

export function sessions({ root, corpus }) {
  const nm = path.join(root, 'tests/e2e/node_modules');
  const corpusFile = (name) => path.join(corpus, name);
  const tape = 'node_modules/.bin/tape';
  const fixedFindToken = "if (findToken(input, ':') < 2) {";
  const brokenFindToken = "if (findToken(input, ':') < 3) {";

  return [
    {
      id: 'fix-failing-test',
      title: 'fix a failing test (fast-uri 3.1.9 from npm, its tape suite)',
      prompt: 'The fast-uri test suite fails after a recent change. Find the cause, fix it with a minimal edit and confirm the whole suite passes.',
      setup(proj) {
        for (const f of ['index.js', 'lib', 'test', 'types', 'package.json', 'README.md']) copy(path.join(nm, 'fast-uri', f), path.join(proj, f));
        fs.rmSync(path.join(proj, 'test/ajv.test.js')); // needs ajv's own tree; not part of the task
        tapeShim(proj);
        const utils = path.join(proj, 'lib/utils.js');
        const text = fs.readFileSync(utils, 'utf8');
        if (!text.includes(fixedFindToken)) throw new Error('fast-uri: the line to break is gone');
        fs.writeFileSync(utils, text.replace(fixedFindToken, brokenFindToken)); // the regression
      },
      steps: [
        { tool: 'Bash', input: { command: 'ls lib test && grep -n "\\"test" package.json', description: 'List sources and test scripts' },
          need: ['utils.js', 'ipv6-canonical.test.js', '"test:unit": "tape test/**/*.js"'] },
        { tool: 'Bash', input: { command: `${tape} test/*.test.js 2>&1 | tail -n 5`, description: 'Run the test suite' },
          need: ['# fail  31'] },
        { tool: 'Bash', input: { command: `${tape} test/*.test.js 2>&1 | grep -v "^ok "`, description: 'Show the failing assertions' },
          need: ['not ok 553 http://[0:0:0:0:0:0:0:1]/ normalizes to http://[::1]/', "actual:   'http://%3A%3A1/'",
            'test/ipv6-canonical.test.js:17:7', 'not ok 716 http://[::1]/ parses without error'] },
        { tool: 'Read', input: { file_path: 'test/ipv6-canonical.test.js' }, need: ['t.equal(fastURI.normalize(uri), normalized, `${uri} normalizes to ${normalized}`)'] },
        { tool: 'Bash', input: { command: 'grep -n "normalizeIPv6" index.js lib/*.js', description: 'Find the IPv6 normalizer' },
          need: ['lib/utils.js:214:function normalizeIPv6 (host) {'] },
        { tool: 'Read', input: { file_path: 'index.js', limit: 120 }, need: ["const { normalizeIPv6,"] },
        { tool: 'Read', input: { file_path: 'lib/utils.js' },
          need: [brokenFindToken, 'function findToken (str, token) {\n  let ind = 0\n  for (let i = 0; i < str.length; i++) {\n    if (str[i] === token) ind++'] },
        { tool: 'Edit', input: { file_path: 'lib/utils.js', old_string: brokenFindToken, new_string: fixedFindToken }, need: [] },
        { tool: 'Bash', input: { command: `${tape} test/ipv6-canonical.test.js test/ipv6-validation.test.js 2>&1 | tail -n 4`, description: 'Re-run the IPv6 tests' },
          need: ['# ok'] },
        { tool: 'Bash', input: { command: `${tape} test/*.test.js 2>&1 | tail -n 6`, description: 'Run the whole suite' },
          need: ['# pass  2047', '# ok'] },
        // Follow-up checks a careful agent makes before reporting (after the fix, so their needs
        // are written out: the ground truth of 'output' is taken before the session).
        { tool: 'Bash', input: { command: 'grep -n "findToken" lib/*.js index.js', description: 'Other callers of findToken' },
          need: ["lib/utils.js:225:  if (findToken(input, ':') < 2) {", 'lib/utils.js:253:function findToken (str, token) {'] },
        { tool: 'Read', input: { file_path: 'test/ipv6-validation.test.js' }, need: ["const HOST_ERROR = 'URI host is malformed.'", "  '::not-valid',"] },
        { tool: 'Read', input: { file_path: 'types/index.d.ts' }, need: ['  export function normalize (uri: string, opts?: Options): string'] },
        { tool: 'Bash', input: { command: 'grep -n "normalize" README.md', description: 'What the README promises' }, need: 'output' },
        { tool: 'Bash', input: { command: 'node -e \'const u = require("./"); console.log(u.normalize("http://[0:0:0:0:0:0:0:1]/"), u.parse("http://[fe80::a%25en1]/").host, u.equal("http://[::1]/", "http://[0:0:0:0:0:0:0:1]/"))\'', description: 'Try the fixed cases' },
          need: ['http://[::1]/ fe80::a%en1 true'] },
      ],
      answer: 'The regression is in lib/utils.js, normalizeIPv6(): the guard read `' + brokenFindToken + '`, so an IPv6 host with only two colons ' +
        '(such as [::1] or [fe80::a%en1]) was rejected as not IPv6 and percent-encoded (http://%3A%3A1/). An IPv6 address has at least two colons, so I changed it back to `' +
        fixedFindToken + '`. The IPv6 tests and the whole suite now pass: # pass  2047, # ok.',
      expect: [fixedFindToken, '# pass  2047'],
      verify(proj) {
        const out = execSync(`${tape} test/*.test.js 2>&1 | tail -n 3`, { cwd: proj, shell: '/bin/bash' }).toString();
        return out.includes('# ok');
      },
    },
    {
      id: 'explore-module',
      title: 'explore an unfamiliar module (qs 6.x from npm: source, README, tests)',
      prompt: "I'm new to the qs package in ./qs. Explain how parse() turns 'a[b][c]=d' into nested objects, what its default depth, arrayLimit and parameterLimit are, and how stringify() formats arrays.",
      setup(proj) {
        for (const f of ['lib', 'test', 'package.json', 'README.md']) copy(path.join(nm, 'qs', f), path.join(proj, 'qs', f));
        fs.symlinkSync(nm, path.join(proj, 'node_modules')); // qs's dependencies, as installed
      },
      steps: [
        { tool: 'Bash', input: { command: 'ls qs qs/lib qs/test && wc -l qs/lib/*.js', description: 'Look at the layout' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'qs/lib/index.js' }, need: ['parse: parse', 'stringify: stringify'] },
        { tool: 'Read', input: { file_path: 'qs/lib/parse.js' },
          need: ['depth: 5,', 'arrayLimit: 20,', 'parameterLimit: 1000,', 'var parseObject = function (chain, val, options, valuesParsed) {'] },
        { tool: 'Bash', input: { command: 'grep -n "depth" qs/lib/parse.js', description: 'Where depth is used' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'qs/lib/utils.js', limit: 200 }, need: ['var overflowChannel = getSideChannel();'] },
        { tool: 'Read', input: { file_path: 'qs/lib/stringify.js', limit: 120 },
          need: ["arrayFormat: 'indices',", 'brackets: function brackets(prefix) {', 'indices: function indices(prefix, key) {'] },
        { tool: 'Read', input: { file_path: 'qs/lib/formats.js' }, need: ["RFC3986: 'RFC3986',"] },
        { tool: 'Bash', input: { command: 'grep -n "arrayFormat" qs/README.md', description: 'Array formats in the README' }, need: 'output' },
        { tool: 'Bash', input: { command: 'grep -n "depth" qs/test/parse.js | head -n 40', description: 'Depth in the tests' }, need: 'output' },
        { tool: 'Bash', input: { command: 'node -e \'const qs = require("./qs"); console.log(JSON.stringify(qs.parse("a[b][c]=d")), JSON.stringify(qs.parse("a[b][c][d][e][f][g][h]=i")), qs.stringify({ a: ["b", "c"] }, { encode: false }), qs.stringify({ a: ["b", "c"] }, { arrayFormat: "brackets", encode: false }))\'', description: 'Try parse and stringify' },
          need: 'output' },
        // The README and tests, as a newcomer reads them next.
        { tool: 'Read', input: { file_path: 'qs/README.md', offset: 34, limit: 255 },
          need: ['This depth can be overridden by passing a `depth` option to `qs.parse(string, [options])`:', "var limited = qs.parse('a=b&c=d', { parameterLimit: 1 });"] },
        { tool: 'Read', input: { file_path: 'qs/README.md', offset: 288, limit: 130 }, need: ["var withArrayLimit = qs.parse('a[1]=b', { arrayLimit: 0 });"] },
        { tool: 'Read', input: { file_path: 'qs/README.md', offset: 429, limit: 290 },
          need: ['When arrays are stringified, they follow the `arrayFormat` option, which defaults to `indices`:', "qs.stringify({ a: ['b', 'c'] }, { arrayFormat: 'brackets' })"] },
        { tool: 'Read', input: { file_path: 'qs/test/parse.js', offset: 240, limit: 120 }, need: ["    t.test('only parses one level when depth = 1', function (st) {"] },
        { tool: 'Bash', input: { command: 'grep -n "arrayFormat" qs/test/stringify.js | head -n 30', description: 'arrayFormat in the tests' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'qs/lib/utils.js', offset: 200 },
          need: ['var combine = function combine(a, b, arrayLimit, plainObjects, throwOnLimitExceeded) {', '    if (result.length > arrayLimit) {'] },
        { tool: 'Read', input: { file_path: 'qs/lib/stringify.js', offset: 120 }, need: ['module.exports = function (object, opts) {', '    var options = normalizeStringifyOptions(opts);'] },
        { tool: 'Bash', input: { command: 'node -e \'const qs = require("./qs"); console.log(JSON.stringify(qs.parse("a[b][c]=d", { depth: 1 })), JSON.stringify(qs.parse("a[21]=b")), Object.keys(qs.parse("a=1&b=2&c=3", { parameterLimit: 2 })).length)\'', description: 'Try the limits' },
          need: 'output' },
      ],
      answer: 'parse() splits the query on & (at most parameterLimit: 1000, pairs), then parseKeys splits each key into its bracket segments and parseObject builds the nested objects from the innermost segment out, so a[b][c]=d becomes {"a":{"b":{"c":"d"}}}. ' +
        'Defaults: depth: 5, (deeper segments stay one literal key: "[g][h]" is kept whole), arrayLimit: 20, parameterLimit: 1000,. ' +
        "stringify() uses arrayFormat: 'indices', by default (a[0]=b&a[1]=c); brackets gives a[]=b&a[]=c, and the default format is RFC3986.",
      expect: ['depth: 5', 'arrayLimit: 20', 'parameterLimit: 1000', 'a[0]=b&a[1]=c', 'a[]=b&a[]=c'],
    },
    {
      id: 'triage-build',
      title: 'triage a build failure (google/leveldb: real ninja build log, db_impl.cc, git log -p)',
      prompt: 'The leveldb build in build.log fails. Find which files fail to compile, why, and which commit introduced it (commits.diff is `git log -p` since 1.23).',
      setup(proj) {
        fs.copyFileSync(corpusFile('log-leveldb-build-error.log'), path.join(proj, 'build.log'));
        fs.copyFileSync(corpusFile('diff-leveldb-log-p.diff'), path.join(proj, 'commits.diff'));
        fs.mkdirSync(path.join(proj, 'db'));
        fs.copyFileSync(corpusFile('code-cpp-leveldb-db_impl.cc'), path.join(proj, 'db/db_impl.cc'));
      },
      steps: [
        { tool: 'Bash', input: { command: 'ls -la . db && wc -l build.log commits.diff', description: 'What is here' }, need: ['build.log', 'commits.diff'] },
        { tool: 'Bash', input: { command: 'tail -n 20 build.log', description: 'End of the build log' },
          need: ['ninja: build stopped: cannot make progress due to previous errors.'] },
        { tool: 'Bash', input: { command: 'grep -n "FAILED" build.log', description: 'Failed targets' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'build.log' },
          need: ["util/no_destructor.h:24:24: error: ‘is_standard_layout_v’ is not a member of ‘std’; did you mean ‘is_standard_layout’?",
            "util/env_posix.cc:877:24: error: ‘is_standard_layout_v’ is not a member of ‘std’",
            'FAILED: CMakeFiles/leveldb.dir/util/comparator.cc.o'] },
        { tool: 'Bash', input: { command: 'grep -o -- "-std=c++[0-9]*" build.log | sort | uniq -c', description: 'Language standard used' }, need: 'output' },
        { tool: 'Bash', input: { command: 'grep -n "is_standard_layout_v" commits.diff', description: 'Where the trait came in' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'commits.diff', offset: 110, limit: 180 },
          need: ['commit e829478c6a3a55d8e5c1227e2678dcc18d518609', 'Fix speculatively some "placement new" issues in leveldb',
            '+    static_assert(std::is_standard_layout_v<NoDestructor<InstanceType>>);'] },
        { tool: 'Bash', input: { command: 'grep -n "^commit\\|^Date" commits.diff | head -n 20', description: 'Commit order' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'db/db_impl.cc', limit: 150 }, need: ['#include "db/db_impl.h"'] },
        { tool: 'Bash', input: { command: 'c++ --version | head -n 1', description: 'Compiler version' }, need: 'output' },
        // The rest of the history and the code around the failure, before proposing a fix.
        { tool: 'Read', input: { file_path: 'commits.diff', offset: 1, limit: 110 }, need: ['commit 78a352f47ed6c1e9d750545e9b242289185b87e1'] },
        { tool: 'Bash', input: { command: 'grep -n "^diff --git" commits.diff | head -n 40', description: 'Files the commits touch' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'commits.diff', offset: 290, limit: 200 }, need: ['commit 578eeb702ec0fbb6b9780f3d4147b1076630d633'] },
        { tool: 'Read', input: { file_path: 'db/db_impl.cc', offset: 150, limit: 250 },
          need: ['Status DBImpl::NewDB() {', 'Status DBImpl::Recover(VersionEdit* edit, bool* save_manifest) {'] },
        { tool: 'Bash', input: { command: 'grep -n "#include" db/db_impl.cc', description: 'What db_impl.cc includes' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'db/db_impl.cc', offset: 1100, limit: 300 },
          need: ['Status DBImpl::Get(const ReadOptions& options, const Slice& key,', 'Status DBImpl::Write(const WriteOptions& options, WriteBatch* updates) {'] },
        { tool: 'Bash', input: { command: 'grep -n "error:" build.log', description: 'Every error' }, need: 'output' },
      ],
      answer: 'Two objects fail: FAILED: CMakeFiles/leveldb.dir/util/comparator.cc.o and FAILED: CMakeFiles/leveldb.dir/util/env_posix.cc.o, both with ' +
        "‘is_standard_layout_v’ is not a member of ‘std’ (util/no_destructor.h:24 and util/env_posix.cc:877). std::is_standard_layout_v is C++17, but the build compiles with -std=c++11. " +
        'It came in with commit e829478c6a3a55d8e5c1227e2678dcc18d518609 ("Fix speculatively some "placement new" issues in leveldb"), which added static_assert(std::is_standard_layout_v<…>). ' +
        'Fix: use std::is_standard_layout<…>::value or build with C++17.',
      expect: ['util/comparator.cc.o', 'util/env_posix.cc.o', 'is_standard_layout_v', '-std=c++11', 'e829478c6a3a55d8e5c1227e2678dcc18d518609'],
    },
    {
      id: 'json-dump',
      title: 'answer from JSON dumps (npm view express, a package-lock.json, an MCP tools/list)',
      prompt: 'From the JSON dumps here: which express version is this and what is the latest dist-tag, which body-parser does it need, which eslint and express versions does package-lock.json lock, and which browser tool requires a url?',
      setup(proj) {
        fs.copyFileSync(corpusFile('json-npm-view-express.json'), path.join(proj, 'express.json'));
        fs.copyFileSync(corpusFile('json-package-lock.json'), path.join(proj, 'package-lock.json'));
        fs.copyFileSync(corpusFile('json-mcp-playwright-tools-list.json'), path.join(proj, 'tools.json'));
      },
      steps: [
        { tool: 'Bash', input: { command: 'ls -la && wc -c *.json', description: 'The dumps' }, need: ['express.json', 'tools.json'] },
        { tool: 'Read', input: { file_path: 'express.json' }, need: ['"_id": "express@4.21.2"', '"latest": "5.3.0"', '"body-parser": "1.20.3"'] },
        { tool: 'Bash', input: { command: "jq -r '.dependencies | length' express.json", description: 'Dependency count' }, need: 'output' },
        { tool: 'Bash', input: { command: "jq -r '.engines.node, .dist.tarball' express.json", description: 'Engine and tarball' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'package-lock.json' }, need: ['"lockfileVersion": 3', '"node_modules/eslint": {'] },
        { tool: 'Bash', input: { command: "jq -r '.packages[\"node_modules/eslint\"].version, .packages[\"node_modules/express\"].version' package-lock.json", description: 'Locked versions' }, need: 'output' },
        { tool: 'Bash', input: { command: "jq '.packages | length' package-lock.json", description: 'Package count' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'tools.json' }, need: ['"name":"browser_navigate"', '"required":["url"]'] },
        { tool: 'Bash', input: { command: "jq -r '.result.tools[].name' tools.json", description: 'Tool names' }, need: 'output' },
        { tool: 'Bash', input: { command: "jq -r '.result.tools[] | select(.inputSchema.required // [] | index(\"url\")) | .name' tools.json", description: 'Tools that require url' }, need: 'output' },
        // Cross-checks before answering.
        { tool: 'Bash', input: { command: "jq -r '.versions | length, .[-1]' express.json", description: 'Published versions' }, need: 'output' },
        { tool: 'Bash', input: { command: "jq -r '.time[\"4.21.2\"], .time[\"5.3.0\"]' express.json", description: 'Release dates' }, need: 'output' },
        { tool: 'Bash', input: { command: "jq -r '.packages | keys[]' package-lock.json | head -n 60", description: 'Locked packages' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'package-lock.json', offset: 520, limit: 200 }, need: ['"node_modules/eslint": {', '"version": "8.57.1",'] },
        { tool: 'Bash', input: { command: "jq -c '.result.tools[] | {name, required: .inputSchema.required}' tools.json", description: 'Required arguments per tool' }, need: 'output' },
      ],
      answer: 'express.json is "_id": "express@4.21.2"; the latest dist-tag is "latest": "5.3.0"; it depends on "body-parser": "1.20.3" and needs node ">= 0.10.0". ' +
        'package-lock.json (lockfileVersion 3) locks eslint 8.57.1 and express 4.21.2. In the MCP tools list, browser_navigate is the tool whose schema has "required":["url"].',
      expect: ['express@4.21.2', '5.3.0', '1.20.3', '8.57.1', 'browser_navigate'],
    },
    {
      id: 'csv-analysis',
      title: 'analyse CSV exports (npm typescript release times, PostgreSQL pg_proc)',
      prompt: 'versions.csv lists every typescript release on npm, pg_proc.csv a PostgreSQL catalog export. What is the newest 5.x release, how many releases per year, and how many functions per volatility class are there?',
      setup(proj) {
        fs.copyFileSync(corpusFile('tabular-npm-typescript-versions.csv'), path.join(proj, 'versions.csv'));
        fs.copyFileSync(corpusFile('tabular-pg-proc.csv'), path.join(proj, 'pg_proc.csv'));
      },
      steps: [
        { tool: 'Bash', input: { command: 'head -n 5 versions.csv pg_proc.csv && wc -l versions.csv pg_proc.csv', description: 'Headers and sizes' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'versions.csv', limit: 400 }, need: ['version,published_utc', '0.8.0,2024-12-13T12:39:20.908000+00:00'] },
        { tool: 'Bash', input: { command: "grep -E '^5\\.[0-9]+\\.[0-9]+,' versions.csv | sort -t, -k2 | tail -n 3", description: 'Newest 5.x releases' }, need: 'output' },
        { tool: 'Bash', input: { command: "tail -n +2 versions.csv | cut -d, -f2 | cut -c1-4 | sort | uniq -c", description: 'Releases per year' }, need: 'output' },
        { tool: 'Bash', input: { command: "grep -c -- '-dev\\.' versions.csv", description: 'Nightly builds' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'pg_proc.csv', limit: 300 }, need: ['oid,proname,schema,result_type,arguments,provolatile,prokind', '3,heap_tableam_handler,pg_catalog,table_am_handler,internal,v,f'] },
        { tool: 'Bash', input: { command: "python3 -c \"import csv,collections; r=list(csv.DictReader(open('pg_proc.csv'))); print(len(r)); print(sorted(collections.Counter(x['provolatile'] for x in r).items())); print(sorted(collections.Counter(x['prokind'] for x in r).items()))\"", description: 'Count by volatility and kind' }, need: 'output' },
        { tool: 'Bash', input: { command: "grep -n ',pg_sleep' pg_proc.csv", description: 'pg_sleep rows' }, need: 'output' },
        { tool: 'Bash', input: { command: "python3 -c \"import csv,collections; r=list(csv.DictReader(open('pg_proc.csv'))); print(collections.Counter(x['result_type'] for x in r).most_common(5))\"", description: 'Most common result types' }, need: 'output' },
        // More of both exports.
        { tool: 'Read', input: { file_path: 'versions.csv', offset: 3100, limit: 200 },
          need: ['5.8.3,2025-04-08T17:46:23.431000+00:00', '5.9.3,2025-09-30T22:05:28.103000+00:00'] },
        { tool: 'Bash', input: { command: "tail -n +2 versions.csv | cut -d. -f1 | sort -n | uniq -c", description: 'Releases per major' }, need: 'output' },
        { tool: 'Bash', input: { command: "awk -F, '$(NF-1)==\"s\"' pg_proc.csv | head -n 40", description: 'Stable functions' }, need: 'output' },
        { tool: 'Bash', input: { command: "awk -F, '$NF==\"a\"' pg_proc.csv | head -n 20", description: 'Aggregates' }, need: 'output' },
        { tool: 'Bash', input: { command: "grep -c ',pg_catalog,' pg_proc.csv", description: 'Rows in pg_catalog' }, need: 'output' },
      ],
      answer: null, // built from the outputs: see answerFrom
      answerFrom: (outputs) => `Newest 5.x releases (by publish time):\n${outputs[2]}\nReleases per year:\n${outputs[3]}\nNightly (-dev.) builds: ${outputs[4]}\n` +
        `pg_proc: rows, per provolatile (i immutable, s stable, v volatile), per prokind:\n${outputs[6]}`,
      expectFrom: (outputs) => [outputs[2].split('\n').pop(), outputs[6].split('\n')[1]],
    },
    {
      id: 'long-log',
      title: 'triage long logs (python doctest of _pydecimal, ninja gtest run, 2,500 lines of dpkg.log)',
      prompt: 'Three logs: doctest.log, gtest.log and dpkg.log. Which doctests failed and why, did the ninja tests pass, and what did dpkg upgrade or install (e.g. google-cloud-cli)?',
      setup(proj) {
        fs.copyFileSync(corpusFile('log-doctest-pydecimal.log'), path.join(proj, 'doctest.log'));
        fs.copyFileSync(corpusFile('log-gtest-ninja-test.log'), path.join(proj, 'gtest.log'));
        fs.copyFileSync(corpusFile('log-dpkg.log'), path.join(proj, 'dpkg.log'));
      },
      steps: [
        { tool: 'Bash', input: { command: 'ls -la && wc -l *.log', description: 'The logs' }, need: ['doctest.log', 'dpkg.log'] },
        { tool: 'Bash', input: { command: 'tail -n 8 doctest.log', description: 'Doctest summary' }, need: ['***Test Failed*** 4 failures.'] },
        { tool: 'Bash', input: { command: 'grep -n "^File" doctest.log', description: 'Failure locations' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'doctest.log' },
          need: ['File "/usr/lib/python3.11/_pydecimal.py", line 1881, in decimal.Decimal.__round__', 'decimal.InvalidOperation: quantize with one INF', '505 passed and 4 failed.'] },
        { tool: 'Bash', input: { command: 'tail -n 3 gtest.log', description: 'gtest summary' }, need: ['[  PASSED  ] 425 tests.'] },
        { tool: 'Read', input: { file_path: 'gtest.log' }, need: ['[==========] 425 tests from 33 test suites ran.'] },
        { tool: 'Bash', input: { command: 'grep -c " upgrade " dpkg.log; grep -c " install " dpkg.log', description: 'Upgrades and installs' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'dpkg.log', limit: 700 },
          need: ['2025-06-24 14:36:25 startup archives unpack', 'upgrade libsystemd0:amd64 252.36-1~deb12u1 252.38-1~deb12u1'] },
        { tool: 'Bash', input: { command: 'grep -n "install google-cloud-cli\\|install g++-12" dpkg.log', description: 'Find two installs' }, need: 'output' },
        { tool: 'Bash', input: { command: 'tail -n 5 dpkg.log', description: 'Last dpkg lines' }, need: 'output' },
        // The rest of the dpkg log and the gtest run, read in pages.
        { tool: 'Read', input: { file_path: 'dpkg.log', offset: 700, limit: 700 }, need: ['2025-06-24 14:37:37 install libcryptsetup12:amd64 <none> 2:2.6.1-4~deb12u2'] },
        { tool: 'Read', input: { file_path: 'dpkg.log', offset: 1400, limit: 700 }, need: ['2025-06-24 14:39:35 status installed google-cloud-cli:amd64 528.0.0-0'] },
        { tool: 'Bash', input: { command: 'grep -n "status installed google-cloud-cli" dpkg.log', description: 'google-cloud-cli components' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'gtest.log', limit: 200 }, need: ['[==========] Running 425 tests from 33 test suites.'] },
        { tool: 'Bash', input: { command: 'grep -n "^Failed example\\|^Exception raised" doctest.log | head -n 20', description: 'Failed doctest examples' }, need: 'output' },
      ],
      answer: 'doctest.log: ***Test Failed*** 4 failures. (505 passed and 4 failed.); e.g. File "/usr/lib/python3.11/_pydecimal.py", line 1881, in decimal.Decimal.__round__ ' +
        'fails with decimal.InvalidOperation: quantize with one INF. gtest.log: [  PASSED  ] 425 tests. dpkg.log: upgrades such as upgrade libsystemd0:amd64 252.36-1~deb12u1 252.38-1~deb12u1; ' +
        'install google-cloud-cli:amd64 <none> 528.0.0-0 and install g++-12:amd64 <none> 12.2.0-14+deb12u1.',
      expect: ['4 failures', 'line 1881', 'quantize with one INF', '425 tests', 'google-cloud-cli:amd64 <none> 528.0.0-0'],
    },
    {
      id: 'review-diff',
      title: 'review diffs (fmt 11.1.4..11.2.0 include/, ninja `git show` of the jobserver client)',
      prompt: 'Review fmt.diff (fmt 11.1.4 to 11.2.0, include/fmt) and ninja.diff (one ninja commit): which files change, what happens to FMT_VERSION, and what does the ninja commit add?',
      setup(proj) {
        fs.copyFileSync(corpusFile('diff-fmt-11.1.4-11.2.0.diff'), path.join(proj, 'fmt.diff'));
        fs.copyFileSync(corpusFile('diff-ninja-show.diff'), path.join(proj, 'ninja.diff'));
      },
      steps: [
        { tool: 'Bash', input: { command: "grep -c '^diff --git' fmt.diff ninja.diff", description: 'Files per diff' }, need: 'output' },
        { tool: 'Bash', input: { command: "grep '^diff --git' fmt.diff", description: 'fmt files' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'fmt.diff', limit: 900 },
          need: ['-#define FMT_VERSION 110104', '+#define FMT_VERSION 110200', '@@ -526,20 +527,20 @@ template <typename Char> class basic_string_view {'] },
        { tool: 'Bash', input: { command: "grep -c '^@@' fmt.diff", description: 'Hunks' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'fmt.diff', offset: 1380, limit: 340 }, need: ['diff --git a/include/fmt/format.h b/include/fmt/format.h'] },
        { tool: 'Read', input: { file_path: 'ninja.diff' },
          need: ['commit ae09557e694d4040ec45081fab425c01bbb1cc8a', 'Add Jobserver::Client class', '+  class Client {', 'diff --git a/src/jobserver.h b/src/jobserver.h'] },
        { tool: 'Bash', input: { command: "grep -n '^+.*Client' ninja.diff | head -n 30", description: 'What the Client adds' }, need: 'output' },
        { tool: 'Bash', input: { command: 'git apply --stat ninja.diff', description: 'Diffstat' }, need: 'output' },
        { tool: 'Bash', input: { command: "grep -n '^-.*TODO\\|^+.*TODO' fmt.diff ninja.diff | head -n 20", description: 'TODOs added or removed' }, need: [] },
        // The middle of the fmt diff and the ninja hunks, read before writing the review.
        { tool: 'Read', input: { file_path: 'fmt.diff', offset: 900, limit: 480 },
          need: ['diff --git a/include/fmt/color.h b/include/fmt/color.h', '+    return static_cast<emphasis>(style_ >> 54);'] },
        { tool: 'Bash', input: { command: "grep -n '^@@' ninja.diff", description: 'ninja hunks' }, need: 'output' },
        { tool: 'Bash', input: { command: 'git apply --stat fmt.diff', description: 'fmt diffstat' }, need: 'output' },
        { tool: 'Read', input: { file_path: 'fmt.diff', offset: 1440, limit: 280 }, need: ['diff --git a/include/fmt/std.h b/include/fmt/std.h'] },
        { tool: 'Bash', input: { command: "grep -n '^diff --git' ninja.diff", description: 'ninja files' }, need: 'output' },
      ],
      answer: 'fmt: FMT_VERSION goes from 110104 to 110200 (-#define FMT_VERSION 110104 / +#define FMT_VERSION 110200) in include/fmt/base.h; hunks touch basic_string_view (@@ -526,20 +527,20 @@) and include/fmt/format.h among others. ' +
        'ninja: commit ae09557e694d4040ec45081fab425c01bbb1cc8a "Add Jobserver::Client class" adds a Jobserver::Client (class Client) to src/jobserver.h with its implementation.',
      expect: ['110104', '110200', 'ae09557e694d4040ec45081fab425c01bbb1cc8a', 'Jobserver::Client'],
    },
    {
      id: 'sdk-agent',
      sdk: true,
      title: 'an SDK-style agent (@anthropic-ai/sdk, non-streaming, no cache_control) reading Go, JS and Python sources',
      prompt: "Compare how Go's net/http client (client.go) and Express's response (response.js) handle redirects, and list subprocess.py's exception classes.",
      setup(proj) {
        fs.copyFileSync(corpusFile('code-go-net-http-client.go'), path.join(proj, 'client.go'));
        fs.copyFileSync(corpusFile('code-js-express-response.js'), path.join(proj, 'response.js'));
        fs.copyFileSync(corpusFile('code-python-subprocess.py'), path.join(proj, 'subprocess.py'));
      },
      steps: [
        { tool: 'run', input: { command: 'ls -la && wc -l client.go response.js subprocess.py' }, need: ['client.go', 'response.js'] },
        { tool: 'run', input: { command: 'grep -n "redirect\\|Redirect" client.go | head -n 40' }, need: 'output' },
        { tool: 'read_file', input: { path: 'client.go', offset: 470, limit: 360 },
          need: ['var ErrUseLastResponse = errors.New("net/http: use last response")', 'func defaultCheckRedirect(req *Request, via []*Request) error {', 'return errors.New("stopped after 10 redirects")'] },
        { tool: 'run', input: { command: 'grep -n "func (c \\*Client)" client.go' }, need: 'output' },
        { tool: 'read_file', input: { path: 'response.js', offset: 900, limit: 120 }, need: ['res.redirect = function redirect(url) {', "address = this.location(address).get('Location');"] },
        { tool: 'run', input: { command: 'grep -n "statusCode\\|status = " response.js | head -n 30' }, need: 'output' },
        { tool: 'read_file', input: { path: 'subprocess.py', limit: 200 }, need: ['class CalledProcessError(SubprocessError):', 'class TimeoutExpired(SubprocessError):'] },
        { tool: 'run', input: { command: 'grep -n "^class " subprocess.py' }, need: 'output' },
        { tool: 'read_file', input: { path: 'subprocess.py', offset: 500, limit: 120 }, need: ['def run(*popenargs,'] },
        // How redirects are decided, read in full before the comparison.
        { tool: 'read_file', input: { path: 'client.go', offset: 490, limit: 300 },
          need: ['func (c *Client) do(req *Request) (retres *Response, reterr error) {', '\tcase 307, 308:'] },
        { tool: 'run', input: { command: 'grep -n "res.location\\|res.redirect" response.js' }, need: 'output' },
        { tool: 'read_file', input: { path: 'response.js', offset: 880, limit: 60 }, need: ["    loc = this.req.get('Referrer') || '/';"] },
        { tool: 'read_file', input: { path: 'subprocess.py', offset: 370, limit: 120 }, need: ['def check_output(*popenargs, timeout=None, **kwargs):'] },
      ],
      answer: 'Go: Client.CheckRedirect decides; the default, func defaultCheckRedirect(req *Request, via []*Request) error, stops with "stopped after 10 redirects"; returning ErrUseLastResponse ("net/http: use last response") hands back the last response unfollowed. ' +
        'Express: res.redirect = function redirect(url) sets this.location(address) and a 302 by default with a small body; the client follows it. ' +
        'subprocess.py exception classes: SubprocessError, CalledProcessError(SubprocessError), TimeoutExpired(SubprocessError).',
      expect: ['stopped after 10 redirects', 'ErrUseLastResponse', 'res.redirect', 'CalledProcessError', 'TimeoutExpired'],
    },
  ];
}
