#include "retrieve_loop.h"

#include <gtest/gtest.h>

#include "json_spans.h"
#include "support/test_support.h"

namespace caveman::proxy {
namespace {

std::string body_of(const Result<std::string>& r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::string();
}

TEST(ProxyRetrieveLoop, InjectsTheToolInEachProviderShape) {
  std::string a = body_of(inject_retrieve_tool(Endpoint::kMessages, R"({"model":"m","messages":[]})"));
  EXPECT_EQ(a.substr(0, 10), R"({"tools":[)");
  EXPECT_NE(a.find(R"("input_schema":{"type":"object")"), std::string::npos);
  EXPECT_TRUE(JsonDoc::parse(a));
  std::string b = body_of(inject_retrieve_tool(Endpoint::kChatCompletions,
                                               R"({"tools":[{"type":"function","function":{"name":"x"}}],"messages":[]})"));
  EXPECT_NE(b.find(R"("name":"x"}},{"type":"function","function":{"name":"caveman_retrieve")"), std::string::npos);
  std::string c = body_of(inject_retrieve_tool(Endpoint::kResponses, R"({"tools":[],"input":"q"})"));
  EXPECT_NE(c.find(R"("tools":[{"type":"function","name":"caveman_retrieve")"), std::string::npos);
  std::string d = body_of(inject_retrieve_tool(Endpoint::kGenerateContent, R"({})"));
  EXPECT_NE(d.find(R"({"tools":[{"functionDeclarations":[{"name":"caveman_retrieve")"), std::string::npos);
  EXPECT_TRUE(JsonDoc::parse(d));
  EXPECT_FALSE(inject_retrieve_tool(Endpoint::kMessages, R"({"tools":{}})").ok());
  EXPECT_FALSE(inject_retrieve_tool(Endpoint::kMessages, "[1]").ok());
  EXPECT_FALSE(inject_retrieve_tool(Endpoint::kEmbeddings, "{}").ok());
}

TEST(ProxyRetrieveLoop, FindsRetrieveCallsAndOtherTools) {
  std::optional<ToolCalls> a = find_tool_calls(Endpoint::kMessages,
      R"({"content":[{"type":"text","text":"let me look"},{"type":"tool_use","id":"tu1","name":"caveman_retrieve","input":{"handle":"<<ccr:ccr_1>>","query":"ERROR"}}],"stop_reason":"tool_use"})");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->retrieve.size(), 1u);
  EXPECT_EQ(a->retrieve[0].id, "tu1");
  EXPECT_EQ(a->retrieve[0].handle, "<<ccr:ccr_1>>");
  EXPECT_EQ(a->retrieve[0].query, "ERROR");
  EXPECT_FALSE(a->other_tools);
  std::optional<ToolCalls> b = find_tool_calls(Endpoint::kChatCompletions,
      R"({"choices":[{"message":{"tool_calls":[{"id":"c1","function":{"name":"caveman_retrieve","arguments":"{\"handle\":\"ccr_2\"}"}},{"id":"c2","function":{"name":"bash","arguments":"{}"}}]}}]})");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->retrieve[0].handle, "ccr_2");
  EXPECT_TRUE(b->other_tools);
  std::optional<ToolCalls> c = find_tool_calls(Endpoint::kResponses,
      R"({"output":[{"type":"function_call","call_id":"f1","name":"caveman_retrieve","arguments":"{\"handle\":\"ccr_3\"}"}]})");
  EXPECT_EQ(c->retrieve[0].id, "f1");
  std::optional<ToolCalls> d = find_tool_calls(Endpoint::kGenerateContent,
      R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"caveman_retrieve","args":{"handle":"ccr_4"}}}]}}]})");
  EXPECT_EQ(d->retrieve[0].handle, "ccr_4");
  EXPECT_FALSE(find_tool_calls(Endpoint::kMessages, "not json"));
}

