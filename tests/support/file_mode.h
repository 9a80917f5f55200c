// The permission bits of a path as tests check them (kept apart from test_support.h so only
// the few tests about file modes include it).
#ifndef CAVEMAN_TESTS_SUPPORT_FILE_MODE_H_
#define CAVEMAN_TESTS_SUPPORT_FILE_MODE_H_

#include <sys/stat.h>

#include <string>

namespace caveman::testing {

// The mode bits (07777) of `path` itself, not following a symlink; 0 when it does not exist.
inline mode_t mode_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

}  // namespace caveman::testing

#endif  // CAVEMAN_TESTS_SUPPORT_FILE_MODE_H_
