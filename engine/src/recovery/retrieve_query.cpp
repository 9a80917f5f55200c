#include "recovery/retrieve_query.h"

#include <algorithm>
#include <optional>

#include "compress/tabular/table_parse.h"
#include "core/wrappers.h"
#include "json/json.h"
#include "text/bm25.h"
#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::recovery {
namespace {

std::size_t offset_of(std::string_view part, std::string_view whole) {
  return static_cast<std::size_t>(part.data() - whole.data());
}

// Record groups: every non-empty array whose elements are all objects, found walking
// members in their written order (this project keeps key order) and arrays in order. A
// group's elements are not descended into: a record is shown whole or not at all.
void collect_groups(const json::Value& v, std::vector<std::vector<const json::Value*>>& groups) {
  if (v.is_object()) {
    for (const json::Member& m : v.members) collect_groups(m.value, groups);
    return;
  }
  if (!v.is_array() || v.items.empty()) return;
  bool all_objects = std::all_of(v.items.begin(), v.items.end(),
                                 [](const json::Value& e) { return e.is_object(); });
  if (!all_objects) {
    for (const json::Value& e : v.items) collect_groups(e, groups);
    return;
  }
  std::vector<const json::Value*> group;
  group.reserve(v.items.size());
  for (const json::Value& e : v.items) group.push_back(&e);
  groups.push_back(std::move(group));
}

// [""] + group1 + [""] + group2 + … + [""]: the empty separators never score, so records of
// different groups are never shown as adjacent.
Decomposition json_records(const json::Value& root) {
  std::vector<std::vector<const json::Value*>> groups;
  collect_groups(root, groups);
  Decomposition d;
  if (groups.empty()) return d;
  d.kind = UnitKind::kJsonRecords;
  d.units.emplace_back();
  for (const auto& group : groups) {
    for (const json::Value* record : group) d.units.push_back(Unit{json::to_indented(*record)});
    d.units.emplace_back();
  }
  return d;
}

bool looks_like_json(std::string_view s) {
  std::string_view t = text::trim_space(s);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

// Every non-blank line is a JSON value on its own (NDJSON / JSON-lines logs).
std::optional<Decomposition> ndjson_lines(std::string_view s) {
  Decomposition d;
  d.kind = UnitKind::kNdjsonLines;
  for (std::string_view line : text::split_all(s, '\n')) {
    std::string_view t = text::trim_space(line);
    if (t.empty()) continue;
    if (!json::is_valid(t)) return std::nullopt;
    std::size_t b = offset_of(t, s);
    d.units.push_back(Unit{std::string(t), b, b + t.size()});
  }
  return d;
}

std::optional<Decomposition> table_rows(std::string_view s) {
  if (looks_like_json(s)) return std::nullopt;
  std::optional<compress::Table> table = compress::parse_table(s);
  if (!table) return std::nullopt;
  const std::size_t header_rows = table->header_rows();
  if (table->width < 2 || table->rows.size() < header_rows + 2) return std::nullopt;
  Decomposition d;
  d.kind = UnitKind::kTableRows;
  for (std::size_t r = 0; r < header_rows; ++r) {
    auto [b, e] = table->spans[r];
    if (r > 0) d.prelude.push_back('\n');
    d.prelude.append(text::trim_space(s.substr(b, e - b)));
  }
  for (std::size_t r = header_rows; r < table->spans.size(); ++r) {
    auto [b, e] = table->spans[r];
    std::string_view row = s.substr(b, e - b);
    while (!row.empty() && (row.back() == '\r' || row.back() == '\n')) row.remove_suffix(1);
    d.units.push_back(Unit{std::string(row), b, b + row.size()});
  }
  return d;
}

Decomposition sections(std::string_view s) {
  Decomposition d;
  d.kind = UnitKind::kSections;
  const bool paragraphs = s.find("\n\n") != std::string_view::npos;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t next = paragraphs ? s.find("\n\n", pos) : s.find('\n', pos);
    if (next == std::string_view::npos) next = s.size();
    std::string_view part = text::trim_space(s.substr(pos, next - pos));
    if (!part.empty()) {
      std::size_t b = offset_of(part, s);
      d.units.push_back(Unit{std::string(part), b, b + part.size()});
    }
    pos = next + (paragraphs ? 2 : 1);
  }
  return d;
}

}  // namespace

Decomposition decompose(std::string_view original) {
  Decomposition d;
  if (looks_like_json(original)) {
    if (std::optional<json::Value> root = json::parse(original)) {
      d = json_records(*root);
    } else if (std::optional<Decomposition> lines = ndjson_lines(original)) {
      d = std::move(*lines);
    }
    // JSON that does not parse is never line-split: a field line is a fragment.
  } else if (std::optional<Decomposition> rows = table_rows(original)) {
    d = std::move(*rows);
  } else {
    // A Read-tool gutter or <file> wrapper around JSON: records come from the body.
    core::Unwrapped u = core::unwrap_input(original);
    if (!u.layers.empty() && looks_like_json(u.body)) {
      if (std::optional<json::Value> root = json::parse(u.body)) return json_records(*root);
      return Decomposition{};
    }
    d = sections(original);
  }
  std::size_t real_units = 0;
  for (const Unit& unit : d.units) real_units += unit.text.empty() ? 0 : 1;
  if (real_units < 2 && d.kind != UnitKind::kJsonRecords) return Decomposition{};
  return d;
}

std::vector<std::size_t> select_units(const Decomposition& d, std::string_view query) {
  std::vector<std::string_view> docs;
  docs.reserve(d.units.size());
  for (const Unit& u : d.units) docs.emplace_back(u.text);
  std::vector<double> scores = text::bm25_scores(docs, query);
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] > 0 && !d.units[i].text.empty()) picked.push_back(i);
  }
  std::stable_sort(picked.begin(), picked.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  if (picked.size() > kMaxUnits) picked.resize(kMaxUnits);
  std::sort(picked.begin(), picked.end());
  return picked;
}

std::string render_view(const Decomposition& d, const std::vector<std::size_t>& selected) {
  std::string out;
  if (!d.prelude.empty()) {
    out += d.prelude;
    out.push_back('\n');
  }
  if (selected.empty()) return out;
  if (selected.front() > 0) {
    out += kGapSentinel;
    out += "\n\n";
  }
  for (std::size_t k = 0; k < selected.size(); ++k) {
    if (k > 0) {
      out += "\n\n";
      if (selected[k] != selected[k - 1] + 1) {
        out += kGapSentinel;
        out += "\n\n";
      }
    }
    out += d.units[selected[k]].text;
  }
  if (selected.back() + 1 < d.units.size()) {
    out += "\n\n";
    out += kGapSentinel;
  }
  return out;
}

std::string narrow_to_query(std::string_view original, std::string_view query) {
  if (text::trim_space(query).empty()) return std::string(original);
  Decomposition d = decompose(original);
  if (d.units.empty()) return std::string(original);
  std::vector<std::size_t> selected = select_units(d, query);
  if (selected.empty()) return std::string(original);
  std::string view = render_view(d, selected);
  if (view.size() >= original.size()) return std::string(original);
  return view;
}

}  // namespace caveman::recovery
