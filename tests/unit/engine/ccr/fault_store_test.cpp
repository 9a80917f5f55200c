// The test double other suites use to make the recovery store fail on purpose.
#include "support/fault_store.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace caveman::testing {
namespace {

ccr::Record record(std::string original) {
  return ccr::Record{"json", "json", 10, 1, std::move(original), ""};
}

TEST(FaultStore, ForwardsUntilToldToFail) {
  std::shared_ptr<FaultStore> store = FaultStore::over_memory_store();
  Result<std::string> h = store->put(record("kept"));
  ASSERT_OK(h);
  EXPECT_EQ(store->get(h.value()).value(), "kept");
  EXPECT_EQ(store->write_calls(), 1);
  EXPECT_EQ(store->injected_failures(), 0);
}

TEST(FaultStore, InjectsBudgetExceeded) {
  std::shared_ptr<FaultStore> store = FaultStore::over_memory_store();
  store->fail_writes(StoreFault::kBudgetExceeded);
  Result<std::string> h = store->put(record("refused"));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), Code::kResourceExhausted);
  EXPECT_EQ(h.status().error_code(), "cave_ccr_budget_exceeded");
  EXPECT_EQ(store->get(ccr::handle_for("refused")).status().code(), Code::kNotFound);
  ccr::TypedObject o;
  o.type = "TestResult";
  o.session_id = "s";
  EXPECT_EQ(store->put_object(o).status().error_code(), "cave_ccr_budget_exceeded");
  store->heal();
  ASSERT_OK(store->put(record("accepted")));
}

TEST(FaultStore, InjectsUnavailableForALimitedNumberOfWrites) {
  std::shared_ptr<FaultStore> store = FaultStore::over_memory_store();
  store->fail_writes(StoreFault::kUnavailable, 2);
  for (int i = 0; i < 2; ++i) {
    Result<std::string> h = store->put(record("x" + std::to_string(i)));
    ASSERT_FALSE(h.ok());
    EXPECT_EQ(h.status().code(), Code::kIo);
    EXPECT_EQ(h.status().error_code(), "cave_ccr_unavailable");
  }
  ASSERT_OK(store->put(record("third")));
  EXPECT_EQ(store->write_calls(), 3);
  EXPECT_EQ(store->injected_failures(), 2);
}

}  // namespace
}  // namespace caveman::testing
