// Every diff marker note is a checkable fact: the note checker accepts the compressor's
// notes and rejects each kind of false claim; the evals marker-facts grader passes the
// compressor's output on the corpus diffs.
#include "compress/diff/diff_facts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "compress/compressors.h"
#include "evals/marker_facts.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"
#include "text/lines.h"

namespace caveman::compress::diff {
namespace {

// Lines: 0 header a.c, 1 hunk, 2-4 removed, 5 ctx, 6 header b.c, 7 hunk, 8 ctx, 9-11 added,
// 12 ctx.
const std::string kMoved =
    "+++ b/a.c\n@@ -1,4 +1,1 @@\n-int one = 1;\n-int two = 2;\n-int three = 3;\n ctx\n"
    "+++ b/b.c\n@@ -5,2 +5,5 @@\n ctx\n+int one = 1;\n+int two = 2;\n+int three = 3;\n ctx\n";

NoteChecker checker(const std::string& s) { return NoteChecker(text::split_lines(s).lines); }

TEST(DiffFactsTest, MovedNoteMustNameTheAddedLines) {
  NoteChecker c = checker(kMoved);
  EXPECT_EQ(c.check(2, 5, Kind::kRemovedMarker, "identical to added b.c:6-8"), "");
  EXPECT_NE(c.check(2, 5, Kind::kRemovedMarker, "identical to added b.c:5-7"), "");  // off by one
  EXPECT_NE(c.check(2, 5, Kind::kRemovedMarker, "identical to added a.c:6-8"), "");  // wrong file
  EXPECT_NE(c.check(2, 4, Kind::kRemovedMarker, "identical to added b.c:6-8"), "");  // wrong count
  EXPECT_NE(c.check(2, 5, Kind::kAddedMarker, "identical to added b.c:6-8"), "");
}

TEST(DiffFactsTest, DeletedFileNoteCountsIdenticalLines) {
  NoteChecker c = checker(kMoved);
  EXPECT_EQ(c.check(2, 5, Kind::kRemovedMarker, "3 identical to added lines in b.c"), "");
  EXPECT_NE(c.check(2, 5, Kind::kRemovedMarker, "4 identical to added lines in b.c"), "");
  EXPECT_NE(c.check(2, 5, Kind::kRemovedMarker, "1 identical to added lines in a.c"), "");
}

TEST(DiffFactsTest, WhitespaceNoteNeedsTheSameTextBelow) {
  std::string in = "@@ -1,2 +1,2 @@\n-if (x) {\n-  y();\n+if (x)  {\n+    y();\n";
  NoteChecker c = checker(in);
  EXPECT_EQ(c.check(1, 3, Kind::kRemovedMarker, "the next 2 added lines differ only in whitespace"),
            "");
  std::string changed = "@@ -1,2 +1,2 @@\n-if (x) {\n-  y();\n+if (x)  {\n+    z();\n";
  EXPECT_NE(checker(changed).check(1, 3, Kind::kRemovedMarker,
                                   "the next 2 added lines differ only in whitespace"),
            "");
}

TEST(DiffFactsTest, GeneratedFileNoteCountsItsLines) {
  std::string in = "+++ b/yarn.lock\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n";
  NoteChecker c = checker(in);
  EXPECT_EQ(c.check(2, 5, Kind::kBodyMarker, "generated file, 1 added, 1 removed"), "");
  EXPECT_NE(c.check(2, 5, Kind::kBodyMarker, "generated file, 2 added, 1 removed"), "");
  EXPECT_NE(c.check(2, 5, Kind::kBodyMarker, "a summary nobody checks"), "");
}

// Compressed output passes the grader, re-compresses to itself and keeps `must_keep`.
// A file that may decline (nothing worth eliding) passes `may_decline`.
void expect_sound(const std::string& name, const std::string& in,
                  const std::vector<std::string>& must_keep, bool may_decline = false) {
  static const auto diff = make_diff_compressor();
  auto out = diff->compress(in, "");
  if (may_decline && !out.has_value()) return;
  ASSERT_TRUE(out.has_value()) << name;
  evals::MarkerFacts r = evals::check_marker_facts("diff", in, out->bytes);
  EXPECT_TRUE(r.failures.empty()) << name << ": " << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_GT(r.markers, 0) << name;
  auto twice = diff->compress(out->bytes, "");
  if (twice.has_value()) EXPECT_EQ(twice->bytes, out->bytes) << name;
  for (const auto& needle : must_keep)
    EXPECT_NE(out->bytes.find(needle), std::string::npos) << name;
}

TEST(DiffFactsTest, GraderAcceptsCompressorOutput) {
  int seen = 0;
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.kind != "diff") continue;
    ++seen;
    expect_sound(f.name, corpus::read_file(f.path), f.must_keep);
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not available";
}

// More real diffs, for development: CAVEMAN_DIFF_EXTRA=<dir> checks every file in it.
TEST(DiffFactsTest, GraderAcceptsOutputOnExtraDiffs) {
  const char* dir = std::getenv("CAVEMAN_DIFF_EXTRA");
  if (dir == nullptr) GTEST_SKIP() << "CAVEMAN_DIFF_EXTRA not set";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    expect_sound(f.filename().string(), corpus::read_file(f.string()), {}, true);
  }
}

}  // namespace
}  // namespace caveman::compress::diff
