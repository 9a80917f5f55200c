// The json compressor's view choice over large inputs: the needle check that guards a lossy
// view stays linear, so a payload past 1 MiB still gets a view and its rare lines.
#include <gtest/gtest.h>

#include <string>

#include "caveman/ccr.h"
#include "caveman/engine.h"

namespace caveman {
namespace {

// One compact object per line (a layout the whole-input table does not take), with one rare
// record in the middle.
std::string one_object_per_line(std::size_t min_bytes) {
  std::string s = "{\"results\": [\n";
  for (int i = 0; s.size() < min_bytes; ++i) {
    if (i > 0) s += ",\n";
    s += " {\"id\": " + std::to_string(i) + ", \"status\": \"" + (i % 3 ? "paid" : "open") +
         "\", \"amount\": " + std::to_string(i % 900) + "." + std::to_string(i % 90 + 10) + "}";
    if (i == 20000) s += ",\n {\"id\": -1, \"status\": \"refused\", \"reason\": \"card expired\"}";
  }
  s += "\n]}\n";
  return s;
}

TEST(JsonViewsTest, APayloadPastOneMebibyteGetsAViewThatKeepsItsRareLine) {
  const std::string input = one_object_per_line(3u << 20);
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_TRUE(store.ok());
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  Options options;
  options.mode = "compress";
  CompressResult r = engine.compress(input, options);
  ASSERT_EQ(r.content_type, "json");
  ASSERT_FALSE(r.recovery_handle.empty()) << "a 3 MiB JSON passed through";
  EXPECT_LT(r.tokens_after * 10, r.tokens_before);
  EXPECT_NE(r.output.find("card expired"), std::string::npos);
}

}  // namespace
}  // namespace caveman
