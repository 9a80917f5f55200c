// The journal behind every edit caveman makes to an agent's own config file (MCP
// registration today; enable/disable reuse it): the previous bytes are kept beside the marker
// that records the edit, so undoing it puts the file back byte for byte when nothing else
// changed it, and otherwise removes only caveman's own entry (the caller's `rewrite`).
#ifndef CAVEMAN_CLI_CONFIG_JOURNAL_H_
#define CAVEMAN_CLI_CONFIG_JOURNAL_H_

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::cli {

struct FileJournal {
  std::string path;                       // the agent's config file
  std::string backup;                     // where the previous bytes are kept
  bool existed = false;                   // the file existed before the edit
  std::string after_hash;                 // content_hash of the bytes caveman wrote
  std::vector<std::string> created_dirs;  // directories the edit created, outermost first
};

std::optional<std::string> read_file_bytes(const std::string& path);
std::string content_hash(std::string_view bytes);  // "fnv1a64:<hex>:<size>"
// Atomic (temp + rename); keeps the mode of an existing file, else 0600.
Status write_file_atomic(const std::string& path, const std::string& bytes);

// Writes `bytes` to `path`: the previous bytes (if any) go to `backup` first, missing parent
// directories are created (0700) and recorded. Errors: codes::kConfigNotWritable.
Result<FileJournal> journaled_write(const std::string& path, const std::string& bytes,
                                    const std::string& backup);

// Returns the rewritten bytes for a file that changed since the edit (only caveman's entry
// removed), or an error to leave it alone.
using Rewrite = std::function<Result<std::string>(const std::string& current)>;
enum class UndoResult { kRestored, kRewritten, kGone };
// Undoes the edit: the file as caveman left it → the previous bytes (or no file, and the
// created directories removed when empty); changed since → `rewrite(current)`; missing →
// kGone. The backup is removed once the file is dealt with.
Result<UndoResult> journaled_undo(const FileJournal& journal, const Rewrite& rewrite);

nlohmann::ordered_json journal_to_json(const FileJournal& journal);
std::optional<FileJournal> journal_from_json(const nlohmann::json& doc);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_CONFIG_JOURNAL_H_
