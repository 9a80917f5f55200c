// Placeholder until the SQLite store lands: every open fails, so the engine passes through.
#include "caveman/ccr.h"

namespace caveman::ccr {

double TypeStats::ratio() const {
  if (tokens_before <= 0) return 0;
  return static_cast<double>(tokens_before - tokens_after) / static_cast<double>(tokens_before);
}

std::string TypedObject::to_json() const { return "{}"; }
std::string StoreStats::to_json() const { return "{}"; }

Result<std::unique_ptr<Store>> open_store(const std::string&, OpenOptions) {
  return Status::Unavailable("cave_ccr_unavailable", "the SQLite recovery store is not built yet");
}

}  // namespace caveman::ccr
