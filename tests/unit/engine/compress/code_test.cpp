// The `code` compressor (docs/spec/compressors.md#code): body elision per language, what must stay,
// idempotence, fail-open cases, determinism and a large minified input.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "caveman/engine.h"
#include "compress/code/language.h"
#include "compress/code/parse.h"
#include "compress/compressors.h"

namespace caveman::compress {
namespace {

const Compressor& code() {
  static const std::unique_ptr<Compressor> c = make_code_compressor();
  return *c;
}

std::optional<std::string> run(std::string_view in) {
  auto out = code().compress(in, "");
  if (!out) return std::nullopt;
  EXPECT_EQ(out->method, "code");
  return out->bytes;
}

// Compressing the output again must change nothing (the compressor declines).
void expect_idempotent(const std::string& out) {
  auto again = code().compress(out, "");
  EXPECT_FALSE(again.has_value()) << "second pass changed:\n" << (again ? again->bytes : "");
}

constexpr std::string_view kLongBody = "  int total = 0;\n  for (int i = 0; i < n; ++i) total += i;\n";

TEST(CodeCompressorTest, Python) {
  std::string in =
      "import os\nfrom typing import List\n\n"
      "# Runs things.\n"
      "def run(cmd: str, *, check: bool = False) -> int:\n"
      "    \"\"\"Run cmd and return its exit code.\n\n    Longer text.\n    \"\"\"\n"
      "    code = os.system(cmd)\n    if check and code:\n        raise RuntimeError(code)\n"
      "    return code\n\n\n"
      "class Runner(object):\n    \"\"\"A runner.\"\"\"\n    retries = 3\n\n"
      "    @property\n    def name(self):\n        value = self._name\n        return value.strip()\n\n"
      "    def short(self): return 1\n\n"
      "    def outer(self, items: List[str]):\n        def inner(x):\n            return x * 2\n"
      "        return [inner(i) for i in items]\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "import os\nfrom typing import List\n\n"
            "# Runs things.\n"
            "def run(cmd: str, *, check: bool = False) -> int:\n"
            "    \"\"\"Run cmd and return its exit code.\n\n    Longer text.\n    \"\"\"\n"
            "    ...\n\n\n"
            "class Runner(object):\n    \"\"\"A runner.\"\"\"\n    retries = 3\n\n"
            "    @property\n    def name(self):\n        ...\n\n"
            "    def short(self): ...\n\n"
            "    def outer(self, items: List[str]):\n        ...\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, PythonBodyOnTheDefLineBecomesEllipsis) {
  auto out = run("import os\n\ndef f(x): \"\"\"Doc.\"\"\"; return [x, x, x, x, x, x, x]\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "import os\n\ndef f(x): ...\n");
}

TEST(CodeCompressorTest, PythonCrlfStaysCrlf) {
  auto out = run("import os\r\n\r\ndef f(x):\r\n    \"\"\"Doc.\"\"\"\r\n"
                 "    y = os.path.join(x, x, x)\r\n    return y\r\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "import os\r\n\r\ndef f(x):\r\n    \"\"\"Doc.\"\"\"\r\n    ...\r\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, JavaScript) {
  std::string in =
      "'use strict';\nconst path = require('path');\n\n"
      "/** Joins parts. */\n"
      "function join(a, b) {\n  const sep = path.sep;\n  return a + sep + b + sep + 'x';\n}\n"
      "const twice = (x) => x * 2;\n"
      "const block = (x) => {\n  const y = x * 2;\n  return y + y + y + y;\n};\n"
      "res.send = function send(body) {\n  this.end(body);\n  return this.statusCode;\n};\n"
      "class Store extends Base {\n  static count = 0;\n"
      "  constructor(opts) {\n    super(opts);\n    this.items = new Map();\n  }\n"
      "  get size() { return this.items.size; }\n"
      "  *entries() {\n    for (const e of this.items) yield e;\n  }\n}\n"
      "module.exports = { join, twice, helper() { return join('a', 'b') + join('c', 'd'); } };\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "'use strict';\nconst path = require('path');\n\n"
            "/** Joins parts. */\n"
            "function join(a, b) { /* caveman: body elided */ }\n"
            "const twice = (x) => x * 2;\n"
            "const block = (x) => { /* caveman: body elided */ };\n"
            "res.send = function send(body) { /* caveman: body elided */ };\n"
            "class Store extends Base {\n  static count = 0;\n"
            "  constructor(opts) { /* caveman: body elided */ }\n"
            "  get size() { return this.items.size; }\n"
            "  *entries() { /* caveman: body elided */ }\n}\n"
            "module.exports = { join, twice, helper() { /* caveman: body elided */ } };\n");
  expect_idempotent(*out);
}

// A query (an agent that just grepped for a function) keeps the bodies it names best; the
// others are still elided.
TEST(CodeCompressorTest, QueryKeepsTheBodiesItNames) {
  std::string in =
      "function findToken(str, token) {\n  let ind = 0;\n  for (const c of str) if (c === token) ind++;\n  return ind;\n}\n"
      "function normalizeIPv6(host) {\n  if (findToken(host, ':') < 2) return { host, isIPV6: false };\n"
      "  return { host: host.toLowerCase(), isIPV6: true };\n}\n"
      "function isPort(value) {\n  const n = Number(value);\n  return n >= 0 && n < 65536 && String(n) === value;\n}\n";
  auto plain = code().compress(in, "");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->bytes.find("findToken(host, ':') < 2"), std::string::npos);
  auto out = code().compress(in, "grep -n \"normalizeIPv6\" index.js lib/*.js");
  ASSERT_TRUE(out);
  EXPECT_NE(out->bytes.find("  if (findToken(host, ':') < 2) return { host, isIPV6: false };"), std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("function isPort(value) { /* caveman: body elided */ }"), std::string::npos) << out->bytes;
}

TEST(CodeCompressorTest, ArrowFunctionsWithExpressionBodiesAreUntouched) {
  std::string in = "export const add = (a, b) => a + b + a + b + a + b + a + b + a + b + a;\n"
                   "export const obj = () => ({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 });\n";
  EXPECT_FALSE(run(in).has_value());
}

TEST(CodeCompressorTest, TypeScriptKeepsTypesAndSignatures) {
  std::string in =
      "import type { Req } from './req';\n"
      "export interface Options {\n  /** Retries. */\n  retries?: number;\n}\n"
      "export type Handler = (r: Req) => Promise<void>;\n"
      "export enum Mode { A, B }\n"
      "export abstract class Base<T> implements Iface {\n"
      "  private readonly items: T[] = [];\n"
      "  abstract name(): string;\n"
      "  add(item: T): this {\n    this.items.push(item);\n    return this.items.length > 0 ? this : this;\n  }\n}\n"
      "export function make<T>(o: Options): Base<T> {\n  const x = o.retries ?? 3;\n  return create<T>(x, x, x);\n}\n"
      "export declare function declared(a: string): void;\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "import type { Req } from './req';\n"
            "export interface Options {\n  /** Retries. */\n  retries?: number;\n}\n"
            "export type Handler = (r: Req) => Promise<void>;\n"
            "export enum Mode { A, B }\n"
            "export abstract class Base<T> implements Iface {\n"
            "  private readonly items: T[] = [];\n"
            "  abstract name(): string;\n"
            "  add(item: T): this { /* caveman: body elided */ }\n}\n"
            "export function make<T>(o: Options): Base<T> { /* caveman: body elided */ }\n"
            "export declare function declared(a: string): void;\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, TsxComponents) {
  std::string in =
      "import React from 'react';\n"
      "export function Card(props: { title: string }): JSX.Element {\n"
      "  const t = props.title.toUpperCase();\n  return <div className=\"card\">{t}</div>;\n}\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "import React from 'react';\n"
                  "export function Card(props: { title: string }): JSX.Element { /* caveman: body elided */ }\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, DeclarationOnlyTypeScriptTrimsLongDocComments) {
  std::string in =
      "/**\n * A request that expects a response.\n *\n * More detail that goes on and on\n"
      " * across several lines of text.\n *\n * @category Common\n */\n"
      "export interface Request {\n"
      "    /**\n     * The id. It is unique per session, e.g. a counter or a UUID string.\n     */\n"
      "    id: string;\n"
      "    /**\n     * Old field.\n     *\n     * Kept for compatibility with older clients.\n"
      "     * @deprecated use id\n     */\n    legacy?: number;\n"
      "    /** Short. */\n    name: string;\n}\n"
      "export declare function send(r: Request): void;\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "/** A request that expects a response. (caveman: doc trimmed) */\n"
            "export interface Request {\n"
            "    /** The id. (caveman: doc trimmed) */\n"
            "    id: string;\n"
            "    /** Old field. @deprecated (caveman: doc trimmed) */\n    legacy?: number;\n"
            "    /** Short. */\n    name: string;\n}\n"
            "export declare function send(r: Request): void;\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, DocCommentsStayWhenTheSourceHasBodies) {
  std::string in = std::string("#include <stddef.h>\n/**\n * Sums.\n *\n * Long explanation here.\n */\nint sum(int n) {\n") +
                   std::string(kLongBody) + "  return total;\n}\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "#include <stddef.h>\n/**\n * Sums.\n *\n * Long explanation here.\n */\n"
                  "int sum(int n) { /* caveman: body elided */ }\n");
}

TEST(CodeCompressorTest, Go) {
  std::string in =
      "package http\n\nimport (\n\t\"errors\"\n\t\"io\"\n)\n\n"
      "// ErrX is returned on X.\nvar ErrX = errors.New(\"x\")\n\n"
      "var hook = func(r io.Reader) error {\n\t_, err := io.ReadAll(r)\n\treturn err\n}\n\n"
      "type Client struct {\n\tTimeout int\n}\n\n"
      "// Do sends a request.\nfunc (c *Client) Do(req *Request) (*Response, error) {\n"
      "\tif req == nil {\n\t\treturn nil, ErrX\n\t}\n\treturn c.send(req)\n}\n\n"
      "func short() int { return 1 }\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "package http\n\nimport (\n\t\"errors\"\n\t\"io\"\n)\n\n"
            "// ErrX is returned on X.\nvar ErrX = errors.New(\"x\")\n\n"
            "var hook = func(r io.Reader) error { /* caveman: body elided */ }\n\n"
            "type Client struct {\n\tTimeout int\n}\n\n"
            "// Do sends a request.\nfunc (c *Client) Do(req *Request) (*Response, error) { /* caveman: body elided */ }\n\n"
            "func short() int { return 1 }\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, C) {
  std::string in = std::string("#include <stdio.h>\n\nstatic int count;\n\nint sum(int n) {\n") +
                   std::string(kLongBody) + "  return total;\n}\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "#include <stdio.h>\n\nstatic int count;\n\nint sum(int n) { /* caveman: body elided */ }\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, CppClassesNamespacesAndAnnotationMacros) {
  std::string in =
      "#include <string>\n\nnamespace db {\n\n"
      "struct State {\n  std::mutex* const mu;\n  int* const version GUARDED_BY(mu);\n"
      "  explicit State(std::mutex* m) : mu(m), version(nullptr) {\n    Init(m, m, m, m, m, m, m);\n  }\n"
      "  int Get() const { return *version; }\n};\n\n"
      "template <typename T>\nT Impl::Read(const std::string& key) const {\n"
      "  auto it = cache_.find(key);\n  return it == cache_.end() ? T() : it->second;\n}\n\n"
      "Impl::~Impl() = default;\n\n}  // namespace db\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "#include <string>\n\nnamespace db {\n\n"
            "struct State {\n  std::mutex* const mu;\n  int* const version GUARDED_BY(mu);\n"
            "  explicit State(std::mutex* m) : mu(m), version(nullptr) { /* caveman: body elided */ }\n"
            "  int Get() const { return *version; }\n};\n\n"
            "template <typename T>\nT Impl::Read(const std::string& key) const { /* caveman: body elided */ }\n\n"
            "Impl::~Impl() = default;\n\n}  // namespace db\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, SyntaxErrorsPassThrough) {
  EXPECT_FALSE(run("def f(:\n    x = 1\n    return x + x + x + x + x + x + x\n"));
  EXPECT_FALSE(run("function f() {\n  const x = 1;\n  return (x + x + x + x + x + x + x;\n}\n"));
  EXPECT_FALSE(run("package a\n\nfunc f() {\n\tx := 1\n\treturn x + x + x + x + x + x + x\n"));
  EXPECT_FALSE(run("#include <a.h>\nint f() {\n  int x = 1 +;\n  return x + x + x + x + x + x;\n}\n"));
}

TEST(CodeCompressorTest, NothingToElideOrNotCodeFails) {
  EXPECT_FALSE(run(""));
  EXPECT_FALSE(run("Meeting notes: discuss the roadmap and the budget.\n"));
  EXPECT_FALSE(run("def f(): pass\n"));  // `...` would not be shorter
  EXPECT_FALSE(run("package a\n\nfunc f() {}\n"));
}

TEST(CodeCompressorTest, DeterministicAcrossRuns) {
  std::string in = "function a() {\n  return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];\n}\n"
                   "const b = () => {\n  return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];\n};\n";
  auto first = run(in);
  ASSERT_TRUE(first);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(run(in), first);
  auto fresh = make_code_compressor()->compress(in, "a query is ignored");
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->bytes, *first);
}

// Like a bundler's output: one line, 5 MB, thousands of functions inside one wrapper.
TEST(CodeCompressorTest, MinifiedFiveMegabyteJavaScriptOneLine) {
  std::string in = "!function(e,t){\"use strict\";";
  int i = 0;
  while (in.size() < (5u << 20)) {
    std::string n = std::to_string(i++);
    in += "function f" + n + "(a,b){var c=a+b*" + n + ";if(c>" + n +
          "){return c-1}return e.map(function(x){return x+c})}" + "var v" + n + "=f" + n + "(1,2);";
  }
  in += "}(window,document);";
  auto out = code().compress(in, "");
  ASSERT_TRUE(out);  // parses cleanly, so the outermost function body is elided
  EXPECT_EQ(out->bytes, "!function(e,t){ /* caveman: body elided */ }(window,document);");
  EXPECT_FALSE(code().compress(out->bytes, "").has_value());
}

TEST(CodeCompressorTest, DeeplyNestedInputDoesNotOverflowTheStack) {
  std::string in = "function f() { return 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9; }\nconst x = ";
  in += std::string(50000, '[') + std::string(50000, ']') + ";\n";
  auto out = code().compress(in, "");
  if (out) {
    EXPECT_EQ(out->bytes.substr(0, 50), "function f() { /* caveman: body elided */ }\nconst ");
  }
}

TEST(CodeCompressorTest, ThroughTheEngineAutoDetectAndForced) {
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  std::string in = "package main\n\nimport \"fmt\"\n\nfunc main() {\n"
                   "\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i, i*i, i*i*i, \"squares and cubes\")\n\t}\n}\n";
  for (std::string type : {"", "code"}) {
    o.type = type;
    CompressResult r = engine.compress(in, o);
    EXPECT_EQ(r.content_type, "code");
    EXPECT_EQ(r.method, "code");
    EXPECT_EQ(r.output, "package main\n\nimport \"fmt\"\n\nfunc main() { /* caveman: body elided */ }\n");
    EXPECT_EQ(r.lossless_to_model, false);
    EXPECT_GT(r.ratio, 0);
    EXPECT_LT(r.tokens_after, r.tokens_before);
  }
}

}  // namespace
}  // namespace caveman::compress
