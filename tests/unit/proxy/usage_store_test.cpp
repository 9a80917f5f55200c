#include "usage_store.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "caveman/ccr.h"
#include "run_state.h"
#include "stats.h"
#include "support/test_support.h"

namespace caveman::proxy {
namespace {

UsageRow sample_row(std::string id) {
  UsageRow row;
  row.request_id = std::move(id);
  row.provider = Provider::kAnthropic;
  row.model = "claude-mock";
  row.endpoint = "/v1/messages";
  row.stream = true;
  row.status_code = 200;
  row.auth_mode = "payg";
  row.raw_body = std::make_shared<const std::string>("{\"a\":1}");
  row.sent_body = row.raw_body;
  row.capture = std::make_unique<UsageCapture>();
  row.capture->feed("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":11,\"output_tokens\":1}}}\n\n");
  row.capture->feed("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":7}}\n\n");
  return row;
}

TEST(ProxyUsageStore, WriterRecordsOneRowPerRequestOffThePath) {
  testing::TempDir dir;
  std::string path = dir.file("caveman.db");
  Result<std::unique_ptr<UsageWriter>> w = UsageWriter::start(path);
  ASSERT_OK(w);
  for (int i = 0; i < 50; ++i) EXPECT_TRUE((*w)->submit(sample_row("r" + std::to_string(i))));
  (*w)->flush();
  EXPECT_EQ((*w)->written(), 50u);
  (*w)->stop();
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  SQLite::Database db(path);
  SQLite::Statement q(db, "SELECT request_id, agent_slug, provider, input_tokens, output_tokens, "
                          "token_usage_basis, basis, raw_request_sha256, stream FROM requests ORDER BY id LIMIT 1");
  ASSERT_TRUE(q.executeStep());
  EXPECT_EQ(q.getColumn(0).getString(), "r0");
  EXPECT_EQ(q.getColumn(1).getString(), "unlabeled-agent");
  EXPECT_EQ(q.getColumn(2).getString(), "anthropic");
  EXPECT_EQ(q.getColumn(3).getInt(), 11);
  EXPECT_EQ(q.getColumn(4).getInt(), 7);
  EXPECT_EQ(q.getColumn(5).getString(), "provider_complete");
  EXPECT_EQ(q.getColumn(6).getString(), "inferred");
  EXPECT_EQ(q.getColumn(7).getString(), ccr::sha256_hex("{\"a\":1}"));
  EXPECT_EQ(q.getColumn(8).getInt(), 1);
}

TEST(ProxyUsageStore, AFullQueueDropsRowsInsteadOfBlocking) {
  testing::TempDir dir;
  Result<std::unique_ptr<UsageWriter>> w = UsageWriter::start(dir.file("caveman.db"), 1);
  ASSERT_OK(w);
  int accepted = 0;
  for (int i = 0; i < 200; ++i) accepted += (*w)->submit(sample_row("r")) ? 1 : 0;
  (*w)->stop();
  EXPECT_EQ((*w)->written() + (*w)->dropped(), 200u);
  EXPECT_EQ(static_cast<int>((*w)->written()), accepted);
  EXPECT_FALSE((*w)->submit(sample_row("late")));  // stopped writers accept nothing
}

TEST(ProxyUsageStore, StatsSummarizeRows) {
  testing::TempDir dir;
  std::string path = dir.file("caveman.db");
  {
    Result<std::unique_ptr<UsageWriter>> w = UsageWriter::start(path);
    ASSERT_OK(w);
    UsageRow a = sample_row("a");
    a.compression_eligible = true;
    a.compression_tokens_before = 1000;
    a.compression_tokens_after = 100;
    (*w)->submit(std::move(a));
    (*w)->submit(sample_row("b"));
    (*w)->stop();
  }
  Result<std::string> summary = stats_summary(path);
  ASSERT_OK(summary);
  nlohmann::json s = nlohmann::json::parse(*summary);
  EXPECT_EQ(s["requests"], 2);
  EXPECT_EQ(s["compression_tokens_saved"], 900);
  EXPECT_EQ(s["requests_eligible_for_compression"], 1);
  EXPECT_EQ(s["token_accounting"]["input_tokens"], 22);
  EXPECT_EQ(s["basis"], "inferred");
  Result<std::string> recent = stats_recent(path, 1);
  ASSERT_OK(recent);
  nlohmann::json r = nlohmann::json::parse(*recent);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["request_id"], "b");
}

TEST(ProxyRunState, WritesAtomicallyAndRemovesOnlyItsOwnFile) {
  testing::TempDir dir;
  RunState s;
  s.pid = 4242;
  s.port = 18787;
  s.listen = "127.0.0.1:18787";
  s.mode = "record";
  s.owner = "start";
  s.instance_token = std::string(32, 'a');
  s.started_at = "2026-01-01T00:00:00Z";
  s.version = "0.1.0";
  ASSERT_OK(write_run_state(dir.path(), s));
  struct stat st {};
  ASSERT_EQ(::stat(run_state_path(dir.path(), 18787).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  Result<RunState> back = read_run_state(dir.path(), 18787);
  ASSERT_OK(back);
  EXPECT_EQ(back->pid, 4242);
  EXPECT_EQ(back->instance_token, s.instance_token);
  nlohmann::json j = nlohmann::json::parse(testing::read_file(run_state_path(dir.path(), 18787)));
  EXPECT_EQ(j["schema"], "caveman.proxy.run.v1");
  // Another instance's token leaves the file in place.
  ASSERT_OK(remove_run_state(dir.path(), 18787, std::string(32, 'b')));
  EXPECT_OK(read_run_state(dir.path(), 18787));
  ASSERT_OK(remove_run_state(dir.path(), 18787, s.instance_token));
  EXPECT_EQ(read_run_state(dir.path(), 18787).status().code(), Code::kNotFound);
  testing::write_file(run_state_path(dir.path(), 1), "{\"schema\":\"other\"}");
  EXPECT_EQ(read_run_state(dir.path(), 1).status().error_code(), "cave_run_state_unavailable");
}

}  // namespace
}  // namespace caveman::proxy
