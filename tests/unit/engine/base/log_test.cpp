#include "caveman/base/log.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "caveman/base/cli.h"
#include "caveman/base/env.h"
#include "support/test_support.h"

namespace caveman::base {
namespace {

// A command's lines keep their exact text: the message, a newline, nothing else.
TEST(BaseLog, StreamLoggerWritesEachMessageAsItIs) {
  std::ostringstream err;
  auto log = stream_logger(err, map_env({}));
  log->error("tool verb: {}: {}", "cave_x", "what {braces} stay");
  log->warn("tool: warning: careful");
  log->info("tool: note: fyi");
  log->debug("tool: not at the default level");
  EXPECT_EQ(err.str(),
            "tool verb: cave_x: what {braces} stay\n"
            "tool: warning: careful\n"
            "tool: note: fyi\n");
}

TEST(BaseLog, LevelErrorSilencesWarningsAndNotes) {
  std::ostringstream err;
  auto log = stream_logger(err, map_env({{"CAVEMAN_LOG_LEVEL", "error"}}));
  log->warn("tool: warning: careful");
  log->info("tool: note: fyi");
  log->error("tool: cave_x: failed");
  EXPECT_EQ(err.str(), "tool: cave_x: failed\n");
}

TEST(BaseLog, LevelOffSilencesEverything) {
  std::ostringstream err;
  auto log = stream_logger(err, map_env({{"CAVEMAN_LOG_LEVEL", "off"}}));
  log->error("tool: cave_x: failed");
  EXPECT_EQ(err.str(), "");
}

// A level name spdlog does not know (a typo) keeps the default rather than silencing errors.
TEST(BaseLog, AnUnknownLevelKeepsTheDefault) {
  std::ostringstream err;
  auto log = stream_logger(err, map_env({{"CAVEMAN_LOG_LEVEL", "verbose"}}));
  log->error("tool: cave_x: failed");
  log->debug("tool: not at the default level");
  EXPECT_EQ(err.str(), "tool: cave_x: failed\n");
}

// usage_error() is a diagnostic too: same bytes as before, and under the same level.
TEST(BaseLog, UsageErrorsGoThroughTheLevel) {
  std::ostringstream err;
  EXPECT_EQ(usage_error("caveman-x", "bad flag", err), kExitUsage);
  EXPECT_EQ(err.str(), "caveman-x: cave_invalid_arguments: bad flag (see caveman-x --help)\n");
  caveman::testing::ScopedEnv off("CAVEMAN_LOG_LEVEL", "off");
  std::ostringstream silent;
  EXPECT_EQ(usage_error("caveman-x", "bad flag", silent), kExitUsage);
  EXPECT_EQ(silent.str(), "");
}

}  // namespace
}  // namespace caveman::base
