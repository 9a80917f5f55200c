// store.h — MemStore, the SQLite home of cavemem's memories (`$CAVEMAN_HOME/mem/mem.db`).
//
// One MemStore owns one SQLite connection (WAL, 5 s busy timeout, writers take the write lock
// up front with BEGIN IMMEDIATE), so several processes may read and write the same file at
// once; a MemStore itself is not thread-safe (one per thread). Schema and migrations:
// store_schema.cpp. An FTS5 index (porter + unicode61 with diacritics removed) and a trigram
// index for CJK rows hold CURRENT versions only and are kept in sync by triggers, so ranking
// statistics describe exactly the memories recall can return.
// Every method returns a Status/Result; SQLite exceptions are caught here and mapped:
// kCorrupt (codes::kMemStoreCorrupt) for a damaged or foreign file, which is never modified;
// kUnavailable (codes::kMemStoreBusy) when another process holds the lock beyond the timeout;
// kIo (codes::kMemStoreUnavailable) for the rest.
#ifndef CAVEMAN_MEM_STORE_H_
#define CAVEMAN_MEM_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "clock.h"
#include "memory.h"
#include "query.h"

namespace SQLite {
class Database;
}

namespace caveman::mem {

inline constexpr int kSchemaVersion = 1;
inline constexpr int kBusyTimeoutMs = 5000;

struct StoreOptions {
  const Clock* clock = nullptr;  // null → system_clock()
};

// What remember/supersede store beside the text. project/tags must already be validated
// (validate_project / normalize_tags); the store re-checks the text.
struct NewMemory {
  std::string text;
  std::optional<std::string> project;  // supersede: unset → inherited from the old version
  std::optional<std::vector<std::string>> tags;  // supersede: unset → inherited
};

struct RememberOutcome {
  Memory memory;
  bool created = false;  // false: the text was already a current memory (idempotent)
};

// How MemStore::search ranked a words-only query (tests and benchmarks read it; recall does
// not). kWhole: every row containing a query word was scored; kRarePrefix: only rows
// containing one of the rarest words; kCoveringSets: only rows containing a set of query words
// whose score bounds reach the provisional k-th score (see store_search.cpp).
enum class SearchPlan { kNone, kWhole, kRarePrefix, kCoveringSets };

struct SearchTrace {
  SearchPlan plan = SearchPlan::kNone;
  int fts_queries = 0;  // ranked FTS5 queries run (document-frequency counts not included)
};

struct SearchRequest {
  ParsedQuery query;
  std::optional<std::string> project;  // exact match
  std::vector<std::string> tags;       // every tag must be present
  int limit = kDefaultLimit;           // 1..kMaxLimit
  double threshold = kDefaultThreshold;
  bool exhaustive = false;  // true: rank every matching row (no pruning; tests and benchmarks)
  SearchTrace* trace = nullptr;  // optional: filled with the plan used
};

struct Hit {
  Memory memory;
  double score = 0;
};

struct StoreStats {
  std::int64_t current = 0;     // memories recall can return
  std::int64_t versions = 0;    // all rows, superseded ones included
  std::int64_t superseded = 0;  // rows with superseded_by
  std::int64_t expired = 0;     // rows with valid_until but no successor (forgotten head)
  std::int64_t projects = 0;    // distinct projects among current memories
  std::int64_t db_bytes = 0;    // page_count × page_size of mem.db (WAL not included)
  int schema_version = 0;
};

struct ImportRow {
  int line = 0;  // 1-based, for error messages
  Memory memory;
};

struct ImportSummary {
  std::int64_t imported = 0;
  std::int64_t skipped = 0;  // id already present
};

class MemStore {
 public:
  // Opens or creates the store at `path` (":memory:" → a private in-memory store). A new file
  // is created 0600 (never through a symlink); the parent directory must exist. Runs the
  // schema creation/migration in one write transaction. Errors: see the preamble, plus
  // kInvalidArgument (codes::kMemStoreUnsafe) for a symlink or non-regular file,
  // kCorrupt (codes::kMemStoreIncompatible) for a `memories` table without id/text columns and
  // kUnavailable (codes::kMemStoreNewer) for a schema newer than this binary.
  static Result<std::unique_ptr<MemStore>> open(const std::string& path, StoreOptions options = {});
  ~MemStore();
  MemStore(const MemStore&) = delete;
  MemStore& operator=(const MemStore&) = delete;

  // Inserts the text as a new current memory, or returns the existing current one unchanged.
  // Errors: validate_text's; kInvalidArgument (codes::kMemorySuperseded) when the text exists
  // only as a non-current version.
  Result<RememberOutcome> remember(const NewMemory& memory);

  // New version of `old_id` (one transaction): the old one must be current, the new text must
  // differ and must not exist yet. Errors: kNotFound (codes::kUnknownMemory),
  // kInvalidArgument (codes::kMemoryNotCurrent, codes::kMemoryExists, codes::kInvalidArguments).
  Result<Memory> supersede(std::string_view old_id, const NewMemory& replacement);

  // The whole version chain through `id`, oldest first. Errors: kNotFound
  // (codes::kUnknownMemory); kCorrupt (codes::kMemChainCorrupt) for a dangling, one-sided or
  // cyclic link.
  Result<std::vector<Memory>> history(std::string_view id);

  // Deletes `id` and relinks its neighbours (an expired predecessor stays expired). Returns
  // the deleted row, or nullopt when there was none.
  Result<std::optional<Memory>> forget(std::string_view id);

  Result<std::optional<Memory>> get(std::string_view id);

  // Ranked current memories (FTS5 + cavemem_bm25, trigram/LIKE for CJK), score ≥ threshold,
  // score descending then id ascending, at most `limit`.
  Result<std::vector<Hit>> search(const SearchRequest& request);

  Result<StoreStats> stats();

  // Every row (or only current ones) in insertion order.
  Status for_each(bool current_only, const std::function<void(const Memory&)>& fn);

  // Inserts rows verbatim in one transaction (ids must match their texts; existing ids are
  // skipped); afterwards every link that touches an imported row must be mutual and acyclic,
  // else nothing is imported. Errors: kInvalidArgument (codes::kInvalidImport) naming the line.
  Result<ImportSummary> import(const std::vector<ImportRow>& rows);

  const std::string& path() const { return path_; }

 private:
  MemStore(std::unique_ptr<SQLite::Database> db, std::string path, const Clock* clock);

  std::unique_ptr<SQLite::Database> db_;
  std::string path_;
  const Clock* clock_;
};

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_STORE_H_
