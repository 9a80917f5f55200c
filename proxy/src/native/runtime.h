// The native runtime: turns agent hook events (docs/native.md#behaviours) into typed CCR objects
// and tool-output masking decisions.
//
// - session.start records a TaskContract and answers with a signed session marker as
//   context; prompt.submit records a new TaskContract version (prompt digest + task
//   profile only) and marks the older ones stale.
// - tool.after outputs over the threshold are compressed in place when the engine detects
//   json/tabular/log (policy max: any type the engine can shrink), otherwise stored as a
//   typed object (CommandResult, TestResult, BuildResult, FileObservation, SearchResult, …)
//   and replaced by a short stub naming ccr://<object-id>. Each replacement is a
//   TaskDecision in the Decision Ledger (its decision_id is in the response).
// - context.compact.after cools the session's hot objects to warm; session.end to cold.
// - Unknown event types are observed, never refused. Policy record (or a proxy in record
//   mode) transforms nothing.
// handle() never fails: a store problem leaves the output untouched (fail open, action
// allow). Thread-safe when the store is.
#ifndef CAVEMAN_PROXY_NATIVE_RUNTIME_H_
#define CAVEMAN_PROXY_NATIVE_RUNTIME_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "native/masking.h"
#include "native/protocol.h"

namespace caveman::proxy::native {

inline constexpr std::size_t kDefaultMaskThresholdBytes = 16 * 1024;

struct RuntimeOptions {
  std::size_t mask_threshold_bytes = kDefaultMaskThresholdBytes;
  bool force_record = false;   // the proxy runs in record mode: observe only
  std::string marker_key;      // session-marker HMAC key; empty → no marker at session.start
};

class NativeRuntime {
 public:
  NativeRuntime(std::shared_ptr<ccr::Store> store, RuntimeOptions options);

  NativeResponse handle(const NativeRequest& request) const;
  // parse_request + handle + response_json; nullopt for a request the protocol refuses
  // (the server then closes without answering).
  std::optional<std::string> handle_json(std::string_view request) const;

 private:
  NativeResponse on_session_start(const NativeRequest& r, NativeResponse resp) const;
  NativeResponse on_prompt_submit(const NativeRequest& r, NativeResponse resp) const;
  NativeResponse on_tool_after(const NativeRequest& r, NativeResponse resp) const;
  void set_session_lifecycle(const std::string& session, std::string_view from_lifecycle,
                             std::string_view to_lifecycle) const;

  std::shared_ptr<ccr::Store> store_;
  Engine engine_;
  RuntimeOptions options_;
};

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_RUNTIME_H_
