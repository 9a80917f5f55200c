// run_suite(): one fresh Engine over an in-memory CCR store, every fixture compressed with its
// own options, graded, probed, and totalled into the report of docs/spec/ranking.md#report.
#include <memory>

#include "caveman/base/codes.h"
#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/evals.h"
#include "caveman/tokens.h"
#include "evals/graders.h"
#include "evals/manifest.h"
#include "json/json.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::evals {
namespace {

// Words = maximal runs of Unicode letters and decimal digits.
std::int64_t count_words(std::string_view s) {
  std::int64_t words = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < s.size();) {
    text::Decoded d = text::decode_utf8(s, i);
    bool w = d.valid && (text::is_letter(d.cp) || text::is_decimal_digit(d.cp));
    if (w && !in_word) ++words;
    in_word = w;
    i += d.len == 0 ? 1 : d.len;
  }
  return words;
}

double saving(std::int64_t before, std::int64_t after) {
  if (before <= 0 || after >= before) return 0;
  return static_cast<double>(before - after) / static_cast<double>(before);
}

void add(ProbeCounts& c, std::string_view state) {
  ++c.total;
  if (state == "retained")
    ++c.retained;
  else if (state == "recoverable")
    ++c.recoverable;
  else
    ++c.lost;
}

json::Value num(std::int64_t v) { return json::Value::number(std::to_string(v)); }
json::Value flt(double v) { return json::Value::number(json::format_float(v)); }
json::Value str(std::string s) { return json::Value::string(std::move(s)); }

json::Value counts_json(const ProbeCounts& c) {
  json::Value o = json::Value::object();
  o.add("total", num(c.total));
  o.add("retained", num(c.retained));
  o.add("recoverable", num(c.recoverable));
  o.add("lost", num(c.lost));
  return o;
}

FixtureReport run_fixture(const Engine& engine, const FixtureSpec& f, const std::string& input,
                          Report& report) {
  Options options;
  options.mode = f.mode == "record" ? "record" : "compress";
  options.type = f.type == "auto" ? "" : f.type;
  options.query = f.query;
  options.page_text = f.page;
  CompressResult res = engine.compress(input, options);
  Result<std::string> expanded = expand_view(res.output);
  const std::string& readable = expanded.ok() ? expanded.value() : res.output;

  FixtureReport fr;
  fr.name = f.name;
  fr.content_type = res.content_type;
  fr.method = res.method;
  fr.tokens_before = res.tokens_before;
  fr.tokens_after = res.tokens_after;
  fr.ratio = res.ratio;
  fr.words_before = count_words(input);
  fr.words_after = count_words(res.output);
  fr.word_ratio = saving(fr.words_before, fr.words_after);
  fr.basis = res.basis;
  fr.byte_recoverable = res.output == input;
  if (!fr.byte_recoverable && !res.recovery_handle.empty()) {
    Result<std::string> back = engine.retrieve(res.recovery_handle);
    fr.byte_recoverable = back.ok() && back.value() == input;
  }
  if (!res.error.empty()) fr.failures.push_back("compress reported " + res.error);

  for (std::size_t i = 0; i < f.probes.size(); ++i) {
    const ProbeSpec& p = f.probes[i];
    if (p.value.empty()) {
      fr.failures.push_back("retention probe " + std::to_string(i) + " has empty value");
      continue;
    }
    ProbeResult pr;
    pr.dimension = p.dimension.empty() ? "unspecified" : p.dimension;
    pr.value_sha256 = "sha256:" + ccr::sha256_hex(p.value);
    // Beyond the original: "recoverable" needs the value to be in the input at all, so a
    // probe that names something the fixture never contained is lost, not waved through.
    pr.state = readable.find(p.value) != std::string::npos                       ? "retained"
               : fr.byte_recoverable && input.find(p.value) != std::string::npos ? "recoverable"
                                                                                 : "lost";
    if (pr.state == "lost") fr.failures.push_back("retention probe " + pr.dimension + " was lost");
    add(fr.probe_summary, pr.state);
    add(report.probes, pr.state);
    add(report.probes_by_dimension[pr.dimension], pr.state);
    fr.probes.push_back(std::move(pr));
  }

  if (f.graders.empty()) fr.failures.push_back("no graders configured");
  GradeInput in{input, res, fr.byte_recoverable, readable};
  for (const GraderSpec& g : f.graders) {
    if (std::string failure = grade(g, in); !failure.empty()) fr.failures.push_back(failure);
  }
  fr.passed = fr.failures.empty();
  return fr;
}

}  // namespace

