#include "caveman/base/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace caveman::base {
namespace {

constexpr mode_t kFileMode = 0600;
constexpr const char* kSidecars[] = {"-wal", "-shm"};

Status unsafe(const FileErrors& e, const std::string& message) {
  return Status::InvalidArgument(std::string(e.unsafe_code), std::string(e.prefix) + message);
}

Status io_error(const FileErrors& e, const std::string& message, int err) {
  return Status::Io(std::string(e.io_code),
                    std::string(e.prefix) + message + ": " + std::strerror(err));
}

// Closes a descriptor on every path out of a function.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

// Resolves `dir` and refuses directories others could plant files in.
Result<std::string> check_parent(const std::string& dir, const FileErrors& e) {
  char resolved[PATH_MAX];
  if (::realpath(dir.c_str(), resolved) == nullptr) {
    int err = errno;
    return io_error(e, "cannot resolve the store directory " + dir, err);
  }
  struct stat st {};
  if (::stat(resolved, &st) != 0) {
    int err = errno;
    return io_error(e, std::string("cannot stat the store directory ") + resolved, err);
  }
  if (!S_ISDIR(st.st_mode)) {
    return unsafe(e, std::string("the store directory ") + resolved + " is not a directory");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
    return unsafe(e, std::string("refusing the store directory ") + resolved +
                  ": it is writable by group or others and not sticky (chmod go-w it, or "
                  "point " + std::string(e.env_hint) + " at a private directory)");
  }
  return std::string(resolved);
}

// What an existing path is, seen through an O_PATH|O_NOFOLLOW descriptor. Such a descriptor
// never opens the file for I/O and, unlike an ordinary one, closing it does not drop the POSIX
// locks SQLite holds on the same file in this process (closing any ordinary descriptor of a
// file releases all of the process's fcntl locks on it, which would let another process
// reinitialise a -shm we still have mapped).
struct Inspected {
  bool exists = false;
  struct stat st {};
};

Result<Inspected> inspect(const std::string& path, Fd* fd_out, const FileErrors& e) {
  Inspected r;
  int fd = ::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return r;
    int err = errno;
    return io_error(e, "cannot inspect " + path, err);
  }
  fd_out->reset(fd);
  if (::fstat(fd, &r.st) != 0) {
    int err = errno;
    return io_error(e, "cannot stat " + path, err);
  }
  r.exists = true;
  if (S_ISLNK(r.st.st_mode)) return unsafe(e, path + " is a symbolic link; refusing to use it");
  if (!S_ISREG(r.st.st_mode)) return unsafe(e, path + " is not a regular file");
  return r;
}

// Tightens the regular file behind an O_PATH descriptor to 0600 (via /proc/self/fd, which
// names exactly the inspected inode; plain chmod of the path when /proc is unavailable).
Status tighten(int fd, const struct stat& st, const std::string& path, const FileErrors& e) {
  if ((st.st_mode & 07777) == kFileMode) return Status::Ok();
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  if (::chmod(proc.c_str(), kFileMode) == 0) return Status::Ok();
  if (errno == ENOENT && ::chmod(path.c_str(), kFileMode) == 0) return Status::Ok();
  int err = errno;
  return io_error(e, "cannot chmod 0600 " + path, err);
}

// An existing sidecar must be a regular non-symlink file; it is chmodded to 0600.
Status secure_sidecars(const std::string& db_path, const FileErrors& e) {
  for (const char* suffix : kSidecars) {
    const std::string path = db_path + suffix;
    Fd fd(-1);
    CAVEMAN_ASSIGN_OR_RETURN(Inspected s, inspect(path, &fd, e));
    if (s.exists) CAVEMAN_RETURN_IF_ERROR(tighten(fd.get(), s.st, path, e));
  }
  return Status::Ok();
}

// Creates the database file with O_EXCL, or validates the existing one.
Result<PrivateFile> open_db_file(const std::string& parent, const std::string& path,
                                 const FileErrors& e) {
  PrivateFile file;
  file.path = path;
  file.parent = parent;
  // Two rounds: a concurrent process may create the file between the check and O_EXCL.
  for (int round = 0; round < 2; ++round) {
    Fd fd(-1);
    CAVEMAN_ASSIGN_OR_RETURN(Inspected s, inspect(path, &fd, e));
    if (!s.exists) {
      // A brand-new inode: no SQLite connection of ours can hold locks on it yet, so an
      // ordinary descriptor is harmless here.
      Fd created(
          ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kFileMode));
      if (created.get() < 0 && errno == EEXIST) continue;
      if (created.get() < 0) {
        int err = errno;
        return io_error(e, "cannot create " + path, err);
      }
      struct stat st {};
      if (::fstat(created.get(), &st) != 0) {
        int err = errno;
        return io_error(e, "cannot stat " + path, err);
      }
      if ((st.st_mode & 07777) != kFileMode && ::fchmod(created.get(), kFileMode) != 0) {
        int err = errno;
        return io_error(e, "cannot chmod 0600 " + path, err);
      }
      file.dev = st.st_dev;
      file.ino = st.st_ino;
      return file;
    }
    // Refuse a file we cannot write rather than silently making it writable.
    if (::faccessat(AT_FDCWD, path.c_str(), R_OK | W_OK, AT_EACCESS) != 0) {
      int err = errno;
      return io_error(e, path + " is not writable", err);
    }
    CAVEMAN_RETURN_IF_ERROR(tighten(fd.get(), s.st, path, e));
    file.dev = s.st.st_dev;
    file.ino = s.st.st_ino;
    return file;
  }
  return Status::Io(std::string(e.io_code),
                    std::string(e.prefix) + path + " keeps appearing and vanishing");
}

}  // namespace

Result<PrivateFile> prepare_private_db_file(std::string_view path, const FileErrors& e) {
  std::string p(path);
  std::size_t slash = p.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : p.substr(0, slash));
  std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") {
    return Status::InvalidArgument(std::string(e.io_code), std::string(e.prefix) + "the store path \"" +
                                                               p + "\" does not name a file");
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::string parent, check_parent(dir, e));
  std::string full = parent == "/" ? "/" + name : parent + "/" + name;
  CAVEMAN_ASSIGN_OR_RETURN(PrivateFile file, open_db_file(parent, full, e));
  CAVEMAN_RETURN_IF_ERROR(secure_sidecars(full, e));
  return file;
}

Status recheck_private_db_file(const PrivateFile& file, const FileErrors& e) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string parent, check_parent(file.parent, e));
  if (parent != file.parent) return unsafe(e, "the store directory " + file.parent + " moved");
  struct stat lst {};
  if (::lstat(file.path.c_str(), &lst) != 0) {
    int err = errno;
    return io_error(e, "the store file " + file.path + " vanished", err);
  }
  if (!S_ISREG(lst.st_mode) || lst.st_dev != file.dev || lst.st_ino != file.ino) {
    return unsafe(e, file.path + " was replaced while it was being opened");
  }
  return secure_sidecars(file.path, e);
}

}  // namespace caveman::base
