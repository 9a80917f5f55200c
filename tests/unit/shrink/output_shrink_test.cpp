#include "output_shrink.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "output_lines.h"

namespace caveman::shrink {
namespace {

std::unique_ptr<ccr::Store> memory_store() {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  EXPECT_TRUE(store.ok());
  return std::move(store).value();
}

RunResult result(std::string output, int exit_code = 0) {
  RunResult r;
  r.output = std::move(output);
  r.exit_code = exit_code;
  return r;
}

// A grep-like listing with one failure line in the middle: the search-result compressor
// would elide it (its keep-list has no "fatal"), so only the failure guard can keep it.
std::string listing_with_fatal_line() {
  std::string out;
  for (int i = 1; i <= 60; ++i) {
    out += "src/file" + std::to_string(i) + ".c:" + std::to_string(i) + ": int value_" +
           std::to_string(i) + " = compute(" + std::to_string(i) + ");\n";
  }
  out += "src/zz.c:7: fatal: could not open output\n";
  for (int i = 61; i <= 90; ++i) {
    out += "src/file" + std::to_string(i) + ".c:" + std::to_string(i) + ": int value_" +
           std::to_string(i) + " = compute(" + std::to_string(i) + ");\n";
  }
  return out;
}

std::string last_line(const std::string& text) {
  std::string body = text.substr(0, text.size() - 1);
  return body.substr(body.rfind('\n') + 1);
}

TEST(ShrinkOutput, SmallOutputIsShownInFullWithoutAHandle) {
  auto store = memory_store();
  OutputShrink s = shrink_output(result("error: one\nline two\n", 3), kDefaultWindowBytes,
                                 store.get(), "", tokens::default_counter());
  EXPECT_TRUE(s.handle.empty());
  EXPECT_EQ(s.text.rfind("error: one\nline two\n[caveman-shrink] exit 3 \xC2\xB7 ", 0), 0u) << s.text;
  EXPECT_NE(s.text.find("shown in full"), std::string::npos);
}

TEST(ShrinkOutput, FailureKeepsEveryErrorLineAndTheLastTwentyLines) {
  auto store = memory_store();
  std::string out = listing_with_fatal_line();
  OutputShrink failed = shrink_output(result(out, 2), kDefaultWindowBytes, store.get(), "",
                                      tokens::default_counter());
  EXPECT_TRUE(failed.failure_guard);
  EXPECT_NE(failed.text.find("src/zz.c:7: fatal: could not open output\n"), std::string::npos);
  for (int i = 71; i <= 90; ++i) {
    EXPECT_NE(failed.text.find("src/file" + std::to_string(i) + ".c:"), std::string::npos) << i;
  }
  EXPECT_LT(failed.tokens_after, failed.tokens_before);
  ASSERT_FALSE(failed.handle.empty());
  EXPECT_EQ(store->get(failed.handle).value(), out);
  EXPECT_NE(last_line(failed.text).find("exit 2"), std::string::npos);
  EXPECT_NE(last_line(failed.text).find("caveman-shrink recover " + failed.handle),
            std::string::npos);

  // The same output from a successful command may lose the line: no guard then.
  OutputShrink ok = shrink_output(result(out, 0), kDefaultWindowBytes, store.get(), "",
                                  tokens::default_counter());
  EXPECT_FALSE(ok.failure_guard);
}

TEST(ShrinkOutput, BinaryOutputIsNeverPrinted) {
  auto store = memory_store();
  std::string bin(3000, '\0');
  for (std::size_t i = 0; i < bin.size(); ++i) bin[i] = static_cast<char>(i * 7);
  OutputShrink s = shrink_output(result(bin), kDefaultWindowBytes, store.get(), "",
                                 tokens::default_counter());
  EXPECT_EQ(s.content_type, "binary");
  EXPECT_EQ(s.text.rfind("[caveman-shrink: binary output, 3000 bytes, not shown]\n", 0), 0u);
  ASSERT_FALSE(s.handle.empty());
  EXPECT_EQ(store->get(s.handle).value(), bin);
}

TEST(ShrinkOutput, OutputBeyondTheWindowIsSummarisedAndStored) {
  auto store = memory_store();
  std::string out;
  for (int i = 0; i < 2000; ++i) out += "building target " + std::to_string(i) + "\n";
  out += "error: link failed\n";
  for (int i = 0; i < 30; ++i) out += "tail " + std::to_string(i) + "\n";
  RunResult r = result(out, 1);
  OutputShrink s = shrink_output(r, 4096, store.get(), "", tokens::default_counter());
  EXPECT_NE(s.text.find(" more bytes after the first "), std::string::npos);
  EXPECT_NE(s.text.find("error: link failed\n"), std::string::npos);
  EXPECT_NE(s.text.find("tail 29\n"), std::string::npos);
  EXPECT_NE(s.text.find("tail 10\n"), std::string::npos);
  EXPECT_EQ(store->get(s.handle).value(), out);
}

// The overflow's error lines and its last lines are merged: an error line among the last
// lines must not hide the tail lines before it, and it is shown once.
TEST(ShrinkOutput, OverflowErrorInsideTheTailKeepsTheWholeTail) {
  auto store = memory_store();
  std::string out;
  for (int i = 0; i < 2000; ++i) out += "building target " + std::to_string(i) + "\n";
  out += "error: early failure\n";
  for (int i = 0; i < 5; ++i) out += "before " + std::to_string(i) + "\n";
  out += "error: link failed\n";
  for (int i = 0; i < 14; ++i) out += "after " + std::to_string(i) + "\n";
  OutputShrink s = shrink_output(result(out, 1), 4096, store.get(), "", tokens::default_counter());
  std::size_t overflow = s.text.find(" more bytes after the first ");
  ASSERT_NE(overflow, std::string::npos);
  std::string shown = s.text.substr(overflow);
  EXPECT_NE(shown.find("error: early failure\n"), std::string::npos);
  for (int i = 0; i < 5; ++i) {
    EXPECT_NE(shown.find("\nbefore " + std::to_string(i) + "\n"), std::string::npos) << i;
  }
  for (int i = 0; i < 14; ++i) {
    EXPECT_NE(shown.find("\nafter " + std::to_string(i) + "\n"), std::string::npos) << i;
  }
  std::size_t link = shown.find("error: link failed\n");
  ASSERT_NE(link, std::string::npos);
  EXPECT_EQ(shown.find("error: link failed\n", link + 1), std::string::npos) << "shown once";
  EXPECT_EQ(store->get(s.handle).value(), out);
}

TEST(ShrinkOutput, NoStoreMeansTheFullOutput) {
  std::string out = listing_with_fatal_line();
  OutputShrink s = shrink_output(result(out, 2), kDefaultWindowBytes, nullptr,
                                 "cave_ccr_unavailable: locked", tokens::default_counter());
  EXPECT_TRUE(s.handle.empty());
  EXPECT_EQ(s.text.rfind(out, 0), 0u);
  EXPECT_NE(s.text.find("recovery store unavailable: cave_ccr_unavailable: locked"),
            std::string::npos);
}

TEST(DescribeExit, ExitSignalAndStop) {
  RunResult r;
  r.exit_code = 3;
  EXPECT_EQ(describe_exit(r), "exit 3");
  r.exit_code = 137;
  r.signal = 9;
  EXPECT_EQ(describe_exit(r), "exit 137 (killed by SIGKILL)");
  r.stopped = true;
  r.output = std::string(10, 'x');
  EXPECT_EQ(describe_exit(r), "exit 137 (stopped by caveman-shrink after 10 bytes of output)");
}

}  // namespace
}  // namespace caveman::shrink
