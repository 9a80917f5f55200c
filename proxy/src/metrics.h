// Process metrics for GET /metrics (Prometheus text format 0.0.4): requests in flight,
// requests by provider and status, and what compression saved. Counters only grow; the
// rendering is sorted (never hash-map order). Thread-safe.
#ifndef CAVEMAN_PROXY_METRICS_H_
#define CAVEMAN_PROXY_METRICS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "caveman/base/mutex.h"

namespace caveman::proxy {

class Metrics {
 public:
  void request_started() { inflight_.fetch_add(1); }
  void request_finished(const std::string& provider, int status);
  void add_saved(std::int64_t bytes, std::int64_t tokens);
  void usage_rows_dropped(std::uint64_t total) { rows_dropped_.store(total); }

  std::int64_t inflight() const { return inflight_.load(); }
  std::string render() const;

 private:
  std::atomic<std::int64_t> inflight_{0};
  std::atomic<std::int64_t> bytes_saved_{0};
  std::atomic<std::int64_t> tokens_saved_{0};
  std::atomic<std::uint64_t> rows_dropped_{0};
  mutable base::Mutex mu_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_ GUARDED_BY(mu_);
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_METRICS_H_
