// The prefix replacement cache (docs/proxy.md#compress-mode): remembers, for every block the proxy
// has compressed, the exact replacement bytes it sent, so the same block in a later turn is
// re-sent byte-identically and the provider's prompt cache stays warm.
//
// Keys are hex SHA-256 of `scope || 0x00 || original`. remember() is first-write-wins: it
// returns the stored (authoritative) replacement, which may be an earlier one; replace()
// overwrites one (only after the prompt cache lapsed). The table is
// an LRU capped at `capacity` rows by last use; lookups touch the row. Any SQL error is a
// miss (lookup) or a Status (remember) and the caller keeps the original block. Safe to
// share between threads (one connection behind a mutex).
#ifndef CAVEMAN_PROXY_PREFIX_CACHE_H_
#define CAVEMAN_PROXY_PREFIX_CACHE_H_

#include <SQLiteCpp/Database.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/base/mutex.h"
#include "caveman/status.h"

namespace caveman::proxy {

inline constexpr std::size_t kPrefixCacheCapacity = 10000;
inline constexpr std::string_view kUnlockedScope = "unlocked";
inline constexpr std::string_view kPageScope = "unlocked-page";  // a web-fetch tool's output

// hex SHA-256 of scope || 0x00 || original.
std::string prefix_cache_key(std::string_view scope, std::string_view original);

class PrefixCache {
 public:
  virtual ~PrefixCache() = default;
  virtual std::optional<std::string> lookup(const std::string& key) = 0;
  // Errors: codes::kDbUnavailable.
  virtual Result<std::string> remember(const std::string& key, std::string_view handle,
                                       std::string_view replacement) = 0;
  // Overwrites a remembered replacement (re-compaction after the prompt cache lapsed: the
  // next turns must send the new bytes). Errors: codes::kDbUnavailable.
  virtual Status replace(const std::string& key, std::string_view handle,
                         std::string_view replacement) = 0;
};

class SqlitePrefixCache final : public PrefixCache {
 public:
  // Opens (and creates the schema of) caveman.db at `path`.
  static Result<std::unique_ptr<SqlitePrefixCache>> open(const std::string& path,
                                                         std::size_t capacity = kPrefixCacheCapacity);

  std::optional<std::string> lookup(const std::string& key) override;
  Result<std::string> remember(const std::string& key, std::string_view handle,
                               std::string_view replacement) override;
  Status replace(const std::string& key, std::string_view handle,
                 std::string_view replacement) override;
  std::size_t size_for_testing();

 private:
  SqlitePrefixCache(std::unique_ptr<SQLite::Database> db, std::size_t capacity)
      : db_(std::move(db)), capacity_(capacity) {}
  // Strictly increasing microsecond stamps, so LRU order never ties within a process.
  std::int64_t next_stamp() REQUIRES(mu_);

  base::Mutex mu_;
  std::unique_ptr<SQLite::Database> db_ GUARDED_BY(mu_);
  std::size_t capacity_;
  std::int64_t last_stamp_ GUARDED_BY(mu_) = 0;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_PREFIX_CACHE_H_
