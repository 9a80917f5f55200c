#include <gtest/gtest.h>

#include <string>

#include "compress/compressors.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> run(std::string_view in) {
  static const auto c = make_diff_compressor();
  return c->compress(in, "");
}

std::string lines(int from, int to, std::string_view prefix) {
  std::string out;
  for (int i = from; i <= to; ++i)
    out += std::string(prefix) + "line number " + std::to_string(i) + "\n";
  return out;
}

std::size_t count(std::string_view hay, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t p = hay.find(needle); p != std::string_view::npos; p = hay.find(needle, p + 1))
    ++n;
  return n;
}

// One file, one hunk: 8 context lines, a change, 8 context lines.
std::string far_context_diff() {
  return "diff --git a/f.txt b/f.txt\n"
         "index 1111111..2222222 100644\n"
         "--- a/f.txt\n"
         "+++ b/f.txt\n"
         "@@ -1,17 +1,17 @@ header\n" +
         lines(1, 8, " ") + "-old value\n+new value\n" + lines(10, 17, " ");
}

TEST(DiffCompressorTest, ElidesContextFarFromChanges) {
  auto out = run(far_context_diff());
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "diff --git a/f.txt b/f.txt\n"
            "index 1111111..2222222 100644\n"
            "--- a/f.txt\n"
            "+++ b/f.txt\n"
            "@@ -1,17 +1,17 @@ header\n"
            "\xE2\x80\xA6 7 context lines elided (caveman) \xE2\x80\xA6\n"
            " line number 8\n-old value\n+new value\n"
            " line number 10\n"
            "\xE2\x80\xA6 7 context lines elided (caveman) \xE2\x80\xA6\n");
  EXPECT_EQ(out->method, "diff");
}

TEST(DiffCompressorTest, KeepsEverythingOutsideHunks) {
  // A git log -p commit header and message far from any change are never elided.
  std::string msg;
  for (int i = 0; i < 10; ++i) msg += "    Message line " + std::to_string(i) + " explains why.\n";
  std::string in =
      "commit 0123456789abcdef0123456789abcdef01234567\n"
      "Author: A U Thor <a@example.com>\n"
      "Date:   Mon Jan 1 00:00:00 2024 +0000\n\n" +
      msg + "\n" + far_context_diff();
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes.substr(0, in.find("diff --git")), in.substr(0, in.find("diff --git")));
  EXPECT_NE(out->bytes.find("7 context lines elided"), std::string::npos);
}

TEST(DiffCompressorTest, HunkCountsBoundTheHunk) {
  // After the hunk's 3 lines, a "-" / "+" line belongs to the next file's header and a
  // context-looking line is not context: nothing there may be elided.
  std::string in = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n ctx\n-a\n+b\n" + lines(1, 12, " ") +
                   "--- a/y\n+++ b/y\n";
  EXPECT_FALSE(run(in).has_value());
}

TEST(DiffCompressorTest, OutlinesLongAddedRun) {
  std::string body;
  body += "+// header comment\n+#include <a.h>\n+#include <b.h>\n+\n";  // head (4)
  body += "+int first(int x) {\n";
  for (int i = 0; i < 10; ++i) body += "+  x += " + std::to_string(i) + ";\n";
  body += "+  return x;\n+}\n+// a comment at top level\n";
  body += "+struct Second {\n";
  for (int i = 0; i < 10; ++i) body += "+  int field" + std::to_string(i) + ";\n";
  body += "+};\n+int last = 0;\n+int really_last = 1;\n";  // tail (2)
  // A language the code parser does not read (from the path): the outline rule.
  std::string in =
      "diff --git a/n.inc b/n.inc\nnew file mode 100644\nindex 0000000..3333333\n"
      "--- /dev/null\n+++ b/n.inc\n@@ -0,0 +1,34 @@\n" +
      body;
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  const std::string& o = out->bytes;
  EXPECT_NE(o.find("+#include <a.h>\n"), std::string::npos);      // head
  EXPECT_NE(o.find("+int first(int x) {\n"), std::string::npos);  // outline
  EXPECT_NE(o.find("+struct Second {\n"), std::string::npos);
  EXPECT_NE(o.find("+int really_last = 1;\n"), std::string::npos);  // tail
  EXPECT_EQ(o.find("x += 3"), std::string::npos);
  EXPECT_EQ(o.find("field3"), std::string::npos);
  // The lines between the outline's are each rare (they occur once): they stay.
  EXPECT_NE(o.find("+  return x;\n+}\n+// a comment at top level\n"), std::string::npos) << o;
  EXPECT_EQ(count(o, "\xE2\x80\xA6 10 added lines elided (caveman) \xE2\x80\xA6\n"), 2u) << o;
}

