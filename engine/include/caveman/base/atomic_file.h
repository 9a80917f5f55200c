// caveman/base/atomic_file.h — replacing a file so readers see the old bytes or the new, never
// a mix (docs/base.md).
//
// The bytes go to a fresh temporary file beside the target (never through a symlink), are
// fsync'ed, get their final mode, and the temporary is renamed over the target; the directory
// is fsync'ed so the rename survives a crash. Safe from any thread: each call uses its own
// temporary name. Failures are kIo with the caller's code; the target is then unchanged and
// no temporary is left behind.
#ifndef CAVEMAN_BASE_ATOMIC_FILE_H_
#define CAVEMAN_BASE_ATOMIC_FILE_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::base {

struct AtomicWrite {
  std::string_view io_code;        // the cave code of a failure
  mode_t mode = 0600;              // the mode of a new file
  bool keep_existing_mode = false;  // an existing target keeps its mode instead
};

// Replaces `path` with `bytes`. The message of a failure names the file and the errno text.
Status write_file_atomic(const std::string& path, std::string_view bytes, const AtomicWrite& how);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_ATOMIC_FILE_H_
