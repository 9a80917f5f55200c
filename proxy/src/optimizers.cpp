#include "optimizers.h"

#include <cstdio>

namespace caveman::proxy {
namespace {

constexpr std::string_view kBreakpoint = R"("cache_control":{"type":"ephemeral"})";
constexpr std::string_view kBreakpoint1h = R"("cache_control":{"type":"ephemeral","ttl":"1h"})";

// One cacheable position of the Anthropic prefix: a tool, a system block or a message
// content block (a string system/content is one text block).
struct Unit {
  NodeId node = kNoNode;
  NodeId cache_control = kNoNode;  // the client's breakpoint
  bool has_breakpoint = false;
  bool added = false;      // ours, planned now
  bool one_hour = false;   // the client's breakpoint has ttl "1h"
  bool explicit_ttl = false;  // the client named a ttl (any): its choice stands
  bool cacheable = false;  // may carry cache_control
};

Unit make_unit(const JsonDoc& doc, NodeId id) {
  Unit u;
  u.node = id;
  const JsonNode& n = doc.node(id);
  if (n.kind == JsonKind::kString) {
    u.cacheable = !n.text.empty();
    return u;
  }
  if (n.kind != JsonKind::kObject) return u;
  NodeId cc = doc.get(id, "cache_control");
  u.cache_control = cc;
  u.has_breakpoint = cc != kNoNode;
  u.one_hour = u.has_breakpoint && doc.get_string(cc, "ttl") == "1h";
  u.explicit_ttl = u.has_breakpoint && doc.get(cc, "ttl") != kNoNode;
  std::string_view type = doc.get_string(id, "type");
  bool empty_text = type == "text" && doc.get_string(id, "text").empty();
  u.cacheable = type != "thinking" && type != "redacted_thinking" && !empty_text;
  return u;
}

// Units of a system value or message content: a string is one unit, an array its items.
void add_units(const JsonDoc& doc, NodeId value, std::vector<Unit>* out) {
  if (doc.is(value, JsonKind::kString)) {
    out->push_back(make_unit(doc, value));
  } else if (doc.is(value, JsonKind::kArray)) {
    for (NodeId item : doc.node(value).items) out->push_back(make_unit(doc, item));
  }
}

// Index of the last cacheable unit in [from, to), or -1.
int last_cacheable(const std::vector<Unit>& units, std::size_t from, std::size_t to) {
  for (std::size_t i = to; i > from; --i) {
    if (units[i - 1].cacheable) return static_cast<int>(i - 1);
  }
  return -1;
}

Splice breakpoint_splice(std::string_view body, const JsonDoc& doc, NodeId id, bool one_hour) {
  const JsonNode& n = doc.node(id);
  std::string_view breakpoint = one_hour ? kBreakpoint1h : kBreakpoint;
  if (n.kind == JsonKind::kString) {
    std::string bytes = R"([{"type":"text","text":)";
    bytes.append(body.substr(n.begin, n.end - n.begin));
    bytes += ',';
    bytes.append(breakpoint);
    bytes += "}]";
    return Splice{n.begin, n.end, std::move(bytes)};
  }
  std::string bytes = n.members.empty() ? std::string() : std::string(",");
  bytes.append(breakpoint);
  return Splice{n.end - 1, n.end - 1, std::move(bytes)};
}

// 1-hour lifetimes: every breakpoint but the last one in prompt order gets ttl "1h" (the
// last, the frontier, keeps 5 minutes: what it adds is new each turn and would pay the 2×
// premium), so no 1-hour breakpoint ever follows a 5-minute one. Only when the client named
// no ttl itself and there is no automatic breakpoint. Returns the client breakpoints to mark.
std::vector<Splice> one_hour_splices(const JsonDoc& doc, std::vector<Unit>& units, int* marked) {
  std::vector<Splice> out;
  int last = -1;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].explicit_ttl) return out;
    if (units[i].has_breakpoint) last = static_cast<int>(i);
  }
  for (int i = 0; i < last; ++i) {
    Unit& u = units[static_cast<std::size_t>(i)];
    if (!u.has_breakpoint) continue;
    u.one_hour = true;
    ++*marked;
    if (u.added || u.cache_control == kNoNode) continue;  // ours: written with the ttl
    const JsonNode& cc = doc.node(u.cache_control);
    if (cc.kind != JsonKind::kObject) continue;
    std::string bytes = cc.members.empty() ? std::string() : std::string(",");
    bytes += R"("ttl":"1h")";
    out.push_back(Splice{cc.end - 1, cc.end - 1, std::move(bytes)});
  }
  return out;
}

