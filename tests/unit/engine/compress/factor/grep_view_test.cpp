#include "compress/factor/grep_view.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caveman/tokens.h"
#include "compress/common/problem_lines.h"
#include "compress/compressors.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "compress/factor/grep_syntax.h"
#include "support/corpus.h"

namespace caveman::compress::factor {
namespace {

// The view of `input` (checked: it expands to `input` and is not viewed again), or `input`.
std::string roundtrip_or_fail(const std::string& input,
                              const std::function<bool(std::string_view)>& verbatim = {}) {
  std::optional<std::string> view = grep_view(input, verbatim);
  if (!view) return input;
  EXPECT_EQ(expand_blocks(*view), input);
  EXPECT_EQ(grep_view(*view), std::nullopt) << "a view is viewed again";
  return *view;
}

// Ten hits in three files under one directory (a header pays for itself from about there).
std::string python_hits() {
  std::string s = "/usr/lib/python3.11/_aix_support.py:74:        raise ValueError(\"BUILD_GNU_TYPE\")\n";
  for (int i = 0; i < 7; ++i) {
    s += "/usr/lib/python3.11/_pydecimal.py:" + std::to_string(625 + 5 * i) +
         ":                raise ValueError('case " + std::to_string(i) + "')\n";
  }
  s += "/usr/lib/python3.11/email/utils.py:281:            raise ValueError(\"ISO\")\n";
  s += "/usr/lib/python3.11/email/utils.py:290:            raise ValueError(\"zone\")\n";
  return s;
}

TEST(GrepViewTest, HitsAreGroupedByFileUnderTheirSharedRoot) {
  std::string view = roundtrip_or_fail(python_hits());
  EXPECT_TRUE(view.starts_with(
      "[grep output, 10 lines: a file path, then its lines \"N:TEXT\" / \"N-TEXT\" standing "
      "for \"/usr/lib/python3.11/PATH:N:TEXT\" / \"…PATH-N-TEXT\"]\n"
      "_aix_support.py\n"
      "74:        raise ValueError(\"BUILD_GNU_TYPE\")\n"
      "_pydecimal.py\n"
      "625:                raise ValueError('case 0')\n"
      "630:                raise ValueError('case 1')\n"))
      << view;
  EXPECT_TRUE(view.ends_with("email/utils.py\n281:            raise ValueError(\"ISO\")\n"
                             "290:            raise ValueError(\"zone\")\n"))
      << view;
}

TEST(GrepViewTest, ContextLinesAndGroupSeparatorsKeepTheirSeparators) {
  std::string input;
  for (const char* file : {"rules/arrow-body-style.js", "rules/arrow-parens.js", "rules/curly.js"}) {
    input += std::string(file) + "-58-        },\n" + file + "-59-\n" + file +
             ":60:        fixable: \"code\",\n" + file + "-61-\n--\n";
  }
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("; other lines as written]\narrow-body-style.js\n58-        },\n59-\n"
                      "60:        fixable: \"code\",\n61-\n--\narrow-parens.js\n"),
            std::string::npos)
      << view;
}

TEST(GrepViewTest, VerbatimHitsAreWrittenWholeInsideTheBlock) {
  std::string input;
  for (int i = 0; i < 30; ++i) {
    input += "db/db_test.cc:" + std::to_string(148 + i) + ":          return Status::OK();\n";
  }
  input += "db/db_test.cc:179:          s = Status::IOError(\"simulated log file Close error\");\n";
  input += "db/db_test.cc:186:          return Status::OK();\n";
  std::string view = roundtrip_or_fail(input, [](std::string_view l) { return names_a_problem(l); });
  EXPECT_NE(view.find("other lines as written]\ndb_test.cc\n148:"), std::string::npos) << view;
  EXPECT_NE(view.find("\n177:          return Status::OK();\n"
                      "db/db_test.cc:179:          s = Status::IOError(\"simulated log file Close "
                      "error\");\n186:"),
            std::string::npos)
      << view;
}

TEST(GrepViewTest, MarkersStayAsWrittenInsideTheBlock) {
  std::string marker = "… 28 search result lines elided (caveman) …";
  std::string input = python_hits() + marker + "\n" + python_hits();
  std::string view = roundtrip_or_fail(
      input, [](std::string_view l) { return l.find("(caveman)") != std::string_view::npos; });
  EXPECT_TRUE(view.starts_with("[grep output, 21 lines")) << view;
  EXPECT_NE(view.find("\n" + marker + "\n_aix_support.py\n"), std::string::npos) << view;
}

TEST(GrepViewTest, OtherLinesEndARun) {
  std::string input = python_hits() + "Binary file matches\n" + python_hits();
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view.find("\nBinary file matches\n[grep output, 10 lines"), std::string::npos) << view;
}

TEST(GrepViewTest, OutputThatIsNotGrepIsNotViewed) {
  EXPECT_EQ(grep_view("plain\ntext\nwith no hits\nat all\n"), std::nullopt);
  EXPECT_EQ(grep_view("a.c:1:x\nb.c:2:y\nc.c:3:z\nd.c:4:w\n"), std::nullopt);  // nothing shared
}

