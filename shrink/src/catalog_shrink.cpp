#include "catalog_shrink.h"

#include <utility>

#include "caveman/base/codes.h"
#include "report_json.h"

namespace caveman::shrink {

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

  toolschema::CatalogShrink shrunk = toolschema::shrink_catalog(input);
  run.report.shape = shrunk.shape;
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
    return pass_through(std::string(codes::kCcrUnavailable) + ": " + std::string(store_error),
                        true);
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
