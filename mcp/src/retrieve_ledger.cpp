#include "retrieve_ledger.h"

namespace caveman::mcp {

bool RetrieveLedger::is_repeat(const std::string& handle, const std::string& trimmed_query) {
  std::lock_guard<std::mutex> lock(mu_);
  return served_.count({handle, trimmed_query}) > 0;
}

bool RetrieveLedger::storm() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(served_.size()) >= kStormThreshold;
}

void RetrieveLedger::record(const std::string& handle, const std::string& trimmed_query) {
  std::lock_guard<std::mutex> lock(mu_);
  served_.insert({handle, trimmed_query});
}

}  // namespace caveman::mcp
