#include "caveman/base/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace caveman::base {
namespace {

// "<path>.<pid>.<n>.tmp": unique per call, so two threads never share a temporary.
std::string temp_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Best effort: a directory that cannot be opened or synced still has the renamed file.
void sync_parent(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

Status write_file_atomic(const std::string& path, std::string_view bytes, const AtomicWrite& how) {
  auto failed = [&](const std::string& what, int err) {
    return Status::Io(std::string(how.io_code), "cannot write " + what + ": " + std::strerror(err));
  };
  mode_t mode = how.mode;
  struct stat st {};
  if (how.keep_existing_mode && ::stat(path.c_str(), &st) == 0) mode = st.st_mode & 07777;
  const std::string tmp = temp_name(path);
  const int fd = ::open(tmp.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return failed(tmp, errno);
  bool ok = write_all(fd, bytes) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return failed(path, err);
  }
  sync_parent(path);
  return Status::Ok();
}

}  // namespace caveman::base
