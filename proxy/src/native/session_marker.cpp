#include "native/session_marker.h"

#include <optional>
#include <set>

#include "caveman/base/codes.h"

namespace caveman::proxy::native {
namespace {

constexpr std::string_view kPrefix = "[[caveman-session-v1 sid=";
constexpr std::string_view kHex = "0123456789abcdef";

bool sid_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Matches one marker at `pos` (which starts with kPrefix). The quote is either `"` or the
// JSON-escaped `\"`, used consistently. Returns the marker length, or 0.
std::size_t match_marker(std::string_view body, std::size_t pos, std::string_view* sid,
                         std::string_view* sig) {
  std::size_t i = pos + kPrefix.size();
  std::string_view quote = body.substr(i, 2) == "\\\"" ? "\\\"" : "\"";
  if (body.substr(i, quote.size()) != quote) return 0;
  i += quote.size();
  std::size_t sid_start = i;
  while (i < body.size() && sid_char(body[i]) && i - sid_start <= kMaxSidChars) ++i;
  std::size_t sid_len = i - sid_start;
  if (sid_len == 0 || sid_len > kMaxSidChars) return 0;
  if (body.substr(i, quote.size()) != quote) return 0;
  i += quote.size();
  std::string sig_open = " sig=" + std::string(quote);
  if (body.substr(i, sig_open.size()) != sig_open) return 0;
  i += sig_open.size();
  std::size_t sig_start = i;
  while (i < body.size() && i - sig_start < 64 && kHex.find(body[i]) != std::string_view::npos) ++i;
  if (i - sig_start != 64) return 0;
  std::string close = std::string(quote) + "]]";
  if (body.substr(i, close.size()) != close) return 0;
  *sid = body.substr(sid_start, sid_len);
  *sig = body.substr(sig_start, 64);
  return i + close.size() - pos;
}

}  // namespace

Result<std::string> make_marker(std::string_view key, std::string_view session_id) {
  std::string sid = base64url_encode(session_id);
  if (sid.empty() || sid.size() > kMaxSidChars) {
    return Status::InvalidArgument(codes::kNativeBadRequest, "session id too long for a marker");
  }
  return "[[caveman-session-v1 sid=\"" + sid + "\" sig=\"" + hmac_sha256_hex(key, sid) + "\"]]";
}

MarkerScan strip_session_markers(std::string_view body, std::string_view key) {
  MarkerScan scan;
  std::set<std::string, std::less<>> sids;
  std::size_t copied = 0;
  std::size_t pos = body.find(kPrefix);
  if (pos == std::string_view::npos) return scan;
  while (pos != std::string_view::npos) {
    std::string_view sid;
    std::string_view sig;
    std::size_t len = match_marker(body, pos, &sid, &sig);
    if (len == 0) {
      pos = body.find(kPrefix, pos + 1);
      continue;
    }
    std::string expected = hmac_sha256_hex(key, sid);
    bool ok = !key.empty() && constant_time_equal(expected, sig);
    if (!ok) {
      ++scan.invalid;
      pos = body.find(kPrefix, pos + len);
      continue;
    }
    ++scan.valid;
    sids.insert(std::string(sid));
    scan.body.append(body.substr(copied, pos - copied));
    copied = pos + len;
    pos = body.find(kPrefix, copied);
  }
  if (scan.valid > 0) {
    scan.body.append(body.substr(copied));
  } else {
    scan.body.clear();
  }
  scan.ambiguous = sids.size() > 1;
  if (sids.size() == 1 && scan.invalid == 0) {
    std::optional<std::string> id = caveman::base64url_decode(*sids.begin());
    if (id) scan.session_id = std::move(*id);
  }
  return scan;
}

}  // namespace caveman::proxy::native
