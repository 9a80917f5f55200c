#include "native/hook_client.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "caveman/base/text.h"
#include "caveman/ccr.h"
#include "native/runtime.h"
#include "native/shrink_hook.h"
#include "native/socket_server.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

std::string str(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The text the model would read from a tool response, when its shape is one we can
// rebuild: Bash {stdout,…}, a plain string, or MCP text content blocks.
std::optional<std::string> tool_output_text(const Json& response) {
  if (response.is_string()) return response.get<std::string>();
  if (response.is_object() && response.contains("llmContent")) {
    return tool_output_text(response["llmContent"]);  // Gemini: a string or text parts
  }
  if (response.is_object() && response.contains("stdout") && response["stdout"].is_string()) {
    return response["stdout"].get<std::string>();
  }
  const Json* blocks = &response;
  if (response.is_object() && response.contains("content")) blocks = &response["content"];
  if (blocks->is_array() && !blocks->empty()) {
    std::string text;
    for (const Json& b : *blocks) {
      // MCP blocks are {"type":"text","text":…}; Gemini parts are {"text":…}.
      bool text_block = b.is_object() && b.contains("text") && b["text"].is_string() &&
                        (!b.contains("type") || str(b, "type") == "text");
      if (!text_block) return std::nullopt;
      if (!text.empty()) text += '\n';
      text += str(b, "text");
    }
    return text;
  }
  return std::nullopt;
}

}  // namespace

Json replaced_tool_output(const Json& response, const std::string& replacement) {
  if (response.is_string()) return replacement;
  if (response.is_object() && response.contains("stdout")) {
    Json out = response;
    out["stdout"] = replacement;
    return out;
  }
  Json blocks = Json::array({{{"type", "text"}, {"text", replacement}}});
  if (response.is_object() && response.contains("content")) {
    Json out = response;
    out["content"] = blocks;
    return out;
  }
  return blocks;
}

