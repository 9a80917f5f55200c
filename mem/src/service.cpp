#include "service.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>

#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "query.h"

namespace caveman::mem {
namespace {

Status invalid_request(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

Status normalize_filters(std::optional<std::string>& project, std::vector<std::string>& tags) {
  if (project) CAVEMAN_RETURN_IF_ERROR(validate_project(*project));
  Result<std::vector<std::string>> t = normalize_tags(tags);
  if (!t.ok()) return t.status();
  tags = std::move(t).value();
  return Status::Ok();
}

}  // namespace

Result<std::string> resolve_mem_dir() {
  CAVEMAN_ASSIGN_OR_RETURN(
      std::string home,
      base::ensure_caveman_home(base::process_env(), codes::kMemStoreUnavailable, "mem: "));
  const std::string dir = home + "/mem";
  CAVEMAN_RETURN_IF_ERROR(
      base::make_private_dirs(dir, codes::kMemStoreUnavailable, "mem: ", /*tighten=*/true));
  return dir;
}

MemService::MemService(std::string dir, std::unique_ptr<MemStore> store)
    : dir_(std::move(dir)), store_(std::move(store)) {}

Result<std::unique_ptr<MemService>> MemService::open(const std::string& dir, const Clock* clock) {
  StoreOptions options;
  options.clock = clock;
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<MemStore> store,
                           MemStore::open(dir.empty() ? ":memory:" : dir + "/mem.db", options));
  return std::unique_ptr<MemService>(new MemService(dir, std::move(store)));
}

std::string MemService::ccr_path() const {
  return dir_.empty() ? std::string(ccr::kMemoryPath) : dir_ + "/ccr.db";
}

Status MemService::ensure_engine() {
  if (engine_) return Status::Ok();
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<ccr::Store> store, ccr::open_store(ccr_path()));
  ccr_ = std::shared_ptr<ccr::Store>(std::move(store));
  engine_ = std::make_unique<Engine>(ccr_);
  return Status::Ok();
}

Result<RememberOutcome> MemService::remember(NewMemory memory) {
  std::vector<std::string> tags = memory.tags.value_or(std::vector<std::string>{});
  CAVEMAN_RETURN_IF_ERROR(normalize_filters(memory.project, tags));
  memory.tags = std::move(tags);
  return store_->remember(memory);
}

Result<Memory> MemService::supersede(std::string_view id, NewMemory replacement) {
  if (replacement.project) CAVEMAN_RETURN_IF_ERROR(validate_project(*replacement.project));
  if (replacement.tags) {
    CAVEMAN_ASSIGN_OR_RETURN(std::vector<std::string> tags, normalize_tags(*replacement.tags));
    replacement.tags = std::move(tags);
  }
  return store_->supersede(id, replacement);
}

Result<std::vector<Memory>> MemService::history(std::string_view id) { return store_->history(id); }

Result<MemService::ForgetOutcome> MemService::forget(std::string_view id) {
  CAVEMAN_ASSIGN_OR_RETURN(std::optional<Memory> removed, store_->forget(id));
  ForgetOutcome out;
  out.forgotten = removed.has_value();
  if (!removed || dir_.empty()) return out;
  // Copies recall made (compressed views' originals, truncated hits) are keyed by the
  // handle of the exact memory text. The CCR schema is a cross-process contract
  // (docs/spec/ccr.md#schema); its usage triggers keep the byte budget right on delete.
  struct stat st {};
  if (::stat(ccr_path().c_str(), &st) != 0) return out;
  try {
    SQLite::Database db(ccr_path(), SQLite::OPEN_READWRITE | SQLite::OPEN_NOFOLLOW, kBusyTimeoutMs);
    SQLite::Statement del(db, "DELETE FROM recoveries WHERE handle = ?1");
    del.bind(1, ccr::handle_for(removed->text));
    out.copies_removed = del.exec();
  } catch (const std::exception& e) {
    out.warning =
        std::string(codes::kCcrUnavailable) + ": could not delete recall copies: " + e.what();
  }
  return out;
}

Result<RecallResult> MemService::recall(const RecallRequest& request) {
  if (request.limit < 0 || request.limit > kMaxLimit) {
    return invalid_request("limit must be 0-" + std::to_string(kMaxLimit) + " (0 = default " +
                           std::to_string(kDefaultLimit) + ")");
  }
  if (request.token_budget < 0 || request.token_budget > kMaxTokenBudget) {
    return invalid_request("token_budget must be 0-" + std::to_string(kMaxTokenBudget) +
                           " (0 = unlimited)");
  }
  if (!std::isfinite(request.threshold) || request.threshold < 0 || request.threshold > 1e6) {
    return invalid_request("threshold must be a number ≥ 0");
  }
  SearchRequest search;
  CAVEMAN_ASSIGN_OR_RETURN(search.query, parse_query(request.query));
  search.project = request.project;
  search.tags = request.tags;
  CAVEMAN_RETURN_IF_ERROR(normalize_filters(search.project, search.tags));
  search.limit = request.limit == 0 ? kDefaultLimit : request.limit;
  search.threshold = request.threshold;
  CAVEMAN_ASSIGN_OR_RETURN(std::vector<Hit> hits, store_->search(search));
  const Engine* engine = nullptr;
  if (!hits.empty()) {
    // Without a recovery store recall still answers (fail open): hits are then uncompressed
    // and a truncated top hit reports codes::kCcrUnavailable instead of a handle.
    if (ensure_engine().ok()) engine = engine_.get();
  }
  return pack_hits(hits, engine, tokens::default_counter(), request.token_budget, request.query);
}

Result<std::string> MemService::recover(std::string_view handle) {
  CAVEMAN_RETURN_IF_ERROR(ensure_engine());
  return engine_->retrieve(handle);
}

}  // namespace caveman::mem
