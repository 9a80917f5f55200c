// A factored view loses nothing but shows no line of the input as it is: in a prompt of known
// size it is kept only when it pays like a view that leaves content out (engine.cpp, weigh).
#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"

namespace caveman {
namespace {

// Lines of one shape, of a type that gets lossless views only (records).
std::string package_lines(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += "checking package libfoo" + std::to_string(i % 9) + "-dev version 2." +
           std::to_string(i) + "." + std::to_string(i % 7) + " from bookworm main ... newest\n";
  }
  return out;
}

TEST(EngineLiteralViewsTest, FactoredViewMustPayInAKnownPrompt) {
  Engine engine(nullptr);
  Options options;
  options.mode = "compress";
  options.external_recovery = true;
  options.type = "records";
  std::string log = package_lines(30);
  CompressResult free = engine.compress(log, options);
  ASSERT_NE(free.output, log);
  EXPECT_NE(free.output.find("values per line"), std::string::npos) << free.output;
  // In a 200k-token cached prompt, a retrieve re-reads 20k tokens: a few hundred saved do not pay.
  options.context_tokens = 200'000;
  CompressResult weighed = engine.compress(log, options);
  EXPECT_EQ(weighed.output.find("values per line"), std::string::npos) << weighed.output;
}

}  // namespace
}  // namespace caveman
