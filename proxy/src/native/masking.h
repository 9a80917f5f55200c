// Tool-output masking for the native runtime: decide how a big tool output reaches the
// model — compressed in place (json/tabular/log; policy max: any type the engine shrinks)
// or stored as a typed CCR object and replaced by a stub naming ccr://<object-id>.
//
// The stub keeps the first and last lines (each line cut at 240 bytes) so the model still
// sees how the output starts and ends, and says exactly how to get the rest. Everything is
// deterministic: the same output in the same session gives the same object id, stub and
// decision id. A store failure is an error and the caller keeps the original (fail open).
#ifndef CAVEMAN_PROXY_NATIVE_MASKING_H_
#define CAVEMAN_PROXY_NATIVE_MASKING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/status.h"
#include "caveman/tool_source.h"
#include "native/protocol.h"

namespace caveman::proxy::native {

inline constexpr std::string_view kTransformVersion = "caveman-native-v1";

struct MaskInput {
  std::string_view session_id;
  std::string_view repository_state;
  std::string_view tool_name;
  std::string_view tool_input_json;
  std::string_view output;
  PolicyMode policy = PolicyMode::kSafe;
};

struct MaskOutcome {
  bool replaced = false;
  std::string replacement;
  std::string recovery_ref;  // "ccr://ccr_obj_…" for a stub, the blob handle when compressed
  std::string object_id;     // set for a stub
  std::string content_type;
  std::string method;  // the engine's method, or "ccr-pointer"
  std::string reason;
  std::string decision_id;  // "dec_" + 24 hex, deterministic
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
};

// Errors: the store's (kResourceExhausted when full, kIo, …).
Result<MaskOutcome> mask_tool_output(const Engine& engine, ccr::Store& store, const MaskInput& in);

// A tool call's string arguments from its input JSON; empty when it is not an object.
ToolArgs tool_args_of(std::string_view input_json);

// The typed-object kind for a tool's output ("CommandResult" when nothing more specific
// fits): test and build commands, file reads, searches, diffs, fetched docs, browser
// snapshots.
std::string_view object_kind_for(std::string_view tool_name, const ToolArgs& args);

// The pointer stub that replaces an output stored as a typed object.
std::string pointer_stub(std::string_view tool_name, std::string_view kind,
                         std::string_view object_id, std::string_view output);

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_MASKING_H_
