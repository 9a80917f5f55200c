// Two processes writing one mem.db at once: nothing lost, chains stay consistent.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <set>

#include "mem_test_util.h"
#include "store.h"

namespace caveman::mem {
namespace {

using testing::text_only;

// Runs `body` in a child process; returns its pid. The child exits with body()'s value.
pid_t spawn(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int rc = 1;
    try {
      rc = body();
    } catch (...) {
      rc = 3;
    }
    ::_exit(rc);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(ConcurrencyTest, TwoProcessesTimesFiveHundredRemembersLoseNothing) {
  ::caveman::testing::TempDir dir;
  const std::string path = dir.file("mem.db");  // created by whichever child opens it first
  auto writer = [&](int who) {
    return [&, who]() -> int {
      auto store = MemStore::open(path);
      if (!store.ok()) return 10;
      for (int i = 0; i < 500; ++i) {
        auto r = store.value()->remember(
            text_only("process " + std::to_string(who) + " remembers fact " + std::to_string(i)));
        if (!r.ok() || !r->created) return 11;
      }
      return 0;
    };
  };
  const pid_t a = spawn(writer(1));
  const pid_t b = spawn(writer(2));
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  EXPECT_EQ(wait_for(a), 0);
  EXPECT_EQ(wait_for(b), 0);

  auto store = MemStore::open(path);
  ASSERT_OK(store);
  auto stats = store.value()->stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->current, 1000);
  EXPECT_EQ(stats->versions, 1000);
  std::set<std::string> seen;
  ASSERT_OK(store.value()->for_each(true, [&](const Memory& m) { seen.insert(m.text); }));
  for (int who = 1; who <= 2; ++who) {
    for (int i = 0; i < 500; ++i) {
      EXPECT_EQ(seen.count("process " + std::to_string(who) + " remembers fact " + std::to_string(i)), 1u);
    }
  }
  // The FTS index saw every insert too.
  auto hits = store.value()->search(SearchRequest{parse_query("remembers").value(), std::nullopt, {}, kMaxLimit, 0.0});
  ASSERT_OK(hits);
  EXPECT_EQ(hits->size(), static_cast<std::size_t>(kMaxLimit));
}

TEST(ConcurrencyTest, RacingSupersedesOfOneVersionHaveExactlyOneWinner) {
  ::caveman::testing::TempDir dir;
  const std::string path = dir.file("mem.db");
  std::string id;
  {
    auto store = MemStore::open(path);
    ASSERT_OK(store);
    auto r = store.value()->remember(text_only("the release branch is release/1"));
    ASSERT_OK(r);
    id = r->memory.id;
  }
  for (int round = 0; round < 20; ++round) {
    auto racer = [&](int who) {
      return [&, who]() -> int {
        auto store = MemStore::open(path);
        if (!store.ok()) return 10;
        auto r = store.value()->supersede(
            id, text_only("round " + std::to_string(round) + " writer " + std::to_string(who)));
        if (r.ok()) return 0;
        return r.status().error_code() == "cave_memory_not_current" ? 1 : 12;
      };
    };
    const pid_t a = spawn(racer(1));
    const pid_t b = spawn(racer(2));
    const int ra = wait_for(a), rb = wait_for(b);
    ASSERT_TRUE((ra == 0 && rb == 1) || (ra == 1 && rb == 0)) << ra << " " << rb;
    auto store = MemStore::open(path);
    ASSERT_OK(store);
    auto h = store.value()->history(id);
    ASSERT_OK(h);
    EXPECT_EQ(h->size(), static_cast<std::size_t>(round + 2));
    id = h->back().id;  // the winner is the new head
    EXPECT_TRUE(h->back().current());
  }
}

}  // namespace
}  // namespace caveman::mem
