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
  EXPECT_EQ(csv.rfind("section,key,requests,tokens_before,tokens_after,saved_pct,basis\n", 0), 0u);
  EXPECT_NE(csv.find("agent,\"claude\",2,570,170,70.2,inferred\n"), std::string::npos);
  EXPECT_NE(csv.find("content_type,\"json\",1,1000,200,80.0,inferred\n"), std::string::npos);
  std::string table = r->to_table();
  EXPECT_NE(table.find("inferred"), std::string::npos);
  EXPECT_NE(table.find("anthropic"), std::string::npos);
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
  EXPECT_EQ(r.status().cave_code(), "cave_db_unavailable");
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
