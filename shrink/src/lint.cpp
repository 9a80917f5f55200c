#include "lint.h"

#include <algorithm>
#include <cstdio>

#include "caveman/base/text.h"
#include "caveman/toolschema.h"
#include "report_json.h"

namespace caveman::shrink {
namespace {

// Description and client-only tokens of one tool before shrinking, and its longest
// description (the parameter it documents; "" for the tool's own).
void add_costs(const toolschema::ShrunkTool& tool, const tokens::Counter& counter, LintRow& row) {
  for (const auto& [param, text] : tool.descriptions) {
    auto t = static_cast<std::int64_t>(counter.count(text));
    row.description_tokens += t;
    if (t > row.longest_description_tokens) {
      row.longest_description_tokens = t;
      row.longest_description = param;
    }
  }
  for (const std::string& member : tool.client_only) {
    row.client_only_tokens += static_cast<std::int64_t>(counter.count(member));
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
  toolschema::CatalogShrink shrunk = toolschema::shrink_catalog(input);
  if (!shrunk.shrunk) {
    report.note = shrunk.note;
    return report;
  }
  report.catalog = true;
  report.total_before = static_cast<std::int64_t>(counter.count(input));
  report.total_after = static_cast<std::int64_t>(counter.count(shrunk.output));
  for (const toolschema::ShrunkTool& tool : shrunk.tools) {
    LintRow row;
    row.name = tool.name;
    row.before = static_cast<std::int64_t>(counter.count(tool.before_json));
    row.after = static_cast<std::int64_t>(counter.count(tool.after_json));
    add_costs(tool, counter, row);
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
    base::append_json_string(r->name, worst_names);
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
