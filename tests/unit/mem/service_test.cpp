// MemService: directory layout, argument checks, forget purging recall copies.
#include "service.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "mem_test_util.h"

namespace caveman::mem {
namespace {

using testing::ScopedEnv;
using testing::text_only;

TEST(ResolveMemDirTest, CreatesHomeAndMemDirectories0700) {
  ::caveman::testing::TempDir tmp;
  ScopedEnv home("CAVEMAN_HOME", tmp.file("home/"));
  auto dir = resolve_mem_dir();
  ASSERT_OK(dir);
  EXPECT_EQ(dir.value(), tmp.file("home/mem"));
  struct stat st {};
  ASSERT_EQ(::stat(dir->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::chmod(dir->c_str(), 0755), 0);
  ASSERT_OK(resolve_mem_dir());  // tightened again
  ASSERT_EQ(::stat(dir->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(ResolveMemDirTest, FallsBackToHomeDotCaveman) {
  ::caveman::testing::TempDir tmp;
  ScopedEnv cave("CAVEMAN_HOME", std::nullopt);
  ScopedEnv home("HOME", tmp.path());
  auto dir = resolve_mem_dir();
  ASSERT_OK(dir);
  EXPECT_EQ(dir.value(), tmp.file(".caveman/mem"));
}

TEST(MemServiceTest, RecallValidatesEveryArgument) {
  auto svc = MemService::open("");
  ASSERT_OK(svc);
  auto bad = [&](RecallRequest r) { return svc.value()->recall(r).status().error_code(); };
  RecallRequest base;
  base.query = "deploy";
  RecallRequest r = base;
  r.limit = kMaxLimit + 1;
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.limit = -1;
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.token_budget = -5;
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.threshold = -0.5;
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.tags = {"no spaces allowed"};
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.query = std::string(kMaxQueryChars + 1, 'q');
  EXPECT_EQ(bad(r), "cave_invalid_arguments");
  r = base;
  r.limit = 0;  // 0 = default
  EXPECT_OK(svc.value()->recall(r));
}

TEST(MemServiceTest, DefaultsAreLimitFiveAndBudget2000) {
  auto svc = MemService::open("");
  ASSERT_OK(svc);
  // (A word found in every memory has an idf below the 0.1 threshold: add unrelated ones.)
  for (int i = 0; i < 8; ++i) ASSERT_OK(svc.value()->remember(text_only("deploy note " + std::to_string(i))));
  for (int i = 0; i < 20; ++i) ASSERT_OK(svc.value()->remember(text_only("unrelated " + std::to_string(i))));
  RecallRequest r;
  r.query = "deploy";
  auto got = svc.value()->recall(r);
  ASSERT_OK(got);
  EXPECT_EQ(got->hits.size(), 5u);
  EXPECT_EQ(got->token_budget, 2000);
}

TEST(MemServiceTest, ForgetAlsoDeletesTheCopiesRecallMade) {
  ::caveman::testing::TempDir dir;
  auto svc = MemService::open(dir.path());
  ASSERT_OK(svc);
  std::string text = "Retrospective on the billing outage: ";
  for (int i = 0; i < 200; ++i) text += "finding " + std::to_string(i) + " about the outage timeline; ";
  auto m = svc.value()->remember(text_only(text));
  ASSERT_OK(m);
  RecallRequest r;
  r.query = "billing outage";
  r.token_budget = 40;
  auto got = svc.value()->recall(r);
  ASSERT_OK(got);
  ASSERT_EQ(got->hits.size(), 1u);
  ASSERT_FALSE(got->hits[0].recovery_handle.empty());
  auto back = svc.value()->recover(got->hits[0].recovery_handle);
  ASSERT_OK(back);
  EXPECT_EQ(back.value(), text);
  auto f = svc.value()->forget(m->memory.id);
  ASSERT_OK(f);
  EXPECT_TRUE(f->forgotten);
  EXPECT_EQ(f->copies_removed, 1);
  EXPECT_TRUE(f->warning.empty());
  EXPECT_EQ(svc.value()->recover(got->hits[0].recovery_handle).status().code(), Code::kNotFound);
}

TEST(MemServiceTest, RecoverUnknownHandleIsNotFound) {
  ::caveman::testing::TempDir dir;
  auto svc = MemService::open(dir.path());
  ASSERT_OK(svc);
  EXPECT_EQ(svc.value()->recover("ccr_00000000000000000000000000000000").status().error_code(),
            "cave_unknown_handle");
}

}  // namespace
}  // namespace caveman::mem
