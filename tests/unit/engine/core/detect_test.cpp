#include <gtest/gtest.h>

#include "caveman/engine.h"
#include "core/detect_rules.h"

namespace caveman {
namespace {

TEST(DetectTest, EmptyIsText) {
  EXPECT_EQ(detect(""), "text");
  EXPECT_EQ(detect("  \n\t"), "text");
}

TEST(DetectTest, Json) {
  EXPECT_EQ(detect("{\"a\":1}"), "json");
  EXPECT_EQ(detect("  [1,2,3]\n"), "json");
  EXPECT_NE(detect("{\"a\":1} trailing"), "json");  // near miss: trailing data
  EXPECT_NE(detect("{\"a\":}"), "json");
}

TEST(DetectTest, JsonLinesThatNameALevelTimeOrMessageAreALog) {
  std::string log, rows;
  for (int i = 0; i < 10; ++i) {
    log += "{\"level\":30,\"time\":" + std::to_string(1765100000000 + i) + ",\"msg\":\"ok\"}\n";
    rows += "{\"id\":" + std::to_string(i) + ",\"name\":\"pkg" + std::to_string(i) + "\"}\n";
  }
  EXPECT_EQ(detect(log), "log");
  EXPECT_NE(detect(rows), "log");  // one record a line, but nothing a log names
  EXPECT_NE(detect(log.substr(0, log.find('\n', 200))), "log");  // too few lines
}

TEST(DetectTest, Terminal) {
  EXPECT_EQ(detect("\x1b[31mred\x1b[0m text"), "terminal");
  EXPECT_EQ(detect("a\rb\rc\rd"), "terminal");
  EXPECT_NE(detect("a\r\nb\r\nc\r\nd\r\n"), "terminal");  // CRLF is not a redraw
}

TEST(DetectTest, Diff) {
  std::string d = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n context\n";
  EXPECT_EQ(detect(d), "diff");
  EXPECT_NE(detect("- item one\n- item two\n- item three\n- item four\n"), "diff");
}

TEST(DetectTest, Html) {
  EXPECT_EQ(detect("<!DOCTYPE html><html><body>x</body></html>"), "html");
  EXPECT_EQ(detect("<div><p>a</p><p>b</p><p>c</p></div>"), "html");
  // JSX is code, not HTML.
  EXPECT_NE(detect("const A = () => (<div><p>a</p><p>b</p><p>c</p></div>);"), "html");
}

TEST(DetectTest, Tabular) {
  std::string csv = "id,name\n";
  for (int i = 0; i < 10; ++i) csv += std::to_string(i) + ",n" + std::to_string(i) + "\n";
  EXPECT_EQ(detect(csv), "tabular");
  std::string short_csv = "id,name\n1,a\n2,b\n";
  EXPECT_NE(detect(short_csv), "tabular");
}

TEST(DetectTest, Code) {
  std::string py = "import os\n\ndef f(x):\n    return x\n\nclass A:\n    pass\n";
  EXPECT_EQ(detect(py), "code");
  EXPECT_EQ(detect("#!/bin/sh\necho hi\n"), "code");
  EXPECT_NE(detect("we import goods and return them to the class"), "code");
}

TEST(DetectTest, Log) {
  std::string log =
      "2026-01-01 10:00:00 INFO start\n2026-01-01 10:00:01 INFO step\n"
      "2026-01-01 10:00:02 ERROR boom\n2026-01-01 10:00:03 INFO done\n";
  EXPECT_EQ(detect(log), "log");
  EXPECT_NE(detect("one\ntwo\nthree info\n"), "log");
}

TEST(DetectTest, SearchResult) {
  std::string s;
  for (int i = 1; i <= 6; ++i) s += "src/a.cc:" + std::to_string(i) + ":  foo bar\n";
  EXPECT_EQ(detect(s), "search-result");
  EXPECT_NE(detect("a:b\nc:d\ne:f\ng:h\ni:j\nk:l\n"), "search-result");
}

TEST(DetectTest, Config) {
  std::string toml;
  for (int s = 0; s < 3; ++s) {
    toml += "[section" + std::to_string(s) + "]\n";
    for (int k = 0; k < 4; ++k) toml += "key" + std::to_string(k) + " = value\n";
  }
  EXPECT_EQ(detect(toml), "config");
  std::string yaml = "a: 1\nb: 2\nc:\n  d: 3\n  e: 4\nf: 5\ng: 6\nh: 7\ni: 8\nj: 9\nk: 10\nl: 11\n";
  EXPECT_EQ(detect(yaml), "config");
  EXPECT_EQ(
      detect("a: [unclosed\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8\ni: 9\nj: 10\nk: 11\nl: 12\n"),
      "text");  // YAML that does not parse
}

TEST(DetectTest, FallbackIsText) {
  EXPECT_EQ(detect("Just a paragraph of prose about nothing in particular."), "text");
}

TEST(DetectTest, LooksThroughGutter) {
  std::string listing;
  for (int i = 1; i <= 10; ++i)
    listing += "     " + std::to_string(i) + "\t{\"k\": " + std::to_string(i) + "}\n";
  // Each line alone is JSON-ish but the whole is not one JSON value.
  std::string json_listing = "     1\t{\n";
  for (int i = 2; i <= 9; ++i)
    json_listing += "     " + std::to_string(i) + "\t  \"k" + std::to_string(i) + "\": 1,\n";
  json_listing += "    10\t  \"z\": 2\n    11\t}\n";
  EXPECT_EQ(detect(json_listing), "json");
}

}  // namespace
}  // namespace caveman

