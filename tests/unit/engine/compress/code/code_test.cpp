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
  // The body-elision rules themselves; the needle rule (issue 36) is tested below.
  static const std::unique_ptr<Compressor> c = make_code_compressor(/*needle_safe=*/false);
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

// What a proxy passes: compress, the original stored by the caller.
Options proxy_like_options() {
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  return o;
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
  EXPECT_EQ(
      *out,
      "import os\nfrom typing import List\n\n"
      "# Runs things.\n"
      "def run(cmd: str, *, check: bool = False) -> int:\n"
      "    \"\"\"Run cmd and return its exit code.\n\n    Longer text.\n    \"\"\"\n"
      "    ...  # … lines 10–13 elided (caveman)\n\n\n"
      "class Runner(object):\n    \"\"\"A runner.\"\"\"\n    retries = 3\n\n"
      "    @property\n    def name(self):\n        ...  # … lines 22–23 elided (caveman)\n\n"
      "    def short(self): ...\n\n"
      "    def outer(self, items: List[str]):\n        ...  # … lines 28–30 elided (caveman)\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, PythonBodyOnTheDefLineBecomesEllipsis) {
  auto out = run("import os\n\ndef f(x): \"\"\"Doc.\"\"\"; return [x, x, x, x, x, x, x]\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "import os\n\ndef f(x): ...\n");
}

TEST(CodeCompressorTest, PythonCrlfStaysCrlf) {
  auto out =
      run("import os\r\n\r\ndef f(x):\r\n    \"\"\"Doc.\"\"\"\r\n"
          "    y = os.path.join(x, x, x, x, x, x)\r\n    z = os.path.join(y, y, y, y)\r\n"
          "    return y\r\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "import os\r\n\r\ndef f(x):\r\n    \"\"\"Doc.\"\"\"\r\n"
            "    ...  # … lines 5–7 elided (caveman)\r\n");
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
            "function join(a, b) {\n  // … lines 6–7 elided (caveman)\n}\n"
            "const twice = (x) => x * 2;\n"
            "const block = (x) => {\n  // … lines 11–12 elided (caveman)\n};\n"
            "res.send = function send(body) {\n  // … lines 15–16 elided (caveman)\n};\n"
            "class Store extends Base {\n  static count = 0;\n"
            "  constructor(opts) {\n    // … lines 21–22 elided (caveman)\n  }\n"
            "  get size() { return this.items.size; }\n"
            "  *entries() {\n    for (const e of this.items) yield e;\n  }\n}\n"
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
  EXPECT_NE(out->bytes.find("function isPort(value) {\n  // … lines 11–12 elided (caveman)\n}"),
            std::string::npos)
      << out->bytes;
}

// A Read with an offset cuts a function at each end: no grammar parses it, but the complete
// functions between the cuts are elided and the cut edges stay byte for byte.
TEST(CodeCompressorTest, ASliceKeepsItsCutEdgesAndElidesTheWholeFunctions) {
  std::string head = "\t\treturn nil, err\n\t}\n\treturn c.Do(req)\n}\n\n";
  std::string whole =
      "func (c *Client) checkRedirect(req *Request, via []*Request) error {\n\tfn := "
      "c.CheckRedirect\n"
      "\tif fn == nil {\n\t\tfn = defaultCheckRedirect\n\t}\n\treturn fn(req, via)\n}\n\n"
      "func redirectBehavior(reqMethod string, resp *Response) (string, bool) {\n\tswitch "
      "resp.StatusCode {\n"
      "\tcase 301, 302, 303:\n\t\treturn \"GET\", true\n\t}\n\treturn reqMethod, false\n}\n\n";
  std::string tail =
      "func (c *Client) Do(req *Request) (*Response, error) {\n\treturn c.do(req)\n\t// and "
      "then\n\tif x {\n";
  auto out = run(head + whole + tail);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->substr(0, head.size()), head);
  EXPECT_EQ(out->substr(out->size() - tail.size()), tail);
  EXPECT_NE(out->find("func (c *Client) checkRedirect(req *Request, via []*Request) error {\n"
                      "\t// … lines 7–11 elided (caveman)\n}"),
            std::string::npos)
      << *out;
  EXPECT_EQ(out->find("case 301"), std::string::npos) << *out;
  expect_idempotent(*out);
}

// The functions a kept body calls keep their bodies too: whoever reads normalizeIPv6 needs
// to know what findToken counts. Functions it does not call stay elided.
TEST(CodeCompressorTest, QueryKeepsTheBodiesOfWhatTheKeptBodiesCall) {
  std::string in =
      "function findToken(str, token) {\n  let ind = 0;\n  for (const c of str) if (c === token) "
      "ind++;\n  return ind;\n}\n"
      "const isHex = (s) => {\n  const t = s.trim();\n  return /^[0-9a-f]+$/i.test(t) && t.length "
      "> 0;\n};\n"
      "function normalizeIPv6(host) {\n  if (findToken(host, ':') < 2) return { host, isIPV6: "
      "false };\n"
      "  return { host: isHex(host) ? host : host.toLowerCase(), isIPV6: true };\n}\n"
      "function isPort(value) {\n  const n = Number(value);\n  return n >= 0 && n < 65536 && "
      "String(n) === value;\n}\n";
  auto out = code().compress(in, "grep -n normalizeIPv6 lib/utils.js");
  ASSERT_TRUE(out);
  EXPECT_NE(out->bytes.find("  for (const c of str) if (c === token) ind++;"), std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("  return /^[0-9a-f]+$/i.test(t) && t.length > 0;"), std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("function isPort(value) {\n  // … lines 15–16 elided (caveman)\n}"),
            std::string::npos)
      << out->bytes;
}

// The function the query names comes first, before bodies that only mention it often, so its
// own helpers are kept even when the callee budget runs out on the others.
TEST(CodeCompressorTest, TheNamedFunctionAndItsHelpersComeFirst) {
  std::string in =
      "function findToken(str, token) {\n  let ind = 0;\n  for (const c of str) if (c === token) "
      "ind++;\n  return ind;\n}\n";
  for (const char* h : {"helperOne", "helperTwo", "helperThree", "helperFour", "helperFive"}) {
    in += std::string("function ") + h +
          "(x) {\n  const y = x + 1;\n  const z = y * y - x;\n  return y * 2 + x + z;\n}\n";
  }
  in +=
      "function recompose(host) {\n  const a = normalizeIPv6(host) || normalizeIPv6(host.trim());\n"
      "  return helperOne(a) + helperTwo(a) + helperThree(a) + helperFour(a) + helperFive(a) + "
      "normalizeIPv6(a);\n}\n"
      "function normalizeIPv6(host) {\n  if (findToken(host, ':') < 2) return { host, isIPV6: "
      "false };\n"
      "  return { host: host.toLowerCase(), isIPV6: true };\n}\n";
  auto out = code().compress(in, "grep -n normalizeIPv6 lib/utils.js");
  ASSERT_TRUE(out);
  EXPECT_NE(out->bytes.find("  if (findToken(host, ':') < 2) return { host, isIPV6: false };"),
            std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("  for (const c of str) if (c === token) ind++;"), std::string::npos)
      << out->bytes;
}

// Names as call sites spell them: a C++ qualified definition, a Python method, a Go method.
TEST(CodeCompressorTest, CalleesAreFoundByTheNameTheirCallersUse) {
  std::string cpp =
      "int DBImpl::Grow(int n) {\n  int total = n * 2;\n  return total + 1;\n}\n"
      "int DBImpl::Write(int n) {\n  int grown = Grow(n);\n  return grown + kWriteOverhead;\n}\n"
      "int DBImpl::Other(int n) {\n  int total = n * 3;\n  return total + 2;\n}\n";
  auto out = code().compress(cpp, "Write kWriteOverhead");
  ASSERT_TRUE(out);
  EXPECT_NE(out->bytes.find("int total = n * 2;"), std::string::npos) << out->bytes;
  EXPECT_EQ(out->bytes.find("int total = n * 3;"), std::string::npos) << out->bytes;

  std::string py =
      "class Popen:\n    def _wait(self, timeout):\n        result = self._poll(timeout)\n        "
      "return result\n\n"
      "    def _poll(self, timeout):\n        value = timeout * 1000\n        return value\n\n"
      "    def kill(self):\n        signal = 9\n        os.kill(self.pid, signal)\n        return "
      "signal\n";
  out = code().compress(py, "result");
  ASSERT_TRUE(out);
  EXPECT_NE(out->bytes.find("value = timeout * 1000"), std::string::npos) << out->bytes;
  EXPECT_EQ(out->bytes.find("signal = 9"), std::string::npos) << out->bytes;
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
  EXPECT_EQ(
      *out,
      "import type { Req } from './req';\n"
      "export interface Options {\n  /** Retries. */\n  retries?: number;\n}\n"
      "export type Handler = (r: Req) => Promise<void>;\n"
      "export enum Mode { A, B }\n"
      "export abstract class Base<T> implements Iface {\n"
      "  private readonly items: T[] = [];\n"
      "  abstract name(): string;\n"
      "  add(item: T): this {\n    // … lines 12–13 elided (caveman)\n  }\n}\n"
      "export function make<T>(o: Options): Base<T> {\n  // … lines 17–18 elided (caveman)\n}\n"
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
  EXPECT_EQ(*out,
            "import React from 'react';\n"
            "export function Card(props: { title: string }): JSX.Element {\n"
            "  // … lines 3–4 elided (caveman)\n}\n");
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
  EXPECT_EQ(*out,
            "#include <stddef.h>\n/**\n * Sums.\n *\n * Long explanation here.\n */\n"
            "int sum(int n) {\n  // … lines 8–10 elided (caveman)\n}\n");
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
            "var hook = func(r io.Reader) error {\n\t_, err := io.ReadAll(r)\n\treturn err\n}\n\n"
            "type Client struct {\n\tTimeout int\n}\n\n"
            "// Do sends a request.\nfunc (c *Client) Do(req *Request) (*Response, error) {\n"
            "\t// … lines 22–25 elided (caveman)\n}\n\n"
            "func short() int { return 1 }\n");
  expect_idempotent(*out);
}

TEST(CodeCompressorTest, C) {
  std::string in = std::string("#include <stdio.h>\n\nstatic int count;\n\nint sum(int n) {\n") +
                   std::string(kLongBody) + "  return total;\n}\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "#include <stdio.h>\n\nstatic int count;\n\nint sum(int n) {\n  // … lines 6–8 elided "
            "(caveman)\n}\n");
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
            "  explicit State(std::mutex* m) : mu(m), version(nullptr) {\n    Init(m, m, m, m, m, "
            "m, m);\n  }\n"
            "  int Get() const { return *version; }\n};\n\n"
            "template <typename T>\nT Impl::Read(const std::string& key) const {\n  // … lines "
            "16–17 elided (caveman)\n}\n\n"
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
  auto fresh = make_code_compressor(false)->compress(in, "a query is ignored");
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

// The expected-cost rule for lossy views (docs/spec/pipeline.md, step 9): with one
// retrieve in four, a saving pays when 3·w·saved ≥ w·view + reread.
TEST(LossyViewPaysTest, WeighsTheSavingAgainstTheRetrievesItMayCause) {
  // Cached (w = 2, reread = a tenth of the prompt): 6·saved ≥ 2·view + C/10.
  EXPECT_TRUE(lossy_view_pays(3500, 4100, 40000, true));   // 21000 ≥ 8200 + 4000
  EXPECT_FALSE(lossy_view_pays(1000, 4100, 40000, true));  // 6000 < 12200
  EXPECT_TRUE(lossy_view_pays(1000, 2000, 20000, true));   // 6000 ≥ 4000 + 2000 (the edge)
  // Uncached (w = 3, reread = the whole prompt): 9·saved ≥ 3·view + C.
  EXPECT_FALSE(lossy_view_pays(3500, 4100, 40000, false));  // 31500 < 12300 + 40000
  EXPECT_TRUE(lossy_view_pays(1500, 2500, 6000, false));    // 13500 ≥ 7500 + 6000
}

// Through the engine: the same code view is kept in a small prompt, dropped in a large one,
// and an uncached prompt needs a larger saving than a cached one of the same size.
TEST(LossyViewPaysTest, TheEngineAppliesItOnlyWhenThePromptIsKnown) {
  Engine engine(nullptr);
  Options o = proxy_like_options();
  std::string in;
  for (int i = 0; i < 20; ++i) {
    in += "function step" + std::to_string(i) + "(input) {\n  const doubled = input * 2 + " +
          std::to_string(i) + ";\n  return doubled > 100 ? doubled - 100 : doubled;\n}\n";
  }
  CompressResult unknown = engine.compress(in, o);
  ASSERT_FALSE(unknown.passed_through());
  std::int64_t saved = unknown.tokens_before - unknown.tokens_after;
  std::int64_t view = unknown.tokens_after;
  // The largest cached prompt it pays in: 6·saved ≥ 2·view + C/10.
  std::int64_t edge = (6 * saved - 2 * view) * 10;
  ASSERT_GT(edge, 0);
  o.context_tokens = edge;
  EXPECT_FALSE(engine.compress(in, o).passed_through());
  o.context_tokens = edge + 10;
  EXPECT_TRUE(engine.compress(in, o).passed_through());
  o.context_tokens = edge / 20;
  EXPECT_FALSE(engine.compress(in, o).passed_through());
  o.context_cached = false;
  EXPECT_EQ(engine.compress(in, o).passed_through(), 9 * saved < 3 * view + edge / 20);
  o.context_tokens = edge;
  EXPECT_TRUE(engine.compress(in, o).passed_through());
}

// A view that leaves out no content (a factored log under Read's gutter) never needs a
// retrieve, so no prompt is too large for it; the same log cut lossily would be weighed.
TEST(LossyViewPaysTest, ContentLosslessViewsUnderAGutterAreNotWeighed) {
  Engine engine(nullptr);
  Options o = proxy_like_options();
  o.context_tokens = 100'000'000;
  std::string in;  // dpkg.log's four lines per package, under Read's gutter
  int line = 0;
  for (std::string pkg :
       {"libgdbm6", "libjs-underscore", "libkmod2", "libargon2-1", "dmsetup", "libjson-c5",
        "libcryptsetup12", "libdevmapper1", "libexpat1", "libffi8"}) {
    std::string v = ":amd64 1." + std::to_string(pkg.size()) + "-3";
    for (std::string step :
         {" configure " + pkg + v + " <none>", " status unpacked " + pkg + v,
          " status half-configured " + pkg + v, " status installed " + pkg + v}) {
      in += std::to_string(++line) + "\t2025-06-24 14:36:55" + step + "\n";
    }
  }
  CompressResult r = engine.compress(in, o);
  ASSERT_FALSE(r.passed_through());
  EXPECT_EQ(r.output.find("(caveman)"), std::string::npos) << r.output;  // nothing elided
  EXPECT_LT(r.tokens_after, r.tokens_before);
}

// `grep -n` numbers are facts, not a Read's consecutive gutter: a view that drops them leaves
// content out, so in a large prompt it is weighed like any lossy view and passes through.
TEST(LossyViewPaysTest, GrepLineNumbersAreContent) {
  Engine engine(nullptr);
  Options o = proxy_like_options();
  std::string in;
  for (int i = 0; i < 24; ++i) {
    in += std::to_string(41 + 7 * i) +
          ":        st.equal(qs.stringify({ a: ['b', 'c'] }, { arrayFormat: '" +
          std::string(i % 2 ? "brackets" : "indices") + "' }), 'a" + std::to_string(i) + "');\n";
  }
  CompressResult unknown = engine.compress(in, o);
  if (unknown.passed_through()) GTEST_SKIP() << "no view of this grep output to weigh";
  o.context_tokens = 100'000'000;
  EXPECT_TRUE(engine.compress(in, o).passed_through());
}

// Issue 36: through the engine (needle-safe), a body that owns its lines is elided behind a
// marker that states them, whatever they hold; a body on one line with its signature could only
// get the inline marker, which states no lines, so a rare line there stays.
TEST(CodeCompressorTest, ThroughTheEngineAutoDetectAndForced) {
  Engine engine(nullptr);
  Options o = proxy_like_options();
  std::string in = "package main\n\nimport \"fmt\"\n\nfunc main() {\n"
                   "\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i, i*i, i*i*i, \"squares and cubes\")\n\t}\n}\n";
  for (std::string type : {"", "code"}) {
    o.type = type;
    CompressResult r = engine.compress(in, o);
    EXPECT_EQ(r.content_type, "code");
    EXPECT_EQ(r.output,
              "package main\n\nimport \"fmt\"\n\nfunc main() {\n"
              "\t// … lines 6–8 elided (caveman)\n}\n");
  }
  std::string one_line =
      "package main\n\nfunc main() { for i := 0; i < 10; i++ { println(i, "
      "i*i, i*i*i, \"squares and cubes\") } }\n";
  EXPECT_FALSE(make_code_compressor()->compress(one_line, "").has_value());
  auto unsafe = make_code_compressor(false)->compress(one_line, "");
  ASSERT_TRUE(unsafe.has_value());
  EXPECT_EQ(unsafe->bytes, "package main\n\nfunc main() { /* caveman: body elided */ }\n");
}

// A body of repeated lines (no rare line, no failure signal) is still elided needle-safely.
TEST(CodeCompressorTest, NeedleSafeElidesOnlyBodiesWithoutNeedles) {
  std::string in = "package main\n\nimport \"fmt\"\n\n";
  for (int f = 0; f < 3; ++f) {
    in += "func show" + std::to_string(f) + "() {\n";
    for (int k = 0; k < 4; ++k) in += "\tfmt.Println(\"row\", " + std::to_string(k) + ")\n";
    in += "}\n\n";
  }
  in += "func main() {\n\tpanic(\"unreachable state\")\n}\n";
  auto out = make_code_compressor()->compress(in, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("panic(\"unreachable state\")"), std::string::npos) << out->bytes;
}

}  // namespace
}  // namespace caveman::compress
