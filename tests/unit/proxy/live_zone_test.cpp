#include "live_zone.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace caveman::proxy {
namespace {

struct Found {
  std::string text;
  bool live;
  bool tool;
};

std::vector<Found> extract(Endpoint e, const std::string& body, std::string* query = nullptr,
                           std::size_t min_bytes = 10) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  EXPECT_TRUE(doc) << body;
  if (!doc) return {};
  LiveZone zone = extract_live_zone(e, *doc, min_bytes);
  if (query != nullptr) *query = zone.query;
  std::vector<Found> out;
  for (const Candidate& c : zone.candidates) out.push_back({doc->node(c.node).text, c.live, c.tool_result});
  return out;
}

TEST(ProxyLiveZone, AnthropicLatestUserMessageIsLiveAndHistoryFrozen) {
  std::string body = R"({"model":"m","system":"SYSTEM PROMPT LONG ENOUGH","tools":[{"name":"t","description":"DESCRIPTION LONG ENOUGH"}],
"messages":[
 {"role":"user","content":"first question, long enough"},
 {"role":"assistant","content":[{"type":"text","text":"assistant text long enough"},{"type":"tool_use","id":"tu1","name":"read","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"OLD TOOL OUTPUT long enough"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"tu2","name":"read","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu2","content":[{"type":"text","text":"NEW TOOL OUTPUT long enough"},{"type":"image","source":{}}]},
                           {"type":"text","text":"short"}]}
]})";
  std::string query;
  std::vector<Found> f = extract(Endpoint::kMessages, body, &query);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text, "first question, long enough");
  EXPECT_FALSE(f[0].live);
  EXPECT_FALSE(f[0].tool);
  EXPECT_EQ(f[1].text, "OLD TOOL OUTPUT long enough");
  EXPECT_FALSE(f[1].live);
  EXPECT_TRUE(f[1].tool);
  EXPECT_EQ(f[2].text, "NEW TOOL OUTPUT long enough");
  EXPECT_TRUE(f[2].live);
  EXPECT_TRUE(f[2].tool);
  // The query is the latest human text, never a tool result.
  EXPECT_EQ(query, "short");
}

// The agent's latest tool inputs (what it just searched for) join the query, latest first, at
// most three tool calls, without the words that are file paths or names.
// Results before the latest message with human text belong to an earlier task, already
// answered (re-compaction may stub them); a reminder-only message is no human text.
TEST(ProxyLiveZone, AnthropicResultsBeforeTheLatestHumanTextAreAnswered) {
  std::string body = R"({"model":"m","messages":[
 {"role":"user","content":"first task, long enough"},
 {"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"read","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"FIRST TASK OUTPUT long enough"}]},
 {"role":"assistant","content":"done"},
 {"role":"user","content":[{"type":"text","text":"second task, long enough"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"tu2","name":"read","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu2","content":"SECOND TASK OUTPUT long enough"},
                           {"type":"text","text":"<system-reminder>a reminder, long enough</system-reminder>"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"tu3","name":"read","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"tu3","content":"LATEST OUTPUT long enough"}]}
]})";
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  ASSERT_TRUE(doc);
  std::vector<std::pair<std::string, bool>> answered;
  for (const Candidate& c : extract_live_zone(Endpoint::kMessages, *doc, 10).candidates) {
    if (c.tool_result) answered.emplace_back(doc->node(c.node).text, c.answered);
  }
  ASSERT_EQ(answered.size(), 3u);
  EXPECT_EQ(answered[0], std::make_pair(std::string("FIRST TASK OUTPUT long enough"), true));
  EXPECT_EQ(answered[1], std::make_pair(std::string("SECOND TASK OUTPUT long enough"), false));
  EXPECT_EQ(answered[2], std::make_pair(std::string("LATEST OUTPUT long enough"), false));
}

TEST(ProxyLiveZone, AnthropicQueryGainsTheLatestToolInputs) {
  std::string body = R"({"messages":[
 {"role":"user","content":"fix the failing test"},
 {"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Bash","input":{"command":"ls"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"grep -n normalizeIPv6 lib","limit":5}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"y"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"c","name":"Read","input":{"file_path":"lib/utils.js"}},
                                {"type":"tool_use","id":"d","name":"Read","input":{"file_path":"index.js"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"z"},{"type":"tool_result","tool_use_id":"d","content":"w"}]}
]})";
  std::string query;
  extract(Endpoint::kMessages, body, &query);
  EXPECT_EQ(query, "fix the failing test grep -n normalizeIPv6 lib");
}

