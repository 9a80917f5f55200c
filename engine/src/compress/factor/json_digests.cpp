#include "compress/factor/json_digests.h"

#include <array>

#include "caveman/base/json_scan.h"

namespace caveman::compress::factor {
namespace {

constexpr std::size_t kMinEncodedChars = 20;            // shorter payloads are ids, not digests
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

bool is_base64(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

// Base64 (up to two '=' of padding), at least kMinEncodedChars long.
bool is_encoded(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0 && s.size() - end < 2 && s[end - 1] == '=') --end;
  if (end < kMinEncodedChars) return false;
  for (std::size_t i = 0; i < end; ++i) {
    if (!is_base64(s[i])) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string_view> digest_prefix(std::string_view s) {
  static constexpr std::array<std::string_view, 5> kPrefixes = {"sha1-", "sha256-", "sha384-",
                                                                "sha512-", "h1:"};
  for (std::string_view p : kPrefixes) {
    if (s.starts_with(p) && is_encoded(s.substr(p.size()))) return s.substr(0, p.size());
  }
  return std::nullopt;
}

std::optional<std::string> elide_digests(std::string_view json) {
  base::JsonScanner scan(json);
  std::string out;
  std::size_t copied = 0;
  std::size_t found = 0;
  for (base::JsonToken t = scan.next(); t != base::JsonToken::kEnd; t = scan.next()) {
    if (t == base::JsonToken::kError) return std::nullopt;
    if (t != base::JsonToken::kString || scan.escaped()) continue;  // a key names something
    std::optional<std::string_view> prefix = digest_prefix(scan.text());
    if (!prefix) continue;
    out.append(json.substr(copied, scan.begin() + 1 - copied));
    out.append(*prefix);
    out.append(kEllipsis);
    copied = scan.end() - 1;  // from the closing quote on
    ++found;
  }
  if (found < kMinDigests) return std::nullopt;
  out.append(json.substr(copied));
  return out;
}

}  // namespace caveman::compress::factor