std::vector<std::string> grader_types() { return known_grader_types(); }

Result<Report> run_suite(const Suite& suite) {
  return run_suite(suite, Registry::default_registry(tokens::default_counter()));
}

Result<Report> run_suite(const Suite& suite, Registry registry) {
  CAVEMAN_ASSIGN_OR_RETURN(Manifest manifest, parse_manifest(suite.manifest));
  for (const FixtureSpec& f : manifest.fixtures) {
    if (!suite.files.count(f.file)) {
      return Status::InvalidArgument(codes::kInvalidManifest,
                                     "fixture " + f.name + " names a missing file: " + f.file);
    }
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<ccr::Store> store,
                           ccr::open_store(std::string(ccr::kMemoryPath)));
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store)), tokens::default_counter(),
                std::move(registry));
  Report report;
  report.passed = true;
  for (const FixtureSpec& f : manifest.fixtures) {
    FixtureReport fr = run_fixture(engine, f, suite.files.at(f.file), report);
    report.passed = report.passed && fr.passed;
    report.tokens_before += fr.tokens_before;
    report.tokens_after += fr.tokens_after;
    report.words_before += fr.words_before;
    report.words_after += fr.words_after;
    report.fixtures.push_back(std::move(fr));
  }
  report.token_ratio = saving(report.tokens_before, report.tokens_after);
  report.word_ratio = saving(report.words_before, report.words_after);
  return report;
}

std::string Report::to_json() const {
  json::Value root = json::Value::object();
  root.add("passed", json::Value::from_bool(passed));
  root.add("tokens_before", num(tokens_before));
  root.add("tokens_after", num(tokens_after));
  root.add("token_ratio", flt(token_ratio));
  root.add("words_before", num(words_before));
  root.add("words_after", num(words_after));
  root.add("word_ratio", flt(word_ratio));
  json::Value probes_json = counts_json(probes);
  if (!probes_by_dimension.empty()) {
    json::Value by = json::Value::object();
    for (const auto& [dim, c] : probes_by_dimension) by.add(dim, counts_json(c));
    probes_json.add("by_dimension", std::move(by));
  }
  root.add("probes", std::move(probes_json));
  json::Value list = json::Value::array();
  for (const FixtureReport& f : fixtures) {
    json::Value o = json::Value::object();
    o.add("name", str(f.name));
    o.add("content_type", str(f.content_type));
    if (!f.method.empty()) o.add("method", str(f.method));
    o.add("tokens_before", num(f.tokens_before));
    o.add("tokens_after", num(f.tokens_after));
    o.add("ratio", flt(f.ratio));
    o.add("words_before", num(f.words_before));
    o.add("words_after", num(f.words_after));
    o.add("word_ratio", flt(f.word_ratio));
    o.add("basis", str(f.basis));
    o.add("passed", json::Value::from_bool(f.passed));
    o.add("byte_recoverable", json::Value::from_bool(f.byte_recoverable));
    if (!f.failures.empty()) {
      json::Value fails = json::Value::array();
      for (const std::string& s : f.failures) fails.items.push_back(str(s));
      o.add("failures", std::move(fails));
    }
    if (!f.probes.empty()) {
      json::Value ps = json::Value::array();
      for (const ProbeResult& p : f.probes) {
        json::Value po = json::Value::object();
        po.add("dimension", str(p.dimension));
        po.add("value_sha256", str(p.value_sha256));
        po.add("state", str(p.state));
        ps.items.push_back(std::move(po));
      }
      o.add("probes", std::move(ps));
      o.add("probe_summary", counts_json(f.probe_summary));
    }
    list.items.push_back(std::move(o));
  }
  root.add("fixtures", std::move(list));
  return json::to_indented(root);
}

}  // namespace caveman::evals