TEST(ProxyLiveZone, AnthropicCacheMarkersMoveTheFrozenFloor) {
  std::string body = R"({"messages":[
 {"role":"user","content":[{"type":"text","text":"cached turn long enough","cache_control":{"type":"ephemeral"}}]},
 {"role":"user","content":"after the floor one"},
 {"role":"system","content":"injected system long"},
 {"role":"user","content":"after the floor two"}
]})";
  std::vector<Found> f = extract(Endpoint::kMessages, body);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_FALSE(f[0].live);  // at or before the marked message
  EXPECT_TRUE(f[1].live);   // with markers every user/system message after the floor is live
  EXPECT_TRUE(f[2].live);
  EXPECT_TRUE(f[3].live);
}

TEST(ProxyLiveZone, AnthropicRetrieveResultsAreNeverCandidates) {
  std::string body = R"({"messages":[
 {"role":"assistant","content":[{"type":"tool_use","id":"r1","name":"mcp__caveman__caveman_retrieve","input":{"handle":"ccr_x"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"r1","content":"RECOVERED ORIGINAL BYTES"},
                           {"type":"tool_result","tool_use_id":"other","content":"OTHER TOOL OUTPUT"}]}
]})";
  std::vector<Found> f = extract(Endpoint::kMessages, body);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].text, "OTHER TOOL OUTPUT");
  EXPECT_TRUE(is_retrieve_tool_name("caveman_retrieve"));
  EXPECT_TRUE(is_retrieve_tool_name("srv__caveman_retrieve"));
  EXPECT_FALSE(is_retrieve_tool_name("caveman_retrieve2"));
  EXPECT_FALSE(is_retrieve_tool_name("__caveman_retrieve"));
}

// Claude Code's <system-reminder> blocks are no words of the human: a message of reminders
// only is skipped, and reminders inside the human's text are cut out of the query.
TEST(ProxyLiveZone, QueryLeavesTheAgentsRemindersOut) {
  std::string body = R"({"messages":[
 {"role":"user","content":[{"type":"text","text":"<system-reminder>\nAs you answer, use the context below.\n</system-reminder>"},
                           {"type":"text","text":"what version is router? <system-reminder>todo list is empty</system-reminder>"}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Read","input":{"file_path":"packages.json"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"},
                           {"type":"text","text":"<system-reminder>The file is large; read it in parts.</system-reminder>"}]}
]})";
  std::string query;
  extract(Endpoint::kMessages, body, &query);
  EXPECT_EQ(query, "what version is router?");
}

// A web-fetch tool's output may become page text; a file read's may not (docs/proxy.md).
TEST(ProxyLiveZone, FetchToolOutputsAreMarkedAsFetchedPages) {
  std::string body = R"({"messages":[
 {"role":"assistant","content":[{"type":"tool_use","id":"f1","name":"WebFetch","input":{"url":"https://example.com"}},
                                {"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"/x/index.html"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"f1","content":"FETCHED PAGE BYTES"},
                           {"type":"tool_result","tool_use_id":"r1","content":"FILE READ BYTES"}]}
]})";
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  ASSERT_TRUE(doc);
  LiveZone zone = extract_live_zone(Endpoint::kMessages, *doc, 10);
  ASSERT_EQ(zone.candidates.size(), 2u);
  EXPECT_TRUE(zone.candidates[0].fetched_page);
  EXPECT_FALSE(zone.candidates[1].fetched_page);
  for (std::string_view name :
       {"WebFetch", "web_fetch", "webfetch", "mcp__fetch__fetch", "fetch_url"}) {
    EXPECT_TRUE(is_fetch_tool_name(name)) << name;
  }
  for (std::string_view name : {"Read", "read_file", "Bash", "prefetch", "fetch_logs"}) {
    EXPECT_FALSE(is_fetch_tool_name(name)) << name;
  }
}

