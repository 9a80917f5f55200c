// caveman/base/codes.h — the registry of stable `cave_*` codes (docs/errors.md).
//
// Every error code a binary reports (in a Status, on stderr, in an MCP tool error, in the
// proxy's JSON envelope) and every proxy metric name is spelled once, here; the rest of the
// source names the constant. tests/lint/error_codes_test.py (ctest lint_error_codes) checks
// that no other source spells a code, that docs/errors.md lists exactly these, and that each
// is used. Groups follow docs/errors.md.
#ifndef CAVEMAN_BASE_CODES_H_
#define CAVEMAN_BASE_CODES_H_

#include <string>
#include <string_view>

namespace caveman::codes {

// What every code and metric name starts with.
inline constexpr std::string_view kPrefix = "cave_";

// Shared (engine and base layer).
inline constexpr std::string_view kNoHome = "cave_no_home";
inline constexpr std::string_view kListenNotLoopback = "cave_listen_not_loopback";
inline constexpr std::string_view kNotImplemented = "cave_not_implemented";
inline constexpr std::string_view kUnknownCommand = "cave_unknown_command";
inline constexpr std::string_view kInvalidInput = "cave_invalid_input";
inline constexpr std::string_view kInvalidJson = "cave_invalid_json";
inline constexpr std::string_view kInvalidToon = "cave_invalid_toon";
inline constexpr std::string_view kInvalidView = "cave_invalid_view";
inline constexpr std::string_view kInvalidConfig = "cave_invalid_config";
inline constexpr std::string_view kInvalidArguments = "cave_invalid_arguments";
inline constexpr std::string_view kFileNotFound = "cave_file_not_found";
inline constexpr std::string_view kInputTooLarge = "cave_input_too_large";
inline constexpr std::string_view kIoError = "cave_io_error";
inline constexpr std::string_view kPixelRenderError = "cave_pixel_render_error";
inline constexpr std::string_view kFixtureNotFound = "cave_fixture_not_found";
inline constexpr std::string_view kInvalidFixturePath = "cave_invalid_fixture_path";
inline constexpr std::string_view kInvalidManifest = "cave_invalid_manifest";
inline constexpr std::string_view kSessionKeyUnavailable = "cave_session_key_unavailable";
inline constexpr std::string_view kSessionKeyInvalid = "cave_session_key_invalid";

// The CCR store (ccr.db).
inline constexpr std::string_view kCcrUnavailable = "cave_ccr_unavailable";
inline constexpr std::string_view kCcrUnsafePath = "cave_ccr_unsafe_path";
inline constexpr std::string_view kCcrBudgetExceeded = "cave_ccr_budget_exceeded";
inline constexpr std::string_view kUnknownHandle = "cave_unknown_handle";
inline constexpr std::string_view kInvalidObject = "cave_invalid_object";
inline constexpr std::string_view kObjectIdCollision = "cave_object_id_collision";

// caveman-proxy.
inline constexpr std::string_view kBadRequest = "cave_bad_request";
inline constexpr std::string_view kRouteNotFound = "cave_route_not_found";
inline constexpr std::string_view kRequestTooLarge = "cave_request_too_large";
inline constexpr std::string_view kProviderRequestInvalid = "cave_provider_request_invalid";
inline constexpr std::string_view kHeaderMappingFailed = "cave_header_mapping_failed";
inline constexpr std::string_view kTransformFailed = "cave_transform_failed";
inline constexpr std::string_view kUpstreamBlocked = "cave_upstream_blocked";
inline constexpr std::string_view kUpstreamUnavailable = "cave_upstream_unavailable";
inline constexpr std::string_view kUpstreamTimeout = "cave_upstream_timeout";
inline constexpr std::string_view kUpstreamTls = "cave_upstream_tls";
inline constexpr std::string_view kUpstreamProxy = "cave_upstream_proxy";
inline constexpr std::string_view kUpstreamBadResponse = "cave_upstream_bad_response";
inline constexpr std::string_view kUpstreamResponseTooLarge = "cave_upstream_response_too_large";
inline constexpr std::string_view kGatewayError = "cave_gateway_error";
inline constexpr std::string_view kInternalError = "cave_internal_error";
inline constexpr std::string_view kClientCancelled = "cave_client_cancelled";
inline constexpr std::string_view kShuttingDown = "cave_shutting_down";
inline constexpr std::string_view kListenFailed = "cave_listen_failed";
inline constexpr std::string_view kHomeUnavailable = "cave_home_unavailable";
inline constexpr std::string_view kDbUnavailable = "cave_db_unavailable";
inline constexpr std::string_view kRunStateMissing = "cave_run_state_missing";
inline constexpr std::string_view kRunStateUnavailable = "cave_run_state_unavailable";
inline constexpr std::string_view kInvalidDuration = "cave_invalid_duration";
inline constexpr std::string_view kUnknownDecision = "cave_unknown_decision";

// caveman-proxy's native runtime (agent hooks).
inline constexpr std::string_view kNativeUnavailable = "cave_native_unavailable";
inline constexpr std::string_view kNativeAlreadyActive = "cave_native_already_active";
inline constexpr std::string_view kNativeUnsafeDir = "cave_native_unsafe_dir";
inline constexpr std::string_view kNativeSocketFailed = "cave_native_socket_failed";
inline constexpr std::string_view kNativeSocketPathTooLong = "cave_native_socket_path_too_long";
inline constexpr std::string_view kNativeBadRequest = "cave_native_bad_request";

// caveman-proxy's metric names (GET /metrics): not errors, but the same stable vocabulary.
inline constexpr std::string_view kProxyRequestsTotal = "cave_proxy_requests_total";
inline constexpr std::string_view kProxyInflightRequests = "cave_proxy_inflight_requests";
inline constexpr std::string_view kProxyCompressionBytesSavedTotal =
    "cave_proxy_compression_bytes_saved_total";
inline constexpr std::string_view kProxyCompressionTokensSavedTotal =
    "cave_proxy_compression_tokens_saved_total";
inline constexpr std::string_view kProxyUsageRowsDroppedTotal =
    "cave_proxy_usage_rows_dropped_total";

// The MCP servers (caveman-mcp, cavemem, caveman-browse).
inline constexpr std::string_view kUnknownTool = "cave_unknown_tool";
inline constexpr std::string_view kToolPanicked = "cave_tool_panicked";
inline constexpr std::string_view kPayloadTooLarge = "cave_payload_too_large";
inline constexpr std::string_view kInvalidRequestState = "cave_invalid_request_state";
inline constexpr std::string_view kForbiddenOrigin = "cave_forbidden_origin";

// caveman-shrink.
inline constexpr std::string_view kInvalidCatalog = "cave_invalid_catalog";
inline constexpr std::string_view kNotFound = "cave_not_found";
inline constexpr std::string_view kCommandNotFound = "cave_command_not_found";
inline constexpr std::string_view kCommandNotExecutable = "cave_command_not_executable";
inline constexpr std::string_view kCommandFailed = "cave_command_failed";

// cavemem.
inline constexpr std::string_view kUnknownMemory = "cave_unknown_memory";
inline constexpr std::string_view kMemoryExists = "cave_memory_exists";
inline constexpr std::string_view kMemorySuperseded = "cave_memory_superseded";
inline constexpr std::string_view kMemoryNotCurrent = "cave_memory_not_current";
inline constexpr std::string_view kMemoryTooLarge = "cave_memory_too_large";
inline constexpr std::string_view kInvalidImport = "cave_invalid_import";
inline constexpr std::string_view kMemIdCollision = "cave_mem_id_collision";
inline constexpr std::string_view kMemChainCorrupt = "cave_mem_chain_corrupt";
inline constexpr std::string_view kMemStoreUnavailable = "cave_mem_store_unavailable";
inline constexpr std::string_view kMemStoreUnsafe = "cave_mem_store_unsafe";
inline constexpr std::string_view kMemStoreBusy = "cave_mem_store_busy";
inline constexpr std::string_view kMemStoreCorrupt = "cave_mem_store_corrupt";
inline constexpr std::string_view kMemStoreIncompatible = "cave_mem_store_incompatible";
inline constexpr std::string_view kMemStoreNewer = "cave_mem_store_newer";
// cave_<tool>_failed: a cavemem MCP tool failed; the specific code starts the message
// (docs/mem.md#mcp-tools).
inline std::string tool_failed(std::string_view tool) {
  return std::string(kPrefix) + std::string(tool) + "_failed";
}

// caveman-browse.
inline constexpr std::string_view kBrowserUnavailable = "cave_browser_unavailable";
inline constexpr std::string_view kBrowserCdpError = "cave_browser_cdp_error";
inline constexpr std::string_view kBrowserProtocol = "cave_browser_protocol";
inline constexpr std::string_view kBrowserTimeout = "cave_browser_timeout";
inline constexpr std::string_view kBrowserUrlDenied = "cave_browser_url_denied";
inline constexpr std::string_view kBrowserNavigationFailed = "cave_browser_navigation_failed";
inline constexpr std::string_view kBrowserActionFailed = "cave_browser_action_failed";
inline constexpr std::string_view kBrowserEvalFailed = "cave_browser_eval_failed";
inline constexpr std::string_view kBrowserSnapshotFailed = "cave_browser_snapshot_failed";
inline constexpr std::string_view kBrowserSnapshotUncompressed =
    "cave_browser_snapshot_uncompressed";
inline constexpr std::string_view kBrowserFileFailed = "cave_browser_file_failed";
inline constexpr std::string_view kBrowserSocketPathTooLong =
    "cave_browser_socket_path_too_long";
inline constexpr std::string_view kUnknownAction = "cave_unknown_action";
inline constexpr std::string_view kUnknownUid = "cave_unknown_uid";
inline constexpr std::string_view kBrowseStateCorrupt = "cave_browse_state_corrupt";
inline constexpr std::string_view kBrowseStateUnwritable = "cave_browse_state_unwritable";

// caveman (the CLI).
inline constexpr std::string_view kBinaryMissing = "cave_binary_missing";
inline constexpr std::string_view kBinaryProbeFailed = "cave_binary_probe_failed";
inline constexpr std::string_view kBinaryStale = "cave_binary_stale";
inline constexpr std::string_view kSpawnFailed = "cave_spawn_failed";
inline constexpr std::string_view kPortInUse = "cave_port_in_use";
inline constexpr std::string_view kSessionDir = "cave_session_dir";
inline constexpr std::string_view kInstallFailed = "cave_install_failed";
inline constexpr std::string_view kInvalidProfile = "cave_invalid_profile";
inline constexpr std::string_view kHomeNotWritable = "cave_home_not_writable";
inline constexpr std::string_view kConfigUnparsable = "cave_config_unparsable";
inline constexpr std::string_view kConfigNotWritable = "cave_config_not_writable";
inline constexpr std::string_view kConfigEntryExists = "cave_config_entry_exists";
inline constexpr std::string_view kConfigEntryChanged = "cave_config_entry_changed";
inline constexpr std::string_view kConfigUnsupported = "cave_config_unsupported";
inline constexpr std::string_view kJournalMissing = "cave_journal_missing";
inline constexpr std::string_view kNativeHooksFailed = "cave_native_hooks_failed";
inline constexpr std::string_view kNativeHooksInvalid = "cave_native_hooks_invalid";
inline constexpr std::string_view kNativeHooksNoProxy = "cave_native_hooks_no_proxy";
inline constexpr std::string_view kNativeHooksWrite = "cave_native_hooks_write";

}  // namespace caveman::codes

#endif  // CAVEMAN_BASE_CODES_H_
