// libFuzzer target for what caveman-browse reads from outside: CDP messages and their NUL
// framing (a browser's pipe), WebSocket frames and handshake replies (a CDP endpoint), the
// CLI state file, and agent input (URLs, tool arguments, uids, outlines).
// Byte 0 picks the parser, the rest is its input. Properties checked beyond "no crash":
//   - a parsed CDP message's result()/params() spans lie inside the message and are
//     themselves complete JSON values;
//   - NUL framing returns exactly the NUL-separated pieces, in order, whatever the chunking;
//   - a decoded WebSocket frame never exceeds the cap, and a masked re-encoding of its payload
//     decodes to the same payload;
//   - a state file that loads saves and reloads to the same JSON;
//   - an allowed URL has an allowed scheme;
//   - an outline compared with itself has no change (view_diff.h), and a diff is deterministic.
// Registered by browse/CMakeLists.txt when CAVEMAN_BUILD_FUZZ is on (scripts/run_fuzz.sh
// runs every built fuzz_* target).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/ccr_handle.h"
#include "cdp_message.h"
#include "session_state.h"
#include "snapshot.h"
#include "tool_args.h"
#include "url_policy.h"
#include "view_diff.h"
#include "websocket.h"

#define BROWSE_FUZZ_CHECK(cond, msg)                                                         \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "property violated: %s (%s:%d)\n", msg, __FILE__, __LINE__);    \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

namespace {

using namespace caveman::browse;

void fuzz_cdp_message(std::string_view in) {
  caveman::Result<CdpMessage> m = parse_cdp_message(std::string(in));
  if (!m.ok()) return;
  BROWSE_FUZZ_CHECK(m->result_pos + m->result_len <= m->raw.size(), "result span inside");
  BROWSE_FUZZ_CHECK(m->params_pos + m->params_len <= m->raw.size(), "params span inside");
  if (m->result_len > 0) {
    auto n = json_value_length(m->result(), 0);
    BROWSE_FUZZ_CHECK(n.has_value() && *n == m->result_len, "result is one JSON value");
  }
  if (m->params_len > 0) {
    auto n = json_value_length(m->params(), 0);
    BROWSE_FUZZ_CHECK(n.has_value() && *n == m->params_len, "params is one JSON value");
  }
}

void fuzz_nul_framing(std::string_view in) {
  if (in.empty()) return;
  std::size_t chunk = static_cast<unsigned char>(in[0]) % 17 + 1;
  in.remove_prefix(1);
  NulFramer framer(1 << 16);
  std::vector<std::string> got;
  for (std::size_t i = 0; i < in.size(); i += chunk) {
    if (!framer.feed(in.substr(i, chunk)).ok()) return;  // over the cap: the framer gives up
    while (auto m = framer.next()) got.push_back(std::move(*m));
  }
  std::vector<std::string> want;
  std::size_t start = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '\0') {
      want.emplace_back(in.substr(start, i - start));
      start = i + 1;
    }
  }
  BROWSE_FUZZ_CHECK(got == want, "NUL framing splits exactly at NULs");
  BROWSE_FUZZ_CHECK(framer.pending_bytes() == in.size() - start, "the unterminated tail stays pending");
}

void fuzz_ws_frames(std::string_view in) {
  constexpr std::size_t kCap = 1 << 16;
  WsFrameDecoder decoder(kCap);
  decoder.feed(in);
  for (int i = 0; i < 64; ++i) {
    caveman::Result<std::optional<WsFrame>> f = decoder.next();
    if (!f.ok() || !f->has_value()) return;
    const WsFrame& frame = **f;
    BROWSE_FUZZ_CHECK(frame.payload.size() <= kCap, "frame under the cap");
    // The decoder also unmasks (a lenient reader): a masked re-encoding reads back the same.
    std::string again = encode_ws_frame(WsOpcode::kText, frame.payload, {0x12, 0x34, 0x56, static_cast<std::uint8_t>(i)});
    WsFrameDecoder d2(kCap);
    d2.feed(again);
    caveman::Result<std::optional<WsFrame>> back = d2.next();
    BROWSE_FUZZ_CHECK(back.ok() && back->has_value() && (*back)->payload == frame.payload, "text frame round trip");
  }
}

void fuzz_handshake_and_endpoint(std::string_view in) {
  (void)check_handshake_response(in, "dGhlIHNhbXBsZSBub25jZQ==");
  caveman::Result<Endpoint> e = parse_endpoint(in);
  if (e.ok()) (void)handshake_request(*e, "dGhlIHNhbXBsZSBub25jZQ==");
}

void fuzz_state_file(std::string_view in) {
  caveman::Result<SessionState> s = SessionState::from_json(in);
  if (!s.ok()) return;
  std::string once = s->to_json();
  caveman::Result<SessionState> again = SessionState::from_json(once);
  BROWSE_FUZZ_CHECK(again.ok() && again->to_json() == once, "state file round trip");
}

// Outlines hold page text: two of them, split at the first NUL (or halfway).
void fuzz_view_diff(std::string_view in) {
  std::size_t cut = in.find('\0');
  if (cut == std::string_view::npos) cut = in.size() / 2;
  std::string_view before = in.substr(0, cut), after = in.substr(std::min(cut + 1, in.size()));
  std::optional<ViewDiff> same = diff_views(before, before, "u1");
  BROWSE_FUZZ_CHECK(same && same->empty() && same->text.empty(), "a view compared with itself has no change");
  std::optional<ViewDiff> d = diff_views(before, after, "u1");
  std::optional<ViewDiff> again = diff_views(before, after, "u1");
  BROWSE_FUZZ_CHECK(d.has_value() == again.has_value() && (!d || d->text == again->text), "diff is deterministic");
}

void fuzz_agent_input(std::string_view in) {
  if (check_url(in).ok()) {
    std::string scheme = url_scheme(in);
    BROWSE_FUZZ_CHECK(scheme == "http" || scheme == "https" || scheme == "about" || scheme == "data",
                      "allowed URL has an allowed scheme");
  }
  (void)decode_uid(in);
  (void)uids_from_view(in, in);
  fuzz_view_diff(in);
  Json args = Json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (args.is_discarded()) return;
  (void)parse_snapshot_args(args);
  (void)parse_act_args(args);
  (void)parse_eval_args(args);
  (void)parse_recover_args(args);
  (void)caveman::base::normalize_ccr_handle(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0: fuzz_cdp_message(in); break;
    case 1: fuzz_nul_framing(in); break;
    case 2: fuzz_ws_frames(in); break;
    case 3: fuzz_handshake_and_endpoint(in); break;
    case 4: fuzz_state_file(in); break;
    default: fuzz_agent_input(in); break;
  }
  return 0;
}
