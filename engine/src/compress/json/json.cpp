// The json compressor (docs/spec/compressors.md#json): long arrays — and, beyond the original, long
// maps whose members all have one kind of value (package-lock "packages", npm "time") — keep
// their head, tail, error-bearing, outlying, change-point, query-relevant and novel units;
// every other run of units becomes one marker object stating verified invariants of what it
// replaced. Output is compact JSON in the input's key order. Deterministic: the only
// per-document state is accumulated in document order.
#include "json/json.h"

#include <array>
#include <string>
#include <vector>

#include "compress/common/summary.h"
#include "compress/compressors.h"
#include "compress/json/json_select.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kCollapseThreshold = 8;  // ≤ 8 units are never collapsed
constexpr std::size_t kMarkerOverhead = 56;    // bytes of a marker object besides its summary
constexpr std::string_view kElidedKey = "__caveman_elided__";
constexpr std::string_view kInvariantsKey = "__caveman_invariants__";
constexpr std::string_view kNoteKey = "__caveman_note__";
constexpr std::string_view kMarkerKeyPrefix = "__caveman_elided";
constexpr std::string_view kKeyField = "(key)";
constexpr std::string_view kValueField = "(value)";

constexpr std::array<std::string_view, 15> kPreserveKeys = {
    "error",     "errors",    "message", "msg",    "stack",   "stacktrace", "stack_trace", "trace",
    "traceback", "exception", "reason",  "detail", "details", "warning",    "warnings"};

bool is_preserve_key(std::string_view key) {
  if (key.size() > 11) return false;
  std::string lower = text::ascii_lower(key);
  for (std::string_view k : kPreserveKeys) {
    if (lower == k) return true;
  }
  return false;
}

// True when any object in `v` has a caveman marker member: the input is our own output.
bool contains_marker(const json::Value& v) {
  std::vector<const json::Value*> stack = {&v};
  while (!stack.empty()) {
    const json::Value* cur = stack.back();
    stack.pop_back();
    for (const json::Value& item : cur->items) stack.push_back(&item);
    for (const json::Member& m : cur->members) {
      if (m.key.starts_with(kMarkerKeyPrefix)) return true;
      stack.push_back(&m.value);
    }
  }
  return false;
}

// Summary fields of one unit: an object's scalar members, a scalar as "(value)", and for a
// map member its key as "(key)" first.
Fields unit_fields(const json::Value& v, const std::string* key) {
  Fields f;
  if (key != nullptr) f.emplace_back(std::string(kKeyField), *key);
  if (v.is_object()) {
    Fields members = json_element_fields(v);
    f.insert(f.end(), std::make_move_iterator(members.begin()),
             std::make_move_iterator(members.end()));
  } else if ((v.is_string() && !v.text.empty()) || v.is_number()) {
    f.emplace_back(std::string(kValueField), v.text);
  } else if (v.is_bool()) {
    f.emplace_back(std::string(kValueField), v.boolean ? "true" : "false");
  }
  return f;
}

json::Value marker_object(std::size_t count, const std::string& summary) {
  json::Value m = json::Value::object();
  m.add(std::string(kElidedKey), json::Value::number(std::to_string(count)));
  if (!summary.empty()) m.add(std::string(kInvariantsKey), json::Value::string(summary));
  return m;
}

// A map: more than 8 members whose values all have the same kind (not null).
bool is_uniform_map(const json::Value& v) {
  if (v.members.size() <= kCollapseThreshold) return false;
  json::Kind kind = v.members.front().value.kind;
  if (kind == json::Kind::kNull) return false;
  for (const json::Member& m : v.members) {
    if (m.value.kind != kind) return false;
  }
  return true;
}

class Transformer {
 public:
  Transformer(std::string_view query, std::size_t doc_budget)
      : query_(query), doc_budget_(doc_budget) {}

  void transform(json::Value& v) {
    if (v.is_array()) {
      if (v.items.size() > kCollapseThreshold && affordable(v)) {
        collapse_array(v);
      } else {
        for (json::Value& item : v.items) transform(item);
      }
    } else if (v.is_object()) {
      if (is_uniform_map(v) && !has_preserve_key(v) && affordable(v)) {
        collapse_map(v);
      } else {
        transform_members(v);
      }
    }
  }

  bool collapsed() const { return collapsed_; }
  std::size_t elided_bytes() const { return elided_bytes_; }

 private:
  void transform_members(json::Value& v) {
    for (json::Member& m : v.members) {
      if (is_preserve_key(m.key)) continue;  // the whole subtree stays as written
      transform(m.value);
    }
  }

  bool has_preserve_key(const json::Value& v) const {
    for (const json::Member& m : v.members) {
      if (is_preserve_key(m.key)) return true;
    }
    return false;
  }

  // Hostile shapes (long arrays nested hundreds deep) would re-serialise the same bytes at
  // every level; past a budget proportional to the input, deeper units are only recursed.
  bool affordable(const json::Value&) const { return doc_bytes_ <= doc_budget_; }