TEST(ProxyRetrieveLoop, AppendsTheModelTurnAndResultsByteSplicing) {
  std::string req = R"({"model":"m","messages":[{"role":"user","content":"q"}],"tools":[]})";
  std::string res = R"({"content":[{"type":"tool_use","id":"tu1","name":"caveman_retrieve","input":{"handle":"ccr_1"}}]})";
  std::string next = body_of(append_retrieve_round(Endpoint::kMessages, req, res, {{"tu1", "ccr_1", ""}}, {"ORIGINAL"}));
  EXPECT_EQ(next, R"({"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"caveman_retrieve","input":{"handle":"ccr_1"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"ORIGINAL"}]}],"tools":[]})");
  std::string rreq = R"({"input":"question","tools":[]})";
  std::string rres = R"({"output":[{"type":"function_call","call_id":"f1","name":"caveman_retrieve","arguments":"{}"}]})";
  std::string rnext = body_of(append_retrieve_round(Endpoint::kResponses, rreq, rres, {{"f1", "h", ""}}, {"X"}));
  EXPECT_EQ(rnext, R"({"input":[{"role":"user","content":"question"},{"type":"function_call","call_id":"f1","name":"caveman_retrieve","arguments":"{}"},{"type":"function_call_output","call_id":"f1","output":"X"}],"tools":[]})");
  std::string creq = R"({"messages":[{"role":"user","content":"q"}]})";
  std::string cres = R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"caveman_retrieve","arguments":"{}"}}]}}]})";
  std::string cnext = body_of(append_retrieve_round(Endpoint::kChatCompletions, creq, cres, {{"c1", "h", ""}}, {"Y"}));
  EXPECT_NE(cnext.find(R"({"role":"tool","tool_call_id":"c1","content":"Y"})"), std::string::npos);
  EXPECT_TRUE(JsonDoc::parse(cnext));
}

TEST(ProxyRetrieveLoop, StripsInjectedCallsFromTheFinalResponse) {
  std::optional<std::string> a = strip_retrieve_calls(Endpoint::kMessages,
      R"({"content":[{"type":"text","text":"answer"},{"type":"tool_use","id":"t","name":"caveman_retrieve","input":{}}],"stop_reason":"tool_use"})");
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, R"({"content":[{"type":"text","text":"answer"}],"stop_reason":"end_turn"})");
  std::optional<std::string> b = strip_retrieve_calls(Endpoint::kChatCompletions,
      R"({"choices":[{"message":{"content":"x","tool_calls":[{"id":"c","function":{"name":"caveman_retrieve"}}]},"finish_reason":"tool_calls"}]})");
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, R"({"choices":[{"message":{"content":"x"},"finish_reason":"stop"}]})");
  EXPECT_FALSE(strip_retrieve_calls(Endpoint::kMessages, R"({"content":[{"type":"text","text":"a"}]})"));
}

TEST(ProxyRetrieveLoop, AnswersRetrieveCallsAndReturnsTheFinalAnswer) {
  Result<std::unique_ptr<ccr::Store>> opened = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_OK(opened);
  std::shared_ptr<ccr::Store> store(std::move(opened).value());
  Engine engine(store);
  ccr::Record rec;
  rec.content_type = "block";
  rec.compressor = "proxy-content";
  rec.original = "THE ORIGINAL LOG";
  Result<std::string> handle = store->put(rec);
  ASSERT_OK(handle);

  std::vector<std::string> sent;
  SendFn send = [&](std::shared_ptr<const std::string> body) -> Result<BufferedResponse> {
    sent.push_back(*body);
    BufferedResponse r;
    r.status = 200;
    r.content_type = "application/json";
    if (sent.size() == 1) {
      r.body = R"({"content":[{"type":"tool_use","id":"tu1","name":"caveman_retrieve","input":{"handle":"<<ccr:)" +
               *handle + R"(>>"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":2}})";
    } else {
      r.body = R"({"content":[{"type":"text","text":"found it"}],"stop_reason":"end_turn","usage":{"input_tokens":30,"output_tokens":3}})";
    }
    return r;
  };
  auto first = std::make_shared<const std::string>(R"({"messages":[{"role":"user","content":"q"}],"tools":[]})");
  Status error;
  LoopOutcome out = run_retrieve_loop(Endpoint::kMessages, Provider::kAnthropic, first, {*handle}, engine, send, &error);
  ASSERT_OK(error);
  EXPECT_EQ(out.rounds, 2);
  EXPECT_EQ(out.retrievals, 1);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_NE(sent[1].find(R"("content":"THE ORIGINAL LOG")"), std::string::npos);
  EXPECT_EQ(out.response.body,
            R"({"content":[{"type":"text","text":"found it"}],"stop_reason":"end_turn","usage":{"input_tokens":30,"output_tokens":3}})");
  EXPECT_EQ(out.usage.input, 40);  // summed over rounds
  EXPECT_EQ(out.usage.output, 5);
}

