#include "evals/graders.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include "caveman/toon.h"
#include "compress/code/language.h"
#include "compress/code/parse.h"
#include "compress/code/sniff.h"
#include "compress/tabular/table_parse.h"
#include "evals/json_schema.h"
#include "evals/marker_facts.h"
#include "json/json.h"
#include "text/utf8.h"

namespace caveman::evals {
namespace {

// What the model reads (GradeInput::readable); the raw output when the caller left it unset.
std::string_view readable(const GradeInput& in) {
  return in.readable.data() != nullptr ? in.readable : std::string_view(in.result.output);
}


using Grader = std::string (*)(const GraderSpec&, const GradeInput&);

// The grader's needles: `value`, else `options.values` (a list), else `options.value`.
std::vector<std::string> needles(const GraderSpec& g) {
  std::vector<std::string> out;
  if (!g.value.empty()) out.push_back(g.value);
  if (const json::Value* list = g.options.find("values"); list && list->is_array()) {
    for (const json::Value& v : list->items) {
      if (v.is_string() || v.is_number()) out.push_back(v.text);
    }
  }
  return out;
}

// An option's text: strings as-is, numbers as written, booleans as true/false.
std::string option_text(const GraderSpec& g, std::string_view key) {
  const json::Value* v = g.options.find(key);
  if (v == nullptr) return "";
  if (v->is_string() || v->is_number()) return v->text;
  if (v->is_bool()) return v->boolean ? "true" : "false";
  return "";
}

std::string contains(const GraderSpec& g, const GradeInput& in) {
  std::vector<std::string> ns = needles(g);
  if (ns.empty()) return g.type + " needs a value";
  for (const std::string& n : ns) {
    if (readable(in).find(n) == std::string::npos) return "missing \"" + n + "\"";
  }
  return "";
}

std::string not_contains(const GraderSpec& g, const GradeInput& in) {
  std::vector<std::string> ns = needles(g);
  if (ns.empty()) return g.type + " needs a value";
  for (const std::string& n : ns) {
    if (readable(in).find(n) != std::string::npos) return "unexpected \"" + n + "\"";
  }
  return "";
}

std::string exact_match(const GraderSpec& g, const GradeInput& in) {
  const std::string& want = g.value.empty() ? g.reference : g.value;
  return text::trim_space(in.result.output) == text::trim_space(want)
             ? ""
             : "output differs from the expected text";
}

std::string ratio_threshold(const GraderSpec& g, const GradeInput& in) {
  double min = g.min.value_or(0), max = g.max.value_or(0);
  double r = in.result.ratio;
  if (r < min || (max > 0 && r > max)) {
    return "ratio " + json::format_float(r) + " outside [" + json::format_float(min) + ", " +
           (max > 0 ? json::format_float(max) : std::string("∞")) + "]";
  }
  return "";
}

// Judged on the expanded view: a JSON table view (docs/formats.md) is JSON once expanded.
std::string valid_json(const GraderSpec&, const GradeInput& in) {
  return json::is_valid(readable(in)) ? "" : "output is not valid JSON";
}

// The view keeps every line in view: its factored blocks expand to the exact input with no
// store, and the result says so (docs/formats.md).
std::string lossless_view(const GraderSpec&, const GradeInput& in) {
  if (in.result.lossless_to_model != true) return "the result is not lossless_to_model";
  return readable(in) == in.input ? "" : "the view does not expand to the input";
}

std::string byte_identical(const GraderSpec&, const GradeInput& in) {
  return in.result.output == in.input ? "" : "output is not byte-identical to the input";
}

std::string compressed(const GraderSpec&, const GradeInput& in) {
  return in.result.passed_through() ? "the input passed through uncompressed" : "";
}

std::string recovery_exact(const GraderSpec&, const GradeInput& in) {
  return in.recoverable ? "" : "the recovery handle does not return the exact input";
}

std::string toon_round_trip_of(const GradeInput& in) {
  Result<std::string> decoded = toon::toon_decode(in.result.output);
  if (!decoded.ok()) return "output is not valid TOON: " + decoded.status().ToString();
  std::optional<json::Value> a = json::parse(decoded.value());
  std::optional<json::Value> b = json::parse(in.input);
  if (!a || !b) return "input is not JSON";
  return json_equal(*a, *b) ? "" : "TOON does not decode to the input";
}

std::string toon_round_trip(const GraderSpec&, const GradeInput& in) {
  if (in.result.passed_through()) return "the input passed through (no TOON)";
  return toon_round_trip_of(in);
}

std::string json_or_toon_round_trip(const GraderSpec&, const GradeInput& in) {
  if (json::is_valid(in.result.output)) return "";
  if (in.result.method != "toon") return "output is neither JSON nor TOON";
  return toon_round_trip_of(in);
}

std::string recall_keys(const GraderSpec& g, const GradeInput& in) {
  const json::Value* keys = g.options.find("must_contain");
  if (keys == nullptr || !keys->is_array() || keys->items.empty()) {
    return "recall_keys needs options.must_contain";
  }
  double min_recall = 1.0;
  if (std::string s = option_text(g, "min_recall"); !s.empty())
    min_recall = std::strtod(s.c_str(), nullptr);
  std::size_t found = 0;
  for (const json::Value& k : keys->items) {
    std::string needle = k.is_string() ? k.text : json::to_compact(k);
    found += readable(in).find(needle) != std::string::npos ? 1 : 0;
  }
  double recall = static_cast<double>(found) / static_cast<double>(keys->items.size());
  return recall >= min_recall
             ? ""
             : "recall " + json::format_float(recall) + " below " + json::format_float(min_recall);
}

std::optional<compress::code::Language> language_named(std::string_view name) {
  for (compress::code::Language l : compress::code::kAllLanguages) {
    if (compress::code::language_name(l) == name) return l;
  }
  return std::nullopt;
}

std::string reparses(const GraderSpec& g, const GradeInput& in) {
  std::string format = option_text(g, "format");
  if (format.empty()) format = in.result.content_type;
  const std::string out(readable(in));
  if (format == "json" || format == "toolschema" || format == "toolschema-annotations") {
    return json::is_valid(out) ? "" : "output does not re-parse as JSON";
  }
  if (format == "toon") {
    Result<std::string> d = toon::toon_decode(out);
    return d.ok() ? "" : "output does not re-parse as TOON: " + d.status().ToString();
  }
  if (format == "config" || format == "yaml") {
    try {
      (void)YAML::LoadAll(out);
    } catch (const YAML::Exception& e) {
      return std::string("output does not re-parse as YAML: ") + e.what();
    }
    return "";
  }
  if (format == "tabular" || format == "csv") {
    return compress::parse_table(out) ? "" : "output does not re-parse as a table";
  }
  if (format == "code") {
    std::string lang_name = option_text(g, "language");
    std::optional<compress::code::Language> lang;
    if (!lang_name.empty()) {
      lang = language_named(lang_name);
      if (!lang) return "unknown language " + lang_name;
    } else {
      std::vector<compress::code::Language> guesses = compress::code::candidate_languages(in.input);
      if (guesses.empty()) return "cannot tell the language of the input";
      lang = guesses.front();
    }
    return compress::code::parse_clean(*lang, out) != nullptr
               ? ""
               : "output does not re-parse as " + std::string(compress::code::language_name(*lang));
  }
  return "no parser for format " + format;
}

std::string json_schema(const GraderSpec& g, const GradeInput& in) {
  std::optional<json::Value> schema;
  if (const json::Value* s = g.options.find("schema"); s != nullptr) {
    schema = *s;
  } else if (!g.reference.empty()) {
    schema = json::parse(g.reference);
    if (!schema) return "reference is not a JSON schema";
  } else {
    return "json_schema needs options.schema or a reference";
  }
  std::optional<json::Value> out = json::parse(in.result.output);
  if (!out) return "output is not valid JSON";
  return validate_json_schema(*out, *schema);
}

// Tool names in text: split on comma, LF, TAB, '>' or '|', trimmed, empties dropped.
std::vector<std::string> split_tools(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && std::string_view(",\n\t>|").find(s[i]) == std::string_view::npos) continue;
    std::string_view part = text::trim_space(s.substr(start, i - start));
    if (!part.empty()) out.emplace_back(part);
    start = i + 1;
  }
  return out;
}

