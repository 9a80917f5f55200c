#include "enable_state.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

Json applied_to_json(const AppliedEdit& a) {
  Json entries = Json::array();
  for (const auto& e : a.entries) entries.push_back(entry_to_json(e));
  return {{"journal", journal_to_json(a.journal)}, {"entries", entries}};
}

std::optional<AppliedEdit> applied_from_json(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("journal") || !doc.contains("entries")) return std::nullopt;
  auto journal = journal_from_json(doc["journal"]);
  if (!journal || !doc["entries"].is_array()) return std::nullopt;
  AppliedEdit a{*journal, {}};
  for (const auto& e : doc["entries"]) {
    auto entry = entry_from_json(e);
    if (!entry) return std::nullopt;
    a.entries.push_back(*entry);
  }
  return a;
}

// The file's bytes with `entries` added in order.
Result<std::string> with_entries(std::string text, const std::vector<ConfigEntry>& entries) {
  for (const auto& e : entries) {
    CAVEMAN_ASSIGN_OR_RETURN(text, add_entry(text, e));
  }
  return text;
}

Rewrite remove_all(const std::vector<ConfigEntry>& entries) {
  return [entries](const std::string& current) -> Result<std::string> {
    std::string text = current;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
      CAVEMAN_ASSIGN_OR_RETURN(text, remove_entry(text, *it));
    }
    return text;
  };
}

}  // namespace

std::string enable_marker_path(const std::string& home, const std::string& agent) {
  return home + "/enable/" + agent + ".json";
}

std::optional<EnableMarker> read_enable_marker(const std::string& home, const std::string& agent) {
  auto text = read_file_bytes(enable_marker_path(home, agent));
  if (!text) return std::nullopt;
  auto doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("files") || !doc["files"].is_array()) {
    return std::nullopt;
  }
  EnableMarker m;
  m.agent = doc.value("agent", agent);
  m.base_url = doc.value("base_url", "");
  m.listen = doc.value("listen", "");
  m.caveman = doc.value("caveman", "");
  m.mcp_by_enable = doc.value("mcp_by_enable", false);
  m.hooks = doc.value("hooks", false);
  for (const auto& f : doc["files"]) {
    auto applied = applied_from_json(f);
    if (!applied) return std::nullopt;
    m.files.push_back(*applied);
  }
  return m;
}

Status write_enable_marker(const std::string& home, const EnableMarker& marker) {
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(home + "/enable", codes::kHomeNotWritable));
  Json files = Json::array();
  for (const auto& f : marker.files) files.push_back(applied_to_json(f));
  Json doc = {{"agent", marker.agent},         {"base_url", marker.base_url},
              {"listen", marker.listen},       {"caveman", marker.caveman},
              {"mcp_by_enable", marker.mcp_by_enable},
              {"hooks", marker.hooks},         {"files", files}};
  return base::write_file_atomic(enable_marker_path(home, marker.agent), doc.dump(2) + "\n",
                                 {.io_code = codes::kHomeNotWritable});
}

Status remove_enable_marker(const std::string& home, const std::string& agent) {
  std::string path = enable_marker_path(home, agent);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Status::Io(codes::kHomeNotWritable, path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

Result<std::vector<AppliedEdit>> apply_edits(const std::string& home, const std::string& agent,
                                             const std::vector<FileEdit>& edits) {
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(home + "/enable", codes::kHomeNotWritable));
  // Every file's new bytes first, so a refused entry leaves every file untouched.
  std::vector<std::string> afters;
  for (const auto& e : edits) {
    std::string before = read_file_bytes(e.path).value_or(e.new_file_text);
    auto after = with_entries(before, e.entries);
    if (!after.ok()) {
      // Every add_entry error is an argument error; name the file in it.
      return Status::InvalidArgument(after.status().error_code(),
                                     e.path + ": " + after.status().message());
    }
    afters.push_back(*after);
  }
  std::vector<AppliedEdit> applied;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    std::string backup = home + "/enable/" + agent + "." + std::to_string(i) + ".prev";
    auto journal = journaled_write(edits[i].path, afters[i], backup);
    if (!journal.ok()) {
      (void)undo_edits(applied);
      return journal.status();
    }
    applied.push_back({*journal, edits[i].entries});
  }
  return applied;
}

UndoReport undo_edits(const std::vector<AppliedEdit>& edits) {
  UndoReport report;
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
    const std::string& path = it->journal.path;
    auto undone = journaled_undo(it->journal, remove_all(it->entries));
    if (!undone.ok()) {
      report.lines.push_back(path + ": left alone (" + undone.status().ToString() + ")");
      if (report.status.ok()) report.status = undone.status();
      continue;
    }
    switch (*undone) {
      case UndoResult::kRestored:
        report.lines.push_back(path + ": restored to its bytes before enable");
        break;
      case UndoResult::kRewritten:
        report.lines.push_back(path + ": changed since enable; removed only caveman's entries");
        break;
      case UndoResult::kGone:
        report.lines.push_back(path + ": no longer exists");
        break;
    }
  }
  return report;
}

}  // namespace caveman::cli
