// The five engine tools: payload shapes, fail-open compress, handle forms, anti-storm ledger.
#include "engine_tools.h"

#include <gtest/gtest.h>

#include "caveman/toolschema.h"
#include "support/catalog_fixtures.h"

namespace caveman::mcp {
namespace {

class EngineToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = ccr::open_store(std::string(ccr::kMemoryPath));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    engine_ = std::make_shared<const Engine>(std::shared_ptr<ccr::Store>(std::move(store).value()));
    new_session();
  }

  // A fresh session (own ledger and totals) over the same engine and store.
  void new_session() {
    session_ = std::make_unique<Session>(info_, options_, make_engine_tools(engine_));
    session_->handle_line(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
  }

  Json call(const std::string& tool, const Json& args) {
    Json req = {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", args}}}};
    return Json::parse(session_->handle_line(req.dump()))["result"];
  }

  static std::string big_log() {
    std::string log;
    for (int i = 0; i < 400; ++i) {
      log += "2026-01-01T00:00:" + std::to_string(10 + i % 50) + "Z INFO worker=w1 step=" +
             std::to_string(i) + " status=ok\n";
    }
    log += "2026-01-01T00:09:59Z ERROR worker=w1 step=400 status=failed reason=disk full\n";
    return log;
  }

  ServerInfo info_{"caveman", "Caveman", "test", ""};
  ServerOptions options_;
  std::shared_ptr<const Engine> engine_;
  std::unique_ptr<Session> session_;
  int id_ = 0;
};

TEST_F(EngineToolsTest, CompressPassThroughIsExactWithNullHandle) {
  Json r = call("caveman_compress", {{"input", "tiny"}});
  EXPECT_EQ(r["isError"], false);
  Json p = r["structuredContent"];
  EXPECT_EQ(p["compressed"], "tiny");
  EXPECT_TRUE(p["recovery_handle"].is_null());
  EXPECT_EQ(p["ratio"], 0.0);
  EXPECT_EQ(p["basis"], "inferred");
  EXPECT_EQ(Json::parse(r["content"][0]["text"].get<std::string>()), p);  // text mirrors payload
}

TEST_F(EngineToolsTest, CompressThenRetrieveIsByteExactForEveryHandleForm) {
  std::string log = big_log();
  Json p = call("caveman_compress", {{"input", log}})["structuredContent"];
  ASSERT_TRUE(p["recovery_handle"].is_string()) << p.dump();
  std::string h = p["recovery_handle"];
  EXPECT_LT(p["tokens_after"].get<int>(), p["tokens_before"].get<int>());
  for (const std::string& form : {h, "<<ccr:" + h + ">>", "ccr:" + h, "ccr://" + h, "  " + h + "\n"}) {
    new_session();  // fresh ledger so repeats do not short-circuit
    Json r = call("caveman_retrieve", {{"recovery_handle", form}});
    EXPECT_EQ(r["isError"], false) << form;
    EXPECT_EQ(r["content"].size(), 1u);
    EXPECT_EQ(r["content"][0]["text"], log) << form;
  }
}

TEST_F(EngineToolsTest, UnknownHandleAndMissingArgumentsFailClosed) {
  Json r = call("caveman_retrieve", {{"recovery_handle", "ccr_00000000000000000000000000000000"}});
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("cave_unknown_handle"), std::string::npos);
  r = call("caveman_retrieve", {{"query", "x"}});
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("cave_invalid_arguments"), std::string::npos);
  r = call("caveman_compress", {{"input", 42}});
  EXPECT_EQ(r["isError"], true);
}

