#include "compress/factor/json_digests.h"

#include <array>

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

// The end of the string literal opening at `open` (the closing quote), or npos.
std::size_t literal_end(std::string_view json, std::size_t open) {
  for (std::size_t i = open + 1; i < json.size(); ++i) {
    if (json[i] == '\\') {
      ++i;
    } else if (json[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool is_key(std::string_view json, std::size_t close) {
  std::size_t next = json.find_first_not_of(" \t\r\n", close + 1);
  return next != std::string_view::npos && json[next] == ':';
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
  std::string out;
  std::size_t copied = 0;
  std::size_t found = 0;
  for (std::size_t i = json.find('"'); i != std::string_view::npos; i = json.find('"', i + 1)) {
    std::size_t close = literal_end(json, i);
    if (close == std::string_view::npos) return std::nullopt;
    std::optional<std::string_view> prefix = digest_prefix(json.substr(i + 1, close - i - 1));
    if (prefix && !is_key(json, close)) {
      out.append(json.substr(copied, i + 1 - copied));
      out.append(*prefix);
      out.append(kEllipsis);
      copied = close;
      ++found;
    }
    i = close;
  }
  if (found < kMinDigests) return std::nullopt;
  out.append(json.substr(copied));
  return out;
}

}  // namespace caveman::compress::factor
