#include "stats_report.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "caveman/ccr.h"
#include "spend_db.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

void add_row(SQLite::Database& db, const std::string& ts, const std::string& agent,
             const std::string& provider, int input, int cached, int before, int after) {
  SQLite::Statement q(db,
                      "INSERT INTO requests(ts, request_id, agent_slug, provider, input_tokens,"
                      " cached_input_tokens, compression_tokens_before, compression_tokens_after,"
                      " basis) VALUES(?,?,?,?,?,?,?,?,'inferred')");
  q.bind(1, ts);
  q.bind(2, "req");
  q.bind(3, agent);
  q.bind(4, provider);
  q.bind(5, input);
  q.bind(6, cached);
  if (before > 0) {
    q.bind(7, before);
    q.bind(8, after);
  }
  q.exec();
}

class StatsReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = proxy::open_spend_db(dir_.file("caveman.db"));
    ASSERT_OK(db);
    add_row(**db, "2020-01-01 00:00:00.000", "claude", "anthropic", 100, 20, 500, 100);
    add_row(**db, "2099-01-01 00:00:00.000", "claude", "anthropic", 50, 0, 0, 0);
    add_row(**db, "2099-01-01 00:00:01.000", "unlabeled-agent", "openai", 10, 0, 0, 0);
    auto store = ccr::open_store(dir_.file("ccr.db"));
    ASSERT_OK(store);
    ASSERT_OK((*store)->put(ccr::Record{"json", "json", 1000, 200, "original-a", ""}));
    ASSERT_OK((*store)->put(ccr::Record{"log", "log", 300, 100, "original-b", ""}));
  }
  TempDir dir_;
};

TEST_F(StatsReportTest, GroupsByAgentProviderAndContentType) {
  auto r = build_stats(dir_.file("caveman.db"), dir_.file("ccr.db"), -1);
  ASSERT_OK(r);
  EXPECT_EQ(r->requests, 3);
  // after = input + cache reads; before adds back what compression removed (500 - 100).
  EXPECT_EQ(r->tokens_after, 120 + 50 + 10);
  EXPECT_EQ(r->tokens_before, 180 + 400);
  EXPECT_EQ(r->by_agent.at("claude").requests, 2);
  EXPECT_EQ(r->by_agent.at("claude").tokens_before, 570);
  EXPECT_EQ(r->by_provider.at("openai").tokens_after, 10);
  EXPECT_EQ(r->by_content_type.at("json").tokens_before, 1000);
  EXPECT_EQ(r->by_content_type.at("log").tokens_after, 100);
}

TEST_F(StatsReportTest, SinceKeepsOnlyNewerRows) {
  auto r = build_stats(dir_.file("caveman.db"), dir_.file("ccr.db"), 4000000000);  // year 2096
  ASSERT_OK(r);
  EXPECT_EQ(r->requests, 2);
  EXPECT_EQ(r->tokens_before, 60);
  EXPECT_TRUE(r->by_content_type.empty());  // the CCR rows were written "now"
  EXPECT_EQ(r->since, "2096-10-02T07:06:40Z");
}

TEST_F(StatsReportTest, JsonHasTheDocumentedShape) {
  auto r = build_stats(dir_.file("caveman.db"), dir_.file("ccr.db"), -1);
  ASSERT_OK(r);
  auto j = nlohmann::json::parse(r->to_json());
  EXPECT_TRUE(j["requests"].is_number_integer());
  EXPECT_EQ(j["basis"], "inferred");
  for (const char* key : {"tokens_before", "tokens_after"}) EXPECT_TRUE(j[key].is_number_integer());
  for (const char* key : {"by_agent", "by_provider", "by_content_type"}) EXPECT_TRUE(j[key].is_object());
  EXPECT_EQ(j["by_agent"]["claude"]["requests"], 2);
  EXPECT_EQ(r->to_json(), r->to_json());  // deterministic
}

TEST_F(StatsReportTest, CsvAndTableCarryEveryRow) {
  auto r = build_stats(dir_.file("caveman.db"), dir_.file("ccr.db"), -1);
  ASSERT_OK(r);
  std::string csv = r->to_csv();
  EXPECT_EQ(csv.rfind("section,key,requests,tokens_before,tokens_after,saved_pct,usd_before,usd_after,"
                      "usd_input,usd_cache_read,usd_cache_write,usd_output,would_save_tokens,"
                      "would_save_usd,basis\n", 0),
            0u);
  // No model on these rows: unpriced, so no dollars.
  EXPECT_NE(csv.find("agent,\"claude\",2,570,170,70.2,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0,0.000000,inferred\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("content_type,\"json\",1,1000,200,80.0,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0,0.000000,inferred\n"), std::string::npos);
  std::string table = r->to_table();
  EXPECT_NE(table.find("inferred"), std::string::npos);
  EXPECT_NE(table.find("anthropic"), std::string::npos);
}

