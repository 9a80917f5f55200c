// Anti-storm ledger for caveman_retrieve, one per session. Every retrieve costs the agent a
// whole turn, so (1) an identical (handle, trimmed query) repeat gets a one-line pointer to
// the answer already in the transcript, and (2) after kStormThreshold distinct retrieves the
// next one pays out the full original instead of another narrowed view. Neither rule ever
// withholds bytes the session has not been shown.
#ifndef CAVEMAN_MCP_RETRIEVE_LEDGER_H_
#define CAVEMAN_MCP_RETRIEVE_LEDGER_H_

#include <set>
#include <string>
#include <utility>

#include "caveman/base/mutex.h"

namespace caveman::mcp {

class RetrieveLedger {
 public:
  static constexpr int kStormThreshold = 5;

  // True when this exact (handle, trimmed query) was already answered in this session.
  bool is_repeat(const std::string& handle, const std::string& trimmed_query);
  // True when the next distinct retrieve should pay out the full original.
  bool storm();
  // Records a retrieve that was answered.
  void record(const std::string& handle, const std::string& trimmed_query);

 private:
  base::Mutex mu_;
  std::set<std::pair<std::string, std::string>> served_ GUARDED_BY(mu_);
};

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_RETRIEVE_LEDGER_H_
