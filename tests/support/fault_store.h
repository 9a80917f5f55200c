// FaultStore: a ccr::Store wrapper that forwards everything to a real store but can be told
// to fail put() (and put_object()) the way a full or broken store does, so engine, proxy and
// MCP tests can exercise their fail-open paths (leveldb's ErrorEnv idea). Not thread-safe to
// reconfigure while another thread uses it; forwarding itself is as safe as the inner store.
#ifndef CAVEMAN_TESTS_SUPPORT_FAULT_STORE_H_
#define CAVEMAN_TESTS_SUPPORT_FAULT_STORE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/ccr.h"

namespace caveman::testing {

enum class StoreFault {
  kNone,
  kBudgetExceeded,  // kResourceExhausted, cave_ccr_budget_exceeded (the store is full)
  kUnavailable,     // kIo, cave_ccr_unavailable (disk error, locked file, …)
};

class FaultStore final : public ccr::Store {
 public:
  explicit FaultStore(std::shared_ptr<ccr::Store> inner);
  // A FaultStore over a fresh ":memory:" store (aborts if SQLite cannot open one).
  static std::shared_ptr<FaultStore> over_memory_store();

  // From now on, writes fail with `fault`. `times` < 0: until told otherwise; otherwise only
  // the next `times` writes fail, after which writes succeed again.
  void fail_writes(StoreFault fault, int times = -1);
  void heal() { fail_writes(StoreFault::kNone); }
  // put()/put_object() calls seen, and how many of them were failed on purpose.
  int write_calls() const { return write_calls_; }
  int injected_failures() const { return injected_failures_; }
  ccr::Store& inner() { return *inner_; }

  Result<std::string> put(const ccr::Record& record) override;
  Result<std::string> get(std::string_view handle) override;
  Result<std::string> get_metadata(std::string_view handle) override;
  Result<ccr::TypedObject> put_object(ccr::TypedObject object) override;
  Result<ccr::TypedObject> get_object(std::string_view object_id) override;
  Status set_object_currentness(std::string_view object_id, std::string_view value) override;
  Status set_object_lifecycle(std::string_view object_id, std::string_view value) override;
  Result<std::vector<ccr::TypedObject>> list_session_objects(std::string_view session_id,
                                                             int limit) override;
  Result<std::optional<ccr::TypedObject>> find_task_decision(std::string_view decision_id) override;
  Result<ccr::StoreStats> stats() override;

 private:
  // The injected error for this write, or Ok to forward it.
  Status next_write_fault();

  std::shared_ptr<ccr::Store> inner_;
  StoreFault fault_ = StoreFault::kNone;
  int remaining_ = -1;
  int write_calls_ = 0;
  int injected_failures_ = 0;
};

}  // namespace caveman::testing

#endif  // CAVEMAN_TESTS_SUPPORT_FAULT_STORE_H_
