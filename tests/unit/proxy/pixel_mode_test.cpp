#include <gtest/gtest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>
#include "pixel_mode.h"
#include "support/fault_store.h"
#include "support/test_support.h"

namespace caveman::proxy {
namespace {

std::string long_request(const std::string& model) {
  std::string text;
  for (int i = 0; text.size() < 8000; ++i) text += "Line " + std::to_string(i) + " of a long pasted document.\n";
  return R"({"model":")" + model + R"(","max_tokens":64,"messages":[{"role":"user","content":)" +
         nlohmann::json(text).dump() + "}]}";
}

TEST(PixelMode, AllowlistedModelIsRenderedAndTheOriginalStored) {
  auto store = testing::FaultStore::over_memory_store();
  std::string body = long_request("claude-fable-5");
  PixelOutcome px = apply_pixel_mode(Endpoint::kMessages, "claude-fable-5", AuthMode::kPayg, body, store.get(),
                                     map_env({}));
  ASSERT_TRUE(px.changed) << px.info.to_json();
  EXPECT_NE(px.body.find(R"("type":"image")"), std::string::npos);
  Result<std::string> original = store->get(px.handle);
  ASSERT_OK(original);
  EXPECT_EQ(original.value(), body);
}

TEST(PixelMode, GatesFailClosed) {
  auto store = testing::FaultStore::over_memory_store();
  std::string body = long_request("claude-3-5-sonnet");
  EXPECT_FALSE(apply_pixel_mode(Endpoint::kMessages, "claude-3-5-sonnet", AuthMode::kPayg, body, store.get(), map_env({}))
                   .changed);
  EXPECT_EQ(store->write_calls(), 0);  // nothing stored for a model that is not allowed
  body = long_request("claude-fable-5");
  EXPECT_FALSE(apply_pixel_mode(Endpoint::kMessages, "claude-fable-5", AuthMode::kSubscription, body, store.get(),
                                map_env({}))
                   .changed);
  EXPECT_FALSE(apply_pixel_mode(Endpoint::kCountTokens, "claude-fable-5", AuthMode::kPayg, body, store.get(),
                                map_env({}))
                   .changed);
  EXPECT_FALSE(apply_pixel_mode(Endpoint::kMessages, "claude-fable-5", AuthMode::kPayg, body, nullptr, map_env({}))
                   .changed);
  EXPECT_FALSE(apply_pixel_mode(Endpoint::kMessages, "claude-fable-5", AuthMode::kPayg, body, store.get(),
                                map_env({{"CAVE_PIXEL_MODELS", "off"}}))
                   .changed);
  EXPECT_TRUE(apply_pixel_mode(Endpoint::kMessages, "claude-x-1", AuthMode::kPayg, long_request("claude-x-1"),
                               store.get(), map_env({{"CAVE_PIXEL_MODELS", "claude-x"}}))
                  .changed);
}

TEST(PixelMode, StoreFailureForwardsTheOriginal) {
  auto store = testing::FaultStore::over_memory_store();
  store->fail_writes(testing::StoreFault::kUnavailable);
  PixelOutcome px = apply_pixel_mode(Endpoint::kMessages, "gpt-5.6", AuthMode::kPayg, long_request("gpt-5.6"),
                                     store.get(), map_env({}));
  EXPECT_FALSE(px.changed);
  EXPECT_EQ(px.info.reason, "finalize_error");
}

}  // namespace
}  // namespace caveman::proxy