// The file a call names travels with its result, in each wire format (docs/spec/detect.md#hints).
std::vector<std::string> source_paths(Endpoint e, const std::string& body) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  EXPECT_TRUE(doc) << body;
  std::vector<std::string> out;
  if (!doc) return out;
  for (const Candidate& c : extract_live_zone(e, *doc, 10).candidates) {
    if (c.tool_result) out.push_back(c.source_path);
  }
  return out;
}

TEST(ProxyLiveZone, ToolResultsCarryTheFileTheirCallNames) {
  EXPECT_EQ(source_paths(Endpoint::kMessages, R"({"messages":[
 {"role":"assistant","content":[{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"/etc/a.conf"}},
                                {"type":"tool_use","id":"b1","name":"Bash","input":{"command":"cat -n src/x.py"}},
                                {"type":"tool_use","id":"g1","name":"Grep","input":{"pattern":"x","path":"/etc"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"r1","content":"READ RESULT BYTES"},
                           {"type":"tool_result","tool_use_id":"b1","content":"BASH RESULT BYTES"},
                           {"type":"tool_result","tool_use_id":"g1","content":"GREP RESULT BYTES"}]}]})"),
            (std::vector<std::string>{"/etc/a.conf", "src/x.py", ""}));
  EXPECT_EQ(source_paths(Endpoint::kChatCompletions, R"({"messages":[
 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"absolute_path\":\"/p/a.yaml\"}"}}]},
 {"role":"tool","tool_call_id":"c1","content":"READ FILE OUTPUT"}]})"),
            (std::vector<std::string>{"/p/a.yaml"}));
  EXPECT_EQ(source_paths(Endpoint::kResponses, R"({"input":[
 {"type":"function_call","call_id":"k1","name":"exec_command","arguments":"{\"cmd\":\"sed -n '1,80p' a.toml\"}"},
 {"type":"function_call_output","call_id":"k1","output":"SED OUTPUT BYTES"}]})"),
            (std::vector<std::string>{"a.toml"}));
  EXPECT_EQ(source_paths(Endpoint::kGenerateContent, R"({"contents":[
 {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"absolute_path":"/p/b.svg"}}}]},
 {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"SVG FILE BYTES"}}}]}]})"),
            (std::vector<std::string>{"/p/b.svg"}));
}

TEST(ProxyLiveZone, MinimumSizeIsInDecodedBytes) {
  std::string body = R"({"messages":[{"role":"user","content":"0123456789"}]})";
  EXPECT_EQ(extract(Endpoint::kMessages, body, nullptr, 10).size(), 1u);
  EXPECT_EQ(extract(Endpoint::kMessages, body, nullptr, 11).size(), 0u);
}

TEST(ProxyLiveZone, OpenAIChatLiveToolResultsAndLatestUser) {
  std::string body = R"({"model":"g","messages":[
 {"role":"system","content":"SYSTEM PROMPT LONG"},
 {"role":"user","content":"what is in the logs?"},
 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_log","arguments":"{}"}},
                                                   {"id":"c2","type":"function","function":{"name":"caveman_retrieve","arguments":"{}"}}]},
 {"role":"tool","tool_call_id":"c1","content":"LOG OUTPUT one long"},
 {"role":"tool","tool_call_id":"c2","content":"RECOVERED BYTES long"},
 {"role":"tool","tool_call_id":"c3","content":[{"type":"text","text":"PARTS OUTPUT long"}]}
]})";
  std::string query;
  std::vector<Found> f = extract(Endpoint::kChatCompletions, body, &query);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text, "what is in the logs?");
  EXPECT_TRUE(f[0].live);
  EXPECT_EQ(f[1].text, "LOG OUTPUT one long");
  EXPECT_TRUE(f[1].live);
  EXPECT_TRUE(f[1].tool);
  EXPECT_EQ(f[2].text, "PARTS OUTPUT long");
  EXPECT_TRUE(f[2].live);
  EXPECT_EQ(query, "what is in the logs?");
  // An older tool result (before the last assistant turn) is frozen.
  std::string later = body.substr(0, body.size() - 3) +
                      R"(,{"role":"assistant","content":"done reading"},{"role":"user","content":"and now?"}]})";
  std::vector<Found> g = extract(Endpoint::kChatCompletions, later, nullptr, 5);
  for (const Found& x : g) {
    if (x.tool) {
      EXPECT_FALSE(x.live) << x.text;
    }
  }
}