namespace caveman {
namespace {

std::string repeat_lines(const std::vector<std::string>& lines, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) {
    for (const auto& l : lines) out += l + "\n";
  }
  return out;
}

// Beyond the original rules: line-shape evidence decided before the permissive code rule.
TEST(DetectBeyondTest, TestRunnerOutputIsLog) {
  std::string gtest;
  for (int i = 0; i < 20; ++i) {
    gtest += "[ RUN      ] Suite.Case" + std::to_string(i) + "\n";
    gtest += "[       OK ] Suite.Case" + std::to_string(i) + " (0 ms)\n";
  }
  EXPECT_EQ(detect(gtest), "log");
  // doctest -v: code snippets under repeating "Trying:/Expecting:/ok" templates.
  std::string doctest = repeat_lines(
      {"Trying:", "    x = f(1); return {a: b}", "Expecting:", "    {'a': 1}", "ok"}, 10);
  EXPECT_EQ(detect(doctest), "log");
}

TEST(DetectBeyondTest, NpmDebugLogIsLog) {
  std::string log;
  for (int i = 0; i < 12; ++i)
    log += std::to_string(i) + " silly config load:file:/x{" + std::to_string(i) + "}\n";
  EXPECT_EQ(detect(log), "log");
}

TEST(DetectBeyondTest, GrepOutputOfCodeIsSearchResult) {
  std::string grep;
  for (int i = 1; i <= 10; ++i) {
    grep += "src/a.py:" + std::to_string(i * 10) + ":    raise ValueError('bad') if x else {}\n";
  }
  EXPECT_EQ(detect(grep), "search-result");
  std::string single_file;  // grep -n -C1 on one file: "N:" hits and "N-" context lines
  for (int i = 1; i <= 6; ++i) {
    single_file += std::to_string(i * 10 - 1) + "-  int a;\n" + std::to_string(i * 10) +
                   ":  int sqlite3_open(const char *x);\n--\n";
  }
  EXPECT_EQ(detect(single_file), "search-result");
}

TEST(DetectBeyondTest, MarkdownWithCodeBlocksIsText) {
  std::string md = "# Title\n\nSome words here about the thing.\n\n## Usage\n\n```js\n";
  for (int i = 0; i < 8; ++i)
    md += "const x" + std::to_string(i) + " = require('y'); function f() { return 1; }\n";
  md += "```\n\n## More\n\n```\nexport default class A {}\n```\n";
  EXPECT_EQ(detect(md), "text");
}

TEST(DetectBeyondTest, ReleaseNotesUnderHeadingsAreText) {
  std::string notes =
      "# Release notes\n\nThis page lists the maintenance releases of the agent.\n\n";
  for (int i = 1; i <= 12; ++i) {
    notes += "## Version 3." + std::to_string(i) + ".0\n\nMaintenance release " +
             std::to_string(i) +
             ": refreshed the bundled certificate store and rebuilt the agent.\n\n";
  }
  EXPECT_EQ(detect(notes), "text");
  // Python with many "# comment" lines stays code.
  std::string py = "import os\n\n";
  for (int i = 0; i < 12; ++i) {
    py += "# step " + std::to_string(i) + " of the pipeline does the thing\ndef step" +
          std::to_string(i) + "(x):\n    return x + " + std::to_string(i) + "\n\n";
  }
  EXPECT_EQ(detect(py), "code");
}

TEST(DetectBeyondTest, ProseWithBracesIsNotCode) {
  std::string man;
  for (int i = 0; i < 10; ++i) {
    man +=
        "       The option controls what is shown when the class of the value is {private}\n"
        "       and the function returns the default import path to the user.\n";
  }
  EXPECT_EQ(detect(man), "text");
}

TEST(DetectBeyondTest, LogfmtIsLogNotFlatConfig) {
  std::string logfmt;
  for (int i = 0; i < 14; ++i) {
    logfmt += "ts=2026-01-01T00:00:" + std::to_string(10 + i) + "Z level=info msg=step" +
              std::to_string(i) + " worker=w1\n";
  }
  EXPECT_EQ(detect(logfmt), "log");
  std::string flat;  // a real flat key = value file (postgresql.conf style): distinct keys
  for (const char* key : {"port", "max_connections", "shared_buffers", "work_mem", "listen", "ssl",
                          "log_line_prefix", "timezone", "datestyle", "lc_messages", "fsync",
                          "wal_level", "archive_mode", "max_wal_size"}) {
    flat += std::string(key) + " = on    # (change requires restart)\n";
  }
  EXPECT_EQ(detect(flat), "config");
}

TEST(DetectBeyondTest, ShebangScriptIsCode) { EXPECT_EQ(detect("#!/bin/sh\necho hi\n"), "code"); }

}  // namespace
}  // namespace caveman

