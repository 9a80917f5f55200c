// Usage scanning (docs/spec/proxy.md#usage-scanning): token counts as the provider reported them,
// read from a bounded side copy of the response (JSON or SSE, any of the three wire formats).
//
// UsageCapture keeps the first `head` bytes and a rolling `tail` of the rest, so a long
// stream never grows memory past head + tail; the relay feeds it and moves it to the
// background writer, which runs scan_usage() off the request path. Counts are never
// invented: a field the provider did not report stays empty, negative or fractional
// counters mark the usage malformed. Pure functions; UsageCapture is a single-thread value.
#ifndef CAVEMAN_PROXY_USAGE_SCANNER_H_
#define CAVEMAN_PROXY_USAGE_SCANNER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "routes.h"

namespace caveman::proxy {

inline constexpr std::size_t kUsageHeadBytes = 2 * 1024 * 1024;
inline constexpr std::size_t kUsageTailBytes = 1024 * 1024;

class UsageCapture {
 public:
  explicit UsageCapture(std::size_t head = kUsageHeadBytes, std::size_t tail = kUsageTailBytes)
      : head_limit_(head), tail_limit_(tail) {}
  void feed(std::string_view bytes);
  // head + (tail from its first complete line when bytes were dropped).
  std::string text() const;
  bool truncated() const { return dropped_ > 0; }
  std::uint64_t total_bytes() const { return total_; }

 private:
  std::size_t head_limit_;
  std::size_t tail_limit_;
  std::string head_;
  std::string tail_;  // ring contents in order (compacted when it doubles)
  std::uint64_t dropped_ = 0;
  std::uint64_t total_ = 0;
};

struct Usage {
  std::optional<std::int64_t> input;        // as reported (Anthropic excludes cache)
  std::optional<std::int64_t> output;
  std::optional<std::int64_t> cache_read;
  std::optional<std::int64_t> cache_write;
  std::optional<std::int64_t>
      cache_write_1h;  // Anthropic: cache_creation.ephemeral_1h_input_tokens
  std::optional<std::int64_t> reasoning;
  // provider_complete | provider_partial | provider_malformed | unavailable
  std::string basis = "unavailable";
  std::string cache_status = "unknown";  // hit | write | miss | unknown
  std::string note;  // why counts are missing, e.g. unsupported_content_encoding/br
};

// `body` is the (decoded) response. Whole-body JSON first, else an SSE/line scan.
Usage parse_usage(Provider provider, bool stream, std::string_view body);

// Decodes the capture per Content-Encoding (identity, gzip, x-gzip, deflate) and parses.
// A truncated capture is accepted only when input and output are both proven.
Usage scan_usage(Provider provider, bool stream, std::string_view content_encoding,
                 const UsageCapture& capture);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_USAGE_SCANNER_H_
