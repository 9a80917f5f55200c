// caveman-proxy's plain-http client parsers on arbitrary upstream bytes: the response head
// parser never crashes and only accepts heads it can frame; the chunked decoder gives the
// same bytes, the same stopping point and the same verdict however the stream is split, and
// never emits more than it was given.
// Input: byte 0 is the chunk size for the split feed; the rest is the wire.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "upstream_connection.h"

namespace {

struct Decoded {
  bool ok = true;
  bool done = false;
  std::size_t used = 0;
  std::string out;
};

Decoded decode(std::string_view wire, std::size_t chunk) {
  caveman::proxy::ChunkedDecoder decoder;
  Decoded d;
  bool aborted = false;
  auto sink = [&](std::string_view s) {
    d.out.append(s);
    return true;
  };
  for (std::size_t at = 0; at < wire.size() && !decoder.done(); at += chunk) {
    std::string_view piece = wire.substr(at, chunk);
    auto used = decoder.feed(piece, sink, &aborted);
    if (!used.ok()) {
      d.ok = false;
      return d;
    }
    FUZZ_CHECK(*used <= piece.size(), "decoder used more than it was given");
    FUZZ_CHECK(*used == piece.size() || decoder.done(), "decoder stopped early");
    d.used += *used;
  }
  d.done = decoder.done();
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t chunk = 1 + data[0] % 16;
  std::string_view wire(reinterpret_cast<const char*>(data + 1), size - 1);

  std::size_t head_end = wire.find("\r\n\r\n");
  if (head_end != std::string_view::npos) {
    auto head = caveman::proxy::parse_response_head(wire.substr(0, head_end + 4));
    if (head.ok()) {
      FUZZ_CHECK(head->status >= 100 && head->status <= 999, "status out of range");
      FUZZ_CHECK(!(head->chunked && head->content_length), "chunked and a length at once");
    }
  }

  Decoded whole = decode(wire, wire.size() + 1);
  Decoded split = decode(wire, chunk);
  FUZZ_CHECK(whole.ok == split.ok, "verdict depends on the split");
  if (whole.ok) {
    FUZZ_CHECK(whole.out == split.out, "output depends on the split");
    FUZZ_CHECK(whole.done == split.done && whole.used == split.used, "stop point depends on the split");
    FUZZ_CHECK(whole.out.size() <= whole.used, "decoder emitted more than it consumed");
  }
  return 0;
}