namespace caveman {
namespace {

TEST(DetectTablesTest, PsqlOutputIsTabular) {
  std::string psql =
      " id | name  | size \n"
      "----+-------+------\n"
      "  1 | alpha |   10\n"
      "  2 | beta  |  200\n"
      "  3 | gamma |    3\n"
      "(3 rows)\n\n";
  EXPECT_EQ(detect(psql), "tabular");
}

TEST(DetectTablesTest, ALimitedReadOfPsqlOutputIsTabular) {
  std::string psql = "   name   | setting \n----------+---------\n";
  for (int i = 0; i < 30; ++i) psql += " option_" + std::to_string(i % 10) + " | on\n";
  EXPECT_EQ(detect(psql), "tabular");  // no "(N rows)" footer: cut by the Read
}

TEST(DetectTablesTest, MysqlOutputWithBordersIsTabular) {
  std::string mysql =
      "+----+-------+\n"
      "| id | name  |\n"
      "+----+-------+\n"
      "|  1 | alice |\n"
      "|  2 | bob   |\n"
      "+----+-------+\n"
      "2 rows in set (0.00 sec)\n";
  EXPECT_EQ(detect(mysql), "tabular");
}

// Two columns under a rule whose dash groups start where the columns do: `pip list`,
// `sqlite3 -column`. An underlined heading over prose is no table.
TEST(DetectTablesTest, TwoColumnsUnderAMatchingRuleAreTabular) {
  EXPECT_EQ(detect("Package    Version\n---------- -------\npip        23.0.1\nsetuptools 66.1.1\n"
                   "wheel      0.38.4\nrequests   2.28.1\nurllib3    1.26.12\n"),
            "tabular");
  EXPECT_NE(detect("Title\n-----\nSome prose here that goes on.\nAnd more prose on the line.\n"
                   "A third line of words here.\nFourth line of the text.\nFifth and last.\n"),
            "tabular");
  // The rule's second group is not where the second column starts.
  EXPECT_NE(detect("Package    Version\n---  -------\npip        23.0.1\nsetuptools 66.1.1\n"
                   "wheel      0.38.4\nrequests   2.28.1\nurllib3    1.26.12\n"),
            "tabular");
}

TEST(DetectTablesTest, ProseAroundASmallAlignedTableIsNotTabular) {
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += "This paragraph explains the release in several plain words.\n";
  text += " a | b \n---+---\n 1 | 2 \n 3 | 4 \n";
  EXPECT_NE(detect(text), "tabular");
}

TEST(DetectHtmlTest, XhtmlWithAnXmlPrologIsHtml) {
  std::string x =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x.dtd\">"
      "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><style>/*\n * c\n */\n"
      "a { color: red; }\n</style>\n";
  EXPECT_EQ(detect(x), "html");
}

TEST(DetectHtmlTest, DoctypeAfterCommentsIsHtml) {
  EXPECT_EQ(detect("<!-- generated -->\n<!-- by a tool -->\n<!DOCTYPE html>\n<p>x</p>\n"), "html");
}

TEST(DetectHtmlTest, MarkdownThatEmbedsHtmlBlocksStaysText) {
  std::string md =
      "<div align=\"center\">\n<img src=\"logo.svg\" width=\"120\">\n<p>A tool</p>\n</div>\n\n"
      "# Project\n\nSome words about the project and how to use it well.\n\n"
      "## Install\n\n<p>Run the installer:</p>\n\n<div><b>note</b></div>\n";
  EXPECT_EQ(detect(md), "text");
}

}  // namespace
}  // namespace caveman
