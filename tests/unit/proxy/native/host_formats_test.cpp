// The Codex CLI and Gemini CLI hook dialects: their payloads (as Codex 0.171 and Gemini CLI
// 0.61 send them) → native requests, runtime answers → their hook output, the hooks
// documents, and the whole hook in each dialect against a live runtime.
#include "native/host_formats.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "native/service.h"
#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;
using caveman::testing::TempDir;

Json payload(const std::string& event) {
  return {{"session_id", "s-1"}, {"transcript_path", "/tmp/t.jsonl"}, {"cwd", "/proj"},
          {"hook_event_name", event}};
}

std::string big_log(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) s += "2026-11-30T10:00:00Z INFO batch " + std::to_string(i) + " done\n";
  return s;
}

HostCall after_call(const HostAdapter& host, const std::string& event) {
  Json in = payload(event);
  in["tool_name"] = "run_shell_command";
  in["tool_response"] = "out";
  std::optional<HostCall> call = host_to_request(host, in.dump(), host.id);
  EXPECT_TRUE(call);
  return call.value_or(HostCall{});
}

TEST(HostFormats, FindsEachHost) {
  EXPECT_EQ(find_host("claude"), &claude_host());
  EXPECT_EQ(find_host("codex"), &codex_host());
  EXPECT_EQ(find_host("gemini"), &gemini_host());
  EXPECT_EQ(find_host("aider"), nullptr);
}

TEST(HostFormats, MapsCodexEvents) {
  const std::pair<const char*, const char*> cases[] = {
      {"SessionStart", "session.start"},  {"UserPromptSubmit", "prompt.submit"},
      {"PreToolUse", "tool.before"},      {"PermissionRequest", "PermissionRequest"},
      {"PostToolUse", "tool.after"},      {"PreCompact", "context.compact.before"},
      {"PostCompact", "context.compact.after"}, {"Stop", "turn.stop"},
      {"SessionEnd", "session.end"},      {"SubagentStart", "subagent.start"},
      {"SubagentStop", "subagent.stop"}};
  for (auto [host_event, native] : cases) {
    Json in = payload(host_event);
    in["model"] = "gpt-5";
    std::optional<HostCall> call = host_to_request(codex_host(), in.dump(), "codex");
    ASSERT_TRUE(call) << host_event;
    EXPECT_EQ(call->request.event_type, native);
    EXPECT_EQ(call->request.session_id, "codex:s-1");
    EXPECT_EQ(call->request.model_provider, "openai");
    EXPECT_OK(parse_request(request_json(call->request)));
  }
}

TEST(HostFormats, MapsGeminiEvents) {
  const std::pair<const char*, const char*> cases[] = {
      {"SessionStart", "session.start"},   {"BeforeAgent", "prompt.submit"},
      {"BeforeModel", "model.before"},     {"AfterModel", "model.after"},
      {"BeforeTool", "tool.before"},       {"AfterTool", "tool.after"},
      {"PreCompress", "context.compact.before"}, {"AfterAgent", "turn.stop"},
      {"SessionEnd", "session.end"},       {"Notification", "Notification"}};
  for (auto [host_event, native] : cases) {
    std::optional<HostCall> call = host_to_request(gemini_host(), payload(host_event).dump(), "gemini");
    ASSERT_TRUE(call) << host_event;
    EXPECT_EQ(call->request.event_type, native);
    EXPECT_EQ(call->request.session_id, "gemini:s-1");
    EXPECT_OK(parse_request(request_json(call->request)));
  }
}

TEST(HostFormats, GeminiPromptTextStaysInTheHook) {
  Json in = payload("BeforeAgent");
  in["prompt"] = "fix the crash in secret_module_xyz";
  std::optional<HostCall> call = host_to_request(gemini_host(), in.dump(), "gemini");
  ASSERT_TRUE(call);
  std::string wire = request_json(call->request);
  EXPECT_EQ(wire.find("secret_module_xyz"), std::string::npos);
  EXPECT_EQ(call->request.prompt_bytes, 34);
  EXPECT_EQ(call->request.task_type, "bugfix");
}

