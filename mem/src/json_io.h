// json_io.h — the JSON shapes cavemem prints (CLI and MCP share them) and the JSONL lines of
// export/import. Objects keep a fixed key order; absent optional fields are null. Pure
// functions; parsing never throws (kInvalidArgument / codes::kInvalidImport with the line).
#ifndef CAVEMAN_MEM_JSON_IO_H_
#define CAVEMAN_MEM_JSON_IO_H_

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "recall.h"
#include "store.h"

namespace caveman::mem {

using Json = nlohmann::ordered_json;

// {id, text, created_at, valid_from, valid_until, supersedes, superseded_by, project, tags,
//  current}
Json memory_json(const Memory& m);
// {id, text, score, tokens_added, basis, recovery_handle, truncated, created_at, project, tags}
// (+ error when set). score is rounded to 4 decimals.
Json hit_json(const RecallHit& h);
// {hits, token_budget, tokens_used, candidates, basis}
Json recall_json(const RecallResult& r);
Json stats_json(const StoreStats& s, std::string_view dir);

// One export line: memory_json without `current`, compact, no newline. Invalid UTF-8 (only
// possible in rows migrated from an old database) is replaced by U+FFFD.
std::string export_line(const Memory& m);
// Parses one import line (the export_line shape; `id`, timestamps and `current` optional).
Result<ImportRow> parse_import_line(std::string_view line, int line_no);

// 2-space indented JSON plus a newline, never throwing on invalid UTF-8.
std::string pretty(const Json& j);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_JSON_IO_H_
