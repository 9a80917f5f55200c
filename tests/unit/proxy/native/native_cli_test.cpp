// caveman-proxy native-why: its error lines (spdlog, through the command's error stream).
#include "native/native_cli.h"

#include <gtest/gtest.h>

#include <sstream>

#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using caveman::testing::ScopedEnv;
using caveman::testing::TempDir;

TEST(NativeCli, WhyOfAnUnknownDecisionIsOneErrorLine) {
  TempDir dir;
  ScopedEnv db("CAVEMAN_CCR_DB", dir.file("ccr.db"));
  NativeFlags flags;
  flags.decision = "dec_nope";
  std::ostringstream out, err;
  EXPECT_EQ(run_native_why_command(flags, out, err), 1);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(),
            "caveman-proxy: cave_unknown_decision: no decision dec_nope in the ledger\n");
  ScopedEnv off("CAVEMAN_LOG_LEVEL", "off");
  std::ostringstream silent;
  EXPECT_EQ(run_native_why_command(flags, out, silent), 1);
  EXPECT_EQ(silent.str(), "");
}

}  // namespace
}  // namespace caveman::proxy::native
