#include "url_policy.h"

#include <cctype>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"

namespace caveman::browse {
namespace {

Status invalid_url(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

Status denied(std::string_view scheme) {
  return Status::InvalidArgument(
      codes::kBrowserUrlDenied,
      "the " + std::string(scheme) +
          ": scheme is not allowed; use http(s)://, about:blank or data:text/html,");
}

// The authority's host: after "//", up to '/', '?' or '#', without userinfo and port.
std::string_view host_of(std::string_view after_scheme) {
  if (!after_scheme.starts_with("//")) return {};
  std::string_view rest = after_scheme.substr(2);
  std::size_t end = rest.find_first_of("/?#\\");
  std::string_view authority = rest.substr(0, end);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  if (authority.starts_with("[")) {
    std::size_t close = authority.find(']');
    return close == std::string_view::npos ? std::string_view{} : authority.substr(0, close + 1);
  }
  return authority.substr(0, authority.find(':'));
}

}  // namespace

std::string url_scheme(std::string_view url) {
  std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return "";
  if (!std::isalpha(static_cast<unsigned char>(url[0]))) return "";
  for (std::size_t i = 1; i < colon; ++i) {
    auto c = static_cast<unsigned char>(url[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return "";
  }
  return base::ascii_lower(url.substr(0, colon));
}

Status check_url(std::string_view url) {
  if (url.empty()) return invalid_url("\"url\" is empty");
  if (url.size() > kMaxUrlBytes) {
    return invalid_url("\"url\" is longer than " + std::to_string(kMaxUrlBytes) + " bytes");
  }
  std::string scheme = url_scheme(url);
  if (scheme.empty()) {
    return invalid_url("\"url\" needs a scheme, e.g. https://example.com or about:blank");
  }
  // Control characters anywhere (browsers drop tabs/newlines and would re-read the scheme);
  // spaces are fine only inside data: payloads.
  for (char ch : url) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return invalid_url("\"url\" contains a control character");
    if (c == ' ' && scheme != "data") return invalid_url("\"url\" contains a space");
  }
  if (scheme == "http" || scheme == "https") {
    std::string_view host = host_of(url.substr(scheme.size() + 1));
    if (host.empty()) return invalid_url("\"url\" has no host: " + std::string(url.substr(0, 200)));
    return Status::Ok();
  }
  if (scheme == "about") {
    if (base::ascii_lower(url) == "about:blank") return Status::Ok();
    return denied("about (other than about:blank)");
  }
  if (scheme == "data") {
    if (base::istarts_with_ascii(url, "data:text/html,") || base::istarts_with_ascii(url, "data:text/html;")) {
      return Status::Ok();
    }
    return denied("data (other than data:text/html)");
  }
  return denied(scheme);
}

}  // namespace caveman::browse
