// The MCP server core: JSON-RPC framing, negotiation, tools/call error paths, batches.
#include "mcp_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>

#include "line_reader.h"

namespace caveman::mcp {
namespace {

std::vector<Tool> test_tools() {
  Tool echo;
  echo.name = "echo";
  echo.description = "echo";
  echo.input_schema = Json{{"type", "object"},
                           {"properties", {{"text", {{"type", "string"}}}}},
                           {"required", Json::array({"text"})}};
  echo.output_schema = Json{{"type", "object"}};
  echo.annotations = Json{{"readOnlyHint", true}};
  echo.handler = [](const Json& args, const CallContext&) {
    return ToolResult::payload(Json{{"text", args.value("text", "")}});
  };
  Tool boom;
  boom.name = "boom";
  boom.description = "throws";
  boom.input_schema = Json{{"type", "object"}};
  boom.handler = [](const Json&, const CallContext&) -> ToolResult {
    throw std::runtime_error("kaput");
  };
  Tool big;
  big.name = "big";
  big.description = "large result";
  big.input_schema = Json{{"type", "object"}};
  big.handler = [](const Json&, const CallContext&) {
    ToolResult r;
    r.texts.push_back(std::string(2048, 'x'));
    return r;
  };
  return {echo, boom, big};
}

class SessionTest : public ::testing::Test {
 protected:
  ServerInfo info{"test", "Test", "1.0", ""};
  ServerOptions options{1 << 20, 1024};
  Session session{info, options, test_tools()};

  Json call(const std::string& line) {
    std::string reply = session.handle_line(line);
    if (reply.empty()) return Json();
    return Json::parse(reply);
  }
  Json init(const std::string& version) {
    return call(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
                version + R"(","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
  }
};

TEST_F(SessionTest, InitializeEchoesSupportedVersionsAndIdZero) {
  for (const char* v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    Json r = init(v);
    EXPECT_EQ(r["id"], 0);  // id 0 is a request, not a notification
    EXPECT_EQ(r["result"]["protocolVersion"], v);
  }
}

TEST_F(SessionTest, InitializeNeverFailsOnUnknownVersion) {
  Json r = init("2099-01-01");
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(init("")["result"]["protocolVersion"], "2025-11-25");
}

TEST_F(SessionTest, ToolFieldsFollowTheNegotiatedVersion) {
  init("2024-11-05");
  Json tools = call(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")["result"]["tools"];
  EXPECT_FALSE(tools[0].contains("outputSchema"));
  EXPECT_FALSE(tools[0].contains("annotations"));
  Json res = call(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})");
  EXPECT_FALSE(res["result"].contains("structuredContent"));
  EXPECT_EQ(res["result"]["content"][0]["text"], R"({"text":"hi"})");

  init("2025-11-25");
  tools = call(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")["result"]["tools"];
  EXPECT_TRUE(tools[0].contains("outputSchema"));
  EXPECT_EQ(tools[0]["annotations"]["readOnlyHint"], true);
  res = call(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})");
  EXPECT_EQ(res["result"]["structuredContent"]["text"], "hi");
  EXPECT_EQ(res["result"]["isError"], false);
}

TEST_F(SessionTest, NotificationsAreNeverAnswered) {
  EXPECT_TRUE(call(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());
  EXPECT_TRUE(call(R"({"jsonrpc":"2.0","method":"no/such/notification"})").is_null());
  EXPECT_TRUE(call(R"({"jsonrpc":"2.0","method":"tools/call","params":"bad"})").is_null());
  EXPECT_TRUE(call("   ").is_null());
}

TEST_F(SessionTest, ErrorCodes) {
  EXPECT_EQ(call("{not json")["error"]["code"], kParseError);
  EXPECT_EQ(call("[]")["error"]["code"], kInvalidRequest);
  EXPECT_EQ(call("42")["error"]["code"], kInvalidRequest);
  EXPECT_EQ(call(R"({"jsonrpc":"1.0","id":1,"method":"ping"})")["error"]["code"], kInvalidRequest);
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})")["error"]["code"], kInvalidRequest);
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"nope"})")["error"]["code"], kMethodNotFound);
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]})")["error"]["code"],
            kInvalidParams);
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})")["error"]["code"],
            kInvalidParams);  // missing arguments for a tool that requires some
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":"x"}})")["error"]["code"],
            kInvalidParams);
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})")["result"], Json::object());
}

TEST_F(SessionTest, ToolFailuresAreToolResults) {
  Json unknown = call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}})");
  EXPECT_EQ(unknown["result"]["isError"], true);
  EXPECT_NE(unknown["result"]["content"][0]["text"].get<std::string>().find("cave_unknown_tool"), std::string::npos);
  Json boom = call(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"boom"}})");
  EXPECT_EQ(boom["result"]["isError"], true);
  EXPECT_NE(boom["result"]["content"][0]["text"].get<std::string>().find("cave_tool_panicked"), std::string::npos);
  Json big = call(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big"}})");
  EXPECT_NE(big["result"]["content"][0]["text"].get<std::string>().find("cave_payload_too_large"), std::string::npos);
}

TEST_F(SessionTest, BatchesAnswerEachRequestMember) {
  Json r = call(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"nope"}])");
  ASSERT_TRUE(r.is_array());
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["id"], 1);
  EXPECT_EQ(r[1]["error"]["code"], kMethodNotFound);
  EXPECT_TRUE(call(R"([{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}])").is_null());
}

TEST(LineReaderTest, OversizedLineIsSkippedAndStreamResyncs) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([w = fds[1]] {
    std::string data = "short\n" + std::string(5000, 'x') + "\nafter\nlast-no-newline";
    ssize_t off = 0;
    while (off < static_cast<ssize_t>(data.size())) off += write(w, data.data() + off, data.size() - off);
    close(w);
  });
  LineReader reader(fds[0], 1000);
  std::string line;
  EXPECT_EQ(reader.next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "short");
  EXPECT_EQ(reader.next(&line), LineReader::Status::kOversized);
  EXPECT_EQ(reader.next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "after");
  EXPECT_EQ(reader.next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "last-no-newline");
  EXPECT_EQ(reader.next(&line), LineReader::Status::kEof);
  writer.join();
  close(fds[0]);
}

}  // namespace
}  // namespace caveman::mcp
