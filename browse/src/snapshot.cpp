#include "snapshot.h"

#include <cmath>
#include <set>

#include "caveman/base/split.h"

namespace caveman::browse {
namespace {

// The counters of docs/browse.md#tools: in the full payload (structuredContent), not in what the
// agent reads.
const std::set<std::string> kStatKeys = {"tokens_before", "view_tokens", "tokens_after", "ratio", "basis"};

}  // namespace

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
  for (std::string_view line : base::split_lines(view)) {
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

Json agent_view(const Json& payload) {
  Json v = Json::object();
  std::string outline = payload.value("uids", std::string());
  v["uids"] = outline;
  // The root alone (an empty document): its raw tree holds nothing to act on or recover.
  if (outline.find('\n') != std::string::npos) v["recovery_handle"] = payload.value("recovery_handle", std::string());
  for (auto it = payload.begin(); it != payload.end(); ++it) {
    if (!kStatKeys.contains(it.key()) && it.key() != "uids" && it.key() != "recovery_handle") v[it.key()] = it.value();
  }
  return v;
}

Json snapshot_payload(std::string_view view, std::string_view handle, std::int64_t tokens_before,
                      const tokens::Counter& counter, const Json& extras) {
  Json p = Json::object();
  p["uids"] = std::string(view);
  p["recovery_handle"] = std::string(handle);
  for (auto it = extras.begin(); it != extras.end(); ++it) p[it.key()] = it.value();
  // tokens_after: what the agent reads, i.e. the agent view (which never holds the counters).
  auto after = static_cast<std::int64_t>(counter.count(dump_compact(agent_view(p))));
  Json out = Json::object();
  out["uids"] = std::string(view);
  out["recovery_handle"] = std::string(handle);
  out["tokens_before"] = tokens_before;
  out["view_tokens"] = static_cast<std::int64_t>(counter.count(view));
  out["tokens_after"] = after;
  double ratio = tokens_before > 0 ? static_cast<double>(tokens_before - after) / static_cast<double>(tokens_before) : 0.0;
  out["ratio"] = std::round(ratio * 10000.0) / 10000.0;
  out["basis"] = "inferred";
  for (auto it = extras.begin(); it != extras.end(); ++it) out[it.key()] = it.value();
  return out;
}

}  // namespace caveman::browse
