#include "snapshot.h"

#include <cmath>

namespace caveman::browse {

std::string dump_compact(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::optional<std::int64_t> decode_uid(std::string_view uid) {
  if (uid.size() < 2 || uid[0] != 'u') return std::nullopt;
  std::string_view digits = uid.substr(1, uid.find('_') == std::string_view::npos ? uid.size() - 1 : uid.find('_') - 1);
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  std::int64_t v = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'z') {
      d = c - 'a' + 10;
    } else {
      return std::nullopt;
    }
    v = v * 36 + d;
  }
  if (v <= 0) return std::nullopt;
  std::size_t us = uid.find('_');
  if (us != std::string_view::npos) {
    std::string_view n = uid.substr(us + 1);
    if (n.empty() || n.size() > 9) return std::nullopt;
    for (char c : n) {
      if (c < '0' || c > '9') return std::nullopt;
    }
  }
  return v;
}

UidMap uids_from_view(std::string_view view, std::string_view metadata) {
  Json meta = Json::parse(metadata, nullptr, /*allow_exceptions=*/false);
  const Json* known = nullptr;
  if (meta.is_object()) {
    auto it = meta.find("uids");
    if (it != meta.end() && it->is_object()) known = &*it;
  }
  UidMap out;
  std::size_t pos = 0;
  while (pos < view.size()) {
    std::size_t end = view.find('\n', pos);
    if (end == std::string_view::npos) end = view.size();
    std::string_view line = view.substr(pos, end - pos);
    pos = end + 1;
    std::size_t k = 0;
    while (k < line.size() && line[k] == ' ') ++k;
    if (k >= line.size() || line[k] != '[') continue;
    std::size_t close = line.find("] ", k);
    if (close == std::string_view::npos) continue;
    std::string uid(line.substr(k + 1, close - k - 1));
    std::optional<std::int64_t> backend = decode_uid(uid);
    if (!backend) continue;
    UidTarget t{*backend, ""};
    if (known != nullptr) {
      auto m = known->find(uid);
      if (m != known->end() && m->is_object()) {
        auto b = m->find("backendDOMNodeId");
        if (b != m->end() && b->is_number_integer() && b->get<std::int64_t>() == *backend) {
          t.frame_id = m->value("frameId", std::string());
        }
      }
    }
    out[uid] = t;
  }
  return out;
}

Json snapshot_payload(std::string_view view, std::string_view handle, std::int64_t tokens_before,
                      const tokens::Counter& counter, const Json& extras) {
  auto view_tokens = static_cast<std::int64_t>(counter.count(view));
  auto build = [&](std::int64_t after) {
    Json p = Json::object();
    p["uids"] = std::string(view);
    p["recovery_handle"] = std::string(handle);
    p["tokens_before"] = tokens_before;
    p["view_tokens"] = view_tokens;
    p["tokens_after"] = after;
    double ratio = tokens_before > 0 ? static_cast<double>(tokens_before - after) / static_cast<double>(tokens_before) : 0.0;
    p["ratio"] = std::round(ratio * 10000.0) / 10000.0;
    p["basis"] = "inferred";
    for (auto it = extras.begin(); it != extras.end(); ++it) p[it.key()] = it.value();
    return p;
  };
  // tokens_after counts the payload that contains it: iterate to a fixed point (a digit
  // more or less moves the count by at most a token or two, so this settles fast). If it
  // ever cycles, keep the largest count seen: never under-report.
  std::int64_t after = view_tokens + 64;
  std::int64_t largest = 0;
  for (int round = 0; round < 8; ++round) {
    auto n = static_cast<std::int64_t>(counter.count(dump_compact(build(after))));
    largest = std::max(largest, n);
    if (n == after) return build(after);
    after = n;
  }
  return build(largest);
}

}  // namespace caveman::browse
