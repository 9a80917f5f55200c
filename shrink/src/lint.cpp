#include "lint.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "catalog_shrink.h"
#include "json_doc.h"
#include "report_json.h"

namespace caveman::shrink {
namespace {

bool is_client_only_tool_member(std::string_view key) {
  for (std::string_view k : {"title", "annotations", "outputSchema", "output_schema", "execution",
                             "icons", "_meta"}) {
    if (key == k) return true;
  }
  return false;
}

bool is_client_only_schema_member(const JsonMember& m) {
  for (std::string_view k : {"$schema", "title", "examples", "example", "$comment"}) {
    if (m.key == k) return true;
  }
  return m.key == "additionalProperties" && m.value.is_bool() && !m.value.boolean;
}

std::int64_t member_tokens(const JsonMember& m, const tokens::Counter& counter) {
  std::string text;
  append_json_string(m.key, text);
  text.push_back(':');
  append_json(m.value, text);
  return static_cast<std::int64_t>(counter.count(text));
}

// Walks a schema: description tokens (and the longest one), client-only keyword tokens.
void walk_schema(const JsonValue& v, std::string_view param, const tokens::Counter& counter,
                 LintRow& row) {
  if (v.is_array()) {
    for (const JsonValue& item : v.items) walk_schema(item, param, counter, row);
    return;
  }
  if (!v.is_object()) return;
  for (const JsonMember& m : v.members) {
    if (m.key == "description" && m.value.is_string()) {
      auto t = static_cast<std::int64_t>(counter.count(m.value.text));
      row.description_tokens += t;
      if (t > row.longest_description_tokens) {
        row.longest_description_tokens = t;
        row.longest_description = std::string(param);
      }
    } else if (is_client_only_schema_member(m)) {
      row.client_only_tokens += member_tokens(m, counter);
    } else if (m.key == "properties" && m.value.is_object()) {
      for (const JsonMember& p : m.value.members) walk_schema(p.value, p.key, counter, row);
    } else if (m.key != "enum" && m.key != "const" && m.key != "default") {
      walk_schema(m.value, param, counter, row);
    }
  }
}

void analyse_tool(const JsonValue& envelope, const tokens::Counter& counter, LintRow& row) {
  for (const JsonValue* holder : {&envelope, envelope.find("function")}) {
    if (holder == nullptr || !holder->is_object()) continue;
    for (const JsonMember& m : holder->members) {
      if (is_client_only_tool_member(m.key)) {
        row.client_only_tokens += member_tokens(m, counter);
      } else if (m.key == "description" && m.value.is_string()) {
        auto t = static_cast<std::int64_t>(counter.count(m.value.text));
        row.description_tokens += t;
        if (t > row.longest_description_tokens) {
          row.longest_description_tokens = t;
          row.longest_description.clear();
        }
      } else if (m.key == "inputSchema" || m.key == "input_schema" || m.key == "parameters") {
        walk_schema(m.value, {}, counter, row);
      }
    }
  }
}

double ratio(std::int64_t before, std::int64_t after) {
  return before > 0 ? static_cast<double>(before - after) / static_cast<double>(before) : 0.0;
}

std::vector<const LintRow*> worst(const std::vector<LintRow>& rows) {
  std::vector<const LintRow*> order;
  for (const LintRow& r : rows) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(),
                   [](const LintRow* a, const LintRow* b) { return a->before > b->before; });
  if (order.size() > kWorstOffenders) order.resize(kWorstOffenders);
  return order;
}

std::string format_row(std::string_view name, std::int64_t before, std::int64_t after) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-28s %10lld %10lld %7.1f%%", std::string(name).c_str(),
                static_cast<long long>(before), static_cast<long long>(after),
                100.0 * ratio(before, after));
  return buf;
}

}  // namespace

LintReport lint_catalog(std::string_view input, const tokens::Counter& counter) {
  LintReport report;
  CatalogShrink shrunk = shrink_catalog(input);
  if (!shrunk.shrunk) {
    report.note = shrunk.note;
    return report;
  }
  report.catalog = true;
  report.total_before = static_cast<std::int64_t>(counter.count(input));
  report.total_after = static_cast<std::int64_t>(counter.count(shrunk.output));
  for (const ShrunkTool& tool : shrunk.tools) {
    LintRow row;
    row.name = tool.name;
    row.before = static_cast<std::int64_t>(counter.count(tool.before_json));
    row.after = static_cast<std::int64_t>(counter.count(tool.after_json));
    if (std::optional<JsonValue> envelope = parse_json(tool.before_json)) {
      analyse_tool(*envelope, counter, row);
    }
    report.rows.push_back(std::move(row));
  }
  return report;
}

std::string LintReport::table() const {
  std::string out;
  char header[160];
  std::snprintf(header, sizeof header, "%-28s %10s %10s %8s\n", "TOOL", "BEFORE", "AFTER",
                "RATIO");
  out += header;
  for (const LintRow& r : rows) out += format_row(r.name, r.before, r.after) + "\n";
  out += format_row("TOTAL", total_before, total_after) + " (basis: inferred)\n";
  out += "\nworst offenders (tokens before shrinking):\n";
  int rank = 0;
  for (const LintRow* r : worst(rows)) {
    char line[400];
    std::string longest = r->longest_description.empty() ? std::string("tool description")
                                                         : "`" + r->longest_description + "`";
    std::snprintf(line, sizeof line,
                  "  %d. %s: %lld tokens; descriptions %lld (longest: %s, %lld), "
                  "client-only metadata %lld\n",
                  ++rank, r->name.c_str(), static_cast<long long>(r->before),
                  static_cast<long long>(r->description_tokens), longest.c_str(),
                  static_cast<long long>(r->longest_description_tokens),
                  static_cast<long long>(r->client_only_tokens));
    out += line;
  }
  return out;
}

std::string LintReport::to_json() const {
  std::string tools = "[";
  for (const LintRow& r : rows) {
    if (tools.size() > 1) tools.push_back(',');
    tools += ReportWriter()
                 .string("name", r.name)
                 .integer("before", r.before)
                 .integer("after", r.after)
                 .number("ratio", ratio(r.before, r.after))
                 .integer("description_tokens", r.description_tokens)
                 .integer("client_only_tokens", r.client_only_tokens)
                 .finish();
  }
  tools.push_back(']');
  std::string worst_names = "[";
  for (const LintRow* r : worst(rows)) {
    if (worst_names.size() > 1) worst_names.push_back(',');
    append_json_string(r->name, worst_names);
  }
  worst_names.push_back(']');
  std::string total = ReportWriter()
                          .integer("before", total_before)
                          .integer("after", total_after)
                          .number("ratio", ratio(total_before, total_after))
                          .finish();
  return ReportWriter()
      .raw("tools", tools)
      .raw("total", total)
      .raw("worst", worst_names)
      .string("basis", "inferred")
      .finish();
}

}  // namespace caveman::shrink
