// The Claude Code hook bridge: payload → native request mapping, the hook output format,
// the settings document, and the whole hook against a live runtime on a real socket.
#include "native/hook_client.h"
#include "native/host_formats.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>
#include <sstream>

#include "native/service.h"
#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;
using caveman::testing::TempDir;

Json hook(const std::string& event) {
  return {{"session_id", "abc-123"}, {"transcript_path", "/tmp/t.jsonl"}, {"cwd", "/proj"},
          {"hook_event_name", event}};
}

std::string big_log(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) {
    s += "2026-11-30T10:00:00Z INFO request " + std::to_string(i) + " served in 3ms\n";
  }
  return s;
}

TEST(HookClient, MapsEveryClaudeEvent) {
  const std::pair<const char*, const char*> cases[] = {
      {"SessionStart", "session.start"},       {"UserPromptSubmit", "prompt.submit"},
      {"PreToolUse", "tool.before"},           {"PostToolUse", "tool.after"},
      {"PostToolUseFailure", "tool.failure"},  {"PreCompact", "context.compact.before"},
      {"PostCompact", "context.compact.after"}, {"Stop", "turn.stop"},
      {"SessionEnd", "session.end"},           {"SubagentStart", "subagent.start"},
      {"SubagentStop", "subagent.stop"},       {"Notification", "Notification"}};
  for (auto [host, native] : cases) {
    std::optional<HostCall> call = claude_to_request(hook(host).dump(), "claude");
    ASSERT_TRUE(call) << host;
    EXPECT_EQ(call->request.event_type, native);
    EXPECT_EQ(call->request.session_id, "claude:abc-123");
    EXPECT_EQ(call->request.host_session_id, "abc-123");
    EXPECT_EQ(call->request.cwd, "/proj");
    EXPECT_OK(parse_request(request_json(call->request)));
  }
  EXPECT_FALSE(claude_to_request("{}", "claude"));
  EXPECT_FALSE(claude_to_request("nope", "claude"));
}

TEST(HookClient, PromptTextStaysInTheHook) {
  Json in = hook("UserPromptSubmit");
  in["prompt"] = "please fix the failing pytest in billing_secret_module";
  std::optional<HostCall> call = claude_to_request(in.dump(), "claude");
  ASSERT_TRUE(call);
  std::string wire = request_json(call->request);
  EXPECT_EQ(wire.find("billing_secret_module"), std::string::npos);
  EXPECT_EQ(wire.find("please"), std::string::npos);
  EXPECT_EQ(call->request.prompt_bytes, static_cast<std::int64_t>(in["prompt"].get<std::string>().size()));
  EXPECT_EQ(call->request.prompt_sha256, ccr::sha256_hex(in["prompt"].get<std::string>()));
  EXPECT_EQ(call->request.task_type, "test");
  auto [type, terms] = classify_prompt("Explain why this is slow");
  EXPECT_EQ(type, "question");
  EXPECT_EQ(classify_prompt("hello").first, "general");
}

TEST(HookClient, BashReplacementKeepsTheToolOutputShape) {
  Json in = hook("PostToolUse");
  in["tool_name"] = "Bash";
  in["tool_input"] = {{"command", "cat big.log"}};
  in["tool_response"] = {{"stdout", "x"}, {"stderr", "warn"}, {"interrupted", false}, {"isImage", false}};
  std::optional<HostCall> call = claude_to_request(in.dump(), "claude");
  ASSERT_TRUE(call && call->request.tool);
  EXPECT_EQ(call->request.tool->output.value_or(""), "x");
  NativeResponse resp;
  resp.output_replacement = "short view";
  Json out = Json::parse(response_to_claude(*call, resp));
  EXPECT_EQ(out["hookSpecificOutput"]["hookEventName"], "PostToolUse");
  Json updated = out["hookSpecificOutput"]["updatedToolOutput"];
  EXPECT_EQ(updated["stdout"], "short view");
  EXPECT_EQ(updated["stderr"], "warn");
  EXPECT_EQ(updated["interrupted"], false);
  // No replacement → print nothing.
  EXPECT_EQ(response_to_claude(*call, NativeResponse{}), "");
}

TEST(HookClient, BigBashOutputIsReadFromClaudesPersistedFile) {
  // Claude Code 2.1.197 keeps ~30 000 chars in stdout and saves the rest to a file.
  TempDir dir;
  std::string full = big_log(2000);
  caveman::testing::write_file(dir.file("out.txt"), full);
  Json in = hook("PostToolUse");
  in["tool_name"] = "Bash";
  in["tool_response"] = {{"stdout", full.substr(0, 30000)}, {"stderr", ""}, {"interrupted", false},
                         {"persistedOutputPath", dir.file("out.txt")}, {"persistedOutputSize", full.size()}};
  std::optional<HostCall> call = claude_to_request(in.dump(), "claude");
  ASSERT_TRUE(call && call->request.tool);
  EXPECT_EQ(call->request.tool->output.value_or(""), full);
  // A size mismatch or a missing file: not masked at all (never a truncated "original").
  in["tool_response"]["persistedOutputSize"] = full.size() + 1;
  EXPECT_FALSE(claude_to_request(in.dump(), "claude")->request.tool->output);
  in["tool_response"]["persistedOutputSize"] = full.size();
  in["tool_response"]["persistedOutputPath"] = dir.file("missing.txt");
  EXPECT_FALSE(claude_to_request(in.dump(), "claude")->request.tool->output);
  in["tool_response"]["persistedOutputSize"] = kMaxRequestBytes + 1;
  EXPECT_FALSE(claude_to_request(in.dump(), "claude")->request.tool->output);
}

