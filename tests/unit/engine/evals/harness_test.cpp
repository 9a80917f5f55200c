// The eval harness (docs/spec/ranking.md#evals): the embedded suite passes, a broken compressor
// fails it, graders fail closed, probes report hashes, and the report is deterministic JSON.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "caveman/ccr.h"
#include "caveman/evals.h"
#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "evals/manifest.h"
#include "json/json.h"
#include "support/test_support.h"

namespace caveman::evals {
namespace {

Report must_run(const Suite& suite) {
  Result<Report> r = run_suite(suite);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : Report{};
}

Report must_run(const Suite& suite, Registry registry) {
  Result<Report> r = run_suite(suite, std::move(registry));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : Report{};
}

const FixtureReport* find_fixture(const Report& r, std::string_view name) {
  for (const FixtureReport& f : r.fixtures) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string failures_of(const Report& r) {
  std::string out;
  for (const FixtureReport& f : r.fixtures) {
    for (const std::string& s : f.failures) out += f.name + ": " + s + "\n";
  }
  return out;
}

TEST(EvalsHarnessTest, EmbeddedSuitePassesAndCoversEveryCompressor) {
  Suite suite = embedded_suite();
  Result<Manifest> m = parse_manifest(suite.manifest);
  ASSERT_OK(m);
  EXPECT_GE(m->fixtures.size(), 17u);
  Report r = must_run(suite);
  EXPECT_TRUE(r.passed) << failures_of(r);
  // Every shipped compressor produced the output of at least one passing, compressed fixture.
  std::set<std::string> methods;
  for (const FixtureReport& f : r.fixtures) {
    if (f.passed && !f.method.empty()) methods.insert(f.content_type);
  }
  Registry registry = Registry::default_registry(tokens::default_counter());
  for (const std::string& type : registry.types()) {
    EXPECT_TRUE(methods.count(type)) << "no passing compressed fixture for " << type;
  }
}

// Wraps a real compressor and rewrites its output: how a regression would look.
class RewritingCompressor final : public Compressor {
 public:
  using Rewrite = std::function<std::string(std::string)>;
  RewritingCompressor(std::unique_ptr<Compressor> inner, Rewrite rewrite)
      : inner_(std::move(inner)), rewrite_(std::move(rewrite)) {}
  std::string_view type() const override { return inner_->type(); }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    std::optional<CompressorOutput> out = inner_->compress(input, query);
    if (out) out->bytes = rewrite_(std::move(out->bytes));
    return out;
  }

 private:
  std::unique_ptr<Compressor> inner_;
  Rewrite rewrite_;
};

// "caveman: N identical lines elided" → N-1: the marker now miscounts what it stands for.
std::string undercount_lines(std::string s) {
  const std::string tag = " identical lines elided";
  std::size_t at = s.find(tag);
  if (at == std::string::npos) return s;
  std::size_t begin = at;
  while (begin > 0 && s[begin - 1] >= '0' && s[begin - 1] <= '9') --begin;
  int n = std::stoi(s.substr(begin, at - begin));
  return s.substr(0, begin) + std::to_string(n - 1) + s.substr(at);
}

// {"__caveman_elided__":N,…} → N+1: the JSON marker claims more elements than it stands for.
std::string overcount_elements(std::string s) {
  const std::string key = "\"__caveman_elided__\":";
  std::size_t at = s.find(key);
  if (at == std::string::npos) return s;
  std::size_t begin = at + key.size();
  std::size_t end = begin;
  while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
  int n = std::stoi(s.substr(begin, end - begin));
  return s.substr(0, begin) + std::to_string(n + 1) + s.substr(end);
}

// Drops every line mentioning the failed assertion: "compressed away the answer".
std::string drop_assertion_lines(std::string s) {
  std::string out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    std::size_t end = nl == std::string::npos ? s.size() : nl + 1;
    std::string line = s.substr(pos, end - pos);
    if (line.find("assert") == std::string::npos) out += line;
    pos = end;
  }
  return out;
}

Report run_with(const Suite& suite, std::unique_ptr<Compressor> replacement) {
  Registry registry = Registry::default_registry(tokens::default_counter());
  registry.add(std::move(replacement));
  return must_run(suite, std::move(registry));
}

TEST(EvalsHarnessTest, BrokenCompressorsMakeTheSuiteFail) {
  Suite suite = embedded_suite();
  {
    Report r = run_with(suite, std::make_unique<RewritingCompressor>(
                                   compress::make_repetition_compressor(), undercount_lines));
    EXPECT_FALSE(r.passed);
    const FixtureReport* f = find_fixture(r, "repetition-log");
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(f->passed);
    EXPECT_NE(failures_of(r).find("repetition-log: marker_facts_true"), std::string::npos)
        << failures_of(r);
  }
  {
    Report r = run_with(suite, std::make_unique<RewritingCompressor>(
                                   compress::make_json_compressor(), overcount_elements));
    EXPECT_FALSE(r.passed);
    EXPECT_FALSE(find_fixture(r, "json-tool-output")->passed);
    EXPECT_NE(failures_of(r).find("json-tool-output: marker_facts_true"), std::string::npos)
        << failures_of(r);
  }
  {
    Report r = run_with(suite, std::make_unique<RewritingCompressor>(
                                   compress::make_terminal_compressor(), drop_assertion_lines));
    EXPECT_FALSE(r.passed);
    // The failure stays recoverable through the handle, but the view silently lost lines:
    // the marker checker notices lines that are neither shown nor counted.
    EXPECT_FALSE(find_fixture(r, "terminal-session")->passed);
    EXPECT_NE(failures_of(r).find("terminal-session: marker_facts_true"), std::string::npos)
        << failures_of(r);
  }
  {
    // A compressor that declines everything: its "compressed" graders fail.
    Report r = run_with(suite, compress::make_declining_compressor("tabular"));
    EXPECT_FALSE(r.passed);
    EXPECT_NE(failures_of(r).find("csv-query-relevance: compressed"), std::string::npos);
  }
  {
    // The untouched default registry passes the same suite.
    EXPECT_TRUE(must_run(suite).passed);
  }
}

Suite one_fixture(const std::string& graders, const std::string& extra = "") {
  Suite s;
  s.files["a.log"] = "line one\nline two\n";
  s.manifest = "fixtures:\n  - name: f\n    file: a.log\n" + extra + graders;
  return s;
}

TEST(EvalsHarnessTest, UnknownGraderAndMissingGradersFailClosed) {
  Report unknown = must_run(one_fixture("    graders:\n      - {type: json_schema_typo}\n"));
  EXPECT_FALSE(unknown.passed);
  ASSERT_EQ(unknown.fixtures.size(), 1u);
  EXPECT_EQ(unknown.fixtures[0].failures,
            std::vector<std::string>{"unknown grader type: json_schema_typo"});

  Report none = must_run(one_fixture(""));
  EXPECT_FALSE(none.passed);
  EXPECT_EQ(none.fixtures[0].failures, std::vector<std::string>{"no graders configured"});

  Report ok = must_run(one_fixture("    graders:\n      - {type: byte_identical}\n"));
  EXPECT_TRUE(ok.passed) << failures_of(ok);
}

TEST(EvalsHarnessTest, ProbesReportStatesAndHashesNeverValues) {
  Suite s;
  std::string log;  // one line repeated: the repetition view hides all but the first
  for (int i = 0; i < 40; ++i) log += "worker w1 heartbeat ok\n";
  log = "row-0,w1 started\n" + log;
  s.files["x.log"] = log;
  s.manifest = R"(fixtures:
  - name: probes
    file: x.log
    type: repetition
    probes:
      - {dimension: kept, value: "row-0,w1"}
      - {value: "heartbeat ok\nworker w1 heartbeat ok\nworker w1 heartbeat ok"}
      - {dimension: bogus, value: "never in the input"}
      - {dimension: empty, value: ""}
    graders:
      - {type: compressed}
)";
  Report r = must_run(s);
  ASSERT_EQ(r.fixtures.size(), 1u);
  const FixtureReport& f = r.fixtures[0];
  ASSERT_EQ(f.probes.size(), 3u);
  EXPECT_EQ(f.probes[0].state, "retained");
  EXPECT_EQ(f.probes[1].dimension, "unspecified");
  EXPECT_EQ(f.probes[1].state, "recoverable");  // elided, but the handle has it
  EXPECT_EQ(f.probes[2].state, "lost");
  EXPECT_EQ(f.probes[0].value_sha256, "sha256:" + ccr::sha256_hex("row-0,w1"));
  EXPECT_EQ(f.probe_summary.total, 3);
  EXPECT_EQ(r.probes.lost, 1);
  EXPECT_EQ(r.probes_by_dimension.at("bogus").lost, 1);
  EXPECT_FALSE(f.passed);
  std::string failures = failures_of(r);
  EXPECT_NE(failures.find("retention probe 3 has empty value"), std::string::npos);
  EXPECT_NE(failures.find("retention probe bogus was lost"), std::string::npos);
  std::string report = r.to_json();
  EXPECT_EQ(report.find("never in the input"), std::string::npos);
  EXPECT_EQ(report.find("row-17"), std::string::npos);
}

