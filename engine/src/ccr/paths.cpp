#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>

#include "caveman/ccr.h"

namespace caveman::ccr {

Result<std::string> resolve_store_path(OpenOptions* options) {
  if (const char* max = std::getenv("CAVEMAN_CCR_MAX_BYTES"); max != nullptr) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(max, &end, 10);
    if (*max == '\0' || *end != '\0' || errno != 0 || v <= 0) {
      return Status::InvalidArgument("cave_invalid_config",
                                     "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
    }
    options->max_bytes = v;
  }
  if (const char* db = std::getenv("CAVEMAN_CCR_DB"); db != nullptr && *db != '\0') {
    return std::string(db);
  }
  std::string home;
  if (const char* h = std::getenv("CAVEMAN_HOME"); h != nullptr && *h != '\0') {
    home = h;
  } else if (const char* user_home = std::getenv("HOME"); user_home != nullptr && *user_home) {
    home = std::string(user_home) + "/.caveman";
  } else {
    return Status::Unavailable("cave_no_home", "neither CAVEMAN_HOME nor HOME is set");
  }
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Io("cave_ccr_unavailable", "cannot create " + home + ": " + std::strerror(errno));
  }
  return home + "/ccr.db";
}

}  // namespace caveman::ccr
