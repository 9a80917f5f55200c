// `caveman-engine toon encode|decode`: flags mirror the spec fixtures' options, stdin → stdout
// without a trailing newline, invalid input → exit 1 with one cave_… line and empty stdout.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/engine_cli.h"
#include "json/json.h"
#include "unit/engine/toon/spec_fixtures.h"

namespace caveman::toon {
namespace {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun run_cli(std::vector<std::string> args, const std::string& stdin_text) {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  int code = engine_cli::run_engine_cli(args, in, out, err);
  return {code, out.str(), err.str()};
}

// The CLI flags for a fixture case's options object.
std::vector<std::string> fixture_args(const testing::FixtureCase& c) {
  std::vector<std::string> args = {"toon", c.category};
  const json::Value* o = c.options();
  if (o == nullptr) return args;
  for (const json::Member& m : o->members) {
    if (m.key == "delimiter") {
      args.push_back("--delimiter");
      args.push_back(m.value.text == "\t" ? "tab" : m.value.text == "|" ? "pipe" : "comma");
    } else if (m.key == "indent") {
      args.push_back("--indent");
      args.push_back(m.value.text);
    } else if (m.key == "keyFolding") {
      args.push_back("--key-folding");
      args.push_back(m.value.text);
    } else if (m.key == "flattenDepth") {
      args.push_back("--flatten-depth=" + m.value.text);  // the --flag=value form works too
    } else if (m.key == "strict") {
      args.push_back(m.value.boolean ? "--strict" : "--no-strict");
    } else if (m.key == "expandPaths") {
      args.push_back("--expand-paths");
      args.push_back(m.value.text);
    }
  }
  return args;
}

TEST(ToonCli, EveryFixtureCaseRunsFromTheCommandLine) {
  int ran = 0;
  for (const testing::FixtureCase& c : testing::all_fixture_cases()) {
    SCOPED_TRACE(c.file + ": " + c.name);
    const json::Value& input = *c.test.find("input");
    std::string stdin_text = c.category == "encode" ? json::to_compact(input) : input.text;
    CliRun r = run_cli(fixture_args(c), stdin_text);
    if (c.should_error()) {
      EXPECT_EQ(r.code, 1);
      EXPECT_EQ(r.out, "");
    } else {
      ASSERT_EQ(r.code, 0) << r.err;
      EXPECT_EQ(r.err, "");
      EXPECT_EQ(r.out, c.category == "encode" ? c.test.find("expected")->text
                                              : testing::expected_decode_json(c));
    }
    ++ran;
  }
  EXPECT_EQ(ran, 400);
}

TEST(ToonCli, EncodeWritesNoTrailingNewline) {
  CliRun r = run_cli({"toon", "encode"}, "{\"a\":[1,2],\"b\":{\"c\":\"x\"}}\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "a[2]: 1,2\nb:\n  c: x");
  EXPECT_EQ(r.err, "");
}

TEST(ToonCli, DecodePrintsCompactJson) {
  CliRun r = run_cli({"toon", "decode"}, "a[2]: 1,2\nb:\n  c: x\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "{\"a\":[1,2],\"b\":{\"c\":\"x\"}}");
}

TEST(ToonCli, InvalidJsonExitsOneWithOneLineNamingTheLine) {
  CliRun r = run_cli({"toon", "encode"}, "{\"a\": 1,\n \"b\": }");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "toon encode: cave_invalid_json: line 2, column 7: unexpected character\n");
}

TEST(ToonCli, InvalidToonExitsOneWithOneLineNamingTheLine) {
  CliRun r = run_cli({"toon", "decode"}, "a: 1\nitems[3]: x,y\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "toon decode: cave_invalid_toon: line 2: array declares 3 values but has 2\n");
}

TEST(ToonCli, NonStrictDecodeAcceptsWhatStrictRejects) {
  EXPECT_EQ(run_cli({"toon", "decode"}, "a: 1\na: 2").code, 1);
  CliRun r = run_cli({"toon", "decode", "--no-strict"}, "a: 1\na: 2");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "{\"a\":2}");
}

TEST(ToonCli, FlattenDepthAcceptsInfinity) {
  CliRun r = run_cli({"toon", "encode", "--key-folding", "safe", "--flatten-depth", "infinity"},
                     "{\"a\":{\"b\":{\"c\":1}}}");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "a.b.c: 1");
}

TEST(ToonCli, BadFlagsAndVerbsAreUsageErrors) {
  EXPECT_EQ(run_cli({"toon"}, "").code, engine_cli::kExitUsage);
  EXPECT_EQ(run_cli({"toon", "transcode"}, "").code, engine_cli::kExitUsage);
  EXPECT_EQ(run_cli({"toon", "encode", "--strict"}, "{}").code, engine_cli::kExitUsage);
  EXPECT_EQ(run_cli({"toon", "encode", "--delimiter", "semicolon"}, "{}").code,
            engine_cli::kExitUsage);
  EXPECT_EQ(run_cli({"toon", "encode", "--indent"}, "{}").code, engine_cli::kExitUsage);
  EXPECT_EQ(run_cli({"toon", "decode", "--expand-paths", "always"}, "").code,
            engine_cli::kExitUsage);
  CliRun r = run_cli({"toon", "encode", "--indent", "0"}, "{}");  // parsed, then rejected
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cave_invalid_arguments"), std::string::npos);
}

TEST(ToonCli, HelpGoesToStdout) {
  CliRun r = run_cli({"toon", "--help"}, "");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("toon encode"), std::string::npos);
}

}  // namespace
}  // namespace caveman::toon
