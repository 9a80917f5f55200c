#include "url.h"

#include <algorithm>
#include <vector>

#include "caveman/base/text.h"

namespace caveman::proxy {
namespace {

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < path.size()) {
    if (path[at] == '/') {
      ++at;
      continue;
    }
    std::size_t next = path.find('/', at);
    if (next == std::string_view::npos) next = path.size();
    out.push_back(path.substr(at, next - at));
    at = next;
  }
  return out;
}

}  // namespace

std::string url_host(std::string_view host) {
  return host.find(':') != std::string_view::npos ? "[" + std::string(host) + "]" : std::string(host);
}

std::string host_port(std::string_view host, int port) { return url_host(host) + ":" + std::to_string(port); }

std::vector<HostEntry> parse_host_list(std::string_view list, std::string_view separators) {
  std::vector<HostEntry> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t end = list.find_first_of(separators, at);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(at, end - at);
    at = end + 1;
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.empty()) continue;
    HostEntry entry;
    std::string_view host = item;
    std::string_view port;
    if (item.front() == '[') {
      std::size_t close = item.find(']');
      if (close == std::string_view::npos) continue;
      host = item.substr(1, close - 1);
      if (close + 1 < item.size() && item[close + 1] == ':') port = item.substr(close + 2);
    } else if (std::size_t colon = item.rfind(':');
               colon != std::string_view::npos && item.find(':') == colon) {
      host = item.substr(0, colon);
      port = item.substr(colon + 1);
    }
    if (!port.empty()) {
      int p = 0;
      bool ok = port.size() <= 5;
      for (char c : port) {
        ok = ok && c >= '0' && c <= '9';
        if (ok) p = p * 10 + (c - '0');
      }
      if (!ok || p <= 0 || p > 65535) continue;
      entry.port = p;
    }
    entry.host = base::ascii_lower(host);
    out.push_back(std::move(entry));
  }
  return out;
}

std::string Url::origin() const {
  std::string out = scheme + "://" + url_host(host);
  bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  if (!default_port) out += ":" + std::to_string(port);
  return out;
}

std::optional<Url> parse_url(std::string_view text) {
  Url url;
  std::size_t sep = text.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  url.scheme = base::ascii_lower(text.substr(0, sep));
  if (url.scheme != "http" && url.scheme != "https") return std::nullopt;
  std::string_view rest = text.substr(sep + 3);
  if (rest.find_first_of("?#") != std::string_view::npos) return std::nullopt;
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  std::string_view port_text;
  if (authority.front() == '[') {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos || close == 1) return std::nullopt;
    url.host = base::ascii_lower(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port_text = after.substr(1);
      if (port_text.empty()) return std::nullopt;
    }
  } else {
    std::size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return std::nullopt;
      authority = authority.substr(0, colon);
    }
    if (authority.empty() || authority.find(':') != std::string_view::npos) return std::nullopt;
    url.host = base::ascii_lower(authority);
  }
  for (char c : url.host) {
    if (c == ' ' || c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x21) {
      return std::nullopt;
    }
  }
  if (!port_text.empty()) {
    if (port_text.size() > 5) return std::nullopt;
    int p = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9') return std::nullopt;
      p = p * 10 + (c - '0');
    }
    if (p <= 0 || p > 65535) return std::nullopt;
    url.port = p;
  } else {
    url.port = url.scheme == "https" ? 443 : 80;
  }
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  url.path = std::string(path);
  return url;
}

std::string join_overlapping(std::string_view base_path, std::string_view request_path) {
  std::vector<std::string_view> base = segments(base_path);
  std::vector<std::string_view> req = segments(request_path);
  std::size_t best = 0;
  for (std::size_t k = std::min(base.size(), req.size()); k > 0; --k) {
    bool match = true;
    for (std::size_t i = 0; i < k && match; ++i) match = base[base.size() - k + i] == req[i];
    if (match) {
      best = k;
      break;
    }
  }
  std::string out;
  for (std::string_view s : base) {
    out += '/';
    out += s;
  }
  for (std::size_t i = best; i < req.size(); ++i) {
    out += '/';
    out += req[i];
  }
  if (!request_path.empty() && request_path.back() == '/' && best < req.size()) out += '/';
  if (out.empty()) out = "/";
  return out;
}

bool valid_route_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name[0])) return false;
  for (char c : name.substr(1)) {
    if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace caveman::proxy