// Dollar figures against hand-computed rows (bench/prices.json: claude-sonnet-4-6 $3 input,
// $3.75 5-minute write, $0.30 read, $15 output; gpt-4.1 $2 input, $0.50 cached, $8 output).
TEST(StatsReport, DollarsPriceEachPartByAgentProviderModelAndDay) {
  TempDir dir;
  auto db = proxy::open_spend_db(dir.file("caveman.db"));
  ASSERT_OK(db);
  auto insert = [&](const char* ts, const char* agent, const char* provider, const char* model, int in,
                    int out, int read, int write, int before, int after, int would, double would_usd) {
    SQLite::Statement q(**db,
                        "INSERT INTO requests(ts, request_id, agent_slug, provider, model, input_tokens,"
                        " output_tokens, cached_input_tokens, cache_creation_input_tokens,"
                        " compression_tokens_before, compression_tokens_after, would_save_tokens,"
                        " would_save_usd, basis) VALUES(?,'r',?,?,?,?,?,?,?,?,?,?,?,'inferred')");
    q.bind(1, ts);
    q.bind(2, agent);
    q.bind(3, provider);
    q.bind(4, model);
    q.bind(5, in);
    q.bind(6, out);
    q.bind(7, read);
    q.bind(8, write);
    q.bind(9, before);
    q.bind(10, after);
    if (would >= 0) {
      q.bind(11, would);
      q.bind(12, would_usd);
    }
    q.exec();
  };
  // Anthropic, compressed: 1000 uncached + 10000 read + 2000 written, 500 out; removed 4000.
  insert("2026-12-01 10:00:00.000", "claude", "anthropic", "claude-sonnet-4-6-20261101", 1000, 500, 10000,
         2000, 5000, 1000, -1, 0);
  // OpenAI, record with an estimate: 3000 prompt of which 2048 cached, 100 out.
  insert("2026-12-02 10:00:00.000", "codex", "openai", "gpt-4.1", 3000, 100, 2048, 0, 0, 0, 700, 0.0014);
  insert("2026-12-02 11:00:00.000", "codex", "openai", "no-such-model", 10, 1, 0, 0, 0, 0, -1, 0);
  auto r = build_stats(dir.file("caveman.db"), dir.file("missing-ccr.db"), -1);
  ASSERT_OK(r);
  const double a_in = 1000 * 3e-6, a_read = 10000 * 0.3e-6, a_write = 2000 * 3.75e-6, a_out = 500 * 15e-6;
  const double a_after = a_in + a_read + a_write + a_out;  // 0.0210
  const double a_before = a_after + 4000 * 3e-6;            // 0.0330
  const double o_after = 952 * 2e-6 + 2048 * 0.5e-6 + 100 * 8e-6;  // 0.003728
  const Bucket& claude = r->by_agent.at("claude");
  EXPECT_NEAR(claude.usd_input, a_in, 1e-12);
  EXPECT_NEAR(claude.usd_cache_read, a_read, 1e-12);
  EXPECT_NEAR(claude.usd_cache_write, a_write, 1e-12);
  EXPECT_NEAR(claude.usd_output, a_out, 1e-12);
  EXPECT_NEAR(claude.usd_after(), 0.021, 1e-12);
  EXPECT_NEAR(claude.usd_before(), 0.033, 1e-12);
  EXPECT_NEAR(r->by_provider.at("openai").usd_after(), o_after, 1e-12);
  EXPECT_EQ(r->by_provider.at("openai").unpriced_requests, 1);
  EXPECT_NEAR(r->by_model.at("gpt-4.1").usd_after(), 0.003728, 1e-12);
  EXPECT_NEAR(r->by_day.at("2026-12-01").usd_before(), a_before, 1e-12);
  EXPECT_EQ(r->by_day.at("2026-12-02").would_save_tokens, 700);
  auto j = nlohmann::json::parse(r->to_json());
  EXPECT_DOUBLE_EQ(j["usd_after"].get<double>(), 0.024728);
  EXPECT_DOUBLE_EQ(j["usd_before"].get<double>(), 0.036728);
  EXPECT_DOUBLE_EQ(j["usd_cache_read"].get<double>(), 0.004024);
  EXPECT_DOUBLE_EQ(j["usd_cache_write"].get<double>(), 0.0075);
  EXPECT_DOUBLE_EQ(j["would_save_usd"].get<double>(), 0.0014);
  EXPECT_EQ(j["basis"], "inferred");
  EXPECT_DOUBLE_EQ(j["by_model"]["claude-sonnet-4-6-20261101"]["usd_after"].get<double>(), 0.021);
  EXPECT_NE(r->to_csv().find("model,\"gpt-4.1\",1,5048,5048,0.0,0.003728,0.003728,0.001904,0.001024,"
                             "0.000000,0.000800,700,0.001400,inferred\n"),
            std::string::npos) << r->to_csv();
}

