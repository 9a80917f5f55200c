#include "config_journal.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"

namespace caveman::cli {
namespace {

Status io_error(const std::string& path, int e) {
  return Status::Io(codes::kConfigNotWritable, path + ": " + std::strerror(e));
}

std::string parent_dir(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? std::string() : path.substr(0, slash);
}

bool is_dir(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Creates the missing parents of `path`; returns the ones it made, outermost first.
Result<std::vector<std::string>> make_parents(const std::string& path) {
  std::vector<std::string> missing;
  for (std::string d = parent_dir(path); !d.empty() && !is_dir(d); d = parent_dir(d)) {
    missing.insert(missing.begin(), d);
  }
  for (const auto& d : missing) {
    if (::mkdir(d.c_str(), 0700) != 0 && errno != EEXIST) return io_error(d, errno);
  }
  return missing;
}

}  // namespace

std::optional<std::string> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string content_hash(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string("fnv1a64:") + buf + ":" + std::to_string(bytes.size());
}

Status write_file_atomic(const std::string& path, const std::string& bytes) {
  return base::write_file_atomic(
      path, bytes, {.io_code = codes::kConfigNotWritable, .keep_existing_mode = true});
}

Result<FileJournal> journaled_write(const std::string& path, const std::string& bytes,
                                    const std::string& backup) {
  FileJournal j;
  j.path = path;
  j.backup = backup;
  auto previous = read_file_bytes(path);
  j.existed = previous.has_value();
  if (previous) {
    if (Status s = write_file_atomic(backup, *previous); !s.ok()) return s;
  }
  CAVEMAN_ASSIGN_OR_RETURN(j.created_dirs, make_parents(path));
  if (Status s = write_file_atomic(path, bytes); !s.ok()) {
    ::unlink(backup.c_str());
    return s;
  }
  j.after_hash = content_hash(bytes);
  return j;
}

Result<UndoResult> journaled_undo(const FileJournal& j, const Rewrite& rewrite) {
  auto current = read_file_bytes(j.path);
  UndoResult result = UndoResult::kGone;
  if (current && content_hash(*current) == j.after_hash) {
    if (j.existed) {
      auto previous = read_file_bytes(j.backup);
      if (!previous) return Status::NotFound(codes::kJournalMissing, j.backup + ": no backup");
      if (Status s = write_file_atomic(j.path, *previous); !s.ok()) return s;
    } else {
      if (::unlink(j.path.c_str()) != 0 && errno != ENOENT) return io_error(j.path, errno);
      for (auto d = j.created_dirs.rbegin(); d != j.created_dirs.rend(); ++d) ::rmdir(d->c_str());
    }
    result = UndoResult::kRestored;
  } else if (current) {
    CAVEMAN_ASSIGN_OR_RETURN(std::string rewritten, rewrite(*current));
    if (Status s = write_file_atomic(j.path, rewritten); !s.ok()) return s;
    result = UndoResult::kRewritten;
  }
  ::unlink(j.backup.c_str());
  return result;
}

nlohmann::ordered_json journal_to_json(const FileJournal& j) {
  nlohmann::ordered_json doc;
  doc["path"] = j.path;
  doc["backup"] = j.backup;
  doc["existed"] = j.existed;
  doc["after_hash"] = j.after_hash;
  doc["created_dirs"] = j.created_dirs;
  return doc;
}

std::optional<FileJournal> journal_from_json(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("path") || !doc["path"].is_string()) return std::nullopt;
  FileJournal j;
  j.path = doc["path"].get<std::string>();
  j.backup = doc.value("backup", std::string());
  j.existed = doc.value("existed", false);
  j.after_hash = doc.value("after_hash", std::string());
  if (doc.contains("created_dirs") && doc["created_dirs"].is_array()) {
    for (const auto& d : doc["created_dirs"]) {
      if (d.is_string()) j.created_dirs.push_back(d.get<std::string>());
    }
  }
  return j;
}

}  // namespace caveman::cli
