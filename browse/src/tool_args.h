// tool_args.h — argument validation for the four caveman-browse tools (docs/browse.md#tools).
//
// Limits: url per url_policy.h (≤ 1 MiB); wait an integer 0–30000 ms; query ≤ 4 KiB; action
// one of click/type/select/scroll/wait/navigate (else codes::kUnknownAction); uid required
// except for wait and navigate (which needs url); full a boolean; text/option ≤ 1 MiB; file
// true or a plain file name (letters, digits, `.-_`, ≤ 128 bytes, not starting with a dot); expression non-empty ≤ 1 MiB; recovery_handle non-empty
// ≤ 512 bytes (ccr:…, ccr://…, <<ccr:…>> forms are normalised). Wrong types and missing
// required arguments are codes::kInvalidArguments; unknown extra arguments are ignored.
// Pure functions; thread-safe.
#ifndef CAVEMAN_BROWSE_TOOL_ARGS_H_
#define CAVEMAN_BROWSE_TOOL_ARGS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "actions.h"
#include "caveman/status.h"

namespace caveman::browse {

inline constexpr int kMaxWaitMs = 30000;
inline constexpr std::size_t kMaxQueryBytes = 4096;
inline constexpr std::size_t kMaxTextBytes = 1u << 20;
inline constexpr std::size_t kMaxHandleBytes = 512;

struct SnapshotRequest {
  bool has_url = false;
  std::string url;
  int wait_ms = 0;
  std::string query;
  std::string expand;  // a uid from the outline's markers or lines: that section, whole
  bool to_file = false;   // write the view to a file under $CAVEMAN_HOME/browse/
  std::string file_name;  // that file's name ("" → generated from the view's hash)
};

struct EvalRequest {
  std::string expression;
};

struct RecoverRequest {
  std::string handle;  // normalised
  std::string query;
};

Result<SnapshotRequest> parse_snapshot_args(const Json& args);
Result<ActRequest> parse_act_args(const Json& args);
Result<EvalRequest> parse_eval_args(const Json& args);
Result<RecoverRequest> parse_recover_args(const Json& args);


}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_TOOL_ARGS_H_