TEST(StatsReport, MissingStoresAreEmpty) {
  TempDir dir;
  auto r = build_stats(dir.file("none.db"), dir.file("none-ccr.db"), -1);
  ASSERT_OK(r);
  EXPECT_EQ(r->requests, 0);
  EXPECT_TRUE(r->by_agent.empty());
}

TEST(StatsReport, UnreadableStoreIsAnError) {
  TempDir dir;
  caveman::testing::write_file(dir.file("caveman.db"), "this is not sqlite, just enough text to fail");
  auto r = build_stats(dir.file("caveman.db"), dir.file("none.db"), -1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_db_unavailable");
}

TEST(StatsReport, ParsesDurations) {
  EXPECT_EQ(*parse_duration("90s"), 90);
  EXPECT_EQ(*parse_duration("15m"), 900);
  EXPECT_EQ(*parse_duration("24h"), 86400);
  EXPECT_EQ(*parse_duration("7d"), 604800);
  for (const char* bad : {"", "h", "10", "1w", "-1h", "1.5h"}) {
    EXPECT_FALSE(parse_duration(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace caveman::cli

namespace caveman::cli {
namespace {

// Issue 37, scope 6: keepalive pings, the writes they avoided and re-compactions, per day and
// per session, priced (claude-sonnet-4-6: $0.30 read, $3.75 5-minute write).
TEST(StatsReport, LifetimesByDayAndSession) {
  TempDir dir;
  auto db = proxy::open_spend_db(dir.file("caveman.db"));
  ASSERT_OK(db);
  auto insert = [&](const char* ts, const char* kind, int read, int avoided, int recompact) {
    SQLite::Statement q(
        **db,
        "INSERT INTO requests(ts, request_id, agent_slug, provider, model, input_tokens,"
        " output_tokens, cached_input_tokens, cache_creation_input_tokens, basis, kind,"
        " keepalive_avoided_tokens, recompact_saved_tokens, session_key)"
        " VALUES(?,'r','claude','anthropic','claude-sonnet-4-6',0,1,?,0,'inferred',?,?,?,'"
        "00000000000000aa')");
    q.bind(1, ts);
    q.bind(2, read);
    if (kind[0] != 0) q.bind(3, kind);
    if (avoided > 0) q.bind(4, avoided);
    if (recompact > 0) q.bind(5, recompact);
    q.exec();
  };
  insert("2026-12-07 10:00:00.000", "keepalive", 100000, 0, 0);
  insert("2026-12-07 10:05:00.000", "keepalive", 100000, 0, 0);
  insert("2026-12-07 10:08:00.000", "", 100000, 100000, 0);
  insert("2026-12-08 09:00:00.000", "", 0, 0, 20000);
  insert("2026-12-08 09:01:00.000", "", 50000, 0, 0);  // nothing lifetime-related
  SQLite::Statement openai(
      **db,
      "INSERT INTO requests(ts, request_id, provider, model, input_tokens, basis,"
      " cache_retention) VALUES('2026-12-08 09:02:00.000','r','openai','gpt-5.4',2000,"
      "'inferred','in_memory')");
  openai.exec();
  auto r = build_stats(dir.file("caveman.db"), dir.file("ccr.db"), -1);
  ASSERT_OK(r);
  auto j = nlohmann::json::parse(r->to_json())["lifetimes"];
  EXPECT_EQ(j["keepalive_requests"], 2);
  EXPECT_NEAR(j["usd_keepalive"].get<double>(), 2 * (0.03 + 15e-6), 1e-6);
  EXPECT_EQ(j["keepalive_avoided_write_tokens"], 100000);
  EXPECT_NEAR(j["usd_keepalive_avoided"].get<double>(), 0.345, 1e-6);
  EXPECT_EQ(j["recompactions"], 1);
  EXPECT_NEAR(j["usd_recompact_saved"].get<double>(), 0.075, 1e-6);
  EXPECT_EQ(j["by_day"]["2026-12-07"]["keepalive_requests"], 2);
  EXPECT_EQ(j["by_day"]["2026-12-08"]["recompactions"], 1);
  EXPECT_EQ(j["by_session"]["00000000000000aa"]["keepalive_requests"], 2);
  EXPECT_EQ(j["openai_in_memory_requests"], 1);
  EXPECT_EQ(j["basis"], "inferred");
  EXPECT_NE(r->to_table().find("2 keepalive pings"), std::string::npos) << r->to_table();
}

}  // namespace
}  // namespace caveman::cli
