// Filesystem rules for the CCR database file (ENGINE.md §7.1), applied before SQLite opens
// it and again afterwards: the parent directory resolves to an absolute symlink-free path, is a
// directory, and is not writable by group/others unless sticky; the database is a regular,
// non-symlink file created with O_EXCL and mode 0600 (existing files and the -wal/-shm
// sidecars are tightened to 0600). Existing files are only ever inspected through O_PATH
// descriptors, so checking never drops the fcntl locks of SQLite connections to the same file
// in this process. Linux/POSIX only. Failures are Status values:
// kInvalidArgument/cave_ccr_unsafe_path for refused locations, kIo/cave_ccr_unavailable for
// everything the filesystem itself refuses (missing directory, permission denied, …).
#ifndef CAVEMAN_CCR_FILE_SAFETY_H_
#define CAVEMAN_CCR_FILE_SAFETY_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::ccr {

// A database file that passed the checks: where it is and which inode it was.
struct PreparedFile {
  std::string path;    // absolute: resolved parent + "/" + file name
  std::string parent;  // resolved parent directory
  dev_t dev = 0;
  ino_t ino = 0;
};

// Checks the parent, creates the file (O_EXCL, 0600) or validates and tightens the existing
// one, and secures existing sidecars.
Result<PreparedFile> prepare_store_file(std::string_view path);

// After SQLite opened the file: the parent is still safe, the path still names the same
// regular file, and the sidecars SQLite created are 0600 regular files.
Status recheck_store_file(const PreparedFile& file);

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_FILE_SAFETY_H_
