// Store location for the CLIs (ENGINE.md §7.1, DESIGN.md §6) and the CAVEMAN_CCR_MAX_BYTES
// budget override.
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "caveman/ccr.h"

namespace caveman::ccr {
namespace {

// Positive decimal integer, digits only (no sign, spaces or suffix); nullopt otherwise.
std::optional<std::int64_t> parse_positive(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;  // 18 digits cannot overflow int64
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v <= 0) return std::nullopt;
  return v;
}

// mkdir -p with mode 0700 for every directory it creates; existing ones are left as they are.
Status make_home(const std::string& home) {
  struct stat st {};
  if (::stat(home.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::Ok();
    return Status::Io("cave_ccr_unavailable", "ccr: " + home + " exists and is not a directory");
  }
  std::size_t slash = home.find_last_of('/');
  if (slash != std::string::npos && slash > 0) {
    CAVEMAN_RETURN_IF_ERROR(make_home(home.substr(0, slash)));
  }
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) {
    int err = errno;
    return Status::Io("cave_ccr_unavailable",
                      "ccr: cannot create " + home + ": " + std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> resolve_store_path(OpenOptions* options) {
  if (const char* max = std::getenv("CAVEMAN_CCR_MAX_BYTES"); max != nullptr && *max != '\0') {
    std::optional<std::int64_t> v = parse_positive(max);
    if (!v) {
      return Status::InvalidArgument("cave_invalid_config",
                                     "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
    }
    options->max_bytes = *v;
  }
  if (const char* db = std::getenv("CAVEMAN_CCR_DB"); db != nullptr && *db != '\0') {
    return std::string(db);  // an explicit file: no home directory is created
  }
  std::string home;
  if (const char* h = std::getenv("CAVEMAN_HOME"); h != nullptr && *h != '\0') {
    home = h;
  } else if (const char* user_home = std::getenv("HOME"); user_home != nullptr && *user_home) {
    home = std::string(user_home) + "/.caveman";
  } else {
    return Status::Unavailable("cave_no_home", "neither CAVEMAN_HOME nor HOME is set");
  }
  while (home.size() > 1 && home.back() == '/') home.pop_back();
  CAVEMAN_RETURN_IF_ERROR(make_home(home));
  return home + "/ccr.db";
}

}  // namespace caveman::ccr
