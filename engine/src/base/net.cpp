#include "caveman/base/net.h"

#include "caveman/base/codes.h"
#include "caveman/base/text.h"

namespace caveman::base {
namespace {

// 1–3 decimal digits, value ≤ 255.
bool is_octet(std::string_view part) {
  if (part.empty() || part.size() > 3) return false;
  int v = 0;
  for (char c : part) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  return v <= 255;
}

// Digits only, ≤ 65535.
bool parse_port(std::string_view text, int* port) {
  if (text.empty() || text.size() > 5) return false;
  int v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v > 65535) return false;
  *port = v;
  return true;
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  if (iequals_ascii(host, "localhost") || host == "::1" || host == "[::1]") return true;
  if (!host.starts_with("127.")) return false;
  int parts = 0;
  while (true) {
    const std::size_t dot = host.find('.');
    if (!is_octet(host.substr(0, dot))) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
  }
  return parts == 4;
}

Result<ListenAddress> parse_loopback_listen(std::string_view listen,
                                            std::string_view malformed_code) {
  auto malformed = [&](std::string why) {
    return Status::InvalidArgument(std::string(malformed_code),
                                   why + " in listen address \"" + std::string(listen) + "\"");
  };
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return malformed("no HOST:PORT");
  std::string_view host = listen.substr(0, colon);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return malformed("bad host");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return malformed("IPv6 host without brackets");
  }
  ListenAddress out;
  if (!parse_port(listen.substr(colon + 1), &out.port)) return malformed("bad port");
  if (!is_loopback_host(host)) {
    return Status::InvalidArgument(
        codes::kListenNotLoopback,
        "refusing to listen on \"" + std::string(host) +
            "\": there is no inbound authentication, so only loopback addresses "
            "(127.0.0.0/8, ::1, localhost) are allowed");
  }
  out.host = ascii_lower(host);
  if (out.host == "localhost") out.host = "127.0.0.1";
  return out;
}

}  // namespace caveman::base