TEST(DiffCompressorTest, OutlinesLongRemovedRun) {
  std::string body;
  for (int i = 0; i < 30; ++i) body += "-    removed statement " + std::to_string(i) + ";\n";
  std::string in = "--- a/r.cc\n+++ b/r.cc\n@@ -1,31 +1,1 @@\n" + body + " kept\n";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  // All lines share one indentation: the outline would be the whole run, so only the
  // head and tail survive.
  EXPECT_NE(out->bytes.find("\xE2\x80\xA6 24 removed lines elided (caveman) \xE2\x80\xA6\n"),
            std::string::npos);
  EXPECT_NE(out->bytes.find("removed statement 3;"), std::string::npos);
  EXPECT_EQ(out->bytes.find("removed statement 4;"), std::string::npos);
  EXPECT_NE(out->bytes.find("removed statement 28;"), std::string::npos);
}

TEST(DiffCompressorTest, RepeatedHunkBecomesAReference) {
  // The same lines in every file: a hunk that held a line of its own (a rare one) would stay.
  auto file = [](const std::string& name, const std::string& ctx) {
    return "diff --git a/" + name + " b/" + name + "\n--- a/" + name + "\n+++ b/" + name +
           "\n@@ -10,5 +10,5 @@ void " + ctx +
           "()\n   int status = 0;\n   Request req;\n"
           "-  legacy_call(argument_one, argument_two);\n+  modern_call(argument_one, "
           "argument_two);\n"
           "   status = send(req);\n   return status;\n";
  };
  std::string in = file("src/a.cc", "alpha") + file("src/b.cc", "beta") + file("src/c.cc", "gamma");
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  const std::string marker =
      "\xE2\x80\xA6 6 lines elided (caveman): same change as src/a.cc @@ -10,5 +10,5 @@ "
      "\xE2\x80\xA6\n";
  EXPECT_EQ(out->bytes, file("src/a.cc", "alpha") +
                            "diff --git a/src/b.cc b/src/b.cc\n--- a/src/b.cc\n+++ b/src/b.cc\n"
                            "@@ -10,5 +10,5 @@ void beta()\n" +
                            marker +
                            "diff --git a/src/c.cc b/src/c.cc\n--- a/src/c.cc\n+++ b/src/c.cc\n"
                            "@@ -10,5 +10,5 @@ void gamma()\n" +
                            marker);
  EXPECT_FALSE(run(out->bytes).has_value());  // idempotent: nothing left to elide
}

TEST(DiffCompressorTest, ShortRunsStayWhenTheMarkerIsLonger) {
  // git's default 3-line context: with 1 kept per side two short lines are left over;
  // their marker would be longer than the lines, so nothing is elided.
  std::string in = "--- a/f\n+++ b/f\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n" +
                   std::string("--- a/g\n+++ b/g\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n");
  EXPECT_FALSE(run(in).has_value());
}

// Expects `once` to be a fixed point: compressing it again declines or changes nothing.
void expect_idempotent(const std::string& once) {
  auto twice = run(once);
  if (twice.has_value()) EXPECT_EQ(twice->bytes, once);
}

