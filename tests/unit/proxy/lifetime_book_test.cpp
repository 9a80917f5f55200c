// The per-session lifetime book and the keepalive runner on a manual clock: when pings go,
// and every reason they stop (agent gone, session ended, guard, refusal, budget).
#include "lifetime_book.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "keepalive.h"

namespace caveman::proxy {
namespace {

constexpr std::int64_t kMinute = 60LL * 1000;
constexpr std::uint64_t kSession = 42;

struct Fixture {
  ManualClock clock;
  LifetimeBook book{[this] { return clock.now(); }, KeepaliveOptions{true, false, 12}};
  std::set<int> alive_pids{100};
  std::vector<PingJob> sent;
  bool refuse = false;
  KeepaliveRunner runner{&book,
                         [this](const PingJob& job, CancelToken*) {
                           sent.push_back(job);
                           return PingResult{!refuse, 0.03};
                         },
                         &clock};

  Fixture() {
    book.set_pid_alive([this](int pid) { return alive_pids.count(pid) > 0; });
  }

  // One request of the session, answered, its usage known: 100k tokens cached.
  void request(AgentLease lease = AgentLease{100, ""}, std::uint64_t session = kSession) {
    book.on_request_start(session, RequestShape{0.03, 0.01});
    book.note_latest(session, lease);
    auto t = std::make_shared<PingTemplate>();
    t->model = "claude-sonnet-4-6";
    book.on_request_end(session, t, lease);
    book.on_usage(session, UsageTokens{10, 5, 90000, 10000, 0},
                  find_price("anthropic", "claude-sonnet-4-6"));
  }
};

TEST(Keepalive, PingsEveryFourAndAHalfMinutesWhileTheAgentLives) {
  Fixture f;
  f.request();
  EXPECT_EQ(f.runner.advance(4 * kMinute), 0);
  EXPECT_EQ(f.runner.advance(kMinute), 1);       // at 4:30
  EXPECT_EQ(f.runner.advance(20 * kMinute), 4);  // 9:00, 13:30, 18:00, 22:30
  ASSERT_EQ(f.sent.size(), 5u);
  EXPECT_EQ(f.sent.back().index, 5);
  // The user comes back at 25 min: the pause outlived 5 minutes and the pings bridged it.
  RequestStart r = f.book.on_request_start(kSession, RequestShape{});
  EXPECT_TRUE(r.bridged);
  EXPECT_EQ(r.gap_ms, 25 * kMinute);
}

// When most of the prefix is answered results a lapse would let re-compaction stub, the pings
// do not pay and none goes; once they are stubbed (nothing left to compact) they pay again.
TEST(Keepalive, NoneWhileALapseIsWorthMoreToReCompaction) {
  Fixture f;
  for (int i = 0; i < 20; ++i) f.request();
  f.book.note_compactable(kSession, 80000);
  EXPECT_EQ(f.runner.advance(30 * kMinute), 0);
  f.book.on_request_start(kSession, RequestShape{0.03, 0.01});
  f.book.note_compactable(kSession, 0);
  auto t = std::make_shared<PingTemplate>();
  f.book.on_request_end(kSession, t, AgentLease{100, ""});
  f.book.on_usage(kSession, UsageTokens{10, 5, 90000, 10000, 0},
                  find_price("anthropic", "claude-sonnet-4-6"));
  EXPECT_GE(f.runner.advance(10 * kMinute), 1);
}

// Once a request wrote 1-hour entries, a later 5-minute request does not make the prefix lapse
// after 5 minutes (reads may refresh those entries): re-compaction waits for an idle hour, or
// until the conversation has grown past the provider's lookback from them.
TEST(Lifetimes, OneHourEntriesKeepThePrefixWarmPastFiveMinutes) {
  Fixture f;
  f.book.set_pid_alive([](int) { return false; });  // no pings: only the clock
  auto t = std::make_shared<PingTemplate>();
  auto request = [&](std::int64_t blocks, bool one_hour, std::int64_t idle_ms) {
    f.clock.set(f.clock.now() + idle_ms);
    RequestStart r = f.book.on_request_start(kSession, RequestShape{0, 0, blocks});
    f.book.on_request_end(kSession, t, AgentLease{}, one_hour);
    return r.lapsed;
  };
  request(10, true, 0);
  request(12, false, kMinute);
  EXPECT_FALSE(request(14, false, 10 * kMinute));
  EXPECT_TRUE(request(16, false, 62 * kMinute));
  EXPECT_TRUE(request(18, false, 6 * kMinute));  // only 5-minute entries since the idle hour
  request(20, true, 0);
  EXPECT_FALSE(request(22, false, 10 * kMinute));
  // 20 blocks on, no breakpoint reaches the 1-hour entries any more.
  EXPECT_TRUE(request(20 + kCacheLookbackBlocks + 1, false, 10 * kMinute));
}

// A subagent (another session under the same wrap lease) finished before the main session's
// last request: only the main session is kept warm.
TEST(Keepalive, OnlyTheLeasesLatestSession) {
  Fixture f;
  f.request(AgentLease{100, ""}, 7);  // the subagent
  f.request();                        // the main session goes on
  EXPECT_EQ(f.runner.advance(10 * kMinute), 2);
  for (const PingJob& j : f.sent) EXPECT_EQ(j.session, kSession);
}

// A silent upstream must not hold up shutdown: stop() cancels the ping in flight.
TEST(KeepaliveRunner, StopCancelsAPingInFlight) {
  std::atomic<std::int64_t> now{0};
  LifetimeBook book{[&] { return now.load(); }, KeepaliveOptions{true, false, 12}};
  book.set_pid_alive([](int) { return true; });
  std::atomic<bool> started{false};
  KeepaliveRunner runner(
      &book,
      [&](const PingJob&, CancelToken* cancel) {
        started = true;
        while (!cancel->cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return PingResult{};
      },
      nullptr);
  book.on_request_start(kSession, RequestShape{});
  auto t = std::make_shared<PingTemplate>();
  t->model = "claude-sonnet-4-6";
  book.on_request_end(kSession, t, AgentLease{1, ""});
  book.on_usage(kSession, UsageTokens{0, 1, 90000, 10000, 0},
                find_price("anthropic", "claude-sonnet-4-6"));
  now = 5 * kMinute;  // the first ping is due
  runner.poke();
  for (int i = 0; i < 400 && !started; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(started);
  runner.stop();  // returns: the sender saw the cancellation
}

TEST(Keepalive, NothingWhileARequestIsInFlight) {
  Fixture f;
  f.request();
  f.book.on_request_start(kSession, RequestShape{});
  EXPECT_EQ(f.runner.advance(30 * kMinute), 0);
}

TEST(Keepalive, NeverAfterTheAgentExits) {
  Fixture f;
  f.request();
  EXPECT_EQ(f.runner.advance(5 * kMinute), 1);
  f.alive_pids.clear();  // caveman wrap (and its agent) exited
  EXPECT_EQ(f.runner.advance(2 * kOneHourMs), 0);
  EXPECT_EQ(f.sent.size(), 1u);
  f.alive_pids.insert(100);  // a recycled pid does not bring the session back
  EXPECT_EQ(f.runner.advance(2 * kOneHourMs), 0);
}

TEST(Keepalive, NeverAfterTheNativeSessionEnded) {
  Fixture f;
  f.request(AgentLease{0, "sess-1"});
  EXPECT_EQ(f.runner.advance(5 * kMinute), 1);
  f.book.on_native_session_end("sess-1");
  EXPECT_EQ(f.runner.advance(kOneHourMs), 0);
}

TEST(Keepalive, NeverWithoutAWayToKnowTheAgentIsAlive) {
  Fixture f;
  f.request(AgentLease{});
  EXPECT_EQ(f.runner.advance(kOneHourMs), 0);
}

TEST(Keepalive, StopsWhenTheGuardTrips) {
  Fixture f;
  bool tripped = false;
  f.book.set_guard_stopped([&](std::uint64_t) { return tripped; });
  f.request();
  EXPECT_EQ(f.runner.advance(5 * kMinute), 1);
  tripped = true;
  EXPECT_EQ(f.runner.advance(kOneHourMs), 0);
  f.request();  // the session goes on: still no pings
  EXPECT_EQ(f.runner.advance(kOneHourMs), 0);
}

TEST(Keepalive, StopsAfterARefusalAndAtTheCap) {
  Fixture f;
  f.refuse = true;
  f.request();
  EXPECT_EQ(f.runner.advance(kOneHourMs), 1);
  Fixture g;
  g.request();
  EXPECT_LE(g.runner.advance(5 * kOneHourMs), 12);  // keepalive.max_pings per pause
}

TEST(Keepalive, StopsWhenPingsCostMoreThanTheWritesTheyAvoided) {
  Fixture f;
  f.request();
  // Pauses that outlive every ping: ~$0.03 each, never a write avoided.
  int sent = 0;
  for (int i = 0; i < 20; ++i) {
    sent += f.runner.advance(3 * kOneHourMs);
    f.request();
  }
  // One lapse of 100k tokens at Sonnet's rates is $0.345: at most ~12 pings beyond it.
  EXPECT_LE(sent, 24);
  EXPECT_EQ(f.runner.advance(3 * kOneHourMs), 0);
}

TEST(KeepaliveBody, OneOutputTokenNotStreamedThinkingKept) {
  std::int64_t out = 0;
  std::optional<std::string> b =
      keepalive_body(R"({"model":"m","max_tokens":4096,"stream":true,"messages":[]})", &out);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, R"({"model":"m","max_tokens":1,"stream":false,"messages":[]})");
  EXPECT_EQ(out, 1);
  b = keepalive_body(
      R"({"max_tokens":9000,"thinking":{"type":"enabled","budget_tokens":2048},"messages":[]})",
      &out);
  ASSERT_TRUE(b);
  EXPECT_EQ(
      *b,
      R"({"max_tokens":2049,"thinking":{"type":"enabled","budget_tokens":2048},"messages":[]})");
  EXPECT_EQ(out, 2049);
  EXPECT_FALSE(keepalive_body("not json", &out));
  EXPECT_FALSE(keepalive_body(R"({"messages":[]})", &out));
}

TEST(ProcessAlive, SeesItselfAndNotAnImpossiblePid) {
  EXPECT_TRUE(process_alive(static_cast<int>(::getpid())));
  EXPECT_FALSE(process_alive(0));
  EXPECT_FALSE(process_alive(999999999));
}

}  // namespace
}  // namespace caveman::proxy