TEST(ProxyRetrieveLoop, StopsAfterThreeRoundsAndNeverLeaksForeignHandles) {
  Result<std::unique_ptr<ccr::Store>> opened = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_OK(opened);
  std::shared_ptr<ccr::Store> store(std::move(opened).value());
  Engine engine(store);
  int calls = 0;
  std::string last_request;
  SendFn send = [&](std::shared_ptr<const std::string> body) -> Result<BufferedResponse> {
    ++calls;
    last_request = *body;
    BufferedResponse r;
    r.status = 200;
    r.body = R"({"content":[{"type":"text","text":"again"},{"type":"tool_use","id":"t)" + std::to_string(calls) +
             R"(","name":"caveman_retrieve","input":{"handle":"ccr_not_this_request"}}],"stop_reason":"tool_use"})";
    return r;
  };
  auto first = std::make_shared<const std::string>(R"({"messages":[],"tools":[]})");
  Status error;
  LoopOutcome out = run_retrieve_loop(Endpoint::kMessages, Provider::kAnthropic, first, {"ccr_mine"}, engine, send, &error);
  EXPECT_EQ(calls, kMaxRetrieveRounds);
  EXPECT_EQ(out.retrievals, 0);
  EXPECT_NE(last_request.find("cave_unknown_handle"), std::string::npos);
  EXPECT_EQ(out.response.body, R"({"content":[{"type":"text","text":"again"}],"stop_reason":"end_turn"})");
}

TEST(ProxyRetrieveLoop, ErrorsAndOversizedResponsesEndTheLoop) {
  Result<std::unique_ptr<ccr::Store>> opened = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_OK(opened);
  Engine engine(std::shared_ptr<ccr::Store>(std::move(opened).value()));
  auto body = std::make_shared<const std::string>("{}");
  Status error;
  SendFn too_large = [](std::shared_ptr<const std::string>) -> Result<BufferedResponse> {
    BufferedResponse r;
    r.too_large = true;
    return r;
  };
  EXPECT_TRUE(run_retrieve_loop(Endpoint::kMessages, Provider::kAnthropic, body, {}, engine, too_large, &error).replay_original);
  SendFn refused = [](std::shared_ptr<const std::string>) -> Result<BufferedResponse> {
    BufferedResponse r;
    r.status = 400;
    r.body = R"({"type":"error"})";
    return r;
  };
  LoopOutcome o = run_retrieve_loop(Endpoint::kMessages, Provider::kAnthropic, body, {}, engine, refused, &error);
  EXPECT_EQ(o.response.status, 400);
  EXPECT_EQ(o.rounds, 1);
  SendFn broken = [](std::shared_ptr<const std::string>) -> Result<BufferedResponse> {
    return Status::Unavailable("cave_upstream_unavailable", "down");
  };
  run_retrieve_loop(Endpoint::kMessages, Provider::kAnthropic, body, {}, engine, broken, &error);
  EXPECT_EQ(error.error_code(), "cave_upstream_unavailable");
}

}  // namespace
}  // namespace caveman::proxy
