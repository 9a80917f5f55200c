// The SQLite implementation of ccr::Store (docs/spec/ccr.md). One connection per store, every
// statement serialized by a mutex; several processes share a file through WAL + busy timeout,
// and every read-modify-write runs in a BEGIN IMMEDIATE transaction so concurrent writers
// neither lose rows nor overshoot the budget. All SQLiteCpp exceptions are caught here and
// returned as Status values.
#ifndef CAVEMAN_CCR_SQLITE_STORE_H_
#define CAVEMAN_CCR_SQLITE_STORE_H_

#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/mutex.h"
#include "caveman/ccr.h"
#include "ccr/sqlite_util.h"

namespace caveman::ccr {

// How long a write waits for another process's transaction. Generous: on a loaded machine
// with FULL fsyncs from several writers, 5 s was seen to run out (a put then fails open to
// pass-through, which costs the user the saving).
inline constexpr int kBusyTimeoutMs = 15000;

class SqliteStore final : public Store {
 public:
  // `path` is ":memory:" or a file path checked by base::prepare_private_db_file().
  static Result<std::unique_ptr<SqliteStore>> open(const std::string& path, OpenOptions options);

  Result<std::string> put(const Record& record) override;
  Result<std::string> get(std::string_view handle) override;
  Result<std::string> get_metadata(std::string_view handle) override;

  Result<TypedObject> put_object(TypedObject object) override;
  Result<TypedObject> get_object(std::string_view object_id) override;
  Status set_object_currentness(std::string_view object_id, std::string_view value) override;
  Status set_object_lifecycle(std::string_view object_id, std::string_view value) override;
  Result<std::vector<TypedObject>> list_session_objects(std::string_view session_id,
                                                        int limit) override;
  Result<std::optional<TypedObject>> find_task_decision(std::string_view decision_id) override;

  Result<StoreStats> stats() override;

 private:
  SqliteStore(std::unique_ptr<SQLite::Database> db, std::string path, std::int64_t max_bytes)
      : db_(std::move(db)), path_(std::move(path)), max_bytes_(max_bytes) {}

  // Runs `fn` holding the connection mutex; any exception becomes a Status naming `what`.
  // `fn` is a lambda marked REQUIRES(mu_), so what it touches is checked (docs/base.md).
  template <typename Fn>
  auto locked(std::string_view what, Fn&& fn) -> decltype(fn()) {
    base::MutexLock lock(mu_);
    try {
      return fn();
    } catch (const std::exception& e) {
      return status_from_exception(e, std::string(what) + " (" + path_ + ")");
    }
  }

  // Σ payload bytes (the ccr_usage counter the triggers maintain).
  std::int64_t used_bytes_locked() REQUIRES(mu_);
  // The object row, or nullopt.
  Result<std::optional<TypedObject>> read_object_locked(std::string_view object_id) REQUIRES(mu_);
  Status set_object_field(std::string_view column, std::string_view object_id,
                          std::string_view value);

  base::Mutex mu_;
  std::unique_ptr<SQLite::Database> db_ GUARDED_BY(mu_);
  const std::string path_;  // for error messages
  const std::int64_t max_bytes_;
};

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_SQLITE_STORE_H_
