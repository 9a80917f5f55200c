#include "support/fault_store.h"

#include <cstdlib>

namespace caveman::testing {

FaultStore::FaultStore(std::shared_ptr<ccr::Store> inner) : inner_(std::move(inner)) {}

std::shared_ptr<FaultStore> FaultStore::over_memory_store() {
  Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(std::string(ccr::kMemoryPath));
  if (!store.ok()) std::abort();
  return std::make_shared<FaultStore>(std::shared_ptr<ccr::Store>(std::move(store).value()));
}

void FaultStore::fail_writes(StoreFault fault, int times) {
  fault_ = fault;
  remaining_ = fault == StoreFault::kNone ? -1 : times;
}

Status FaultStore::next_write_fault() {
  ++write_calls_;
  if (fault_ == StoreFault::kNone || remaining_ == 0) return Status::Ok();
  if (remaining_ > 0) --remaining_;
  ++injected_failures_;
  if (fault_ == StoreFault::kBudgetExceeded) {
    return Status::ResourceExhausted("cave_ccr_budget_exceeded",
                                     "ccr: storage budget exceeded (injected)");
  }
  return Status::Io("cave_ccr_unavailable", "ccr: the recovery store is unavailable (injected)");
}

Result<std::string> FaultStore::put(const ccr::Record& record) {
  CAVEMAN_RETURN_IF_ERROR(next_write_fault());
  return inner_->put(record);
}

Result<std::string> FaultStore::get(std::string_view handle) { return inner_->get(handle); }

Result<std::string> FaultStore::get_metadata(std::string_view handle) {
  return inner_->get_metadata(handle);
}

Result<ccr::TypedObject> FaultStore::put_object(ccr::TypedObject object) {
  CAVEMAN_RETURN_IF_ERROR(next_write_fault());
  return inner_->put_object(std::move(object));
}

Result<ccr::TypedObject> FaultStore::get_object(std::string_view object_id) {
  return inner_->get_object(object_id);
}

Status FaultStore::set_object_currentness(std::string_view object_id, std::string_view value) {
  return inner_->set_object_currentness(object_id, value);
}

Status FaultStore::set_object_lifecycle(std::string_view object_id, std::string_view value) {
  return inner_->set_object_lifecycle(object_id, value);
}

Result<std::vector<ccr::TypedObject>> FaultStore::list_session_objects(std::string_view session_id,
                                                                       int limit) {
  return inner_->list_session_objects(session_id, limit);
}

Result<std::optional<ccr::TypedObject>> FaultStore::find_task_decision(
    std::string_view decision_id) {
  return inner_->find_task_decision(decision_id);
}

Result<ccr::StoreStats> FaultStore::stats() { return inner_->stats(); }

}  // namespace caveman::testing