void canonical(const JsonDoc& doc, NodeId id, std::string* out) {
  const JsonNode& n = doc.node(id);
  switch (n.kind) {
    case JsonKind::kNull: out->append("n"); return;
    case JsonKind::kBool: out->append(n.boolean ? "t" : "f"); return;
    case JsonKind::kNumber: out->append(n.text); return;
    case JsonKind::kString: out->append(json_quote(n.text)); return;
    case JsonKind::kArray:
      out->push_back('[');
      for (NodeId item : n.items) {
        canonical(doc, item, out);
        out->push_back(',');
      }
      out->push_back(']');
      return;
    case JsonKind::kObject:
      out->push_back('{');
      for (const auto& [key, value] : n.members) {
        if (key == "cache_control") continue;
        out->append(json_quote(key));
        out->push_back(':');
        canonical(doc, value, out);
        out->push_back(',');
      }
      out->push_back('}');
      return;
  }
}

std::uint64_t hash_or_zero(const JsonDoc& doc, NodeId id) {
  return id == kNoNode ? 0 : canonical_hash(doc, id);
}

std::vector<std::uint64_t> item_hashes(const JsonDoc& doc, NodeId array) {
  std::vector<std::uint64_t> out;
  if (doc.is(array, JsonKind::kArray)) {
    for (NodeId item : doc.node(array).items) out.push_back(canonical_hash(doc, item));
  } else if (array != kNoNode) {
    out.push_back(canonical_hash(doc, array));  // e.g. Responses `input` as one string
  }
  return out;
}

// The first message a session opens with (its identity when no session id is known).
NodeId first_message(Endpoint endpoint, const JsonDoc& doc) {
  NodeId root = doc.root();
  NodeId list = kNoNode;
  if (endpoint == Endpoint::kMessages || endpoint == Endpoint::kChatCompletions) {
    list = doc.get(root, "messages");
  } else if (endpoint == Endpoint::kResponses) {
    list = doc.get(root, "input");
  } else {
    list = doc.get(root, "contents");
  }
  if (!doc.is(list, JsonKind::kArray)) return list;  // Responses: a string input
  for (NodeId item : doc.node(list).items) {
    std::string_view role = doc.get_string(item, "role");
    if (role != "system" && role != "developer") return item;  // Chat: skip the system prompt
  }
  return kNoNode;
}

}  // namespace

BreakpointPlan plan_breakpoints(std::string_view body, const JsonDoc& doc, CacheTtl ttl) {
  BreakpointPlan plan;
  NodeId root = doc.root();
  if (!doc.is(root, JsonKind::kObject)) return plan;
  std::vector<Unit> units;
  if (NodeId tools = doc.get(root, "tools"); doc.is(tools, JsonKind::kArray)) add_units(doc, tools, &units);
  std::size_t tools_end = units.size();
  add_units(doc, doc.get(root, "system"), &units);
  std::size_t system_end = units.size();
  std::vector<std::size_t> message_start;  // unit index where each message begins
  if (NodeId messages = doc.get(root, "messages"); doc.is(messages, JsonKind::kArray)) {
    for (NodeId m : doc.node(messages).items) {
      message_start.push_back(units.size());
      add_units(doc, doc.get(m, "content"), &units);
    }
  }
  bool automatic = doc.get(root, "cache_control") != kNoNode;  // takes the last block's slot
  plan.existing = automatic ? 1 : 0;
  int after_one_hour = 0;  // ours go after the client's last 1 h breakpoint
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].has_breakpoint) ++plan.existing;
    if (units[i].one_hour) after_one_hour = static_cast<int>(i) + 1;
  }
  std::size_t n = message_start.size();
  int targets[3] = {-1, -1, -1};
  if (n > 0 && !automatic) targets[0] = last_cacheable(units, message_start[n - 1], units.size());
  targets[1] = last_cacheable(units, system_end > tools_end ? tools_end : 0, system_end);
  if (n > 1) targets[2] = last_cacheable(units, message_start[n - 2], message_start[n - 1]);
  int budget = kMaxAnthropicBreakpoints - plan.existing;
  for (int t : targets) {
    if (budget <= 0) break;
    if (t < 0 || t < after_one_hour || units[t].has_breakpoint) continue;
    units[t].has_breakpoint = true;  // targets may coincide
    units[t].added = true;
    ++plan.added;
    --budget;
  }
  if (ttl == CacheTtl::k1h && !automatic) {
    plan.splices = one_hour_splices(doc, units, &plan.one_hour);
  }
  for (const Unit& u : units) {
    if (u.added) plan.splices.push_back(breakpoint_splice(body, doc, u.node, u.one_hour));
  }
  return plan;
}