// Six alike lines: a block holding a rare line (one that occurs once) is never elided.
std::string block(std::string_view prefix, std::string_view indent) {
  std::string out;
  for (int i = 0; i < 6; ++i) {
    out += std::string(prefix) + std::string(indent) + "  register_handler(kRoute" +
           std::to_string(i) + ", on_route_" + std::to_string(i) + ", 100);\n";
  }
  return out;
}

TEST(DiffCompressorTest, MovedBlockNamesWhereTheTextWasAdded) {
  // The registrations move from a.c to b.c (new lines 21-26) in one commit.
  std::string in = "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -10,8 +10,2 @@ top\n ctx a\n" +
                   block("-", "") +
                   " ctx b\n"
                   "diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -20,2 +20,8 @@ top\n ctx c\n" +
                   block("+", "") + " ctx d\n";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(
      out->bytes.find(" ctx a\n\xE2\x80\xA6 6 removed lines elided (caveman): identical to added "
                      "b.c:21-26 \xE2\x80\xA6\n ctx b\n"),
      std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find(block("+", "")), std::string::npos);  // the added copy stays
  expect_idempotent(out->bytes);
}

TEST(DiffCompressorTest, MovedBlockStaysWithinOneCommit) {
  // Removed in one commit, added back in a later one (`git log -p`): not a move.
  std::string in =
      "commit 1111111111111111111111111111111111111111\n\n    first\n\n"
      "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -10,8 +10,2 @@\n ctx a\n" +
      block("-", "") +
      " ctx b\n"
      "commit 2222222222222222222222222222222222222222\n\n    second\n\n"
      "diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -20,2 +20,8 @@\n ctx c\n" +
      block("+", "") + " ctx d\n";
  auto out = run(in);
  if (out.has_value()) EXPECT_EQ(out->bytes.find("identical to added"), std::string::npos);
}

TEST(DiffCompressorTest, ReindentedBlockKeepsOnlyTheNewText) {
  std::string in = "--- a/r.c\n+++ b/r.c\n@@ -1,8 +1,8 @@\n ctx top\n" + block("-", "") +
                   block("+", "    ") + " ctx bottom\n";
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "--- a/r.c\n+++ b/r.c\n@@ -1,8 +1,8 @@\n ctx top\n"
            "\xE2\x80\xA6 6 removed lines elided (caveman): the next 6 added lines differ "
            "only in whitespace \xE2\x80\xA6\n" +
                block("+", "    ") + " ctx bottom\n");
  expect_idempotent(out->bytes);
}

TEST(DiffCompressorTest, ReindentRuleNeedsEveryLineToMatch) {
  std::string changed = block("+", "    ");
  changed.replace(changed.find("100"), 3, "200");
  std::string in = "--- a/r.c\n+++ b/r.c\n@@ -1,8 +1,8 @@\n ctx top\n" + block("-", "") + changed +
                   " ctx bottom\n";
  auto out = run(in);
  if (out.has_value()) EXPECT_EQ(out->bytes.find("whitespace"), std::string::npos);
}

TEST(DiffCompressorTest, DeletedFileBodyIsOneMarker) {
  std::string body;
  for (int i = 0; i < 9; ++i)
    body += "-int removed_value_" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  std::string in =
      "diff --git a/gone.c b/gone.c\ndeleted file mode 100644\nindex 1234567..0000000\n"
      "--- a/gone.c\n+++ /dev/null\n@@ -1,9 +0,0 @@\n" +
      body;
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->bytes,
            "diff --git a/gone.c b/gone.c\ndeleted file mode 100644\nindex 1234567..0000000\n"
            "--- a/gone.c\n+++ /dev/null\n@@ -1,9 +0,0 @@\n"
            "\xE2\x80\xA6 9 removed lines elided (caveman) \xE2\x80\xA6\n");
  expect_idempotent(out->bytes);
}