TEST(ProxyLiveZone, OpenAIResponsesStringInputAndFunctionOutputs) {
  std::string query;
  std::vector<Found> s = extract(Endpoint::kResponses, R"({"input":"a plain string input"})", &query);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].live);
  EXPECT_EQ(query, "a plain string input");
  std::string body = R"({"input":[
 {"role":"user","content":[{"type":"input_text","text":"summarize the build"}]},
 {"type":"function_call","call_id":"f1","name":"build","arguments":"{}"},
 {"type":"function_call","call_id":"f2","name":"caveman_retrieve","arguments":"{}"},
 {"type":"function_call_output","call_id":"f1","output":"BUILD OUTPUT long enough"},
 {"type":"function_call_output","call_id":"f2","output":"RECOVERED long enough"}
]})";
  std::vector<Found> f = extract(Endpoint::kResponses, body, &query);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].text, "summarize the build");
  EXPECT_TRUE(f[0].live);
  EXPECT_EQ(f[1].text, "BUILD OUTPUT long enough");
  EXPECT_TRUE(f[1].live);
  EXPECT_EQ(query, "summarize the build");
}

TEST(ProxyLiveZone, GeminiLatestUserTurnTextAndFunctionResponses) {
  std::string body = R"({"systemInstruction":{"parts":[{"text":"SYSTEM INSTRUCTION"}]},"contents":[
 {"role":"user","parts":[{"text":"older user turn text"}]},
 {"role":"model","parts":[{"text":"model answer text"},{"functionCall":{"name":"grep","args":{}}}]},
 {"role":"user","parts":[{"functionResponse":{"name":"grep","response":{"output":"GREP OUTPUT long","code":0}}},
                         {"functionResponse":{"name":"caveman_retrieve","response":{"content":"RECOVERED long"}}},
                         {"text":"latest question"}]}
]})";
  std::string query;
  std::vector<Found> f = extract(Endpoint::kGenerateContent, body, &query);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text, "older user turn text");
  EXPECT_FALSE(f[0].live);
  EXPECT_EQ(f[1].text, "GREP OUTPUT long");
  EXPECT_TRUE(f[1].live);
  EXPECT_TRUE(f[1].tool);
  EXPECT_EQ(f[2].text, "latest question");
  EXPECT_EQ(query, "latest question");
}

TEST(ProxyLiveZone, EndpointsWithoutALiveZoneYieldNothing) {
  std::string body = R"({"messages":[{"role":"user","content":"a long enough user message"}],"input":"a long enough input"})";
  EXPECT_TRUE(extract(Endpoint::kCountTokens, body).empty());
  EXPECT_TRUE(extract(Endpoint::kEmbeddings, body).empty());
  EXPECT_TRUE(extract(Endpoint::kOther, body).empty());
}

TEST(ProxyLiveZone, InspectReadsModelStreamAndRetrieveTool) {
  std::optional<JsonDoc> doc = JsonDoc::parse(
      R"({"model":"claude-x","stream":true,"tools":[{"name":"caveman_retrieve"}]})");
  ASSERT_TRUE(doc);
  LiveZone z = inspect_request(Endpoint::kMessages, *doc);
  EXPECT_EQ(z.model, "claude-x");
  EXPECT_TRUE(z.stream);
  EXPECT_TRUE(z.declares_retrieve_tool);
  std::optional<JsonDoc> chat = JsonDoc::parse(
      R"({"stream":false,"tools":[{"type":"function","function":{"name":"x__caveman_retrieve"}}]})");
  LiveZone c = inspect_request(Endpoint::kChatCompletions, *chat);
  EXPECT_FALSE(c.stream);
  EXPECT_TRUE(c.declares_retrieve_tool);
  std::optional<JsonDoc> gem = JsonDoc::parse(R"({"tools":[{"functionDeclarations":[{"name":"caveman_retrieve"}]}]})");
  EXPECT_TRUE(inspect_request(Endpoint::kStreamGenerate, *gem).stream);
  EXPECT_TRUE(inspect_request(Endpoint::kStreamGenerate, *gem).declares_retrieve_tool);
}

}  // namespace
}  // namespace caveman::proxy