TEST(EvalsHarnessTest, ReportIsDeterministicIndentedJsonInSpecOrder) {
  Suite suite = embedded_suite();
  std::string a = must_run(suite).to_json();
  std::string b = must_run(suite).to_json();
  EXPECT_EQ(a, b);
  std::optional<json::Value> v = json::parse(a);
  ASSERT_TRUE(v.has_value());
  std::vector<std::string> keys;
  for (const json::Member& m : v->members) keys.push_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"passed", "tokens_before", "tokens_after",
                                            "token_ratio", "words_before", "words_after",
                                            "word_ratio", "probes", "fixtures"}));
  EXPECT_TRUE(a.starts_with("{\n  \"passed\": "));
  const json::Value* fixtures = v->find("fixtures");
  ASSERT_NE(fixtures, nullptr);
  for (const json::Value& f : fixtures->items) {
    EXPECT_NE(f.find("byte_recoverable"), nullptr);
    EXPECT_EQ(f.find("basis")->text, "inferred");
  }
}

TEST(EvalsHarnessTest, StructuralErrorsAreStatuses) {
  Suite empty;
  empty.manifest = "fixtures: []\n";
  EXPECT_EQ(run_suite(empty).status().error_code(), "cave_invalid_manifest");
  Suite broken;
  broken.manifest = "fixtures: [\n";
  EXPECT_EQ(run_suite(broken).status().error_code(), "cave_invalid_manifest");
  Suite missing;
  missing.manifest = "fixtures:\n  - {name: a, file: nope.txt, graders: [{type: compressed}]}\n";
  EXPECT_EQ(run_suite(missing).status().error_code(), "cave_invalid_manifest");
  Suite nameless;
  nameless.manifest = "fixtures:\n  - {file: a.txt}\n";
  EXPECT_EQ(run_suite(nameless).status().error_code(), "cave_invalid_manifest");
}

}  // namespace
}  // namespace caveman::evals
