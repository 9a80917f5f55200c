// caveman/ccr.h — CCR (Caveman Context Recovery): the local store of exact originals.
//
// A Store keeps the full original bytes behind every `ccr_…` handle the engine discloses,
// plus typed objects (`ccr_obj_…`) of the native runtime. Rows are never evicted; a write
// that would exceed the byte budget is refused (kResourceExhausted,
// codes::kCcrBudgetExceeded) and the caller must forward the original instead.
// Implementations are safe to share between threads (statements are serialized); several
// processes may open the same file at once (SQLite WAL + busy timeout).
// Failures are Status values; nothing throws across this interface.
#ifndef CAVEMAN_CCR_H_
#define CAVEMAN_CCR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::ccr {

inline constexpr std::int64_t kDefaultMaxBytes = 512LL * 1024 * 1024;
inline constexpr std::string_view kMemoryPath = ":memory:";

// "ccr_" + lowercase hex of the first 16 bytes of SHA-256(original).
std::string handle_for(std::string_view original);
// Lowercase hex SHA-256 of `data` (64 chars).
std::string sha256_hex(std::string_view data);

struct Record {
  std::string content_type;
  std::string compressor;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  std::string original;
  std::string metadata;  // compressor recovery metadata; may be empty
};

// docs/spec/ccr.md#objects. The 13 object kinds and the two enums are validated by put_object().
inline constexpr std::string_view kObjectTypes[] = {
    "FileObservation", "SearchResult",  "CommandResult",        "TestResult",
    "BuildResult",     "DiffSnapshot",  "TaskContract",         "TaskDecision",
    "ExecutionState",  "DocumentationExcerpt", "BrowserSnapshot", "RepositoryMap",
    "EvidenceBundle"};
inline constexpr std::string_view kCurrentness[] = {"current", "stale", "archived"};
inline constexpr std::string_view kLifecycle[] = {"hot", "warm", "cold", "archived"};

struct TypedObject {
  std::string object_id;  // empty → derived (ccr_obj_ + 32 hex)
  std::string type;
  std::string content_hash;  // empty → "sha256:" + hex(data); if given it must match
  std::string source;
  std::string created_at;  // empty → now (UTC RFC 3339, nanoseconds)
  std::string repository_state;
  std::string session_id;  // required, non-blank
  std::string transform_version;
  std::string currentness;  // empty → "current"
  std::string lifecycle;    // empty → "hot"
  std::vector<std::string> dependencies;
  std::int64_t original_byte_length = -1;  // -1 → data.size()
  std::int64_t stored_byte_length = -1;    // -1 → data.size()
  std::string data;

  // JSON object in the field order of docs/spec/ccr.md#objects (data as a UTF-8 string).
  std::string to_json() const;
};

struct TypeStats {
  std::int64_t count = 0;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  double ratio() const;
};

struct StoreStats {
  TypeStats totals;
  std::map<std::string, TypeStats> by_content_type;  // sorted by type
  std::int64_t storage_bytes = 0;
  std::int64_t max_storage_bytes = 0;
  bool storage_full = false;
  // {"totals":{…},"by_content_type":{…},"basis":"inferred",…}, 2-space indented.
  std::string to_json() const;
};

class Store {
 public:
  virtual ~Store() = default;

  // Stores `record` and returns its handle (handle_for(record.original)); the handle is only
  // returned once the bytes are committed. Idempotent for identical records (no write, no
  // budget check). Re-putting a known original replaces the row under the rules of
  // docs/spec/ccr.md#put. Errors: kResourceExhausted (codes::kCcrBudgetExceeded) when the byte
  // budget or the page limit would be exceeded; kIo / kCorrupt / kUnavailable (busy beyond the 5 s
  // timeout), all codes::kCcrUnavailable.
  virtual Result<std::string> put(const Record& record) = 0;
  // The exact original bytes. kNotFound (codes::kUnknownHandle) for unknown handles; a
  // `ccr_obj_…` id (or any id missing from the blob table) is looked up as a typed object.
  virtual Result<std::string> get(std::string_view handle) = 0;
  // Metadata stored beside a blob handle (empty when none). kNotFound for unknown handles.
  virtual Result<std::string> get_metadata(std::string_view handle) = 0;

  // Typed objects (docs/spec/ccr.md#objects). Returns the stored object with defaults filled in (a
  // supplied created_at is normalized to UTC). Re-putting an existing id with the same
  // immutable fields returns the stored row unchanged.
  // Errors: kInvalidArgument (codes::kInvalidObject), kResourceExhausted, kCorrupt
  // (codes::kObjectIdCollision) when the id exists with different immutable fields.
  virtual Result<TypedObject> put_object(TypedObject object) = 0;
  // kNotFound (codes::kUnknownHandle) for unknown ids.
  virtual Result<TypedObject> get_object(std::string_view object_id) = 0;
  // kInvalidArgument (codes::kInvalidObject) for a value outside the enum; kNotFound for an
  // unknown id.
  virtual Status set_object_currentness(std::string_view object_id, std::string_view value) = 0;
  virtual Status set_object_lifecycle(std::string_view object_id, std::string_view value) = 0;
  // Newest first (created_at DESC by instant, sub-second digits included; then id DESC).
  // limit ≤ 0 → 100; capped at 10 000. kInvalidArgument for a blank session id.
  virtual Result<std::vector<TypedObject>> list_session_objects(std::string_view session_id,
                                                                int limit) = 0;
  // Newest TaskDecision whose JSON data has "decision_id" == decision_id.
  virtual Result<std::optional<TypedObject>> find_task_decision(std::string_view decision_id) = 0;

  virtual Result<StoreStats> stats() = 0;
};

struct OpenOptions {
  std::int64_t max_bytes = kDefaultMaxBytes;
};

// Opens (creating if needed) the SQLite store at `path`, or an ephemeral one for ":memory:".
// Applies the permission and parent-directory safety rules of docs/spec/ccr.md#location (0600
// files, no symlinks, no group/world-writable non-sticky parent) and the budget as SQLite pragmas.
// Errors: kInvalidArgument (codes::kCcrUnsafePath) for a refused location;
// kInvalidArgument (codes::kInvalidConfig) for a budget ≤ 0 or below 16 pages;
// kIo (codes::kCcrUnavailable) for missing/unwritable files or directories; kCorrupt
// (codes::kCcrUnavailable) for a file that is not a usable SQLite database.
Result<std::unique_ptr<Store>> open_store(const std::string& path, OpenOptions options = {});

// Store location for CLIs: $CAVEMAN_CCR_DB, else $CAVEMAN_HOME/ccr.db, else ~/.caveman/ccr.db.
// Creates the home directory (0700) when it is used. Reads CAVEMAN_CCR_MAX_BYTES into
// `options` (kInvalidArgument when it is not a positive integer).
Result<std::string> resolve_store_path(OpenOptions* options);

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_H_
