// service.h — MemService, the one place the CLI and the MCP tools go through: argument
// validation, the memory store, recall (store search + engine compression + budget packing)
// and cavemem's own recovery store.
//
// Files live in one directory (`$CAVEMAN_HOME/mem`, default `~/.caveman/mem`, 0700):
// `mem.db` (memories) and `ccr.db` (originals behind the handles recall discloses; opened on
// first use). cavemem keeps its own CCR store, as the original did, so that `forget` can also
// delete the copies recall made of a memory (the shared ~/.caveman/ccr.db never deletes).
// Not thread-safe: one MemService per thread (the MCP tools serialize calls with a mutex).
// Failures are Status values with the codes of store.h, memory.h and query.h.
#ifndef CAVEMAN_MEM_SERVICE_H_
#define CAVEMAN_MEM_SERVICE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "clock.h"
#include "recall.h"
#include "store.h"

namespace caveman::mem {

// `$CAVEMAN_HOME/mem`, else `$HOME/.caveman/mem`; creates both directories 0700 (and
// tightens an existing mem directory to 0700). kUnavailable (codes::kNoHome) without either
// variable; kIo (codes::kMemStoreUnavailable) when a directory cannot be created.
Result<std::string> resolve_mem_dir();

struct RecallRequest {
  std::string query;
  int limit = 0;                                    // 0 → kDefaultLimit; at most kMaxLimit
  std::int64_t token_budget = kDefaultTokenBudget;  // 0 = unlimited
  std::optional<std::string> project;
  std::vector<std::string> tags;
  double threshold = kDefaultThreshold;
};

class MemService {
 public:
  // `dir` empty → both stores in memory (tests). The memory store is opened now; its errors
  // are returned. `clock` null → system clock.
  static Result<std::unique_ptr<MemService>> open(const std::string& dir, const Clock* clock = nullptr);

  // Validates project/tags (the text is validated by the store).
  Result<RememberOutcome> remember(NewMemory memory);
  Result<Memory> supersede(std::string_view id, NewMemory replacement);
  Result<std::vector<Memory>> history(std::string_view id);
  // Deletes the memory and the copies of its text in cavemem's CCR store. A failure to purge
  // the copies does not undo the forget; it is reported in `warning`.
  struct ForgetOutcome {
    bool forgotten = false;
    std::int64_t copies_removed = 0;
    std::string warning;
  };
  Result<ForgetOutcome> forget(std::string_view id);
  // kInvalidArgument for a bad query/limit/budget/threshold/filter.
  Result<RecallResult> recall(const RecallRequest& request);
  // Exact bytes behind a recall handle (codes::kUnknownHandle when absent).
  Result<std::string> recover(std::string_view handle);

  MemStore& store() { return *store_; }
  const std::string& dir() const { return dir_; }

 private:
  MemService(std::string dir, std::unique_ptr<MemStore> store);
  Status ensure_engine();
  std::string ccr_path() const;

  std::string dir_;
  std::unique_ptr<MemStore> store_;
  std::shared_ptr<ccr::Store> ccr_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_SERVICE_H_