TEST(HookClient, StringAndMcpTextReplacements) {
  Json in = hook("PostToolUse");
  in["tool_name"] = "mcp__x__y";
  in["tool_response"] = Json::array({{{"type", "text"}, {"text", "a"}}, {{"type", "text"}, {"text", "b"}}});
  std::optional<HostCall> call = claude_to_request(in.dump(), "claude");
  ASSERT_TRUE(call);
  EXPECT_EQ(call->request.tool->output.value_or(""), "a\nb");
  NativeResponse resp;
  resp.output_replacement = "r";
  Json out = Json::parse(response_to_claude(*call, resp));
  EXPECT_EQ(out["hookSpecificOutput"]["updatedToolOutput"][0]["text"], "r");
  in["tool_response"] = "plain";
  call = claude_to_request(in.dump(), "claude");
  out = Json::parse(response_to_claude(*call, resp));
  EXPECT_EQ(out["hookSpecificOutput"]["updatedToolOutput"], "r");
  // An image block is not text: the output is not sent for masking.
  in["tool_response"] = Json::array({{{"type", "image"}, {"data", "…"}}});
  call = claude_to_request(in.dump(), "claude");
  EXPECT_FALSE(call->request.tool->output);
}

TEST(HookClient, SessionStartContextBecomesAdditionalContext) {
  std::optional<HostCall> call = claude_to_request(hook("SessionStart").dump(), "claude");
  NativeResponse resp;
  resp.context = "[[caveman-session-v1 sid=\"x\" sig=\"y\"]]";
  Json out = Json::parse(response_to_claude(*call, resp));
  EXPECT_EQ(out["hookSpecificOutput"]["hookEventName"], "SessionStart");
  EXPECT_EQ(out["hookSpecificOutput"]["additionalContext"], resp.context);
}

TEST(HookClient, SettingsCoverEveryLifecycleEvent) {
  Json s = Json::parse(claude_hook_settings("/bin/caveman-proxy native-hook claude"));
  for (const char* e : {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                        "PostToolUseFailure", "PreCompact", "PostCompact", "SubagentStart",
                        "SubagentStop", "Stop", "SessionEnd"}) {
    ASSERT_TRUE(s["hooks"].contains(e)) << e;
    EXPECT_EQ(s["hooks"][e][0]["hooks"][0]["command"], "/bin/caveman-proxy native-hook claude");
    EXPECT_EQ(s["hooks"][e][0]["hooks"][0]["type"], "command");
  }
  EXPECT_EQ(s["hooks"]["PostToolUse"][0]["matcher"], "*");
  EXPECT_FALSE(s["hooks"]["SessionStart"][0].contains("matcher"));
}

TEST(HookClient, WholeHookAgainstALiveRuntime) {
  TempDir home;
  Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(home.file("ccr.db"));
  ASSERT_OK(store);
  std::shared_ptr<ccr::Store> shared(std::move(store).value());
  Result<std::unique_ptr<NativeService>> service = NativeService::start(home.path(), shared);
  ASSERT_OK(service);

  // session.start writes ccr.db before answering; on a loaded machine (or under ASan) that
  // can exceed the hook's default 250 ms, which would be silence — correct, but not this test.
  ::setenv("CAVEMAN_NATIVE_TIMEOUT_MS", "30000", 1);
  std::istringstream start_in(hook("SessionStart").dump());
  std::ostringstream start_out;
  EXPECT_EQ(run_hook("claude", home.path(), start_in, start_out), 0);
  Json ctx = Json::parse(start_out.str());
  EXPECT_EQ(ctx["hookSpecificOutput"]["additionalContext"].get<std::string>().rfind("[[caveman-session-v1 sid=", 0), 0u);

  std::string log = big_log(4000);
  Json post = hook("PostToolUse");
  post["tool_name"] = "Bash";
  post["tool_input"] = {{"command", "./run.sh"}};
  post["tool_response"] = {{"stdout", log}, {"stderr", ""}, {"interrupted", false}, {"isImage", false}};
  std::istringstream post_in(post.dump());
  std::ostringstream post_out;
  EXPECT_EQ(run_hook("claude", home.path(), post_in, post_out), 0);
  ASSERT_FALSE(post_out.str().empty());
  std::string view = Json::parse(post_out.str())["hookSpecificOutput"]["updatedToolOutput"]["stdout"];
  EXPECT_LT(view.size(), log.size() / 4);
  std::size_t at = view.find("ccr_");
  ASSERT_NE(at, std::string::npos);
  Engine engine(shared);
  Result<std::string> back = engine.retrieve(view.substr(at, 36));
  ASSERT_OK(back);
  EXPECT_EQ(*back, log);

  // Stopped runtime, oversize stdin, junk: silence and exit 0.
  (*service)->stop();
  ::unsetenv("CAVEMAN_NATIVE_TIMEOUT_MS");
  std::istringstream again(post.dump());
  std::ostringstream silent;
  EXPECT_EQ(run_hook("claude", home.path(), again, silent), 0);
  EXPECT_EQ(silent.str(), "");
  std::istringstream junk("not json");
  EXPECT_EQ(run_hook("claude", home.path(), junk, silent), 0);
  std::istringstream huge(std::string(kMaxRequestBytes + 10, ' '));
  EXPECT_EQ(run_hook("claude", home.path(), huge, silent), 0);
  EXPECT_EQ(silent.str(), "");
}

}  // namespace
}  // namespace caveman::proxy::native
