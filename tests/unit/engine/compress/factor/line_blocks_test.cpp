#include "compress/factor/line_blocks.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "support/corpus.h"

namespace caveman::compress::factor {
namespace {

std::string gtest_suite(const std::string& suite, const std::vector<std::string>& cases) {
  std::string s = "[----------] " + std::to_string(cases.size()) + " tests from " + suite + "\n";
  for (const auto& c : cases) {
    s += "[ RUN      ] " + suite + "." + c + "\n[       OK ] " + suite + "." + c + " (0 ms)\n";
  }
  return s;
}

std::string roundtrip_or_fail(const std::string& input) {
  std::optional<std::string> view = factor_text(input);
  if (!view) return input;
  std::optional<std::string> back = expand_blocks(*view);
  EXPECT_TRUE(back.has_value());
  EXPECT_EQ(back.value_or(""), input);
  return *view;
}

TEST(LineBlocksTest, PassingTestCasesOfASuiteBecomeOneLineListingTheirNames) {
  std::string input = gtest_suite("BuildTest", {"NoWork", "OneStep", "TwoStep", "Chain", "Phony"});
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("[5 records of 2 lines \"[ RUN      ] BuildTest.{1}\" / "
                      "\"[       OK ] BuildTest.{1} (0 ms)\" for {1} in: "
                      "NoWork, OneStep, TwoStep, Chain, Phony]"),
            std::string::npos)
      << view;
}

TEST(LineBlocksTest, AFailureBetweenPassingCasesStaysVerbatim) {
  std::string input = gtest_suite("A", {"One", "Two", "Three", "Four"}) +
                      "[ RUN      ] A.Five\nsrc/a_test.cc:12: Failure\nExpected equality\n"
                      "[  FAILED  ] A.Five (3 ms)\n" +
                      gtest_suite("B", {"One", "Two", "Three", "Four"});
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("src/a_test.cc:12: Failure\nExpected equality\n[  FAILED  ] A.Five (3 ms)"),
            std::string::npos)
      << view;
}

TEST(LineBlocksTest, LinesOfOneTemplateKeepEveryValueInOrder) {
  std::string input;
  for (int i = 0; i < 30; ++i) {
    input += "2025-06-24 14:36:" + std::to_string(10 + i) + " status installed libpkg" +
             std::to_string(i) + ":amd64 1." + std::to_string(i) + "-1~deb12u1\n";
  }
  std::string view = roundtrip_or_fail(input);
  EXPECT_LT(view.size(), input.size() * 6 / 10) << view;
  EXPECT_NE(view.find("libpkg17"), std::string::npos);
  // The clock time is one value: a template never splits `14:36:10` at its colons.
  EXPECT_NE(view.find("\"2025-06-24 {1} status installed {2}:amd64 {3}-1~deb12u1\""),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("\n14:36:27 libpkg17 1.17\n"), std::string::npos) << view;
}

TEST(LineBlocksTest, HitsOfOneFileShareTheirPath) {
  std::string input;
  for (int i = 0; i < 12; ++i) {
    input += "src/engine/compress/factor/line_blocks.cpp:" + std::to_string(100 + i * 7) +
             ":  return value_" + std::to_string(i) + " + offset;\n";
  }
  std::string view = roundtrip_or_fail(input);
  EXPECT_LT(view.size(), input.size() * 7 / 10) << view;
}

// Other runners fold by the same rule: nothing here knows a runner, a passing case is a record
// that fits its neighbours' template.
TEST(LineBlocksTest, GoTestPassingCasesFold) {
  std::string input;
  for (const char* name : {"TestParse", "TestParseEmpty", "TestRoundTrip", "TestDecode", "TestEncode"}) {
    input += std::string("=== RUN   ") + name + "\n--- PASS: " + name + " (0.00s)\n";
  }
  input += "=== RUN   TestBroken\n    codec_test.go:41: got 3, want 4\n--- FAIL: TestBroken (0.01s)\nFAIL\n";
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("for {1} in: TestParse, TestParseEmpty, TestRoundTrip, TestDecode, TestEncode]"),
            std::string::npos)
      << view;
  EXPECT_NE(view.find("    codec_test.go:41: got 3, want 4\n--- FAIL: TestBroken (0.01s)"),
            std::string::npos)
      << view;
}

TEST(LineBlocksTest, CargoTestPassingCasesFold) {
  std::string input = "running 6 tests\n";
  for (const char* name : {"parses_header", "parses_rows", "rejects_empty", "round_trips", "sorts_keys", "trims"}) {
    input += std::string("test table::tests::") + name + " ... ok\n";
  }
  input += "\ntest result: ok. 6 passed; 0 failed; 0 ignored\n";
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("[6 lines \"test table::tests::{1} ... ok\" for {1} in: parses_header, "),
            std::string::npos)
      << view;
}

TEST(LineBlocksTest, PytestAndMochaCasesOfOneFileShareTheirPrefix) {
  std::string pytest;
  for (int i = 0; i < 8; ++i) {
    pytest += "tests/test_checkout.py::test_case_number_" + std::to_string(i) + " PASSED [" +
              std::to_string(10 + i) + "%]\n";
  }
  EXPECT_LT(roundtrip_or_fail(pytest).size(), pytest.size() * 8 / 10);
  std::string mocha = "  Array\n    #indexOf()\n";
  for (const char* c : {"should return -1 when the value is not present",
                        "should return the index when the value is present",
                        "should find the first of two equal values", "should accept a start index"}) {
    mocha += std::string("      \xE2\x9C\x93 ") + c + "\n";
  }
  roundtrip_or_fail(mocha);
}

