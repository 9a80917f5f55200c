#include "caveman/base/paths.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "caveman/base/codes.h"

namespace caveman::base {
namespace {

Status dir_error(std::string_view io_code, std::string_view prefix, const std::string& what) {
  return Status::Io(std::string(io_code), std::string(prefix) + what);
}

}  // namespace

std::optional<std::string> caveman_home(const EnvLookup& env) {
  std::string home;
  if (auto h = env("CAVEMAN_HOME")) {
    home = *h;
  } else if (auto user = env("HOME")) {
    home = *user + "/.caveman";
  } else {
    return std::nullopt;
  }
  while (home.size() > 1 && home.back() == '/') home.pop_back();
  return home;
}

Result<std::string> ensure_caveman_home(const EnvLookup& env, std::string_view io_code,
                                        std::string_view prefix) {
  std::optional<std::string> home = caveman_home(env);
  if (!home) return Status::Unavailable(codes::kNoHome, "neither CAVEMAN_HOME nor HOME is set");
  CAVEMAN_RETURN_IF_ERROR(make_private_dirs(*home, io_code, prefix));
  return *home;
}

Status make_private_dirs(const std::string& dir, std::string_view io_code, std::string_view prefix,
                         bool tighten) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return dir_error(io_code, prefix, dir + " is not a directory");
    if (tighten && (st.st_mode & 0077) != 0 && ::chmod(dir.c_str(), 0700) != 0) {
      return dir_error(io_code, prefix,
                       "cannot restrict " + dir + " to 0700: " + std::strerror(errno));
    }
    return Status::Ok();
  }
  const std::size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0) {
    CAVEMAN_RETURN_IF_ERROR(make_private_dirs(dir.substr(0, slash), io_code, prefix));
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return dir_error(io_code, prefix, "cannot create " + dir + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

}  // namespace caveman::base