// The optional budget reaches Options::budget_tokens: a tighter budget cuts the view further.
// content_type toolschema runs the one catalog shrinker: caveman-shrink's bytes and ratio.
TEST_F(EngineToolsTest, CompressToolschemaShrinksLikeCavemanShrink) {
  struct Case {
    std::string catalog;
    int shrink_tokens_after;  // caveman-shrink's count (docs/BENCHMARKS.md, shrink)
  };
  for (const Case& c : {Case{testing::playwright_catalog(), 2095},
                        Case{testing::chrome_devtools_catalog(), 3162}}) {
    Json p = call("caveman_compress", {{"input", c.catalog}, {"content_type", "toolschema"}})
                 ["structuredContent"];
    EXPECT_EQ(p["content_type"], "toolschema") << p.dump();
    EXPECT_LE(p["tokens_after"].get<int>(), c.shrink_tokens_after);
    EXPECT_EQ(p["compressed"], toolschema::shrink_catalog(c.catalog).output);
    EXPECT_TRUE(p["recovery_handle"].is_string());
  }
}

TEST_F(EngineToolsTest, CompressBudgetArgument) {
  // grep hits of one shape, digits aside: the search-result view keeps every hit, and only the
  // budget hides runs of them behind one selector (a hit whose shape occurs once would be a
  // needle no budget hides).
  std::string log;
  for (int i = 0; i < 3000; ++i) {
    log += "src/module_" + std::to_string(i % 40) + "/file_" + std::to_string(i % 97) +
           ".py:" + std::to_string(i) + ":    value = compute(" +
           std::to_string(i * 7919 % 1000003) + ", key=" + std::to_string(i * 31) + ")\n";
  }
  Json none =
      call("caveman_compress",
           {{"input", log}, {"content_type", "search-result"}, {"budget", 0}})["structuredContent"];
  Json tight = call(
      "caveman_compress",
      {{"input", log}, {"content_type", "search-result"}, {"budget", 2000}})["structuredContent"];
  EXPECT_LT(tight["tokens_after"].get<int>(), none["tokens_after"].get<int>()) << none.dump();
  EXPECT_LE(tight["tokens_after"].get<int>(), 2600);
  Json bad = call("caveman_compress", {{"input", log}, {"budget", -5}});
  EXPECT_EQ(bad["isError"], true);
}

TEST_F(EngineToolsTest, AntiStormLedger) {
  std::string h = call("caveman_compress", {{"input", big_log()}})["structuredContent"]["recovery_handle"];
  Json first = call("caveman_retrieve", {{"recovery_handle", h}, {"query", "failed"}});
  Json repeat = call("caveman_retrieve", {{"recovery_handle", h}, {"query", "  failed "}});
  ASSERT_EQ(repeat["content"].size(), 1u);
  EXPECT_NE(repeat["content"][0]["text"].get<std::string>().find("already answered"), std::string::npos);
  for (const char* q : {"a1", "a2", "a3", "a4"}) call("caveman_retrieve", {{"recovery_handle", h}, {"query", q}});
  Json sixth = call("caveman_retrieve", {{"recovery_handle", h}, {"query", "disk"}});
  ASSERT_EQ(sixth["content"].size(), 2u);
  EXPECT_EQ(sixth["content"][0]["text"], big_log());  // full original
  EXPECT_NE(sixth["content"][1]["text"].get<std::string>().find("full original"), std::string::npos);
}

TEST_F(EngineToolsTest, StatsAreSessionTotals) {
  call("caveman_compress", {{"input", big_log()}});
  call("caveman_compress", {{"input", "tiny"}});
  Json p = call("caveman_stats", Json::object())["structuredContent"];
  EXPECT_EQ(p["requests"], 2);
  EXPECT_EQ(p["scope"], "session");
  EXPECT_EQ(p["basis"], "inferred");
  EXPECT_GT(p["tokens_before"].get<int>(), p["tokens_after"].get<int>());
}

