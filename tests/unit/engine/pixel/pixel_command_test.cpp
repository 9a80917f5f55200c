#include "cli/pixel_command.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/test_support.h"

namespace caveman::engine_cli {
namespace {

std::map<std::string, std::string>& fake_env() {
  static std::map<std::string, std::string> env;
  return env;
}

std::optional<std::string> lookup(const char* name) {
  auto it = fake_env().find(name);
  if (it == fake_env().end()) return std::nullopt;
  return it->second;
}

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int code = run_pixel_command(args, out, err, lookup);
  return {code, out.str(), err.str()};
}

class PixelCommand : public ::testing::Test {
 protected:
  void SetUp() override { fake_env().clear(); }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_.file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  caveman::testing::TempDir dir_;
};

TEST_F(PixelCommand, UsageAndExitCodes) {
  EXPECT_EQ(run({}).code, 2);
  CliRun help = run({"help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("pixel render"), std::string::npos);
  EXPECT_EQ(run({"paint"}).code, 1);
  EXPECT_EQ(run({"render"}).code, 1);
  EXPECT_EQ(run({"render", "--density", "ultra", "x"}).code, 1);
  EXPECT_EQ(run({"render", "--cols", "0", "x"}).code, 1);
  CliRun missing = run({"render", dir_.file("missing.txt")});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("cave_file_not_found"), std::string::npos);
}

TEST_F(PixelCommand, RenderWritesPagesAndJsonLines) {
  std::string path = write("a.txt", std::string(50000, 'x'));
  CliRun r = run({"render", path});
  ASSERT_EQ(r.code, 0) << r.err;
  // Page 2: 3 709 chars / 389 columns → 10 rows → 4 + 9·6 + 8 + 4 = 70 px → 56 × 3 patches → 185.
  EXPECT_EQ(r.out,
            "{\"width\":1565,\"height\":724,\"charsRendered\":46291,\"droppedChars\":0,\"estTokens\":1602,"
            "\"density\":\"balanced\"}\n"
            "{\"width\":1565,\"height\":70,\"charsRendered\":3709,\"droppedChars\":0,\"estTokens\":185,"
            "\"density\":\"balanced\"}\n"
            "{\"summary\":true,\"pages\":2,\"textEstTokens\":12500,\"imageEstTokens\":1787,\"density\":\"balanced\"}\n");
  EXPECT_TRUE(std::ifstream(path + ".px1.png").good());
  EXPECT_TRUE(std::ifstream(path + ".px2.png").good());
}

TEST_F(PixelCommand, DensityFlagBeatsEnvWhichBeatsDefault) {
  std::string path = write("b.txt", "hello");
  fake_env()["CAVE_PIXEL_DENSITY"] = "max";
  EXPECT_NE(run({"render", path}).out.find("\"density\":\"max\""), std::string::npos);
  EXPECT_NE(run({"render", "--density=conservative", path}).out.find("\"density\":\"conservative\""),
            std::string::npos);
  fake_env()["CAVE_PIXEL_DENSITY"] = "nonsense";
  EXPECT_NE(run({"render", path}).out.find("\"density\":\"conservative\""), std::string::npos);
  fake_env().clear();
  EXPECT_NE(run({"render", "--dense", path}).out.find("\"density\":\"max\""), std::string::npos);
}

TEST_F(PixelCommand, SimulateFailsClosedForModelsOutsideTheAllowlist) {
  std::string text(5000, 'y');
  std::string path = write("req.json", "{\"model\":\"claude-3-5-sonnet\",\"messages\":[{\"role\":\"user\",\"content\":\"" +
                                           text + "\"}]}");
  CliRun r = run({"simulate", path});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"Compressed\":false,\"Reason\":\"model_not_allowed (claude-3-5-sonnet)\"", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"ImageCount\":0"), std::string::npos);
  CliRun allowed = run({"simulate", "--model", "claude-fable-5", path});
  EXPECT_EQ(allowed.out.rfind("{\"Compressed\":true,\"Reason\":\"applied\"", 0), 0u) << allowed.out;
  fake_env()["CAVE_PIXEL_MODELS"] = "none";
  EXPECT_EQ(run({"simulate", "--model", "claude-fable-5", path}).out.rfind("{\"Compressed\":false", 0), 0u);
  std::string bad = write("bad.json", "{\"prompt\":1}");
  CliRun b = run({"simulate", bad});
  EXPECT_EQ(b.code, 1);
  EXPECT_TRUE(b.out.empty());
}

}  // namespace
}  // namespace caveman::engine_cli