TEST(HostFormats, ReadsEachHostsToolOutput) {
  // Codex: the Bash output is a plain string.
  Json codex = payload("PostToolUse");
  codex["tool_name"] = "Bash";
  codex["tool_input"] = {{"command", "cat big.log"}};
  codex["tool_response"] = "line 1\nline 2\n";
  std::optional<HostCall> c = host_to_request(codex_host(), codex.dump(), "codex");
  ASSERT_TRUE(c && c->request.tool && c->request.tool->output);
  EXPECT_EQ(*c->request.tool->output, "line 1\nline 2\n");
  // Gemini: {llmContent, returnDisplay, error}, llmContent a string or text parts.
  Json gemini = payload("AfterTool");
  gemini["tool_name"] = "read_file";
  gemini["tool_response"] = {{"llmContent", "abc"}, {"returnDisplay", ""}, {"error", nullptr}};
  std::optional<HostCall> g = host_to_request(gemini_host(), gemini.dump(), "gemini");
  ASSERT_TRUE(g && g->request.tool && g->request.tool->output);
  EXPECT_EQ(*g->request.tool->output, "abc");
  gemini["tool_response"]["llmContent"] = Json::array({{{"text", "a"}}, {{"text", "b"}}});
  g = host_to_request(gemini_host(), gemini.dump(), "gemini");
  ASSERT_TRUE(g && g->request.tool && g->request.tool->output);
  EXPECT_EQ(*g->request.tool->output, "a\nb");
  // A failed Gemini tool is tool.failure, and its message is never sent for masking.
  gemini["tool_response"]["error"] = {{"message", "boom"}, {"type", "execution_failed"}};
  g = host_to_request(gemini_host(), gemini.dump(), "gemini");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->request.event_type, "tool.failure");
  EXPECT_FALSE(g->request.tool && g->request.tool->output);
}

TEST(HostFormats, BigGeminiOutputIsReadFromItsSavedFile) {
  TempDir dir;
  std::string full = big_log(3000);
  std::string saved = dir.file("run_shell_command_1.txt");
  { std::ofstream(saved, std::ios::binary) << full; }
  Json in = payload("AfterTool");
  in["tool_name"] = "run_shell_command";
  in["tool_response"] = {{"llmContent", "Output too large. Showing first 8,000 and last 32,000 characters. "
                                        "For full output see: " + saved + "\nhead\n\n... [1 characters omitted] ...\n\ntail"},
                         {"error", nullptr}};
  std::optional<HostCall> call = host_to_request(gemini_host(), in.dump(), "gemini");
  ASSERT_TRUE(call && call->request.tool && call->request.tool->output);
  EXPECT_EQ(*call->request.tool->output, full);
  EXPECT_EQ(call->deadline_ms, kLargeOutputDeadlineMs);
  // A missing file: nothing is masked (never a truncated "original").
  in["tool_response"]["llmContent"] = "Output too large. For full output see: " + dir.file("gone.txt") + "\nx";
  call = host_to_request(gemini_host(), in.dump(), "gemini");
  ASSERT_TRUE(call && call->request.tool);
  EXPECT_FALSE(call->request.tool->output);
}

TEST(HostFormats, ReplacementIsABlockingReason) {
  NativeResponse resp;
  resp.output_replacement = "[caveman] stored as ccr://ccr_obj_1";
  Json codex = Json::parse(response_to_codex(after_call(codex_host(), "PostToolUse"), resp));
  EXPECT_EQ(codex, (Json{{"decision", "block"}, {"reason", *resp.output_replacement}}));
  Json gemini = Json::parse(response_to_gemini(after_call(gemini_host(), "AfterTool"), resp));
  EXPECT_EQ(gemini, (Json{{"decision", "deny"}, {"reason", *resp.output_replacement}}));
  // No replacement: silence (the host keeps its output).
  NativeResponse allow;
  EXPECT_EQ(response_to_codex(after_call(codex_host(), "PostToolUse"), allow), "");
  EXPECT_EQ(response_to_gemini(after_call(gemini_host(), "AfterTool"), allow), "");
}

TEST(HostFormats, SessionMarkerIsAdditionalContext) {
  NativeResponse resp;
  resp.context = "[[caveman-session-v1 sid=\"x\" sig=\"y\"]]";
  for (const HostAdapter* host : {&codex_host(), &gemini_host()}) {
    std::optional<HostCall> call = host_to_request(*host, payload("SessionStart").dump(), host->id);
    ASSERT_TRUE(call);
    Json out = Json::parse(host->render(*call, resp));
    EXPECT_EQ(out["hookSpecificOutput"]["hookEventName"], "SessionStart");
    EXPECT_EQ(out["hookSpecificOutput"]["additionalContext"], resp.context);
  }
}