std::string tool_name(const json::Value& v) {
  if (v.is_string()) return v.text;
  if (!v.is_object()) return "";
  for (const char* key : {"name", "tool", "tool_name"}) {
    if (const json::Value* n = v.find(key); n && n->is_string()) return n->text;
  }
  if (const json::Value* f = v.find("function"); f && f->is_object()) {
    if (const json::Value* n = f->find("name"); n && n->is_string()) return n->text;
  }
  return "";
}

std::vector<std::string> extract_tools(std::string_view output) {
  std::optional<json::Value> v = json::parse(output);
  if (!v) return split_tools(output);
  const json::Value* list = v->is_array() ? &*v : nullptr;
  for (const char* key : {"tool_calls", "calls", "steps", "tools"}) {
    if (list != nullptr) break;
    if (const json::Value* l = v->find(key); l && l->is_array()) list = l;
  }
  std::vector<std::string> out;
  if (list == nullptr) return out;
  for (const json::Value& e : list->items) out.push_back(tool_name(e));
  return out;
}

std::string tool_sequence(const GraderSpec& g, const GradeInput& in) {
  std::vector<std::string> want;
  const json::Value* list = g.options.find("tools");
  if (list == nullptr) list = g.options.find("sequence");
  if (list != nullptr && list->is_array()) {
    for (const json::Value& e : list->items)
      want.push_back(e.is_string() ? e.text : json::to_compact(e));
  } else if (!g.reference.empty()) {
    want = split_tools(g.reference);
  }
  if (want.empty()) return "tool_sequence needs options.tools, options.sequence or a reference";
  std::vector<std::string> got = extract_tools(in.result.output);
  if (got == want) return "";
  std::string shown;
  for (const std::string& t : got) shown += (shown.empty() ? "" : ",") + t;
  return "tool sequence is [" + shown + "]";
}

