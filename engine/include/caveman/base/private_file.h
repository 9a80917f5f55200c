// caveman/base/private_file.h — the rules for a private database file (docs/base.md), applied
// before SQLite opens it and again afterwards: the parent directory resolves to an absolute
// symlink-free path, is a directory, and is not writable by group/others unless sticky; the
// file is a regular, non-symlink file, created with O_EXCL and mode 0600, or an existing one we
// can write that is tightened to 0600 (a failed chmod is an error, never ignored); existing
// -wal/-shm sidecars are tightened the same way. Existing files are only inspected through
// O_PATH descriptors, so checking never drops the fcntl locks of SQLite connections to the same
// file in this process. Linux/POSIX only; safe from any thread. Refused locations are
// kInvalidArgument with the caller's `unsafe_code`; everything the filesystem itself refuses
// (missing directory, permission denied, failed chmod) is kIo with its `io_code`.
#ifndef CAVEMAN_BASE_PRIVATE_FILE_H_
#define CAVEMAN_BASE_PRIVATE_FILE_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::base {

// How one store names its failures, so each keeps its documented cave codes.
struct FileErrors {
  std::string_view unsafe_code;  // e.g. codes::kCcrUnsafePath
  std::string_view io_code;      // e.g. codes::kCcrUnavailable
  std::string_view prefix;       // message prefix, e.g. "ccr: "
  std::string_view env_hint;     // the variable that moves the file, e.g. "CAVEMAN_CCR_DB"
};

// A file that passed the checks: where it is and which inode it was.
struct PrivateFile {
  std::string path;    // absolute: resolved parent + "/" + file name
  std::string parent;  // resolved parent directory
  dev_t dev = 0;
  ino_t ino = 0;
};

// Checks the parent, creates the file (O_EXCL, 0600) or validates and tightens the existing
// one, and secures existing sidecars. Nothing is created in a refused directory.
Result<PrivateFile> prepare_private_db_file(std::string_view path, const FileErrors& errors);

// After SQLite opened the file: the parent is still safe, the path still names the same
// regular file, and the sidecars SQLite created are 0600 regular files.
Status recheck_private_db_file(const PrivateFile& file, const FileErrors& errors);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_PRIVATE_FILE_H_
