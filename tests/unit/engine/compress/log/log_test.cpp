#include <gtest/gtest.h>

#include <string>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input, std::string_view query = "") {
  auto c = make_log_compressor();
  auto out = c->compress(input, query);
  if (!out) return std::nullopt;
  EXPECT_EQ(out->method, "log");
  return out->bytes;
}

std::string e2_line(int k) {
  char ts[32];
  std::snprintf(ts, sizeof ts, "%02d", k);
  return std::string("2026-01-01T00:00:") + ts + "Z INFO worker=w1 step=" + std::to_string(k) +
         " status=ok";
}

std::string e2_log(int n, const std::string& eol = "\n") {
  std::string s;
  for (int k = 1; k <= n; ++k) s += e2_line(k) + eol;
  return s;
}

TEST(LogTest, E2) {
  EXPECT_EQ(run(e2_log(12)),
            e2_line(1) + "\n" + e2_line(2) +
                "\n… 8 lines matching \"2026-01-01T00:00:{x} INFO worker=w1 step={n} status=ok\" "
                "elided (caveman) …\n" +
                e2_line(11) + "\n" + e2_line(12) + "\n");
}

TEST(LogTest, DeclinesShortOrInvalidInput) {
  EXPECT_EQ(run("a\nb\nc\n"), std::nullopt);
  EXPECT_EQ(run(e2_log(12) + "\xff\n"), std::nullopt);
  std::string huge(64u << 20, 'x');  // a 64 MiB single line
  EXPECT_EQ(run(huge), std::nullopt);
}

TEST(LogTest, TrailingNewlineIsPreserved) {
  std::string in = e2_log(12);
  in.pop_back();
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->ends_with(e2_line(12)));
}

TEST(LogTest, CrlfIsPreserved) {
  auto out = run(e2_log(12, "\r\n"));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find(e2_line(2) + "\r\n… 8 lines matching "), std::string::npos) << *out;
  EXPECT_NE(out->find("elided (caveman) …\r\n" + e2_line(11) + "\r\n"), std::string::npos) << *out;
  // A CR-minority input gets LF-only markers; lines keep their own CR.
  std::string mixed = e2_log(12);
  mixed.insert(mixed.find('\n'), "\r");
  out = run(mixed);
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->starts_with(e2_line(1) + "\r\n" + e2_line(2) + "\n… 8 lines")) << *out;
  EXPECT_NE(out->find("elided (caveman) …\n" + e2_line(11) + "\n"), std::string::npos) << *out;
}

std::string with_line(int at, const std::string& line, int n = 30) {
  std::string s;
  for (int k = 1; k <= n; ++k) s += (k == at ? line : e2_line(k)) + "\n";
  return s;
}

TEST(LogTest, KeepsErrorWordsAndStackFrames) {
  for (std::string line :
       {"2026 ERROR disk full", "fatal: bad object", "PANIC now", "an Exception here",
        "Traceback (most recent call last):", "test FAIL", "3 FAILED", "build failure",
        "WARN low memory", "warning: unused", "    at com.x.Y.run(Y.java:12)",
        "  File \"/x.py\", line 3, in f", "File \"/usr/lib/x.py\", line 80, in decimal",
        "main.go:42 something", "   ---> inner", "Caused by: java.io.IOException"}) {
    auto out = run(with_line(15, line));
    ASSERT_TRUE(out) << line;
    EXPECT_NE(out->find("\n" + line + "\n"), std::string::npos) << line << "\n" << *out;
  }
  // Near misses are not kept by these rules: the same line as the (kept) head elides.
  std::string near = "INFO worker=w1 status=errorless at=x";
  std::string s = near + "\n";
  for (int k = 0; k < 20; ++k) s += near + "\n";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, near + "\n" + near +
                      "\n… 17 lines matching \"INFO worker=w1 status=errorless at=x\" elided "
                      "(caveman) …\n" +
                      near + "\n" + near + "\n");
}

TEST(LogTest, KeepsTheLineThatEndsAPythonTraceback) {
  std::string s;
  for (int k = 1; k <= 10; ++k) s += e2_line(k) + "\n";
  s += "    Traceback (most recent call last):\n";
  s += "      File \"/x.py\", line 1, in <module>\n";
  s += "        f()\n";
  s += "    decimal.InvalidOperation: quantize with one INF\n";
  for (int k = 11; k <= 20; ++k) s += e2_line(k) + "\n";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("decimal.InvalidOperation: quantize with one INF"), std::string::npos)
      << *out;
}

TEST(LogTest, ShortRunsStayUnlessTheirMarkerIsShorter) {
  // Head 2 + tail 2 of 6 lines leaves a 2-line run: it collapses only when its marker
  // (which quotes the lines' template) is shorter than the run.
  std::string pad(80, 'z');
  std::string s;
  for (int k = 1; k <= 6; ++k) s += "INFO a=1 b=" + std::to_string(k) + " pad=" + pad + "\n";
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("… 2 lines matching \"INFO a=1 b={n} pad=" + pad + "\" elided (caveman) …\n"),
            std::string::npos)
      << *out;
  std::string small = "INFO a=1\nINFO a=1\nINFO a=1\nINFO a=1\nINFO a=1\nINFO a=1\n";
  out = run(small);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, small);  // nothing worth eliding: same bytes (the engine passes through)
}

TEST(LogTest, QueryRelevanceKeepsMatchingLines) {
  std::string s = with_line(15, "2026-01-01T00:00:15Z INFO worker=w7 step=15 status=ok");
  auto plain = run(s);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("worker=w7"), std::string::npos);
  auto q = run(s, "w7");
  ASSERT_TRUE(q);
  EXPECT_NE(q->find("worker=w7"), std::string::npos);
  EXPECT_EQ(run(s, ""), plain);
}

TEST(LogTest, DistinctLinesAreNotElided) {
  std::string s =
      "alpha starts the engine\nbravo loads configuration files\ncharlie opens sockets\n"
      "delta reads the manifest\necho compiles sources\nfoxtrot links binaries\n"
      "golf writes artifacts\nhotel uploads results\n";
  EXPECT_EQ(run(s), s);
}

TEST(LogTest, DeterministicAndIdempotent) {
  std::string s = with_line(15, "ERROR boom", 120);
  auto a = run(s);
  ASSERT_TRUE(a);
  EXPECT_EQ(run(s), a);
  EXPECT_EQ(run(*a), std::nullopt);  // re-entry: our markers are never compressed again
}

TEST(LogTest, JsonLinesElideBehindASelector) {
  // Blanks between members: a blank-free line is one field, and the level in it may not vary.
  std::string s;
  for (int k = 0; k < 12; ++k) {
    s += "{\"level\": \"info\", \"svc\": \"api\", \"n\": " + std::to_string(k) + "}\n";
  }
  auto out = run(s);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\n… 8 lines matching \"{\\\"level\\\": \\\"info\\\", \\\"svc\\\": "
                      "\\\"api\\\", \\\"n\\\": {n}}\" elided (caveman) …\n"),
            std::string::npos)
      << *out;
}

}  // namespace
}  // namespace caveman::compress
