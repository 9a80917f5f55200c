// Usage rows (docs/proxy.md#usage-rows): one `requests` row per proxied call, written by a single
// background thread so recording never adds latency to forwarding.
//
// submit() only enqueues (bounded; a full queue drops the row and counts it — the request
// itself is never slowed or failed by bookkeeping). The writer thread hashes the bodies,
// scans the usage capture and inserts rows, one transaction per gather: it wakes when the
// queue stops being empty, collects for up to 20 ms (flush() and stop() cut that short),
// then writes up to 256 rows (so rows land in the table ~20 ms late when it keeps up).
// stop() drains the queue and joins. A row with a store error is dropped and counted,
// never retried forever. Thread-safe: submit() from any thread.
#ifndef CAVEMAN_PROXY_USAGE_STORE_H_
#define CAVEMAN_PROXY_USAGE_STORE_H_

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "caveman/base/mutex.h"
#include "caveman/status.h"
#include "routes.h"
#include "usage_scanner.h"

namespace caveman::proxy {

struct UsageRow {
  std::string ts;  // filled at submit when empty
  std::string request_id;
  std::string trace_id;
  std::string label;
  std::string agent_slug;  // empty → unlabeled-agent
  std::string session_id;                 // native session (from a signed marker)
  std::string session_correlation_basis;  // empty → "uncorrelated"
  Provider provider = Provider::kAnthropic;
  std::string model;
  std::string route_from;  // path as received (with /w/…)
  std::string route_to;    // upstream URL
  std::string endpoint;    // request path after the /w/ rewrite
  bool stream = false;
  int status_code = 0;
  std::string error_code;
  std::int64_t latency_ms = 0;
  std::int64_t ttfb_ms = -1;  // -1 = no byte was relayed
  std::int64_t request_bytes = 0;
  std::int64_t response_bytes = 0;
  std::string auth_mode = "unknown";
  std::string runtime_mode;
  std::string optimization_ids;
  bool compression_eligible = false;
  std::optional<double> compression_ratio;
  std::optional<std::int64_t> compression_tokens_before;
  std::optional<std::int64_t> compression_tokens_after;
  std::string recovery_handle;
  // Cost features (docs/proxy.md, "Cost modes"); the ledger hook fills the would_save_* and
  // guard fields on the writer thread.
  std::uint64_t session_key = 0;         // session_fingerprint(); 0 = none
  bool estimate_wanted = false;          // estimate what compression would save
  Endpoint api = Endpoint::kOther;       // the wire format, for the estimate
  bool guard_charge = false;             // a compressed request: the guard weighs its cost
  std::optional<int> cache_bust;         // 1 = the frozen prefix changed in this session
  std::string cache_bust_component;
  std::optional<std::int64_t> would_save_tokens;
  std::optional<double> would_save_usd;
  std::string guard_note;
  // Lifetimes (lifetime_book.h): "keepalive" for a ping the proxy sent itself, else empty;
  // a request whose prefix pings kept warm across a pause past its lifetime.
  std::string kind;
  bool keepalive_bridged = false;
  bool cache_lapsed = false;    // the session's prefix had expired: record would write it too
  std::string cache_retention;  // OpenAI: the client's own prompt_cache_retention on a 24h model
  std::optional<std::int64_t> keepalive_avoided_tokens;  // the ledger: that request's cache read
  std::optional<std::int64_t> recompact_saved_tokens;    // re-compaction after a lapse
  // Hashed by the writer (raw = as received, sent = as forwarded; may be the same object).
  std::shared_ptr<const std::string> raw_body;
  std::shared_ptr<const std::string> sent_body;
  // Usage: either already known, or scanned by the writer from the capture.
  std::optional<Usage> usage;
  std::unique_ptr<UsageCapture> capture;
  std::string content_encoding;
};

// Called on the writer thread for each row once its usage is known, before the insert;
// `backlog` is the number of rows still queued (expensive work should step aside).
using RowHook = std::function<void(UsageRow& row, const Usage& usage, std::size_t backlog)>;

class UsageWriter {
 public:
  static Result<std::unique_ptr<UsageWriter>> start(const std::string& db_path,
                                                    std::size_t max_queue = 4096);
  ~UsageWriter();

  // Enqueues; false when the queue is full (the row is dropped and counted).
  bool submit(UsageRow row);
  // Set before the first submit().
  void set_hook(RowHook hook) { hook_ = std::move(hook); }
  // Drains the queue, then stops the thread. Idempotent.
  void stop();
  // Blocks until every row submitted so far is written or dropped (tests, shutdown).
  void flush();

  std::uint64_t written() const { return written_.load(); }
  std::uint64_t dropped() const { return dropped_.load(); }

 private:
  UsageWriter(std::unique_ptr<SQLite::Database> db, std::size_t max_queue);
  void loop();
  // `st` is the prepared INSERT, reused for every row (parsing it per row cost more CPU
  // than the insert itself).
  Status insert(SQLite::Statement& st, UsageRow& row);

  std::unique_ptr<SQLite::Database> db_;  // used by the writer thread only
  // Prepared once and kept across batches: at a few rows per batch, re-preparing the
  // 40-column INSERT was a fifth of the proxy's CPU (callgrind, record mode, 10 KB bodies).
  std::unique_ptr<SQLite::Statement> insert_st_;  // writer thread only; reset after an error
  std::size_t max_queue_;
  RowHook hook_;
  base::Mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<UsageRow> queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  bool busy_ GUARDED_BY(mu_) = false;
  int flushing_ GUARDED_BY(mu_) = 0;     // flush() callers waiting
  std::atomic<std::size_t> backlog_{0};  // queue_.size() as last seen under mu_
  std::atomic<std::uint64_t> written_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::thread thread_;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_USAGE_STORE_H_