namespace {

// The whole of a regular file of `size` bytes (any size when size < 0) up to the socket's
// limit; "" when it is unusable (never a truncated "original").
std::string read_saved_output(const std::string& path, std::int64_t size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  std::string data;
  bool usable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                static_cast<std::uint64_t>(st.st_size) <= kMaxRequestBytes &&
                (size < 0 || st.st_size == size);
  if (usable) {
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t off = 0;
    while (off < data.size()) {
      ssize_t r = ::read(fd, data.data() + off, data.size() - off);
      if (r <= 0) break;
      off += static_cast<std::size_t>(r);
    }
    if (off != data.size()) data.clear();
  }
  ::close(fd);
  return data;
}

// Claude Code keeps only the first ~30 000 characters of a big Bash output in
// tool_response.stdout and saves the whole output to persistedOutputPath (its size in
// persistedOutputSize). Gemini CLI keeps the head and tail of a big output in llmContent,
// whose first line names the file holding all of it. The runtime must see — and store — the
// whole output, so it is read from that file; a file that does not match, or that could not
// cross the socket, means the output is not masked at all.
std::optional<std::string> persisted_output(const Json& response) {
  if (!response.is_object()) return std::nullopt;
  auto p = response.find("persistedOutputPath");
  auto n = response.find("persistedOutputSize");
  if (p != response.end() && p->is_string() && n != response.end() && n->is_number_unsigned()) {
    std::uint64_t size = n->get<std::uint64_t>();
    if (size > kMaxRequestBytes) return std::string();  // too big for the socket: leave it alone
    return read_saved_output(p->get<std::string>(), static_cast<std::int64_t>(size));
  }
  auto llm = response.find("llmContent");
  static constexpr std::string_view kTruncated = "Output too large.";
  static constexpr std::string_view kSee = "For full output see: ";
  if (llm == response.end() || !llm->is_string()) return std::nullopt;
  const std::string& text = llm->get_ref<const std::string&>();
  std::size_t eol = text.find('\n');
  std::size_t at = text.rfind(kSee, eol);
  if (text.rfind(kTruncated, 0) != 0 || eol == std::string::npos || at == std::string::npos) {
    return std::nullopt;
  }
  return read_saved_output(text.substr(at + kSee.size(), eol - at - kSee.size()), -1);
}

int deadline_from_env(int fallback) {
  const char* v = std::getenv("CAVEMAN_NATIVE_TIMEOUT_MS");
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  long ms = std::strtol(v, &end, 10);
  return (end != nullptr && *end == '\0' && ms > 0 && ms <= 60000) ? static_cast<int>(ms) : fallback;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::pair<std::string, std::vector<std::string>> classify_prompt(std::string_view prompt) {
  std::string p = base::ascii_lower(prompt);
  // (category, keywords) — the only words that can ever leave the hook.
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kVocabulary = {
      {"test", {"test", "pytest", "coverage", "spec"}},
      {"bugfix", {"fix", "bug", "error", "crash", "fail", "broken"}},
      {"build", {"build", "compile", "cmake", "link"}},
      {"refactor", {"refactor", "rename", "clean up", "simplify"}},
      {"docs", {"doc", "readme", "comment"}},
      {"review", {"review", "audit"}},
      {"question", {"explain", "why", "how does", "what is"}},
  };
  std::string type;
  std::vector<std::string> terms;
  for (const auto& [category, words] : kVocabulary) {
    for (const std::string& w : words) {
      if (p.find(w) == std::string::npos) continue;
      if (type.empty()) type = category;
      if (std::find(terms.begin(), terms.end(), w) == terms.end()) terms.push_back(w);
    }
  }
  return {type.empty() ? "general" : type, terms};
}

std::optional<HostCall> host_to_request(const HostAdapter& host, std::string_view hook_json,
                                        std::string_view agent) {
  Json in = Json::parse(hook_json, nullptr, false);
  if (in.is_discarded() || !in.is_object()) return std::nullopt;
  std::string host_event = str(in, "hook_event_name");
  std::string host_session = str(in, "session_id");
  if (host_event.empty() || host_session.empty()) return std::nullopt;
  HostCall call;
  call.host_event = host_event;
  NativeRequest& r = call.request;
  r.agent_id = std::string(agent);
  r.agent_surface = "hook";
  r.session_id = std::string(agent) + ":" + host_session;
  r.host_session_id = host_session;
  r.cwd = str(in, "cwd");
  r.timestamp_ms = now_ms();
  r.model = str(in, "model");
  if (!r.model.empty()) r.model_provider = std::string(host.model_provider);
  r.event = EventType::kUnknown;
  r.event_type = host_event;
  for (const auto& [name, type] : *host.events) {
    if (name == host_event && type != EventType::kUnknown) {
      r.event = type;
      r.event_type = std::string(event_name(type));
    }
  }
  if (const char* policy = std::getenv("CAVEMAN_NATIVE_POLICY")) {
    r.policy = parse_policy(policy).value_or(PolicyMode::kSafe);
  }
  if (r.event == EventType::kToolAfter && host.error_field_means_failure) {
    auto resp = in.find("tool_response");
    if (resp != in.end() && resp->is_object() && resp->contains("error") && !(*resp)["error"].is_null()) {
      r.event = EventType::kToolFailure;  // a failed tool's message is never masked
      r.event_type = std::string(event_name(r.event));
    }
  }
  if (r.event == EventType::kPromptSubmit) {
    std::string prompt = str(in, "prompt");
    r.prompt_bytes = static_cast<std::int64_t>(prompt.size());
    r.prompt_sha256 = ccr::sha256_hex(prompt);
    auto [type, terms] = classify_prompt(prompt);
    r.task_type = type;
    r.task_terms = terms;
  }
  if (in.contains("tool_name")) {
    ToolCall tool;
    tool.name = str(in, "tool_name");
    if (auto it = in.find("tool_input"); it != in.end()) tool.input_json = dump_json(*it);
    if (r.event == EventType::kToolAfter) {
      if (auto it = in.find("tool_response"); it != in.end()) {
        call.tool_response_json = dump_json(*it);
        tool.output = tool_output_text(*it);
        if (std::optional<std::string> full = persisted_output(*it)) {
          tool.output = full->empty() ? std::nullopt : std::move(full);
        }
        if (tool.output && tool.output->size() > kDefaultMaskThresholdBytes) {
          call.deadline_ms = kLargeOutputDeadlineMs;
        }
      }
    }
    r.tool = std::move(tool);
  }
  call.deadline_ms = deadline_from_env(call.deadline_ms);
  return call;
}

int run_hook(const HostAdapter& host, std::string_view agent, const std::string& home,
             std::istream& in, std::ostream& out) {
  std::string payload;
  payload.resize(kMaxRequestBytes + 1);
  in.read(payload.data(), static_cast<std::streamsize>(payload.size()));
  payload.resize(static_cast<std::size_t>(in.gcount()));
  if (payload.size() > kMaxRequestBytes) return 0;  // too big: the host keeps its output
  const bool tool_before = payload.find("\"PreToolUse\"") != std::string::npos ||
                           payload.find("\"BeforeTool\"") != std::string::npos;
  if (host.id != "claude" && tool_before) {
    if (std::optional<std::string> rewrite = shrink_rewrite(host, payload, find_shrink_binary())) {
      out << *rewrite << "\n";  // a tool-before event the runtime only observes: no round trip
      return 0;
    }
  }
  std::optional<HostCall> call = host_to_request(host, payload, agent);
  if (!call) return 0;
  std::string request = request_json(call->request);
  if (request.size() > kMaxRequestBytes) return 0;  // the runtime would refuse it anyway
  Result<std::string> answer = native_exchange(native_socket_path(home), request, call->deadline_ms);
  if (!answer.ok()) return 0;
  Result<NativeResponse> resp = parse_response(*answer);
  if (!resp.ok()) return 0;
  std::string text = host.render(*call, *resp);
  if (!text.empty()) out << text << "\n";
  return 0;
}

}  // namespace caveman::proxy::native
