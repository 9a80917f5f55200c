#include <gtest/gtest.h>

#include <string>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input) {
  auto out = make_repetition_compressor()->compress(input, "");
  if (!out) return std::nullopt;
  return out->bytes;
}

std::string repeat(std::string_view line, int n, std::string_view eol = "\n") {
  std::string out;
  for (int i = 0; i < n; ++i) out += std::string(line) + std::string(eol);
  return out;
}

const std::string kRetry = "retrying connection to db-primary:5432 (attempt failed)";

TEST(RepetitionTest, CollapsesRunsOfThreeOrMore) {
  std::string in = "start\n" + repeat(kRetry, 6) + "ERROR: giving up\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "start\n" + kRetry + "\n… caveman: 5 identical lines elided …\nERROR: giving up\n");
}

TEST(RepetitionTest, RunsOfTwoBlankLinesAndOwnMarkersStay) {
  std::string in = repeat(kRetry, 2) + repeat("   ", 5) + repeat("… caveman: 3 identical lines elided …", 4) +
                   std::string(100, 'x') + "\n";
  EXPECT_FALSE(run(in));  // nothing collapsible
}

TEST(RepetitionTest, MinimumInputSize) {
  std::string small = repeat("abc", 10);  // 40 bytes
  EXPECT_FALSE(run(small));
  EXPECT_FALSE(run(repeat(kRetry, 5) + "\xff"));  // invalid UTF-8
}

TEST(RepetitionTest, CrlfAndNoTrailingNewline) {
  std::string in = repeat(kRetry, 5, "\r\n") + "end";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, kRetry + "\r\n… caveman: 4 identical lines elided …\r\nend");
}

TEST(RepetitionTest, LinesDifferingOnlyInLineEndingsAreNotIdentical) {
  std::string in = kRetry + "\r\n" + kRetry + "\n" + kRetry + "\r\n" + kRetry + "\n" + std::string(200, 'y');
  EXPECT_FALSE(run(in));
}

TEST(RepetitionTest, DeterministicAndIdempotent) {
  std::string in = repeat("a", 3) + repeat(kRetry, 10) + repeat("b", 1) + repeat(kRetry, 4);
  auto a = run(in);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *run(in));
  EXPECT_FALSE(run(*a));  // nothing left to collapse: the engine passes it through
}

TEST(RepetitionTest, HugeSingleLine) { EXPECT_FALSE(run(std::string(64u << 20, 'r'))); }

TEST(RepetitionTest, ForcedOnly) {
  std::string in = "start\n" + repeat(kRetry, 40) + "done\n";
  EXPECT_NE(detect(in), "repetition");
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_TRUE(store.ok());
  Engine engine(std::move(store).value());
  Options auto_options;
  auto_options.mode = "compress";
  CompressResult detected = engine.compress(in, auto_options);
  EXPECT_NE(detected.method, "repetition");
  Options forced = auto_options;
  forced.type = "repetition";
  CompressResult r = engine.compress(in, forced);
  EXPECT_EQ(r.method, "repetition");
  EXPECT_EQ(r.content_type, "repetition");
  EXPECT_EQ(r.output, "start\n" + kRetry + "\n… caveman: 39 identical lines elided …\ndone\n");
  ASSERT_FALSE(r.recovery_handle.empty());
  auto back = engine.retrieve(r.recovery_handle);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), in);
}

}  // namespace
}  // namespace caveman::compress