// Paths that hold digits, separators and quotes, numeric file names, CRLF, blank lines, and
// text that reads like a header: whatever is produced expands to the input.
TEST(GrepViewTest, GeneratedGrepOutputRoundTripsExactly) {
  std::mt19937 rng(21);  // fixed seed: the same cases every run
  const char* paths[] = {"src/a.cc", "src/b-2-c.cc", "src/d:3:e.h", "12", "12-x", "src/\"q\".py",
                         "--", "[grep output, 2 lines", "./x/y.go", "src/a.cc-4-"};
  const char* texts[] = {"", "  return 0;", "\tfoo:12:bar", "x-3-y", "[2 lines \"{1}\"]", "\r",
                         " --", "--"};
  for (int round = 0; round < 400; ++round) {
    std::string input;
    int lines = 1 + static_cast<int>(rng() % 40);
    for (int l = 0; l < lines; ++l) {
      unsigned pick = rng() % 12;
      if (pick == 10) {
        input += "--";
      } else if (pick == 11) {
        input += "not a hit";
      } else {
        input += std::string(paths[rng() % 10]) + (rng() % 3 == 0 ? "-" : ":") +
                 std::to_string(rng() % 2000) + (rng() % 3 == 0 ? "-" : ":") + texts[rng() % 8];
      }
      if (rng() % 8 != 0) input += "\n";
    }
    roundtrip_or_fail(input, [](std::string_view l) { return names_a_problem(l); });
  }
}

TEST(GrepViewTest, EveryCorpusFileThatIsViewedExpandsToItself) {
  for (const auto& f : corpus::corpus_manifest()) {
    std::string input = corpus::read_file(f.path);
    std::optional<std::string> view = grep_view(input);
    if (!view) continue;
    EXPECT_EQ(expand_blocks(*view), input) << f.name;
    EXPECT_LT(view->size(), input.size()) << f.name;
  }
}

// The search-result compressor offers the grouped view; line templates alone leave a file of
// two or three hits with its path on every line.
TEST(GrepViewTest, SearchResultsUseTheGroupedViewWhenItIsCheapest) {
  std::mt19937 rng(7);
  auto word = [&rng] { return "v" + std::to_string(rng() % 1000000); };
  std::string input;
  for (int f = 0; f < 12; ++f) {
    for (int h = 0; h < 1 + f % 3; ++h) {
      input += "packages/engine/src/module_" + std::to_string(f) + "/handler.ts:" +
               std::to_string(10 + 7 * h) + ":" + std::string(2 + rng() % 8, ' ');
      for (unsigned w = 0, n = 2 + rng() % 6; w < n; ++w) input += word() + " ";
      input += "\n";
    }
  }
  auto c = make_factored(make_search_result_compressor(), tokens::default_counter(),
                         FactorViews{.grep = true});
  std::optional<CompressorOutput> out = c->compress(input, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_TRUE(out->bytes.starts_with("[grep output, ")) << out->bytes;
  // Every line of the expanded view is a line of the input, or a marker.
  std::optional<std::string> back = expand_blocks(out->bytes);
  ASSERT_TRUE(back.has_value());
  for (std::size_t at = 0, nl; (nl = back->find('\n', at)) != std::string::npos; at = nl + 1) {
    std::string line = back->substr(at, nl - at);
    EXPECT_TRUE(line.starts_with("… ") || input.find(line + "\n") != std::string::npos) << line;
  }
}

TEST(GrepSyntaxTest, HeadersReadBackAsWritten) {
  GrepHeader h{12, "/usr/lib/", true};
  std::optional<std::string> text = write_grep_header(h);
  ASSERT_TRUE(text.has_value());
  std::optional<GrepHeader> back = parse_grep_header(*text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->lines, 12u);
  EXPECT_EQ(back->root, "/usr/lib/");
  EXPECT_TRUE(back->as_written);
  EXPECT_TRUE(contains_block("x\n" + *text + "\n"));
  EXPECT_EQ(write_grep_header({3, "a\"b/", false}), std::nullopt);
  EXPECT_EQ(parse_grep_header("[grep output, 3 lines of something else]"), std::nullopt);
}

TEST(GrepSyntaxTest, APathEndsAtTheSeparatorBeforeTheLineNumber) {
  EXPECT_EQ(grep_path_end("a/b.c:12:text"), 5u);
  EXPECT_EQ(grep_path_end("rules/arrow-body-style.js-58-        },"), 25u);
  EXPECT_EQ(grep_path_end("a-1-b.c:12:x"), 7u);  // ":N:" before "-N-"
  EXPECT_EQ(grep_path_end("a-1-b.c-12-x", "a-1-b.c"), 7u);  // the previous path when it fits
  EXPECT_EQ(grep_path_end(":12:text"), std::nullopt);
  EXPECT_EQ(grep_path_end("no hit here"), std::nullopt);
}

}  // namespace
}  // namespace caveman::compress::factor