std::string prompt_cache_key_to_add(const JsonDoc& doc, std::uint64_t session) {
  NodeId root = doc.root();
  if (!doc.is(root, JsonKind::kObject) || doc.get(root, "prompt_cache_key") != kNoNode) return {};
  char buf[32];
  std::snprintf(buf, sizeof buf, "cave-%016llx", static_cast<unsigned long long>(session));
  return buf;
}

namespace {

// `"<key>":<value>` as the last member of the root object.
Splice root_member_splice(const JsonDoc& doc, std::string_view key, std::string_view value) {
  const JsonNode& root = doc.node(doc.root());
  std::string bytes = root.members.empty() ? std::string() : std::string(",");
  bytes += json_quote(key);
  bytes += ':';
  bytes += value;
  return Splice{root.end - 1, root.end - 1, std::move(bytes)};
}

}  // namespace

Splice prompt_cache_key_splice(const JsonDoc& doc, const std::string& key) {
  return root_member_splice(doc, "prompt_cache_key", json_quote(key));
}

bool wants_retention_24h(const JsonDoc& doc, bool retention_24h) {
  NodeId root = doc.root();
  return retention_24h && doc.is(root, JsonKind::kObject) &&
         doc.get(root, "prompt_cache_retention") == kNoNode &&
         doc.get(root, "prompt_cache_options") == kNoNode;
}

Splice retention_24h_splice(const JsonDoc& doc) {
  return root_member_splice(doc, "prompt_cache_retention", R"("24h")");
}

std::uint64_t fnv1a(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::uint64_t canonical_hash(const JsonDoc& doc, NodeId node) {
  std::string text;
  canonical(doc, node, &text);
  return fnv1a(text);
}

PrefixComponents prefix_components(Endpoint endpoint, const JsonDoc& doc) {
  PrefixComponents c;
  NodeId root = doc.root();
  if (!doc.is(root, JsonKind::kObject)) return c;
  switch (endpoint) {
    case Endpoint::kMessages:
      c.tools = hash_or_zero(doc, doc.get(root, "tools"));
      c.system = hash_or_zero(doc, doc.get(root, "system"));
      c.messages = item_hashes(doc, doc.get(root, "messages"));
      break;
    case Endpoint::kChatCompletions:
      c.tools = hash_or_zero(doc, doc.get(root, "tools"));
      c.messages = item_hashes(doc, doc.get(root, "messages"));  // the system prompt is message 0
      break;
    case Endpoint::kResponses:
      c.tools = hash_or_zero(doc, doc.get(root, "tools"));
      c.system = hash_or_zero(doc, doc.get(root, "instructions"));
      c.messages = item_hashes(doc, doc.get(root, "input"));
      break;
    default:
      c.tools = hash_or_zero(doc, doc.get(root, "tools"));
      c.system = hash_or_zero(doc, doc.get(root, "systemInstruction"));
      c.messages = item_hashes(doc, doc.get(root, "contents"));
      break;
  }
  return c;
}

std::uint64_t session_fingerprint(Endpoint endpoint, const JsonDoc& doc, std::string_view agent,
                                  std::string_view model, std::string_view native_session) {
  if (!native_session.empty()) return fnv1a(native_session, fnv1a("native"));
  std::uint64_t h = fnv1a(agent);
  h = fnv1a("\x1f", h);
  h = fnv1a(model, h);
  NodeId first = first_message(endpoint, doc);
  std::uint64_t first_hash = first == kNoNode ? 0 : canonical_hash(doc, first);
  return fnv1a(std::string_view(reinterpret_cast<const char*>(&first_hash), sizeof first_hash), h);
}

}  // namespace caveman::proxy