std::string marker_facts_true(const GraderSpec& g, const GradeInput& in) {
  MarkerFacts r = check_marker_facts(in.result.content_type, in.input, readable(in));
  if (!r.failures.empty()) return r.failures.front();
  std::string min = option_text(g, "min_markers");
  if (!min.empty() && r.markers < std::atoi(min.c_str())) {
    return "only " + std::to_string(r.markers) + " markers, expected at least " + min;
  }
  return "";
}

const std::map<std::string, Grader, std::less<>>& graders() {
  static const std::map<std::string, Grader, std::less<>> kGraders = {
      {"byte_identical", byte_identical},
      {"compressed", compressed},
      {"contains", contains},
      {"exact_match", exact_match},
      {"json_or_toon_round_trip", json_or_toon_round_trip},
      {"json_schema", json_schema},
      {"lossless_view", lossless_view},
      {"marker_facts_true", marker_facts_true},
      {"must_contain", contains},
      {"must_not_contain", not_contains},
      {"not_contains", not_contains},
      {"ratio_threshold", ratio_threshold},
      {"recall_keys", recall_keys},
      {"recovery_exact", recovery_exact},
      {"reparses", reparses},
      {"tool_sequence", tool_sequence},
      {"toon_round_trip", toon_round_trip},
      {"valid_json", valid_json},
  };
  return kGraders;
}

}  // namespace

std::string grade(const GraderSpec& grader, const GradeInput& in) {
  auto it = graders().find(grader.type);
  if (it == graders().end()) return "unknown grader type: " + grader.type;
  std::string failure = it->second(grader, in);
  return failure.empty() ? failure : grader.type + ": " + failure;
}

std::vector<std::string> known_grader_types() {
  std::vector<std::string> out;
  for (const auto& [name, _] : graders()) out.push_back(name);
  return out;
}

}  // namespace caveman::evals
