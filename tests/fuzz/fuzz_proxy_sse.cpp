// caveman-proxy's usage scanner on arbitrary response bytes (issue 13): the bounded capture
// never holds more than head + tail (+ the line separator) whatever arrives, counts every byte,
// and parse/scan never crash on any provider, stream flag or content encoding.
// Input: byte 0 selects provider / stream / encoding, byte 1 the chunk size; the rest is the
// response body, fed in chunks as the relay would.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "usage_scanner.h"

namespace {

constexpr caveman::proxy::Provider kProviders[] = {
    caveman::proxy::Provider::kAnthropic, caveman::proxy::Provider::kOpenAI,
    caveman::proxy::Provider::kGemini, caveman::proxy::Provider::kCompat};
constexpr std::string_view kEncodings[] = {"", "identity", "gzip", "deflate", "br", "gzip, br"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace caveman::proxy;
  if (size < 2) return 0;
  const Provider provider = kProviders[data[0] & 3];
  const bool stream = (data[0] & 4) != 0;
  const std::string_view encoding = kEncodings[(data[0] >> 3) % 6];
  const std::size_t chunk = 1 + data[1];
  std::string_view body(reinterpret_cast<const char*>(data + 2), size - 2);

  // Small limits so arbitrary inputs exercise the head/tail split and the line resume.
  constexpr std::size_t kHead = 256;
  constexpr std::size_t kTail = 128;
  UsageCapture capture(kHead, kTail);
  for (std::size_t at = 0; at < body.size(); at += chunk) capture.feed(body.substr(at, chunk));
  FUZZ_CHECK(capture.total_bytes() == body.size(), "capture miscounted bytes");
  const std::string text = capture.text();
  FUZZ_CHECK(text.size() <= kHead + 1 + kTail, "capture exceeded its bound");
  if (!capture.truncated() && body.size() <= kHead + kTail) {
    FUZZ_CHECK(text == body, "untruncated capture differs from the body");
  }

  Usage scanned = scan_usage(provider, stream, encoding, capture);
  Usage parsed = parse_usage(provider, stream, body);
  for (const Usage* u : {&scanned, &parsed}) {
    for (const auto& v : {u->input, u->output, u->cache_read, u->cache_write, u->reasoning}) {
      FUZZ_CHECK(!v || *v >= 0, "negative token count reported");
    }
  }
  return 0;
}