TEST_F(EngineToolsTest, ToonEncodeDecode) {
  Json enc = call("caveman_toon_encode", {{"input", R"({"users":[{"id":1,"name":"ana"},{"id":2,"name":"sam"}]})"}});
  EXPECT_EQ(enc["structuredContent"]["encoded"], true);
  std::string toon = enc["structuredContent"]["output"];
  EXPECT_NE(toon.find("users[2]{id,name}:"), std::string::npos);
  Json dec = call("caveman_toon_decode", {{"input", toon}});
  EXPECT_EQ(dec["structuredContent"]["output"], R"({"users":[{"id":1,"name":"ana"},{"id":2,"name":"sam"}]})");
  Json bad = call("caveman_toon_encode", {{"input", "{not json"}});
  EXPECT_EQ(bad["structuredContent"]["encoded"], false);
  EXPECT_EQ(bad["structuredContent"]["output"], "{not json");
  Json invalid = call("caveman_toon_decode", {{"input", "users[3]{id}:\n  1"}});
  EXPECT_EQ(invalid["isError"], true);
  EXPECT_NE(invalid["content"][0]["text"].get<std::string>().find("cave_invalid_toon"), std::string::npos);
}

// 2026-07-28 basic/patterns/mrtr "Basic Workflow": a retrieve over the caller's max_bytes asks
// (elicitation) when the client declared it, returns the original after "accept", a note after
// "decline", and acts without asking for clients without elicitation.
TEST_F(EngineToolsTest, MrtrRetrieveOverBudgetAsksFirst) {
  std::string log = big_log();
  std::string handle = call("caveman_compress", {{"input", log}})["structuredContent"]["recovery_handle"];
  auto modern = [&](Json caps, Json extra) {
    Json params = {{"name", "caveman_retrieve"}, {"arguments", {{"recovery_handle", handle}, {"max_bytes", 100}}}};
    params.update(extra);
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", caps}};
    Json req = {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", "tools/call"}, {"params", params}};
    return Json::parse(session_->handle_line(req.dump()))["result"];
  };
  Json quiet = modern(Json::object(), Json::object());
  EXPECT_EQ(quiet["resultType"], "complete");
  EXPECT_EQ(quiet["content"][0]["text"], log);

  Json caps = {{"elicitation", Json::object()}};
  Json ask = modern(caps, Json::object());
  ASSERT_EQ(ask["resultType"], "input_required");
  EXPECT_EQ(ask["inputRequests"]["confirm_size"]["params"]["mode"], "form");
  Json yes = modern(caps, {{"requestState", ask["requestState"]},
                           {"inputResponses", {{"confirm_size", {{"action", "accept"}, {"content", {{"return_whole", true}}}}}}}});
  EXPECT_EQ(yes["resultType"], "complete");
  EXPECT_EQ(yes["content"][0]["text"], log);
  Json no = modern(caps, {{"requestState", ask["requestState"]},
                          {"inputResponses", {{"confirm_size", {{"action", "decline"}}}}}});
  EXPECT_NE(no["content"][0]["text"].get<std::string>().find("declined"), std::string::npos);
}

// `caveman-mcp --tools`: a comma-separated subset of the five tools, in the usual order.
TEST(EngineToolSelectionTest, ToolsFlagKeepsOnlyTheNamedTools) {
  EXPECT_EQ(split_tool_names(" caveman_retrieve , caveman_stats,"),
            (std::vector<std::string>{"caveman_retrieve", "caveman_stats"}));
  EXPECT_TRUE(known_tool_names({"caveman_retrieve"}));
  EXPECT_FALSE(known_tool_names({"caveman_retrieve", "caveman_fetch"}));
  EXPECT_FALSE(known_tool_names({}));
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_TRUE(store.ok());
  auto engine = std::make_shared<const Engine>(std::shared_ptr<ccr::Store>(std::move(store).value()));
  std::vector<Tool> tools = make_engine_tools(engine, {"caveman_stats", "caveman_retrieve"});
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0].name, "caveman_retrieve");
  EXPECT_EQ(tools[1].name, "caveman_stats");
  EXPECT_EQ(make_engine_tools(engine).size(), 5u);
}

}  // namespace
}  // namespace caveman::mcp
