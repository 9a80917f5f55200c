// The native runtime as the proxy runs it: the session key, the runtime and the socket
// server, started together by `caveman-proxy serve` (docs/spec/proxy.md#startup).
//
// start() needs the recovery store and the session key; without either the proxy runs on
// without a native runtime (the caller logs a warning — it is never fatal). The service
// owns its threads; stop() or the destructor ends them and removes the socket. The key is
// also what the request path uses to strip session markers (strip_markers()).
#ifndef CAVEMAN_PROXY_NATIVE_SERVICE_H_
#define CAVEMAN_PROXY_NATIVE_SERVICE_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/status.h"
#include "native/runtime.h"
#include "native/session_marker.h"
#include "native/socket_server.h"

namespace caveman::proxy::native {

struct ServiceOptions {
  bool record_mode = false;  // the proxy's mode is record: observe only
  std::size_t mask_threshold_bytes = kDefaultMaskThresholdBytes;
  SocketServerOptions socket;
  std::function<void()> on_request;  // called before each socket request (idle clock)
  std::function<void(const NativeRequest&)> on_event;  // each parsed event (session.end: lifetimes)
};

class NativeService {
 public:
  // Errors: the key's (codes::kSessionKey…), the socket's (codes::kNative…).
  static Result<std::unique_ptr<NativeService>> start(const std::string& home,
                                                      std::shared_ptr<ccr::Store> store,
                                                      ServiceOptions options = {});
  void stop();
  const std::string& session_key() const { return key_; }
  const std::string& socket_path() const { return server_->path(); }
  const NativeRuntime& runtime() const { return *runtime_; }

 private:
  std::string key_;
  std::unique_ptr<NativeRuntime> runtime_;
  std::unique_ptr<NativeSocketServer> server_;
};

// CAVEMAN_NATIVE_MASK_BYTES (positive integer) or the default threshold.
std::size_t mask_threshold_from_env();

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_SERVICE_H_
