#include "metrics.h"

#include <string_view>

#include "caveman/base/codes.h"

namespace caveman::proxy {
namespace {

// One metric's `# HELP` and `# TYPE` lines (Prometheus text format).
void add_header(std::string& out, std::string_view name, std::string_view help,
                std::string_view type) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

// A sample without labels.
void add_sample(std::string& out, std::string_view name, const std::string& value) {
  out.append(name).append(" ").append(value).append("\n");
}

}  // namespace

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
  add_header(out, codes::kProxyInflightRequests, "Requests being served right now.", "gauge");
  add_sample(out, codes::kProxyInflightRequests, std::to_string(inflight_.load()));
  add_header(out, codes::kProxyRequestsTotal, "Requests served, by provider and HTTP status.",
             "counter");
  {
    base::MutexLock lock(mu_);
    for (const auto& [key, count] : requests_) {
      out.append(codes::kProxyRequestsTotal);
      out += "{provider=\"" + key.first + "\",status=\"" + std::to_string(key.second) + "\"} " +
             std::to_string(count) + "\n";
    }
  }
  add_header(out, codes::kProxyCompressionBytesSavedTotal, "Request bytes removed by compression.",
             "counter");
  add_sample(out, codes::kProxyCompressionBytesSavedTotal, std::to_string(bytes_saved_.load()));
  add_header(out, codes::kProxyCompressionTokensSavedTotal, "Inferred o200k_base tokens removed.",
             "counter");
  add_sample(out, codes::kProxyCompressionTokensSavedTotal, std::to_string(tokens_saved_.load()));
  add_header(out, codes::kProxyUsageRowsDroppedTotal,
             "Usage rows not written (queue full or store error).", "counter");
  add_sample(out, codes::kProxyUsageRowsDroppedTotal, std::to_string(rows_dropped_.load()));
  return out;
}

}  // namespace caveman::proxy
