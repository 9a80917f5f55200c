// Marker truth property test: ≥ 1,000 generated logs and JSON documents (fixed seeds) are
// compressed; every marker is parsed and each stated fact is checked against the original.
#include "marker_truth.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compress/common/selector.h"
#include "compress/common/summary.h"
#include "compress/compressors.h"
#include "json/json.h"
#include "text/lines.h"

namespace caveman::testing::marker_truth {
namespace {

// Deterministic generator (std distributions differ between standard libraries).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  int uniform(int lo, int hi) { return lo + static_cast<int>(next() % (hi - lo + 1)); }
  bool chance(int percent) { return uniform(0, 99) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[next() % v.size()];
  }

 private:
  std::uint64_t s_;
};

// One generated field: how its value varies across units.
struct FieldSpec {
  std::string name;
  int kind;  // 0 constant, 1 enum, 2 integer, 3 decimal, 4 id sequence, 5 go-float forms
  int absent_percent;
  std::vector<std::string> values;  // constant/enum choices
  int gap_percent;                  // id sequence gaps
};

std::vector<FieldSpec> make_specs(Rng& rng) {
  static const std::vector<std::string> kNames = {
      "worker", "step",    "status", "region", "id",    "latency_ms", "user", "code",
      "shard",  "attempt", "state",  "amount", "order", "delta",      "host", "note"};
  static const std::vector<std::string> kWords = {
      "ok",   "charged", "refunded", "emea", "apac", "w1",    "w2",     "GET",
      "POST", "retry",   "x;",       "a,b",  "2×3",  "\"q\"", "absent", "v1.2"};
  std::vector<FieldSpec> specs;
  int count = rng.uniform(1, 6);
  std::vector<std::string> names = kNames;
  for (int i = 0; i < count; ++i) {
    std::size_t at = rng.next() % names.size();
    FieldSpec f;
    f.name = names[at];
    names.erase(names.begin() + static_cast<std::ptrdiff_t>(at));
    f.kind = rng.uniform(0, 5);
    f.absent_percent = rng.chance(30) ? rng.uniform(5, 60) : 0;
    f.gap_percent = rng.chance(50) ? rng.uniform(5, 40) : 0;
    int choices = f.kind == 0 ? 1 : rng.uniform(2, 7);
    for (int k = 0; k < choices; ++k) f.values.push_back(rng.pick(kWords));
    specs.push_back(std::move(f));
  }
  return specs;
}

std::string field_value(const FieldSpec& f, Rng& rng, int index) {
  switch (f.kind) {
    case 0:
    case 1:
      return rng.pick(f.values);
    case 2:
      return std::to_string(rng.uniform(-50, 2000));
    case 3:
      return std::to_string(rng.uniform(0, 999)) + "." + std::to_string(rng.uniform(10, 99));
    case 4: {
      static const std::vector<std::string> kPrefixes = {"ord-", "dlv-2", "n-", "", "id_0"};
      int base = 1000 + index * (rng.chance(f.gap_percent) ? 2 : 1);
      return kPrefixes[f.name.size() % kPrefixes.size()] + std::to_string(base);
    }
    default: {
      static const std::vector<std::string> kForms = {"1e2", "-3", "0x1p-2", "1_000", "inf",
                                                      "NaN", "5.", ".5",     "+7",    "0"};
      return rng.pick(kForms);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Logs

struct LogCase {
  std::string text;
  std::vector<std::string> lines;
  std::vector<Unit> truth;
};

std::string logfmt_value(const std::string& v) {
  // The generator quotes values the extractor would otherwise split.
  for (char c : v) {
    if (c == ' ' || c == ',' || c == ']' || c == '}' || c == ')' || c == '"') {
      return "'" + v + "'";
    }
  }
  return v;
}

LogCase make_log(std::uint64_t seed) {
  Rng rng(seed);
  LogCase out;
  std::vector<FieldSpec> specs = make_specs(rng);
  int n = rng.uniform(6, 140);
  bool json_lines = rng.chance(20);
  bool crlf = rng.chance(15);
  for (int i = 0; i < n; ++i) {
    Unit truth;
    std::string line;
    if (json_lines) {
      json::Value obj = json::Value::object();
      obj.add("level", json::Value::string("info"));
      truth["level"] = "info";
      for (const FieldSpec& f : specs) {
        if (rng.chance(f.absent_percent)) continue;
        std::string v = field_value(f, rng, i);
        obj.add(f.name, json::Value::string(v));
        truth[f.name] = v;
      }
      line = json::to_compact(obj);
    } else {
      line = "2026-01-01T00:" + std::to_string(10 + i % 50) + ":00Z INFO";
      for (const FieldSpec& f : specs) {
        if (rng.chance(f.absent_percent)) continue;
        std::string v = field_value(f, rng, i);
        if (v.find('\'') != std::string::npos) continue;
        line += " " + f.name + "=" + logfmt_value(v);
        truth[f.name] = v;
      }
    }
    if (rng.chance(3)) line = "ERROR something failed at step " + std::to_string(i);
    if (line.find("ERROR") == 0) truth.clear();
    if (crlf) line += "\r";
    out.lines.push_back(line);
    out.truth.push_back(std::move(truth));
  }
  for (const auto& l : out.lines) out.text += l + "\n";
  return out;
}

// Parses "… N lines elided (caveman)[: summary] …" (without '\r').
bool parse_log_marker(std::string_view line, std::size_t* n, std::string* summary) {
  constexpr std::string_view kHead = "… ";
  constexpr std::string_view kTag = " lines elided (caveman)";
  constexpr std::string_view kTail = " …";
  if (!line.starts_with(kHead) || !line.ends_with(kTail)) return false;
  std::size_t tag = line.find(kTag);
  if (tag == std::string_view::npos) return false;
  std::string digits(line.substr(kHead.size(), tag - kHead.size()));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  *n = std::stoul(digits);
  std::string_view rest = line.substr(tag + kTag.size());
  rest.remove_suffix(kTail.size());
  if (rest.empty()) {
    summary->clear();
  } else if (rest.starts_with(": ")) {
    *summary = std::string(rest.substr(2));
  } else {
    return false;
  }
  return true;
}

// Parses "… N lines matching "SELECTOR" elided (caveman) …" (issue 36; `\"` is a quote).
bool parse_selector_marker(std::string_view line, std::size_t* n, std::string* selector) {
  constexpr std::string_view kHead = "… ";
  constexpr std::string_view kMid = " lines matching \"";
  constexpr std::string_view kTail = "\" elided (caveman) …";
  if (!line.starts_with(kHead) || !line.ends_with(kTail)) return false;
  std::size_t mid = line.find(kMid);
  if (mid == std::string_view::npos) return false;
  std::string digits(line.substr(kHead.size(), mid - kHead.size()));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  *n = std::stoul(digits);
  std::string_view body = line.substr(mid + kMid.size());
  body.remove_suffix(kTail.size());
  selector->clear();
  for (std::size_t k = 0; k < body.size(); ++k) {
    if (body[k] == '\\' && k + 1 < body.size() && body[k + 1] == '"') ++k;
    selector->push_back(body[k]);
  }
  return true;
}

::testing::AssertionResult check_log(const LogCase& c, const std::string& output, Stats* stats,
                                     int* markers) {
  text::Lines out = text::split_lines(output);
  std::size_t i = 0, elided_bytes = 0;
  bool note_seen = false;
  for (std::size_t k = 0; k < out.lines.size(); ++k) {
    std::string_view line = out.lines[k];
    bool had_cr = line.ends_with('\r');
    if (had_cr) line.remove_suffix(1);
    if (line.starts_with(compress::kNotePrefix)) {
      if (note_seen || k + 1 != out.lines.size()) {
        return ::testing::AssertionFailure() << "note not once at the end";
      }
      note_seen = true;
      continue;
    }
    std::size_t n = 0;
    std::string summary;
    if (std::string selector; parse_selector_marker(line, &n, &selector)) {
      if (n == 0 || i + n > c.lines.size()) return ::testing::AssertionFailure() << "bad count";
      for (std::size_t u = i; u < i + n; ++u) {
        if (!compress::selector_matches(selector, c.lines[u])) {
          return ::testing::AssertionFailure()
                 << "selector " << selector << " false of " << c.lines[u];
        }
        if (compress::is_failure_signal(c.lines[u])) {
          return ::testing::AssertionFailure() << "a failure signal hidden: " << c.lines[u];
        }
      }
      ++*markers;
      ++stats->summaries;
      i += n;
      continue;
    }
    if (parse_log_marker(line, &n, &summary)) {
      if (n == 0 || i + n > c.lines.size()) return ::testing::AssertionFailure() << "bad count";
      std::vector<Unit> units(c.truth.begin() + static_cast<std::ptrdiff_t>(i),
                              c.truth.begin() + static_cast<std::ptrdiff_t>(i + n));
      for (std::size_t u = i; u < i + n; ++u) elided_bytes += c.lines[u].size() + 1;
      auto r = check_summary(summary, units, stats);
      if (!r) return r;
      ++*markers;
      i += n;
      continue;
    }
    if (i >= c.lines.size() || out.lines[k] != c.lines[i]) {
      return ::testing::AssertionFailure() << "kept line " << k << " differs from original";
    }
    ++i;
  }
  if (i != c.lines.size()) return ::testing::AssertionFailure() << "counts do not sum";
  (void)elided_bytes;
  if (note_seen) return ::testing::AssertionFailure() << "a log view carries no note (issue 36)";
  return ::testing::AssertionSuccess();
}

// Issue 36: every marker's selector is true of every line it hides, its count is the number
// hidden, and no failure signal is hidden, over generated logs.
TEST(MarkerTruthTest, GeneratedLogs) {
  auto compressor = compress::make_log_compressor();
  Stats stats;
  int markers = 0, compressed = 0;
  constexpr int kCases = 600;
  for (int seed = 1; seed <= kCases; ++seed) {
    LogCase c = make_log(static_cast<std::uint64_t>(seed));
    auto out = compressor->compress(c.text, "");
    if (!out) continue;
    ++compressed;
    ASSERT_TRUE(check_log(c, out->bytes, &stats, &markers)) << "seed " << seed << "\n"
                                                            << out->bytes;
  }
  // The property must not hold vacuously.
  EXPECT_GT(compressed, kCases / 2);
  EXPECT_GT(markers, kCases / 4);  // needle-safe: fewer, selector-bearing markers
}

// ---------------------------------------------------------------------------------------
// JSON

constexpr std::string_view kKeyField = "(key)";
constexpr std::string_view kValueField = "(value)";

void add_scalar(Unit& u, const std::string& name, const json::Value& v) {
  if (u.count(name)) return;  // first occurrence only
  switch (v.kind) {
    case json::Kind::kString:
      if (!v.text.empty()) u[name] = v.text;
      break;
    case json::Kind::kNumber:
      u[name] = v.text;
      break;
    case json::Kind::kBool:
      u[name] = v.boolean ? "true" : "false";
      break;
    default:
      break;
  }
}

// Ground truth of one JSON unit, derived from the original value.
Unit json_unit(const json::Value& v, const std::string* key) {
  Unit u;
  if (key) u[std::string(kKeyField)] = *key;
  if (v.is_object()) {
    for (const json::Member& m : v.members) add_scalar(u, m.key, m.value);
  } else {
    add_scalar(u, std::string(kValueField), v);
  }
  return u;
}

bool is_marker(const json::Value& v, std::size_t* n, std::string* summary) {
  if (!v.is_object() || v.members.empty() || v.members[0].key != "__caveman_elided__" ||
      !v.members[0].value.is_number()) {
    return false;
  }
  *n = std::stoul(v.members[0].value.text);
  const json::Value* s = v.find("__caveman_invariants__");
  *summary = s ? s->text : "";
  return true;
}

struct JsonCheck {
  Stats stats;
  int markers = 0;
  int notes = 0;
  std::size_t elided_bytes = 0;
};

::testing::AssertionResult check_json(const json::Value& orig, const json::Value& out,
                                      JsonCheck& st) {
  if (orig.kind != out.kind) return ::testing::AssertionFailure() << "kind changed";
  if (out.is_array()) {
    std::size_t i = 0;
    for (const json::Value& item : out.items) {
      std::size_t n;
      std::string summary;
      if (is_marker(item, &n, &summary)) {
        if (item.find("__caveman_note__")) ++st.notes;
        if (n == 0 || i + n > orig.items.size()) return ::testing::AssertionFailure() << "count";
        std::vector<Unit> units;
        for (std::size_t k = i; k < i + n; ++k) {
          units.push_back(json_unit(orig.items[k], nullptr));
          st.elided_bytes += json::to_compact(orig.items[k]).size() + 1;
        }
        auto r = check_summary(summary, units, &st.stats);
        if (!r) return r;
        ++st.markers;
        i += n;
        continue;
      }
      if (i >= orig.items.size()) return ::testing::AssertionFailure() << "extra element";
      auto r = check_json(orig.items[i++], item, st);
      if (!r) return r;
    }
    if (i != orig.items.size()) return ::testing::AssertionFailure() << "counts do not sum";
  } else if (out.is_object()) {
    std::size_t i = 0;
    for (const json::Member& m : out.members) {
      std::size_t n;
      std::string summary;
      if (m.key.starts_with("__caveman_elided") && is_marker(m.value, &n, &summary)) {
        if (m.value.find("__caveman_note__")) ++st.notes;
        if (n == 0 || i + n > orig.members.size()) return ::testing::AssertionFailure() << "count";
        std::vector<Unit> units;
        for (std::size_t k = i; k < i + n; ++k) {
          units.push_back(json_unit(orig.members[k].value, &orig.members[k].key));
          st.elided_bytes += json::quote(orig.members[k].key).size() + 1 +
                             json::to_compact(orig.members[k].value).size() + 1;
        }
        auto r = check_summary(summary, units, &st.stats);
        if (!r) return r;
        ++st.markers;
        i += n;
        continue;
      }
      if (i >= orig.members.size() || orig.members[i].key != m.key) {
        return ::testing::AssertionFailure() << "member order or key changed at " << m.key;
      }
      auto r = check_json(orig.members[i++].value, m.value, st);
      if (!r) return r;
    }
    if (i != orig.members.size()) return ::testing::AssertionFailure() << "members do not sum";
  } else if (orig.text != out.text || orig.boolean != out.boolean) {
    return ::testing::AssertionFailure() << "scalar changed";
  }
  return ::testing::AssertionSuccess();
}

json::Value json_scalar(const std::string& v, int kind) {
  if ((kind == 2 || kind == 3) && v.find_first_not_of("-0123456789.") == std::string::npos) {
    return json::Value::number(v);
  }
  if (v == "true" || v == "false") return json::Value::from_bool(v == "true");
  return json::Value::string(v);
}

std::string make_json(std::uint64_t seed) {
  Rng rng(seed);
  json::Value root = json::Value::object();
  root.add("page", json::Value::number(std::to_string(rng.uniform(1, 9))));
  int shape = rng.uniform(0, 3);
  std::vector<FieldSpec> specs = make_specs(rng);
  int n = rng.uniform(9, 90);
  if (shape <= 1) {  // array of records
    json::Value arr = json::Value::array();
    for (int i = 0; i < n; ++i) {
      json::Value obj = json::Value::object();
      for (const FieldSpec& f : specs) {
        if (rng.chance(f.absent_percent)) continue;
        obj.add(f.name, json_scalar(field_value(f, rng, i), f.kind));
      }
      if (rng.chance(10)) obj.add("tags", json::parse("[\"a\",\"b\"]").value());
      if (rng.chance(5)) obj.add("detail", json::Value::string("request timeout"));
      if (rng.chance(5)) obj.add("flag", json::Value::from_bool(rng.chance(50)));
      if (shape == 1 && rng.chance(10)) obj.add(specs[0].name, json::Value::string("dup"));
      arr.items.push_back(std::move(obj));
    }
    root.add("items", std::move(arr));
  } else if (shape == 2) {  // array of scalars
    json::Value arr = json::Value::array();
    const FieldSpec& f = specs[0];
    for (int i = 0; i < n; ++i) arr.items.push_back(json_scalar(field_value(f, rng, i), f.kind));
    root.add("values", std::move(arr));
  } else {  // a map keyed by ids or versions
    json::Value map = json::Value::object();
    bool scalar_values = rng.chance(50);
    for (int i = 0; i < n; ++i) {
      std::string key = rng.chance(50) ? "v1." + std::to_string(i) + ".0"
                                       : "node_modules/pkg-" + std::to_string(i % 7);
      if (scalar_values) {
        map.add(key, json::Value::string("2024-01-0" + std::to_string(1 + i % 9)));
      } else {
        json::Value obj = json::Value::object();
        for (const FieldSpec& f : specs) {
          if (!rng.chance(f.absent_percent))
            obj.add(f.name, json_scalar(field_value(f, rng, i), f.kind));
        }
        map.add(key, std::move(obj));
      }
    }
    root.add("packages", std::move(map));
  }
  return rng.chance(50) ? json::to_compact(root) : json::to_indented(root);
}

TEST(MarkerTruthTest, GeneratedJson) {
  auto compressor = compress::make_json_compressor();
  JsonCheck st;
  int compressed = 0;
  constexpr int kCases = 600;
  for (int seed = 1; seed <= kCases; ++seed) {
    std::string input = make_json(static_cast<std::uint64_t>(seed) + 100000);
    auto out = compressor->compress(input, "");
    if (!out) continue;
    ++compressed;
    auto orig = json::parse(input);
    auto got = json::parse(out->bytes);
    ASSERT_TRUE(orig && got) << "seed " << seed;
    JsonCheck one;
    ASSERT_TRUE(check_json(*orig, *got, one)) << "seed " << seed << "\n" << out->bytes;
    EXPECT_EQ(one.notes, one.elided_bytes >= compress::kNoteMinElidedBytes ? 1 : 0)
        << "seed " << seed;
    st.markers += one.markers;
    st.stats.summaries += one.stats.summaries;
    st.stats.facts += one.stats.facts;
  }
  EXPECT_GT(compressed, kCases / 3);
  EXPECT_GT(st.markers, kCases / 2);
  EXPECT_GT(st.stats.summaries, kCases / 4);
  EXPECT_GT(st.stats.facts, kCases / 2);
}

// The checker itself must reject false facts, or the property above proves nothing.
TEST(MarkerTruthTest, CheckerRejectsFalseFacts) {
  std::vector<Unit> units = {{{"s", "a"}, {"n", "1"}, {"id", "x-1"}},
                             {{"s", "a"}, {"n", "5"}, {"id", "x-2"}},
                             {{"s", "b"}, {"n", "3"}}};
  EXPECT_TRUE(check_summary("s: a×2 b×1; range n=1..5", units));
  EXPECT_FALSE(check_summary("all s=a", units));
  EXPECT_FALSE(check_summary("s: a×1 b×2", units));
  EXPECT_FALSE(check_summary("s: a×2", units));
  EXPECT_FALSE(check_summary("range n=1..4", units));
  EXPECT_FALSE(check_summary("range n=0..5", units));  // bound must occur
  EXPECT_TRUE(check_summary("id: 2 distinct, x-1..x-2, absent×1", units));
  EXPECT_FALSE(check_summary("id: 2 distinct, x-1..x-2", units));
  EXPECT_FALSE(check_summary("id: 3 distinct, x-1..x-2, absent×1", units));
  EXPECT_FALSE(check_summary("id: x-1..x-2 all 2 present", units));
  std::vector<Unit> dense = {{{"id", "x-1"}}, {{"id", "x-3"}}, {{"id", "x-2"}}};
  EXPECT_TRUE(check_summary("id: x-1..x-3 all 3 present", dense));
  dense[1]["id"] = "x-4";
  EXPECT_FALSE(check_summary("id: x-1..x-4 all 3 present", dense));
  std::vector<Unit> quoted = {{{"a b", "x y"}}, {{"a b", "x y"}}};
  EXPECT_TRUE(check_summary(R"(all "a b"="x y")", quoted));
  EXPECT_FALSE(check_summary(R"(all "a b"="x z")", quoted));
}

}  // namespace
}  // namespace caveman::testing::marker_truth