TEST(LineBlocksTest, UniqueLinesAreNotFactored) {
  EXPECT_EQ(factor_text("alpha beta\ngamma delta epsilon\nzeta\n"), std::nullopt);
  EXPECT_EQ(factor_text(""), std::nullopt);
}

TEST(LineBlocksTest, BarrierLinesStayLiteralAndOutsideBlocks) {
  std::string input;
  for (int i = 0; i < 10; ++i) input += "worker 7 finished job number " + std::to_string(i) + "\n";
  input += "… 40 lines elided (caveman) …\n";
  for (int i = 10; i < 20; ++i) input += "worker 7 finished job number " + std::to_string(i) + "\n";
  std::optional<std::string> view =
      factor_text(input, [](std::string_view l) { return l.find("(caveman)") != std::string_view::npos; });
  ASSERT_TRUE(view.has_value());
  EXPECT_NE(view->find("\n… 40 lines elided (caveman) …\n"), std::string::npos) << *view;
  EXPECT_EQ(expand_blocks(*view), input);
}

TEST(LineBlocksTest, TextThatAlreadyHoldsABlockIsNotFactoredAgain) {
  std::string input = gtest_suite("S", {"A1", "B2", "C3", "D4", "E5", "F6"});
  std::optional<std::string> view = factor_text(input);
  ASSERT_TRUE(view.has_value());
  EXPECT_TRUE(contains_block(*view));
  EXPECT_EQ(factor_text(*view), std::nullopt);
}

TEST(LineBlocksTest, ALiteralLineThatReadsLikeAHeaderNeverCorruptsTheView) {
  std::string input = "[3 lines \"x {1}\", values per line:]\n";
  for (int i = 0; i < 10; ++i) input += "request " + std::to_string(i) + " served from cache node\n";
  roundtrip_or_fail(input);  // declined, or exact
}

TEST(LineBlocksTest, GeneratedLogsRoundTripExactly) {
  std::mt19937 rng(42);  // fixed seed: the same cases every run
  const char* words[] = {"status", "ok", "error:", "GET", "/api/v1/items", "=", "", "id=7",
                         "user@host", "a,b", "{1}", "\" / \"", "[2", "lines", "\r", "\t"};
  for (int round = 0; round < 300; ++round) {
    std::string input;
    int lines = 1 + static_cast<int>(rng() % 60);
    int shape = static_cast<int>(rng() % 5);
    for (int l = 0; l < lines; ++l) {
      int tokens = shape + static_cast<int>(rng() % 2);
      input += "2026-01-0" + std::to_string(1 + rng() % 3);
      for (int t = 0; t < tokens; ++t) input += std::string(" ") + words[rng() % 16];
      if (rng() % 4 != 0) input += "\n";
    }
    roundtrip_or_fail(input);
  }
}

TEST(LineBlocksTest, EveryCorpusFileThatIsFactoredExpandsToItself) {
  for (const auto& f : corpus::corpus_manifest()) {
    std::string input = corpus::read_file(f.path);
    std::optional<std::string> view = factor_text(input);
    if (!view) continue;
    EXPECT_EQ(expand_blocks(*view), input) << f.name;
    EXPECT_EQ(factor_text(*view), std::nullopt) << f.name << ": a view is factored again";
  }
}

TEST(BlockSyntaxTest, HeadersReadBackAsWritten) {
  BlockHeader h;
  h.records = 3;
  h.slots = 2;
  h.lines = {{{"a ", -1}, {"", 0}, {" b ", -1}, {"", 1}}, {{"c ", -1}, {"", 0}}};
  std::optional<std::string> text = write_header(h);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, "[3 records of 2 lines \"a {1} b {2}\" / \"c {1}\", values per record:]");
  std::optional<BlockHeader> back = parse_header(*text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->records, 3u);
  EXPECT_EQ(back->slots, 2);
  EXPECT_EQ(fill(back->lines[0], {"x", "y"}), "a x b y");
  EXPECT_EQ(fill(back->lines[1], {"x", "y"}), "c x");
}

TEST(BlockSyntaxTest, LiteralsThatCouldReadBackDifferentlyAreRefused) {
  EXPECT_EQ(write_template({{"value {2} here", -1}}), std::nullopt);
  EXPECT_EQ(write_template({{"a\" / \"b", -1}}), std::nullopt);
  EXPECT_EQ(write_template({{"x\", values per line", -1}}), std::nullopt);
  EXPECT_TRUE(write_template({{"{not a placeholder}", -1}}).has_value());
}

TEST(BlockSyntaxTest, OrdinaryTextIsNotAHeader) {
  EXPECT_EQ(parse_header("[1 lines \"x\", values per line:]"), std::nullopt);  // one record
  EXPECT_EQ(parse_header("[2024-01-01 12:00] started"), std::nullopt);
  EXPECT_EQ(parse_header("[3 lines \"x {1}\""), std::nullopt);
  EXPECT_FALSE(contains_block("plain\ntext\n"));
}

TEST(BlockSyntaxTest, RowsSplitOnSingleSpacesAndTheLastValueTakesTheRest) {
  auto v = split_row("a  b c d", 3);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ((*v)[0], "a");
  EXPECT_EQ((*v)[1], "");
  EXPECT_EQ((*v)[2], "b c d");
  EXPECT_EQ(split_row("a", 2), std::nullopt);
}

TEST(ExpandTest, ACutShortBlockIsNotAView) {
  EXPECT_EQ(expand_blocks("[3 lines \"x {1}\", values per line:]\n1\n2"), std::nullopt);
  EXPECT_EQ(expand_blocks("no blocks\nhere\n"), "no blocks\nhere\n");
}

}  // namespace
}  // namespace caveman::compress::factor
