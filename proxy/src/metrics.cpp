#include "metrics.h"

namespace caveman::proxy {

void Metrics::request_finished(const std::string& provider, int status) {
  inflight_.fetch_sub(1);
  base::MutexLock lock(mu_);
  ++requests_[{provider, status}];
}

void Metrics::add_saved(std::int64_t bytes, std::int64_t tokens) {
  if (bytes > 0) bytes_saved_.fetch_add(bytes);
  if (tokens > 0) tokens_saved_.fetch_add(tokens);
}

std::string Metrics::render() const {
  std::string out;
  out += "# HELP cave_proxy_inflight_requests Requests being served right now.\n";
  out += "# TYPE cave_proxy_inflight_requests gauge\n";
  out += "cave_proxy_inflight_requests " + std::to_string(inflight_.load()) + "\n";
  out += "# HELP cave_proxy_requests_total Requests served, by provider and HTTP status.\n";
  out += "# TYPE cave_proxy_requests_total counter\n";
  {
    base::MutexLock lock(mu_);
    for (const auto& [key, count] : requests_) {
      out += "cave_proxy_requests_total{provider=\"" + key.first + "\",status=\"" +
             std::to_string(key.second) + "\"} " + std::to_string(count) + "\n";
    }
  }
  out += "# HELP cave_proxy_compression_bytes_saved_total Request bytes removed by compression.\n";
  out += "# TYPE cave_proxy_compression_bytes_saved_total counter\n";
  out += "cave_proxy_compression_bytes_saved_total " + std::to_string(bytes_saved_.load()) + "\n";
  out += "# HELP cave_proxy_compression_tokens_saved_total Inferred o200k_base tokens removed.\n";
  out += "# TYPE cave_proxy_compression_tokens_saved_total counter\n";
  out += "cave_proxy_compression_tokens_saved_total " + std::to_string(tokens_saved_.load()) + "\n";
  out += "# HELP cave_proxy_usage_rows_dropped_total Usage rows not written (queue full or store error).\n";
  out += "# TYPE cave_proxy_usage_rows_dropped_total counter\n";
  out += "cave_proxy_usage_rows_dropped_total " + std::to_string(rows_dropped_.load()) + "\n";
  return out;
}

}  // namespace caveman::proxy
