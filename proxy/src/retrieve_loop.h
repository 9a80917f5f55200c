// Server-side recovery (docs/proxy.md#compress-mode): for pay-as-you-go, non-streaming requests
// whose agent has no caveman MCP server, the proxy declares a `caveman_retrieve` tool
// itself, answers the model's retrieve calls with the stored originals, re-sends (at most
// kMaxRetrieveRounds rounds) and removes the injected calls from the final response.
//
// The body edits are byte splices (the client's bytes stay as they were); only a final
// response that still carries injected calls is re-serialized. A response the loop cannot
// read (not JSON, not 2xx, other tools called alongside) ends the loop and is returned as
// it came. Pure functions plus run_retrieve_loop(), which talks to the provider through the
// caller's SendFn.
#ifndef CAVEMAN_PROXY_RETRIEVE_LOOP_H_
#define CAVEMAN_PROXY_RETRIEVE_LOOP_H_

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/engine.h"
#include "caveman/status.h"
#include "headers.h"
#include "routes.h"
#include "usage_scanner.h"

namespace caveman::proxy {

inline constexpr int kMaxRetrieveRounds = 3;
inline constexpr std::size_t kMaxLoopResponseBytes = 8 * 1024 * 1024;

// Adds the caveman_retrieve tool in the provider's tool shape (creating `tools` if absent).
// Errors: codes::kTransformFailed (body is not a JSON object, or `tools` is not an array).
Result<std::string> inject_retrieve_tool(Endpoint endpoint, std::string_view body);

struct RetrieveCall {
  std::string id;  // tool_use id / tool_call id / call_id / function name (Gemini)
  std::string handle;
  std::string query;
};

struct ToolCalls {
  std::vector<RetrieveCall> retrieve;
  bool other_tools = false;  // the model also called a tool of the client's
};

// Tool calls in a non-streamed response; nullopt when the body is not a readable response.
std::optional<ToolCalls> find_tool_calls(Endpoint endpoint, std::string_view response);

// The request for the next round: `request` plus the model's turn and one result per call.
Result<std::string> append_retrieve_round(Endpoint endpoint, std::string_view request,
                                          std::string_view response,
                                          const std::vector<RetrieveCall>& calls,
                                          const std::vector<std::string>& results);

// The response without injected retrieve calls; nullopt when it has none.
std::optional<std::string> strip_retrieve_calls(Endpoint endpoint, std::string_view response);


struct BufferedResponse {
  int status = 0;
  HeaderList headers;
  std::string content_type;
  std::string content_encoding;
  std::string body;
  bool too_large = false;  // over kMaxLoopResponseBytes: body is incomplete
};

using SendFn = std::function<Result<BufferedResponse>(std::shared_ptr<const std::string> body)>;

struct LoopOutcome {
  BufferedResponse response;  // what the client gets
  int rounds = 0;             // upstream calls made
  int retrievals = 0;         // retrieve calls answered
  Usage usage;                // summed over rounds
  bool replay_original = false;  // a response was too large: caller must re-send the original
};

LoopOutcome run_retrieve_loop(Endpoint endpoint, Provider provider,
                              std::shared_ptr<const std::string> body_with_tool,
                              const std::set<std::string>& handles, const Engine& engine,
                              const SendFn& send, Status* error);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_RETRIEVE_LOOP_H_
