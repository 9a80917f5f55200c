#include "native/service.h"

#include <cstdlib>

#include "caveman/base/codes.h"

namespace caveman::proxy::native {

Result<std::unique_ptr<NativeService>> NativeService::start(const std::string& home,
                                                            std::shared_ptr<ccr::Store> store,
                                                            ServiceOptions options) {
  if (!store) return Status::Unavailable(codes::kCcrUnavailable, "the native runtime needs ccr.db");
  auto service = std::unique_ptr<NativeService>(new NativeService());
  CAVEMAN_ASSIGN_OR_RETURN(service->key_, load_or_create_key(home));
  RuntimeOptions ro;
  ro.mask_threshold_bytes = options.mask_threshold_bytes;
  ro.force_record = options.record_mode;
  ro.marker_key = service->key_;
  service->runtime_ = std::make_unique<NativeRuntime>(std::move(store), ro);
  const NativeRuntime* rt = service->runtime_.get();
  auto handler =
      [rt, on_request = std::move(options.on_request),
       on_event = std::move(options.on_event)](std::string_view req) -> std::optional<std::string> {
    if (on_request) on_request();
    Result<NativeRequest> parsed = parse_request(req);
    if (!parsed.ok()) return std::nullopt;
    if (on_event) on_event(*parsed);
    return response_json(rt->handle(*parsed));
  };
  CAVEMAN_ASSIGN_OR_RETURN(
      service->server_,
      NativeSocketServer::start(native_socket_path(home), std::move(handler), options.socket));
  return service;
}

void NativeService::stop() {
  if (server_) server_->stop();
}

std::size_t mask_threshold_from_env() {
  const char* v = std::getenv("CAVEMAN_NATIVE_MASK_BYTES");
  if (v == nullptr || *v == '\0') return kDefaultMaskThresholdBytes;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return (end != nullptr && *end == '\0' && n > 0) ? static_cast<std::size_t>(n)
                                                   : kDefaultMaskThresholdBytes;
}

}  // namespace caveman::proxy::native