TEST(DiffCompressorTest, LockFileHunksBecomeCounts) {
  std::string hunk =
      "@@ -10,7 +10,7 @@\n     \"node_modules/express\": {\n"
      "-      \"version\": \"4.21.1\",\n-      \"integrity\": \"sha512-aaaa\",\n"
      "+      \"version\": \"4.21.2\",\n+      \"integrity\": \"sha512-bbbb\",\n"
      "       \"license\": \"MIT\",\n       \"dependencies\": {\n";
  std::string in =
      "diff --git a/web/package-lock.json b/web/package-lock.json\n"
      "--- a/web/package-lock.json\n+++ b/web/package-lock.json\n" +
      hunk +
      "diff --git a/web/package.json b/web/package.json\n"
      "--- a/web/package.json\n+++ b/web/package.json\n" +
      hunk;
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(
      out->bytes.find("+++ b/web/package-lock.json\n@@ -10,7 +10,7 @@\n"
                      "\xE2\x80\xA6 7 lines elided (caveman): generated file, 2 added, 2 removed "
                      "\xE2\x80\xA6\n"),
      std::string::npos)
      << out->bytes;
  // package.json is written by hand: its change stays (as a repeat of the lock file's
  // hunk it would point there, but that hunk is summarised, not shown).
  EXPECT_NE(out->bytes.find("+      \"version\": \"4.21.2\",\n"), std::string::npos);
  expect_idempotent(out->bytes);
}

std::string new_file(const std::string& path, const std::string& body, int count) {
  return "diff --git a/" + path + " b/" + path +
         "\nnew file mode 100644\nindex 0000000..3333333\n"
         "--- /dev/null\n+++ b/" +
         path + "\n@@ -0,0 +1," + std::to_string(count) + " @@\n" + body;
}

TEST(DiffCompressorTest, NewSourceFileLosesItsFunctionBodies) {
  // The body's lines are alike: a body holding a rare line (one that occurs once) stays.
  std::string body =
      "+#include <string>\n+\n+// Adds things.\n+class Adder {\n+ public:\n"
      "+  // The sum, clamped.\n+  int Add(int a, int b) const {\n"
      "+    total_ += weight_1 * a;\n+    total_ += weight_2 * b;\n+    total_ += weight_3 * a;\n"
      "+    total_ += weight_4 * b;\n+    total_ += weight_5 * a;\n"
      "+  }\n+\n+ private:\n+  int limit_ = 100;\n+};\n";
  std::string in = new_file("src/adder.h", body, 17);
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  const std::string& o = out->bytes;
  EXPECT_NE(
      o.find("+  // The sum, clamped.\n+  int Add(int a, int b) const {\n"
             "\xE2\x80\xA6 5 added lines elided (caveman): function body \xE2\x80\xA6\n+  }\n"),
      std::string::npos)
      << o;
  EXPECT_NE(o.find("+  int limit_ = 100;\n"), std::string::npos);  // members stay
  EXPECT_EQ(o.find("weight_3"), std::string::npos);
  expect_idempotent(o);
  // Not a whole new file (a hunk with context): no body rule.
  std::string modified =
      "--- a/src/adder.h\n+++ b/src/adder.h\n@@ -1,1 +1,18 @@\n #pragma once\n" + body;
  auto m = run(modified);
  if (m.has_value()) EXPECT_EQ(m->bytes.find("function body"), std::string::npos);
}

