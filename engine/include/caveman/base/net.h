// caveman/base/net.h — loopback checks and listen-address parsing (docs/base.md).
//
// The tools that listen (proxy, MCP over HTTP) have no inbound authentication, so they bind
// loopback only; browse talks only to a loopback DevTools endpoint. These helpers are the one
// definition of "loopback". Pure functions; safe from any thread. Failures are Status values.
#ifndef CAVEMAN_BASE_NET_H_
#define CAVEMAN_BASE_NET_H_

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::base {

// True for `localhost` (any ASCII case), `::1` or `[::1]`, and a dotted-quad 127.a.b.c whose
// four parts are 1–3 decimal digits each no greater than 255 (so 127.999.0.1 is false).
bool is_loopback_host(std::string_view host);

struct ListenAddress {
  std::string host;  // lowercased, brackets removed; `localhost` becomes 127.0.0.1
  int port = 0;      // 0..65535 (0: the kernel picks one)
};

// Parses "HOST:PORT" (IPv6 in brackets: "[::1]:8787"). A malformed address or port is
// kInvalidArgument with `malformed_code`; a well-formed non-loopback host is kInvalidArgument
// with codes::kListenNotLoopback.
Result<ListenAddress> parse_loopback_listen(std::string_view listen,
                                            std::string_view malformed_code);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_NET_H_
