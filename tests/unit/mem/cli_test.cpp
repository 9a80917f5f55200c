// The cavemem command line: verbs, JSON output, exit codes (0/1/2/65), no store on refusal.
#include "cli.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <sstream>

#include "json_io.h"
#include "mem_test_util.h"

namespace caveman::mem {
namespace {

using testing::ScopedEnv;

struct Invocation {
  int code = -1;
  std::string out, err;
  Json json() const { return Json::parse(out, nullptr, false); }
};

class CliTest : public ::testing::Test {
 protected:
  Invocation cavemem(std::vector<std::string> args, const std::string& stdin_data = "") {
    std::istringstream in(stdin_data);
    std::ostringstream out, err;
    Invocation r;
    r.code = ::caveman::mem::run(args, in, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
  }
  bool mem_dir_exists() const {
    struct stat st {};
    return ::stat(home_.file("mem").c_str(), &st) == 0;
  }

  ::caveman::testing::TempDir home_;
  ScopedEnv env_{"CAVEMAN_HOME", home_.path()};
};

TEST_F(CliTest, HelpAndVersion) {
  Invocation h = cavemem({"--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("cavemem remember"), std::string::npos);
  Invocation v = cavemem({"version", "--json"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.json()["name"], "cavemem");
  EXPECT_FALSE(mem_dir_exists());
}

TEST_F(CliTest, UnknownVerbOrFlagIsUsageErrorAndCreatesNothing) {
  EXPECT_EQ(cavemem({"rememberr", "x"}).code, 2);
  EXPECT_EQ(cavemem({"remember", "--bogus", "x"}).code, 2);
  EXPECT_EQ(cavemem({"recall"}).code, 2);
  EXPECT_EQ(cavemem({"recall", "q", "many"}).code, 2);
  EXPECT_EQ(cavemem({"recall", "q", "51"}).code, 2);
  EXPECT_EQ(cavemem({"remember", "two", "words"}).code, 2);
  EXPECT_FALSE(mem_dir_exists());
}

TEST_F(CliTest, RememberRecallSupersedeHistoryForget) {
  Invocation r = cavemem({"remember", "deploys go through Argo CD", "--project", "infra", "--tag", "deploy"});
  ASSERT_EQ(r.code, 0) << r.err;
  Json j = r.json();
  const std::string id = j["id"];
  EXPECT_EQ(id, memory_id("deploys go through Argo CD"));
  EXPECT_EQ(j["basis"], "inferred");
  EXPECT_EQ(j["created"], true);
  EXPECT_NE(r.out.find("\n  \"id\""), std::string::npos);  // 2-space indent

  Invocation again = cavemem({"remember", "--stdin"}, "deploys go through Argo CD");
  EXPECT_EQ(again.json()["id"], id);
  EXPECT_EQ(again.json()["created"], false);

  Invocation rec = cavemem({"recall", "how do deploys work", "3", "500", "--project", "infra"});
  ASSERT_EQ(rec.code, 0) << rec.err;
  Json hits = rec.json()["hits"];
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0]["id"], id);
  EXPECT_EQ(hits[0]["text"], "deploys go through Argo CD");
  EXPECT_EQ(hits[0]["tags"], Json::array({"deploy"}));
  EXPECT_EQ(rec.json()["token_budget"], 500);

  Invocation sup = cavemem({"supersede", id, "deploys go through Flux"});
  ASSERT_EQ(sup.code, 0) << sup.err;
  const std::string id2 = sup.json()["id"];
  EXPECT_EQ(sup.json()["supersedes"], id);
  EXPECT_EQ(cavemem({"supersede", id, "again"}).code, 1);  // no longer current

  Invocation hist = cavemem({"history", id2});
  ASSERT_EQ(hist.code, 0);
  ASSERT_EQ(hist.json()["history"].size(), 2u);
  EXPECT_EQ(hist.json()["history"][0]["id"], id);
  EXPECT_EQ(hist.json()["history"][1]["current"], true);

  Invocation f = cavemem({"forget", id2});
  EXPECT_EQ(f.json()["forgotten"], true);
  EXPECT_EQ(cavemem({"forget", id2}).json()["forgotten"], false);
  EXPECT_EQ(cavemem({"history", id2}).code, 1);
}

TEST_F(CliTest, EmptyTextIsExit1AndOversizeIsExit65BeforeAnyStoreExists) {
  Invocation empty = cavemem({"remember", "--stdin"}, "  \n");
  EXPECT_EQ(empty.code, 1);
  EXPECT_NE(empty.err.find("cave_invalid_arguments"), std::string::npos);
  Invocation big = cavemem({"remember", "--stdin"}, std::string(kMaxMemoryBytes + 1, 'x'));
  EXPECT_EQ(big.code, 65);
  EXPECT_NE(big.err.find("cave_memory_too_large"), std::string::npos);
  EXPECT_EQ(cavemem({"remember", std::string(kMaxMemoryBytes + 1, 'y')}).code, 65);
  EXPECT_FALSE(mem_dir_exists());
  EXPECT_EQ(cavemem({"remember", "--stdin"}, std::string(kMaxMemoryBytes, 'z')).code, 0);
}

TEST_F(CliTest, InjectionQueriesAndBadIdsFailCleanly) {
  ASSERT_EQ(cavemem({"remember", "NOT a drill"}).code, 0);
  for (const std::string& q : {"NOT", "*", "\"", ":", "NEAR(", "a OR", "text:* NOT \"x"}) {
    Invocation r = cavemem({"recall", q});
    EXPECT_EQ(r.code, 0) << q << r.err;
  }
  EXPECT_EQ(cavemem({"history", "mem_nothex"}).code, 1);
  EXPECT_EQ(cavemem({"recall", std::string(kMaxQueryChars + 1, 'q')}).code, 1);
}

TEST_F(CliTest, ExportImportRoundTrip) {
  ASSERT_EQ(cavemem({"remember", "fact one", "--tag", "a"}).code, 0);
  Invocation one = cavemem({"remember", "fact two"});
  ASSERT_EQ(cavemem({"supersede", one.json()["id"], "fact two, revised"}).code, 0);
  Invocation exp = cavemem({"export"});
  ASSERT_EQ(exp.code, 0);
  EXPECT_EQ(std::count(exp.out.begin(), exp.out.end(), '\n'), 3);
  const std::string current = cavemem({"export", "--current"}).out;
  EXPECT_EQ(std::count(current.begin(), current.end(), '\n'), 2);

  ::caveman::testing::TempDir other;
  ScopedEnv env("CAVEMAN_HOME", other.path());
  Invocation imp = cavemem({"import"}, exp.out);
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_EQ(imp.json()["imported"], 3);
  EXPECT_EQ(cavemem({"export"}).out, exp.out);
  Invocation bad = cavemem({"import"}, "{\"text\": \"ok\"}\nnot json\n");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("line 2"), std::string::npos);
}

TEST_F(CliTest, CorruptStoreIsAClearErrorAndTheFileIsKept) {
  ASSERT_EQ(::mkdir(home_.file("mem").c_str(), 0700), 0);
  const std::string garbage(10000, '\x7f');
  ::caveman::testing::write_file(home_.file("mem/mem.db"), garbage);
  Invocation r = cavemem({"remember", "anything"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cave_mem_store_corrupt"), std::string::npos);
  EXPECT_NE(r.err.find(home_.file("mem/mem.db")), std::string::npos);
  EXPECT_EQ(::caveman::testing::read_file(home_.file("mem/mem.db")), garbage);
  EXPECT_EQ(cavemem({"recall", "anything"}).code, 1);
}

// Errors keep their exact line; CAVEMAN_LOG_LEVEL=off silences even them (the exit code stays).
TEST_F(CliTest, DiagnosticsGoThroughTheLogLevel) {
  Invocation rec = cavemem({"recover", "ccr_00000000000000000000000000000000"});
  EXPECT_EQ(rec.code, 1);
  EXPECT_EQ(rec.err.rfind("cavemem: cave_unknown_handle: ", 0), 0u) << rec.err;
  EXPECT_EQ(std::count(rec.err.begin(), rec.err.end(), '\n'), 1);
  ScopedEnv off("CAVEMAN_LOG_LEVEL", "off");
  Invocation quiet = cavemem({"recover", "ccr_00000000000000000000000000000000"});
  EXPECT_EQ(quiet.code, 1);
  EXPECT_EQ(quiet.err, "");
}

TEST_F(CliTest, StatsAndRecover) {
  ASSERT_EQ(cavemem({"remember", "a"}).code, 0);
  Invocation s = cavemem({"stats"});
  ASSERT_EQ(s.code, 0);
  EXPECT_EQ(s.json()["memories"], 1);
  EXPECT_EQ(s.json()["basis"], "inferred");
  Invocation rec = cavemem({"recover", "ccr_00000000000000000000000000000000"});
  EXPECT_EQ(rec.code, 1);
  EXPECT_NE(rec.err.find("cave_unknown_handle"), std::string::npos);
}

}  // namespace
}  // namespace caveman::mem