TEST(DiffCompressorTest, NewFileLicenceHeaderKeepsItsFirstLine) {
  // Two new files under one header, so its lines are not rare (a line that occurs once stays).
  std::string header =
      "+#!/usr/bin/env python3\n+# Copyright 2024 Example Authors.\n+#\n"
      "+# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
      "+# you may not use this file except in compliance with the License.\n"
      "+# You may obtain a copy of the License at https://www.apache.org/licenses/LICENSE-2.0\n"
      "+\n+import sys\n";
  std::string run_py =
      header + "+print(sys.argv)\n+print(len(sys.argv))\n+print('done')\n+sys.exit(0)\n";
  std::string other_py = header + "+def main():\n+    return 0\n";
  std::string in = new_file("tool/run.py", run_py, 12) + new_file("tool/other.py", other_py, 10);
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  const std::string elided =
      "+#!/usr/bin/env python3\n+# Copyright 2024 Example Authors.\n"
      "\xE2\x80\xA6 4 added lines elided (caveman): licence header \xE2\x80\xA6\n+\n+import sys\n";
  EXPECT_NE(out->bytes.find("+++ b/tool/run.py\n@@ -0,0 +1,12 @@\n" + elided), std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("+++ b/tool/other.py\n@@ -0,0 +1,10 @@\n" + elided), std::string::npos)
      << out->bytes;
  expect_idempotent(out->bytes);
  // A leading comment that is not a licence stays.
  std::string doc = in;
  for (std::string_view w : {"Copyright", "License", "LICENSE", "Licensed"}) {
    for (std::size_t at = doc.find(w); at != std::string::npos; at = doc.find(w))
      doc.replace(at, w.size(), "Note");
  }
  auto kept = run(doc);
  if (kept.has_value()) EXPECT_EQ(kept->bytes.find("licence header"), std::string::npos);
}

TEST(DiffCompressorTest, IdempotentOnItsOwnOutput) {
  std::string in = far_context_diff();
  auto once = run(in);
  ASSERT_TRUE(once.has_value());
  auto twice = run(once->bytes);
  if (twice.has_value()) EXPECT_EQ(twice->bytes, once->bytes);
}

TEST(DiffCompressorTest, IdempotentAndDeterministicOnCorpusDiffs) {
  int seen = 0;
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.kind != "diff") continue;
    ++seen;
    std::string in = corpus::read_file(f.path);
    auto once = run(in);
    ASSERT_TRUE(once.has_value()) << f.name;
    auto again = run(in);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(once->bytes, again->bytes) << f.name;
    auto twice = run(once->bytes);
    if (twice.has_value()) EXPECT_EQ(twice->bytes, once->bytes) << f.name;
    for (const auto& needle : f.must_keep) {
      EXPECT_NE(once->bytes.find(needle), std::string::npos) << f.name << ": " << needle;
    }
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not available";
}

TEST(DiffCompressorTest, CrlfMarkersFollowTheMajorityLineEnding) {
  std::string in = far_context_diff();
  std::string crlf;
  for (char c : in) {
    if (c == '\n')
      crlf += "\r\n";
    else
      crlf += c;
  }
  auto out = run(crlf);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("7 context lines elided (caveman) \xE2\x80\xA6\r\n"),
            std::string::npos);
  EXPECT_NE(out->bytes.find(" line number 8\r\n"), std::string::npos);
}

TEST(DiffCompressorTest, DeclinesBadOrUnsuitableInput) {
  EXPECT_FALSE(run("").has_value());
  EXPECT_FALSE(run("--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n").has_value());  // < 12 lines
  std::string bad = far_context_diff();
  bad[bad.find("line number 2")] = '\xff';
  EXPECT_FALSE(run(bad).has_value());                     // invalid UTF-8
  EXPECT_FALSE(run(lines(1, 40, "plain ")).has_value());  // no hunks
  // Combined diffs (merge commits) are not parsed: nothing is elided.
  EXPECT_FALSE(run("@@@ -1,20 -1,20 +1,20 @@@\n" + lines(1, 20, "  ")).has_value());
}

TEST(DiffCompressorTest, TruncatedHunkStillCompresses) {
  // `head -n` cut the diff inside a hunk: the header promises more lines than exist.
  std::string in = "@@ -1,999 +1,999 @@\n-a\n+b\n" + lines(1, 20, " ");
  auto out = run(in);
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("19 context lines elided"), std::string::npos);
}

}  // namespace
}  // namespace caveman::compress
