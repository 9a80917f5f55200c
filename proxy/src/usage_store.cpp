#include "usage_store.h"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sched.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "caveman/base/codes.h"
#include "caveman/ccr.h"
#include "spend_db.h"

namespace caveman::proxy {
namespace {

constexpr std::size_t kBatch = 256;
// After the first row arrives the writer waits this long for more: one wake-up and one
// transaction per gather instead of per request, which under load took CPU from forwarding.
constexpr auto kGatherDelay = std::chrono::milliseconds(20);
// While it keeps up, the writer steps aside every other row: a gather written in one go held
// a core for milliseconds and requests queued behind it (c=8 bench: added p99 +5.1–5.3 →
// +4.2–4.4 ms with a yield every 8 rows; every 2 rows took ~0.5 ms more off p99 in A/B runs).
// With a backlog past a quarter of the queue it writes flat out, so no row is dropped for
// its courtesy.
constexpr std::size_t kRowsBetweenYields = 2;

constexpr const char* kInsert = R"sql(
INSERT INTO requests (
  ts, request_id, trace_id, label, agent_slug, provider, model, route_from, route_to, endpoint,
  stream, status_code, error_code, latency_ms, ttfb_ms, request_bytes, response_bytes,
  input_tokens, output_tokens, cached_input_tokens, cache_creation_input_tokens,
  reasoning_tokens, basis, token_usage_basis, auth_mode, runtime_mode, optimization_ids,
  cache_status, raw_request_sha256, transformed_request_sha256, request_hash_complete,
  compression_eligible, compression_ratio, compression_tokens_before, compression_tokens_after,
  compression_token_count_basis, recovery_handle, usage_scan_note, session_id,
  session_correlation_basis, session_key, cache_bust, cache_bust_component, would_save_tokens,
  would_save_usd, guard_note, kind, cache_write_1h_tokens, keepalive_avoided_tokens,
  recompact_saved_tokens, cache_retention
) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,
          ?,?,?,?,?,?,?,?,?,?,?))sql";

// Text is bound without a copy (SQLITE_STATIC): every string bound in insert() outlives the
// statement's step, and the next row rebinds every parameter. Copying them was ~6 µs a row.
void bind_text(SQLite::Statement& st, int i, const std::string& v) {
  if (v.empty()) {
    st.bind(i);
  } else {
    st.bindNoCopy(i, v);
  }
}

void bind_text_or(SQLite::Statement& st, int i, const std::string& v, const char* fallback) {
  if (v.empty()) {
    st.bindNoCopy(i, fallback);
  } else {
    st.bindNoCopy(i, v);
  }
}

void bind_opt(SQLite::Statement& st, int i, const std::optional<std::int64_t>& v) {
  if (v) {
    st.bind(i, static_cast<std::int64_t>(*v));
  } else {
    st.bind(i);
  }
}

}  // namespace

Result<std::unique_ptr<UsageWriter>> UsageWriter::start(const std::string& db_path,
                                                        std::size_t max_queue) {
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<SQLite::Database> db, open_spend_db(db_path));
  std::unique_ptr<UsageWriter> w(new UsageWriter(std::move(db), max_queue));
  w->thread_ = std::thread([raw = w.get()] { raw->loop(); });
  return w;
}

UsageWriter::UsageWriter(std::unique_ptr<SQLite::Database> db, std::size_t max_queue)
    : db_(std::move(db)), max_queue_(max_queue) {}

UsageWriter::~UsageWriter() { stop(); }

bool UsageWriter::submit(UsageRow row) {
  if (row.ts.empty()) row.ts = utc_timestamp_ms();
  bool was_empty = false;
  {
    base::MutexLock lock(mu_);
    if (stopping_ || queue_.size() >= max_queue_) {
      dropped_.fetch_add(1);
      return false;
    }
    was_empty = queue_.empty();
    queue_.push_back(std::move(row));
    backlog_.store(queue_.size(), std::memory_order_relaxed);
  }
  // The writer sleeps only on an empty queue; rows after the first ride along unannounced.
  if (was_empty) cv_.notify_one();
  return true;
}

void UsageWriter::flush() {
  base::UniqueLock lock(mu_);
  ++flushing_;
  cv_.notify_all();  // cut the gather delay short
  idle_cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return queue_.empty() && !busy_; });
  --flushing_;
}

