// Private helpers of MemStore (store*.cpp only): the exception → Status adapter with a retry
// on SQLITE_BUSY, the BEGIN [IMMEDIATE] guard, row decoding, and the schema entry point.
// Everything that can throw runs inside with_store(); nothing here is a public interface.
#ifndef CAVEMAN_MEM_STORE_INTERNAL_H_
#define CAVEMAN_MEM_STORE_INTERNAL_H_

#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>

#include "caveman/base/sqlite.h"
#include "clock.h"
#include "memory.h"
#include "store.h"

namespace caveman::mem::internal {

// The columns read_memory() expects, in order.
inline constexpr const char* kMemoryColumns =
    "id, text, created_at, valid_from, valid_until, supersedes, superseded_by, project, tags";

// Maps an exception from a store operation on `path` to a Status (see store.h).
Status status_from_exception(const std::exception& e, std::string_view what,
                             const std::string& path);

// Decodes the kMemoryColumns starting at column `first`.
Memory read_memory(SQLite::Statement& q, int first = 0);
// "a b c" ↔ {"a","b","c"}.
std::string join_tags(const std::vector<std::string>& tags);
std::vector<std::string> split_tags(std::string_view joined);

// Creates or migrates the schema (store_schema.cpp). Throws SQLite::Exception on SQLite
// errors; returns a non-ok Status for refusals (incompatible or newer schema).
Status ensure_schema(SQLite::Database& db, const Clock& clock);
// Registers cavemem_bm25 (throws when FTS5 is missing).
void prepare_connection(SQLite::Database& db);

using Transaction = base::SqliteTransaction;  // caveman/base/sqlite.h

// Runs `fn` (returning Status or Result<T>), converting exceptions to Status and retrying the
// whole operation while SQLite reports BUSY beyond its own busy timeout (10 s in all).
template <typename Fn>
auto with_store(std::string_view what, const std::string& path, Fn&& fn) -> decltype(fn()) {
  using Ret = decltype(fn());
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 1;; ++attempt) {
    try {
      return fn();
    } catch (const std::exception& e) {
      const bool retry = base::is_sqlite_busy(e) && std::chrono::steady_clock::now() - start <
                                           std::chrono::milliseconds(2 * kBusyTimeoutMs);
      if (!retry) return Ret(status_from_exception(e, what, path));
      std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
    }
  }
}

}  // namespace caveman::mem::internal

#endif  // CAVEMAN_MEM_STORE_INTERNAL_H_