  void collapse_array(json::Value& v) {
    JsonUnits units;
    units.values.reserve(v.items.size());
    units.docs.reserve(v.items.size());
    for (const json::Value& item : v.items) {
      units.values.push_back(&item);
      units.docs.push_back(json::to_compact(item));
      doc_bytes_ += units.docs.back().size();
    }
    std::vector<bool> keep = select_json_units(units, query_);
    std::vector<json::Value> out;
    const std::size_t n = v.items.size();
    for (std::size_t i = 0; i < n;) {
      if (keep[i]) {
        transform(v.items[i]);
        out.push_back(std::move(v.items[i]));
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < n && !keep[end]) ++end;
      RunFacts facts = run_facts(units, i, end, nullptr);
      if (worth_eliding(end - i, facts.summary, facts.summary.size() + kMarkerOverhead,
                        facts.bytes)) {
        out.push_back(marker_object(end - i, facts.summary));
        note_collapse(facts.bytes);
      } else {
        for (std::size_t k = i; k < end; ++k) {
          transform(v.items[k]);
          out.push_back(std::move(v.items[k]));
        }
      }
      i = end;
    }
    v.items = std::move(out);
  }

  void collapse_map(json::Value& v) {
    JsonUnits units;
    std::vector<const std::string*> keys;
    units.values.reserve(v.members.size());
    units.docs.reserve(v.members.size());
    for (const json::Member& m : v.members) {
      units.values.push_back(&m.value);
      keys.push_back(&m.key);
      std::string doc = json::quote(m.key);
      doc.push_back(':');
      json::write_compact(m.value, doc);
      doc_bytes_ += doc.size();
      units.docs.push_back(std::move(doc));
    }
    std::vector<bool> keep = select_json_units(units, query_);
    std::vector<json::Member> out;
    const std::size_t n = v.members.size();
    std::size_t markers = 0;
    for (std::size_t i = 0; i < n;) {
      if (keep[i]) {
        transform(v.members[i].value);
        out.push_back(std::move(v.members[i]));
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < n && !keep[end]) ++end;
      RunFacts facts = run_facts(units, i, end, &keys);
      std::string key(kElidedKey);
      if (markers > 0) {  // unique keys: "__caveman_elided_2__", "__caveman_elided_3__", …
        key = std::string(kMarkerKeyPrefix) + "_" + std::to_string(markers + 1) + "__";
      }
      std::size_t marker_bytes = facts.summary.size() + kMarkerOverhead + key.size() + 3;
      if (worth_eliding(end - i, facts.summary, marker_bytes, facts.bytes)) {
        out.push_back(json::Member{std::move(key), marker_object(end - i, facts.summary)});
        ++markers;
        note_collapse(facts.bytes);
      } else {
        for (std::size_t k = i; k < end; ++k) {
          transform(v.members[k].value);
          out.push_back(std::move(v.members[k]));
        }
      }
      i = end;
    }
    v.members = std::move(out);
  }

  struct RunFacts {
    std::size_t bytes = 0;
    std::string summary;
  };

  RunFacts run_facts(const JsonUnits& units, std::size_t begin, std::size_t end,
                     const std::vector<const std::string*>* keys) const {
    RunFacts facts;
    std::vector<Fields> fields;
    fields.reserve(end - begin);
    for (std::size_t k = begin; k < end; ++k) {
      facts.bytes += units.docs[k].size() + 1;
      fields.push_back(unit_fields(*units.values[k], keys ? (*keys)[k] : nullptr));
    }
    facts.summary = summarize(fields, static_cast<std::int64_t>(facts.bytes));
    return facts;
  }

  void note_collapse(std::size_t bytes) {
    collapsed_ = true;
    elided_bytes_ += bytes;
  }

  std::string_view query_;
  std::size_t doc_budget_;
  std::size_t doc_bytes_ = 0;
  bool collapsed_ = false;
  std::size_t elided_bytes_ = 0;
};

// The first marker object in output (document) order.
json::Value* first_marker(json::Value& root) {
  std::vector<json::Value*> stack = {&root};
  while (!stack.empty()) {
    json::Value* cur = stack.back();
    stack.pop_back();
    if (cur->is_object() && !cur->members.empty() && cur->members.front().key == kElidedKey &&
        cur->members.front().value.is_number()) {
      return cur;
    }
    // Push in reverse so the first child is visited first.
    for (auto it = cur->items.rbegin(); it != cur->items.rend(); ++it) stack.push_back(&*it);
    for (auto it = cur->members.rbegin(); it != cur->members.rend(); ++it) {
      stack.push_back(&it->value);
    }
  }
  return nullptr;
}

std::optional<CompressorOutput> compress_json(std::string_view input, std::string_view query) {
  std::optional<json::Value> root = json::parse(input);
  if (!root || contains_marker(*root)) return std::nullopt;
  Transformer t(query, 8 * input.size() + (1u << 20));
  t.transform(*root);
  if (!t.collapsed()) return std::nullopt;  // re-serialisation alone is never claimed
  if (t.elided_bytes() >= kNoteMinElidedBytes) {
    if (json::Value* m = first_marker(*root)) {
      m->add(std::string(kNoteKey), json::Value::string(elision_note("elements")));
    }
  }
  return output_of(json::to_compact(*root), "elision");
}

}  // namespace

std::unique_ptr<Compressor> make_json_compressor() {
  return make_compressor("json", compress_json);
}

}  // namespace caveman::compress
