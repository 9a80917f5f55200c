// Atomic installation of one executable (used by `caveman install`).
#ifndef CAVEMAN_CLI_INSTALL_H_
#define CAVEMAN_CLI_INSTALL_H_

#include <string>

#include "caveman/status.h"

namespace caveman::cli {

// Copies `source` to `<target_dir>/<name>` via a unique O_EXCL part file (0600 → 0755, fsync,
// rename). The part file is removed on any failure. Errors: codes::kInstallFailed (kIo).
Status install_file(const std::string& source, const std::string& target_dir,
                    const std::string& name);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_INSTALL_H_
