// Store location for the CLIs (docs/spec/ccr.md#location) and the CAVEMAN_CCR_MAX_BYTES
// budget override.

#include <cstdlib>
#include <string>

#include "caveman/base/paths.h"
#include "caveman/base/codes.h"
#include "caveman/ccr.h"

namespace caveman::ccr {
namespace {

// Positive decimal integer, digits only (no sign, spaces or suffix); nullopt otherwise.
std::optional<std::int64_t> parse_positive(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;  // 18 digits cannot overflow int64
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v <= 0) return std::nullopt;
  return v;
}

}  // namespace

Result<std::string> resolve_store_path(OpenOptions* options) {
  if (const char* max = std::getenv("CAVEMAN_CCR_MAX_BYTES"); max != nullptr && *max != '\0') {
    std::optional<std::int64_t> v = parse_positive(max);
    if (!v) {
      return Status::InvalidArgument(codes::kInvalidConfig,
                                     "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
    }
    options->max_bytes = *v;
  }
  if (const char* db = std::getenv("CAVEMAN_CCR_DB"); db != nullptr && *db != '\0') {
    return std::string(db);  // an explicit file: no home directory is created
  }
  CAVEMAN_ASSIGN_OR_RETURN(
      std::string home,
      base::ensure_caveman_home(base::process_env(), codes::kCcrUnavailable, "ccr: "));
  return home + "/ccr.db";
}

}  // namespace caveman::ccr