TEST(HostFormats, SettingsDocuments) {
  Json codex = Json::parse(host_hook_settings(codex_host(), "hook-cmd"));
  for (const char* e : {"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                        "PostToolUse", "PreCompact", "PostCompact", "SubagentStart",
                        "SubagentStop", "Stop", "SessionEnd"}) {
    ASSERT_TRUE(codex["hooks"].contains(e)) << e;
    EXPECT_EQ(codex["hooks"][e][0]["hooks"][0]["command"], "hook-cmd");
    EXPECT_EQ(codex["hooks"][e][0]["hooks"][0]["timeout"], std::string(e) == "SessionEnd" ? 3 : 30);
  }
  EXPECT_EQ(codex["hooks"].size(), 11u);
  EXPECT_EQ(codex["hooks"]["PostToolUse"][0]["matcher"], "*");
  EXPECT_FALSE(codex["hooks"].contains("PostToolUseFailure"));

  Json gemini = Json::parse(host_hook_settings(gemini_host(), "hook-cmd"));
  for (const char* e : {"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "PreCompress",
                        "AfterAgent", "SessionEnd"}) {
    ASSERT_TRUE(gemini["hooks"].contains(e)) << e;
    EXPECT_EQ(gemini["hooks"][e][0]["hooks"][0]["timeout"], 30000);
    EXPECT_EQ(gemini["hooks"][e][0]["hooks"][0]["name"], "caveman");
  }
  EXPECT_EQ(gemini["hooks"].size(), 7u);
  EXPECT_EQ(gemini["hooks"]["AfterTool"][0]["matcher"], ".*");
  EXPECT_FALSE(gemini["hooks"]["SessionStart"][0].contains("matcher"));
}

TEST(HostFormats, WholeHookInEachDialectAgainstALiveRuntime) {
  TempDir home;
  Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(home.file("ccr.db"));
  ASSERT_OK(store);
  std::shared_ptr<ccr::Store> shared(std::move(store).value());
  Result<std::unique_ptr<NativeService>> service = NativeService::start(home.path(), shared);
  ASSERT_OK(service);
  ::setenv("CAVEMAN_NATIVE_TIMEOUT_MS", "30000", 1);
  std::string log = big_log(4000);
  Engine engine(shared);

  Json codex = payload("PostToolUse");
  codex["tool_name"] = "Bash";
  codex["tool_input"] = {{"command", "cat app.log"}};
  codex["tool_response"] = log;
  std::istringstream codex_in(codex.dump());
  std::ostringstream codex_out;
  EXPECT_EQ(run_hook("codex", home.path(), codex_in, codex_out), 0);
  Json c = Json::parse(codex_out.str());
  EXPECT_EQ(c["decision"], "block");
  std::string view = c["reason"];
  EXPECT_LT(view.size(), log.size() / 4);

  Json gemini = payload("AfterTool");
  gemini["tool_name"] = "run_shell_command";
  gemini["tool_input"] = {{"command", "cat app.log"}};
  gemini["tool_response"] = {{"llmContent", log}, {"returnDisplay", log}, {"error", nullptr}};
  std::istringstream gemini_in(gemini.dump());
  std::ostringstream gemini_out;
  EXPECT_EQ(run_hook("gemini", home.path(), gemini_in, gemini_out), 0);
  Json g = Json::parse(gemini_out.str());
  EXPECT_EQ(g["decision"], "deny");
  std::string gview = g["reason"];
  for (const std::string& v : {view, gview}) {
    std::size_t at = v.find("ccr_");
    ASSERT_NE(at, std::string::npos) << v;
    Result<std::string> back = engine.retrieve(v.substr(at, 36));
    ASSERT_OK(back);
    EXPECT_EQ(*back, log);
  }

  // A stopped runtime: silence, exit 0 (fail open).
  (*service)->stop();
  ::unsetenv("CAVEMAN_NATIVE_TIMEOUT_MS");
  std::istringstream again(gemini.dump());
  std::ostringstream silent;
  EXPECT_EQ(run_hook("gemini", home.path(), again, silent), 0);
  EXPECT_EQ(silent.str(), "");
}

}  // namespace
}  // namespace caveman::proxy::native
