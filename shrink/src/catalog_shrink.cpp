#include "catalog_shrink.h"

#include <optional>
#include <utility>

#include "catalog_profile.h"
#include "json_doc.h"
#include "report_json.h"
#include "schema_shrink.h"

namespace caveman::shrink {
namespace {

std::string dialect_of(const Catalog& catalog) {
  std::string dialect;
  for (const ToolRef& t : catalog.tools) {
    if (dialect.empty()) {
      dialect = t.dialect;
    } else if (dialect != t.dialect) {
      return "mixed";
    }
  }
  return dialect;
}

bool ends_with_newline(std::string_view s) { return !s.empty() && s.back() == '\n'; }

}  // namespace

CatalogShrink shrink_catalog(std::string_view input) {
  CatalogShrink out;
  std::optional<JsonValue> doc = parse_json(input);
  if (!doc) {
    out.note = "cave_invalid_catalog: input is not valid JSON";
    return out;
  }
  JsonValue original = *doc;
  Catalog before = find_catalog(original);
  Catalog after = find_catalog(*doc);
  if (after.shape == CatalogShape::kNone) {
    out.note = "cave_invalid_catalog: no tool with a non-empty name";
    return out;
  }
  out.shape = after.shape;
  out.dialect = dialect_of(after);

  ShrinkContext context;
  for (const ToolRef& tool : after.tools) shrink_tool(tool, context);

  std::string why;
  if (!profile_preserved(profile_catalog(before), profile_catalog(after), &why)) {
    out.note = "cave_internal_error: shrinking would lose " + why;  // a bug guard
    return out;
  }
  for (std::size_t i = 0; i < after.tools.size(); ++i) {
    out.tools.push_back(ShrunkTool{after.tools[i].name, to_json(*before.tools[i].envelope),
                                   to_json(*after.tools[i].envelope)});
  }
  out.output = to_json(*doc);
  if (ends_with_newline(input)) out.output.push_back('\n');
  out.shrunk = true;
  return out;
}

std::string CatalogReport::to_json() const {
  ReportWriter w;
  w.integer("tokens_before", tokens_before);
  w.integer("tokens_after", tokens_after);
  w.number("ratio", ratio);
  w.string("basis", "inferred");
  w.string("content_type", "toolschema");
  w.string("shape", shape);
  if (!dialect.empty()) w.string("dialect", dialect);
  w.integer("tools", static_cast<std::int64_t>(tools));
  if (!recovery_handle.empty()) w.string("recovery_handle", recovery_handle);
  if (!note.empty()) w.string("note", note);
  return w.finish();
}

CatalogRun run_catalog_shrink(std::string_view input, ccr::Store* store,
                              std::string_view store_error, const tokens::Counter& counter) {
  CatalogRun run;
  run.output = std::string(input);
  auto before = static_cast<std::int64_t>(counter.count(input));
  run.report.tokens_before = before;
  run.report.tokens_after = before;
  run.report.shape = std::string(shape_name(CatalogShape::kNone));

  CatalogShrink shrunk = shrink_catalog(input);
  run.report.shape = std::string(shape_name(shrunk.shape));
  run.report.dialect = shrunk.dialect;
  run.report.tools = shrunk.tools.size();
  auto pass_through = [&](std::string reason, bool warn) {
    run.report.note = "passed through: " + reason;
    if (warn) run.warning = "caveman-shrink: warning: " + reason + "; passed through unchanged";
    return std::move(run);
  };
  if (!shrunk.shrunk) return pass_through(shrunk.note, true);

  auto after = static_cast<std::int64_t>(counter.count(shrunk.output));
  if (after >= before) return pass_through("not smaller", false);
  if (store == nullptr) {
    return pass_through("cave_ccr_unavailable: " + std::string(store_error), true);
  }
  ccr::Record record;
  record.content_type = "toolschema";
  record.compressor = "caveman-shrink";
  record.tokens_before = before;
  record.tokens_after = after;
  record.original = std::string(input);
  Result<std::string> handle = store->put(record);
  if (!handle.ok()) return pass_through(handle.status().ToString(), true);

  run.output = std::move(shrunk.output);
  run.report.tokens_after = after;
  run.report.ratio = static_cast<double>(before - after) / static_cast<double>(before);
  run.report.recovery_handle = handle.value();
  return run;
}

}  // namespace caveman::shrink
