#include "caveman/base/exit_code.h"

namespace caveman::base {

ExitCode exit_code_for(const Status& status) {
  if (status.ok()) return kExitOk;
  const std::string& code = status.error_code();
  if (code == "cave_listen_not_loopback" || code == "cave_not_implemented") return kExitUsage;
  if (code == "cave_memory_too_large") return kExitTooLarge;
  return kExitError;
}

}  // namespace caveman::base
