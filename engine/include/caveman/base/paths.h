// caveman/base/paths.h — where Caveman keeps its state (docs/base.md).
//
// The state directory is $CAVEMAN_HOME, else $HOME/.caveman; every tool resolves it here so
// they all agree. Directories Caveman creates are private (0700). Thread-safe apart from the
// filesystem races mkdir itself tolerates. Failures are Status values.
#ifndef CAVEMAN_BASE_PATHS_H_
#define CAVEMAN_BASE_PATHS_H_

#include <optional>
#include <string>
#include <string_view>

#include "caveman/base/env.h"
#include "caveman/status.h"

namespace caveman::base {

// $CAVEMAN_HOME, else $HOME/.caveman, without trailing slashes ("/" stays "/"); nullopt when
// neither variable is set (empty counts as unset).
std::optional<std::string> caveman_home(const EnvLookup& env);

// caveman_home(), created with make_private_dirs(). kUnavailable/codes::kNoHome when neither
// variable is set; kIo/`io_code` when a directory cannot be made.
Result<std::string> ensure_caveman_home(const EnvLookup& env, std::string_view io_code,
                                        std::string_view prefix = "");

// mkdir -p: every directory it creates is 0700, existing ones are left as they are, unless
// `tighten` asks that an existing `dir` itself (not its parents) lose group/other access,
// where a failed chmod is an error. kIo with `io_code` (message starts with `prefix`) when a
// component is not a directory or cannot be made.
Status make_private_dirs(const std::string& dir, std::string_view io_code,
                         std::string_view prefix = "", bool tighten = false);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_PATHS_H_
