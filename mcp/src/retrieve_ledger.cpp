#include "retrieve_ledger.h"

namespace caveman::mcp {

bool RetrieveLedger::is_repeat(const std::string& handle, const std::string& trimmed_query) {
  base::MutexLock lock(mu_);
  return served_.count({handle, trimmed_query}) > 0;
}

bool RetrieveLedger::storm() {
  base::MutexLock lock(mu_);
  return static_cast<int>(served_.size()) >= kStormThreshold;
}

void RetrieveLedger::record(const std::string& handle, const std::string& trimmed_query) {
  base::MutexLock lock(mu_);
  served_.insert({handle, trimmed_query});
}

}  // namespace caveman::mcp
