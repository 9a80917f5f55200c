#include "caveman/base/exit_code.h"

#include "caveman/base/codes.h"

namespace caveman::base {

ExitCode exit_code_for(const Status& status) {
  if (status.ok()) return kExitOk;
  const std::string& code = status.error_code();
  if (code == codes::kListenNotLoopback || code == codes::kNotImplemented) return kExitUsage;
  if (code == codes::kMemoryTooLarge) return kExitTooLarge;
  return kExitError;
}

}  // namespace caveman::base