void UsageWriter::stop() {
  {
    base::MutexLock lock(mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void UsageWriter::loop() {
  // Batch scheduling: the writer gets its fair share of CPU but does not preempt a
  // forwarding thread when it wakes with a gather to write (a tail-latency source).
  sched_param no_priority{};
  ::sched_setscheduler(0, SCHED_BATCH, &no_priority);
  while (true) {
    std::vector<UsageRow> batch;
    {
      base::UniqueLock lock(mu_);
      cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return stopping_ || !queue_.empty(); });
      if (queue_.empty() && stopping_) break;
      cv_.wait_for(lock.native(), kGatherDelay, [&]() REQUIRES(mu_) {
        return stopping_ || flushing_ > 0 || queue_.size() >= kBatch;
      });
      while (!queue_.empty() && batch.size() < kBatch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      backlog_.store(queue_.size(), std::memory_order_relaxed);
      busy_ = true;
    }
    try {
      SQLite::Transaction tx(*db_);
      if (!insert_st_) insert_st_ = std::make_unique<SQLite::Statement>(*db_, kInsert);
      std::size_t since_yield = 0;
      for (UsageRow& row : batch) {
        if (++since_yield == kRowsBetweenYields) {
          since_yield = 0;
          if (backlog_.load(std::memory_order_relaxed) < max_queue_ / 4) std::this_thread::yield();
        }
        Status s = insert(*insert_st_, row);
        if (s.ok()) {
          written_.fetch_add(1);
        } else {
          dropped_.fetch_add(1);
          spdlog::warn("usage row dropped: {}", s.ToString());
        }
      }
      tx.commit();
    } catch (const SQLite::Exception& e) {
      insert_st_.reset();  // prepared again on the next batch
      dropped_.fetch_add(batch.size());
      spdlog::warn("usage rows dropped: caveman.db: {}", e.what());
    }
    {
      base::MutexLock lock(mu_);
      busy_ = false;
    }
    idle_cv_.notify_all();
  }
  idle_cv_.notify_all();
}

Status UsageWriter::insert(SQLite::Statement& st, UsageRow& row) {
  Usage usage;
  if (row.usage) {
    usage = *row.usage;
  } else if (row.capture) {
    usage = scan_usage(row.provider, row.stream, row.content_encoding, *row.capture);
  }
  if (hook_) hook_(row, usage, backlog_.load(std::memory_order_relaxed));
  char session_hex[17] = {0};
  if (row.session_key != 0) {
    std::snprintf(session_hex, sizeof session_hex, "%016llx",
                  static_cast<unsigned long long>(row.session_key));
  }
  std::string raw_sha = row.raw_body ? ccr::sha256_hex(*row.raw_body) : std::string();
  std::string sent_sha;
  if (row.sent_body) {
    sent_sha = row.sent_body == row.raw_body ? raw_sha : ccr::sha256_hex(*row.sent_body);
  }
  try {
    st.reset();  // every parameter is bound below: no clearBindings()
    int i = 0;
    st.bindNoCopy(++i, row.ts);
    st.bindNoCopy(++i, row.request_id);
    bind_text(st, ++i, row.trace_id);
    bind_text(st, ++i, row.label);
    bind_text_or(st, ++i, row.agent_slug, "unlabeled-agent");
    st.bindNoCopy(++i, provider_name(row.provider).data());  // views of string literals
    bind_text(st, ++i, row.model);
    bind_text(st, ++i, row.route_from);
    bind_text(st, ++i, row.route_to);
    bind_text(st, ++i, row.endpoint);
    st.bind(++i, row.stream ? 1 : 0);
    st.bind(++i, row.status_code);
    bind_text(st, ++i, row.error_code);
    st.bind(++i, static_cast<std::int64_t>(row.latency_ms));
    bind_opt(st, ++i, row.ttfb_ms >= 0 ? std::optional<std::int64_t>(row.ttfb_ms) : std::nullopt);
    st.bind(++i, static_cast<std::int64_t>(row.request_bytes));
    st.bind(++i, static_cast<std::int64_t>(row.response_bytes));
    bind_opt(st, ++i, usage.input);
    bind_opt(st, ++i, usage.output);
    bind_opt(st, ++i, usage.cache_read);
    bind_opt(st, ++i, usage.cache_write);
    bind_opt(st, ++i, usage.reasoning);
    st.bindNoCopy(++i, "inferred");
    st.bindNoCopy(++i, usage.basis);
    st.bindNoCopy(++i, row.auth_mode);
    bind_text(st, ++i, row.runtime_mode);
    bind_text(st, ++i, row.optimization_ids);
    st.bindNoCopy(++i, usage.cache_status);
    bind_text(st, ++i, raw_sha);
    bind_text(st, ++i, sent_sha);
    st.bind(++i, row.raw_body ? 1 : 0);
    st.bind(++i, row.compression_eligible ? 1 : 0);
    if (row.compression_ratio) {
      st.bind(++i, *row.compression_ratio);
    } else {
      st.bind(++i);
    }
    bind_opt(st, ++i, row.compression_tokens_before);
    bind_opt(st, ++i, row.compression_tokens_after);
    if (row.compression_tokens_before) {
      st.bindNoCopy(++i, "estimated_engine_o200k");
    } else {
      st.bind(++i);
    }
    bind_text(st, ++i, row.recovery_handle);
    bind_text(st, ++i, usage.note);
    bind_text(st, ++i, row.session_id);
    bind_text_or(st, ++i, row.session_correlation_basis, "uncorrelated");
    if (row.session_key != 0) {
      st.bind(++i, session_hex);
    } else {
      st.bind(++i);
    }
    bind_opt(st, ++i, row.cache_bust ? std::optional<std::int64_t>(*row.cache_bust) : std::nullopt);
    bind_text(st, ++i, row.cache_bust_component);
    bind_opt(st, ++i, row.would_save_tokens);
    if (row.would_save_usd) {
      st.bind(++i, *row.would_save_usd);
    } else {
      st.bind(++i);
    }
    bind_text(st, ++i, row.guard_note);
    bind_text(st, ++i, row.kind);
    bind_opt(st, ++i, usage.cache_write_1h);
    bind_opt(st, ++i, row.keepalive_avoided_tokens);
    bind_opt(st, ++i, row.recompact_saved_tokens);
    bind_text(st, ++i, row.cache_retention);
    st.exec();
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, e.what());
  }
  return Status::Ok();
}

}  // namespace caveman::proxy
