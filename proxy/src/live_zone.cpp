#include "live_zone.h"

#include <cctype>
#include <map>
#include <set>

#include "caveman/base/text.h"
#include "caveman/tool_source.h"

namespace caveman::proxy {
namespace {

using Ids = std::set<std::string>;
using Paths = std::map<std::string, std::string>;  // tool call id → the file it names

// `text` without its <system-reminder>…</system-reminder> spans, trimmed; "" when nothing else.
std::string without_reminders(std::string_view text) {
  constexpr std::string_view kOpen = "<system-reminder>", kClose = "</system-reminder>";
  std::string out;
  std::size_t at = 0;
  for (std::size_t open = text.find(kOpen); open != std::string_view::npos;
       open = text.find(kOpen, at)) {
    std::size_t close = text.find(kClose, open);
    if (close == std::string_view::npos) break;
    out += text.substr(at, open - at);
    at = close + kClose.size();
  }
  out += text.substr(at);
  return std::string(base::trim_ascii(out));
}

// The string members of a call's arguments: an object node, or (OpenAI) a JSON text.
ToolArgs string_args(const JsonDoc& doc, NodeId args) {
  ToolArgs out;
  if (doc.is(args, JsonKind::kString)) {
    std::optional<JsonDoc> parsed = JsonDoc::parse(doc.node(args).text);
    if (parsed) return string_args(*parsed, parsed->root());
    return out;
  }
  if (!doc.is(args, JsonKind::kObject)) return out;
  for (const auto& [key, value] : doc.node(args).members) {
    if (doc.is(value, JsonKind::kString)) out.emplace_back(key, doc.node(value).text);
  }
  return out;
}

void note_path(const JsonDoc& doc, std::string_view name, std::string_view id, NodeId args,
               Paths* paths) {
  std::string path = tool_source_path(name, string_args(doc, args));
  if (!path.empty()) (*paths)[std::string(id)] = std::move(path);
}

std::string path_of(const Paths& paths, const std::string& id) {
  auto it = paths.find(id);
  return it == paths.end() ? std::string() : it->second;
}

class Extractor {
 public:
  Extractor(const JsonDoc& doc, std::size_t min_bytes, LiveZone* out)
      : doc_(doc), min_bytes_(min_bytes), out_(out) {}

  // A string node as a candidate when it is long enough.
  void offer(NodeId id, bool live, bool tool_result) {
    if (!doc_.is(id, JsonKind::kString)) return;
    if (doc_.node(id).text.size() < min_bytes_) return;
    out_->candidates.push_back(Candidate{id, live, tool_result, tool_result && page_,
                                         tool_result ? path_ : std::string(), answered_});
  }

  // Parts arrays of text blocks: {"type":"text"|"input_text","text":…}.
  void offer_text_parts(NodeId content, bool live, bool tool_result) {
    if (doc_.is(content, JsonKind::kString)) {
      offer(content, live, tool_result);
      return;
    }
    if (!doc_.is(content, JsonKind::kArray)) return;
    for (NodeId part : doc_.node(content).items) {
      std::string_view type = doc_.get_string(part, "type");
      if (type == "text" || type == "input_text") offer(doc_.get(part, "text"), live, tool_result);
    }
  }

  // Text of a human message: a string, or its text parts joined by newlines, without the
  // agent's own <system-reminder> blocks (Claude Code's reminders are no words of the human,
  // and their many common words would crowd a query's rare ones out).
  std::string human_text(NodeId content) const {
    if (doc_.is(content, JsonKind::kString)) return without_reminders(doc_.node(content).text);
    std::string out;
    if (!doc_.is(content, JsonKind::kArray)) return out;
    for (NodeId part : doc_.node(content).items) {
      std::string_view type = doc_.get_string(part, "type");
      if (type != "text" && type != "input_text") continue;
      NodeId text = doc_.get(part, "text");
      if (!doc_.is(text, JsonKind::kString)) continue;
      std::string words = without_reminders(doc_.node(text).text);
      if (words.empty()) continue;
      if (!out.empty()) out += '\n';
      out += words;
    }
    return out;
  }

  const JsonDoc& doc_;
  std::size_t min_bytes_;
  LiveZone* out_;
  bool page_ = false;  // the tool outputs offered now come from a web-fetch tool
  std::string path_;   // …and show this file
  bool answered_ = false;  // …and come before the latest human text
};

// What the agent itself just asked for (a grep pattern, a command) says what it looks for in
// the results better than the task's words alone: the string inputs of the latest
// kRecentToolInputs tool_use blocks join the query. Words with a '/' or '.' (file paths and
// names) are left out: the words of a path name the file, not what the agent looks for in it.
constexpr std::size_t kRecentToolInputs = 3;

void append_words_but_paths(std::string_view text, std::string* query) {
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    std::string_view word = text.substr(i, end - i);
    if (!word.empty() && word.find_first_of("/.") == std::string_view::npos) {
      if (!query->empty()) *query += ' ';
      *query += word;
    }
    i = end + 1;
  }
}

void append_recent_tool_inputs(const JsonDoc& doc, const std::vector<NodeId>& msgs,
                               std::string* query) {
  std::size_t taken = 0;
  for (std::size_t i = msgs.size(); i-- > 0 && taken < kRecentToolInputs;) {
    if (doc.get_string(msgs[i], "role") != "assistant") continue;
    NodeId content = doc.get(msgs[i], "content");
    if (!doc.is(content, JsonKind::kArray)) continue;
    const std::vector<NodeId>& blocks = doc.node(content).items;
    for (std::size_t b = blocks.size(); b-- > 0 && taken < kRecentToolInputs;) {
      if (doc.get_string(blocks[b], "type") != "tool_use") continue;
      ++taken;
      NodeId input = doc.get(blocks[b], "input");
      if (!doc.is(input, JsonKind::kObject)) continue;
      for (const auto& [key, value] : doc.node(input).members) {
        if (doc.is(value, JsonKind::kString)) append_words_but_paths(doc.node(value).text, query);
      }
    }
  }
}

bool has_cache_control(const JsonDoc& doc, NodeId content) {
  if (!doc.is(content, JsonKind::kArray)) return false;
  for (NodeId block : doc.node(content).items) {
    if (doc.get(block, "cache_control") != kNoNode) return true;
  }
  return false;
}

bool has_tool_result(const JsonDoc& doc, NodeId content) {
  if (!doc.is(content, JsonKind::kArray)) return false;
  for (NodeId block : doc.node(content).items) {
    if (doc.get_string(block, "type") == "tool_result") return true;
  }
  return false;
}

void anthropic(const JsonDoc& doc, Extractor& x) {
  NodeId messages = doc.get(doc.root(), "messages");
  if (!doc.is(messages, JsonKind::kArray)) return;
  const std::vector<NodeId>& msgs = doc.node(messages).items;
  if (msgs.empty()) return;

  Ids retrieve_ids, fetch_ids;
  Paths paths;
  for (NodeId m : msgs) {
    if (doc.get_string(m, "role") != "assistant") continue;
    NodeId content = doc.get(m, "content");
    if (!doc.is(content, JsonKind::kArray)) continue;
    for (NodeId block : doc.node(content).items) {
      if (doc.get_string(block, "type") != "tool_use") continue;
      std::string_view name = doc.get_string(block, "name");
      if (is_retrieve_tool_name(name))
        retrieve_ids.insert(std::string(doc.get_string(block, "id")));
      if (is_fetch_tool_name(name)) fetch_ids.insert(std::string(doc.get_string(block, "id")));
      note_path(doc, name, doc.get_string(block, "id"), doc.get(block, "input"), &paths);
    }
  }

  // Frozen floor: after the last message carrying cache_control, clamped so the last
  // message (and a trailing system message's tool_result partner) stays live.
  std::size_t last = msgs.size() - 1;
  std::size_t floor = 0;
  bool markers = false;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    if (has_cache_control(doc, doc.get(msgs[i], "content"))) {
      floor = i + 1;
      markers = true;
    }
  }
  if (floor > last) floor = last;
  if (last > 0 && floor == last && doc.get_string(msgs[last], "role") == "system" &&
      doc.get_string(msgs[last - 1], "role") == "user" &&
      has_tool_result(doc, doc.get(msgs[last - 1], "content"))) {
    floor = last - 1;
  }
  std::size_t latest_user = msgs.size();
  for (std::size_t i = msgs.size(); i-- > floor;) {
    if (doc.get_string(msgs[i], "role") == "user") {
      latest_user = i;
      break;
    }
  }

  std::size_t human_turn = 0;
  for (std::size_t i = msgs.size(); i-- > 0;) {
    if (doc.get_string(msgs[i], "role") != "user") continue;
    std::string text = x.human_text(doc.get(msgs[i], "content"));
    if (!text.empty()) {
      human_turn = i;
      x.out_->query = std::move(text);
      break;
    }
  }

  for (std::size_t i = 0; i < msgs.size(); ++i) {
    std::string_view role = doc.get_string(msgs[i], "role");
    if (role != "user" && role != "system") continue;
    bool live = i >= floor && (markers || i == latest_user);
    x.answered_ = i < human_turn;
    NodeId content = doc.get(msgs[i], "content");
    if (doc.is(content, JsonKind::kString)) {
      x.offer(content, live, false);
      continue;
    }
    if (!doc.is(content, JsonKind::kArray)) continue;
    for (NodeId block : doc.node(content).items) {
      std::string_view type = doc.get_string(block, "type");
      if (type == "text") {
        x.offer(doc.get(block, "text"), live, false);
      } else if (type == "tool_result") {
        std::string id(doc.get_string(block, "tool_use_id"));
        if (retrieve_ids.count(id)) continue;
        x.page_ = fetch_ids.count(id) > 0;
        x.path_ = path_of(paths, id);
        x.offer_text_parts(doc.get(block, "content"), live, true);
        x.page_ = false;
        x.path_.clear();
      }
    }
  }

  append_recent_tool_inputs(doc, msgs, &x.out_->query);
}

void openai_chat(const JsonDoc& doc, Extractor& x) {
  NodeId messages = doc.get(doc.root(), "messages");
  if (!doc.is(messages, JsonKind::kArray)) return;
  const std::vector<NodeId>& msgs = doc.node(messages).items;

  Ids retrieve_ids, fetch_ids;
  Paths paths;
  for (NodeId m : msgs) {
    NodeId calls = doc.get(m, "tool_calls");
    if (!doc.is(calls, JsonKind::kArray)) continue;
    for (NodeId call : doc.node(calls).items) {
      std::string_view name = doc.get_string(doc.get(call, "function"), "name");
      if (is_retrieve_tool_name(name)) retrieve_ids.insert(std::string(doc.get_string(call, "id")));
      if (is_fetch_tool_name(name)) fetch_ids.insert(std::string(doc.get_string(call, "id")));
      note_path(doc, name, doc.get_string(call, "id"),
                doc.get(doc.get(call, "function"), "arguments"), &paths);
    }
  }
  // Live: the latest user message and the tool results after the last non-tool message.
  std::size_t latest_user = msgs.size();
  std::size_t last_non_tool = msgs.size();
  for (std::size_t i = msgs.size(); i-- > 0;) {
    std::string_view role = doc.get_string(msgs[i], "role");
    if (latest_user == msgs.size() && role == "user") latest_user = i;
    if (last_non_tool == msgs.size() && role != "tool") last_non_tool = i;
  }
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    std::string_view role = doc.get_string(msgs[i], "role");
    NodeId content = doc.get(msgs[i], "content");
    if (role == "user") {
      x.offer_text_parts(content, i == latest_user, false);
    } else if (role == "tool") {
      std::string id(doc.get_string(msgs[i], "tool_call_id"));
      if (retrieve_ids.count(id)) continue;
      bool live = last_non_tool == msgs.size() || i > last_non_tool;
      x.page_ = fetch_ids.count(id) > 0;
      x.path_ = path_of(paths, id);
      x.offer_text_parts(content, live, true);
      x.page_ = false;
      x.path_.clear();
    }
  }
  if (latest_user < msgs.size())
    x.out_->query = x.human_text(doc.get(msgs[latest_user], "content"));
}

void openai_responses(const JsonDoc& doc, Extractor& x) {
  NodeId input = doc.get(doc.root(), "input");
  if (doc.is(input, JsonKind::kString)) {
    x.offer(input, true, false);
    x.out_->query = doc.node(input).text;
    return;
  }
  if (!doc.is(input, JsonKind::kArray)) return;
  const std::vector<NodeId>& items = doc.node(input).items;

  Ids retrieve_ids, fetch_ids;
  Paths paths;
  for (NodeId item : items) {
    if (doc.get_string(item, "type") != "function_call") continue;
    std::string_view name = doc.get_string(item, "name");
    if (is_retrieve_tool_name(name))
      retrieve_ids.insert(std::string(doc.get_string(item, "call_id")));
    if (is_fetch_tool_name(name)) fetch_ids.insert(std::string(doc.get_string(item, "call_id")));
    note_path(doc, name, doc.get_string(item, "call_id"), doc.get(item, "arguments"), &paths);
  }
  auto is_tool_item = [&](NodeId item) {
    std::string_view type = doc.get_string(item, "type");
    return type == "function_call_output" || type == "function_call" || type == "reasoning";
  };
  std::size_t latest_user = items.size();
  std::size_t last_other = items.size();
  for (std::size_t i = items.size(); i-- > 0;) {
    if (latest_user == items.size() && doc.get_string(items[i], "role") == "user") latest_user = i;
    if (last_other == items.size() && !is_tool_item(items[i])) last_other = i;
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    NodeId item = items[i];
    if (doc.get_string(item, "type") == "function_call_output") {
      std::string id(doc.get_string(item, "call_id"));
      if (retrieve_ids.count(id)) continue;
      bool live = last_other == items.size() || i > last_other;
      x.page_ = fetch_ids.count(id) > 0;
      x.path_ = path_of(paths, id);
      x.offer_text_parts(doc.get(item, "output"), live, true);
      x.page_ = false;
      x.path_.clear();
    } else if (doc.get_string(item, "role") == "user") {
      x.offer_text_parts(doc.get(item, "content"), i == latest_user, false);
    }
  }
  if (latest_user < items.size())
    x.out_->query = x.human_text(doc.get(items[latest_user], "content"));
}

void gemini(const JsonDoc& doc, Extractor& x) {
  NodeId contents = doc.get(doc.root(), "contents");
  if (!doc.is(contents, JsonKind::kArray)) return;
  const std::vector<NodeId>& turns = doc.node(contents).items;
  std::size_t latest_user = turns.size();
  for (std::size_t i = turns.size(); i-- > 0;) {
    std::string_view role = doc.get_string(turns[i], "role");
    if (role.empty() || role == "user") {
      latest_user = i;
      break;
    }
  }
  Paths paths;  // Gemini pairs a functionResponse with the latest functionCall of its name
  for (std::size_t i = 0; i < turns.size(); ++i) {
    std::string_view role = doc.get_string(turns[i], "role");
    if (!role.empty() && role != "user") {
      NodeId parts = doc.get(turns[i], "parts");
      if (!doc.is(parts, JsonKind::kArray)) continue;
      for (NodeId part : doc.node(parts).items) {
        NodeId fc = doc.get(part, "functionCall");
        std::string_view name = doc.get_string(fc, "name");
        if (fc == kNoNode) continue;
        paths.erase(std::string(name));
        note_path(doc, name, name, doc.get(fc, "args"), &paths);
      }
      continue;
    }
    bool live = i == latest_user;
    NodeId parts = doc.get(turns[i], "parts");
    if (!doc.is(parts, JsonKind::kArray)) continue;
    for (NodeId part : doc.node(parts).items) {
      x.offer(doc.get(part, "text"), live, false);
      NodeId fr = doc.get(part, "functionResponse");
      if (fr == kNoNode || is_retrieve_tool_name(doc.get_string(fr, "name"))) continue;
      NodeId response = doc.get(fr, "response");
      if (!doc.is(response, JsonKind::kObject)) continue;
      x.page_ = is_fetch_tool_name(doc.get_string(fr, "name"));
      x.path_ = path_of(paths, std::string(doc.get_string(fr, "name")));
      for (const auto& [key, value] : doc.node(response).members) x.offer(value, live, true);
      x.page_ = false;
      x.path_.clear();
    }
  }
  for (std::size_t i = turns.size(); i-- > 0;) {
    std::string_view role = doc.get_string(turns[i], "role");
    if (!role.empty() && role != "user") continue;
    std::string text;
    NodeId parts = doc.get(turns[i], "parts");
    if (!doc.is(parts, JsonKind::kArray)) continue;
    for (NodeId part : doc.node(parts).items) {
      NodeId t = doc.get(part, "text");
      if (!doc.is(t, JsonKind::kString)) continue;
      if (!text.empty()) text += '\n';
      text += doc.node(t).text;
    }
    if (!text.empty()) {
      x.out_->query = std::move(text);
      break;
    }
  }
}

bool declares_retrieve(const JsonDoc& doc) {
  NodeId tools = doc.get(doc.root(), "tools");
  if (!doc.is(tools, JsonKind::kArray)) return false;
  for (NodeId tool : doc.node(tools).items) {
    if (is_retrieve_tool_name(doc.get_string(tool, "name"))) return true;
    if (is_retrieve_tool_name(doc.get_string(doc.get(tool, "function"), "name"))) return true;
    NodeId decls = doc.get(tool, "functionDeclarations");
    if (!doc.is(decls, JsonKind::kArray)) continue;
    for (NodeId d : doc.node(decls).items) {
      if (is_retrieve_tool_name(doc.get_string(d, "name"))) return true;
    }
  }
  return false;
}

}  // namespace

bool is_fetch_tool_name(std::string_view name) {
  // "mcp__fetch__fetch", "server__web_fetch", "WebFetch", "fetch_url".
  std::string bare;
  for (char c : bare_tool_name(name)) {
    if (c != '_' && c != '-')
      bare += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return bare == "webfetch" || bare == "fetch" || bare == "fetchurl";
}

bool is_retrieve_tool_name(std::string_view name) {
  constexpr std::string_view kName = "caveman_retrieve";
  constexpr std::string_view kSuffix = "__caveman_retrieve";
  if (name == kName) return true;
  return name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
}

LiveZone inspect_request(Endpoint endpoint, const JsonDoc& doc) {
  LiveZone zone;
  NodeId stream = doc.get(doc.root(), "stream");
  zone.stream = endpoint == Endpoint::kStreamGenerate ||
                (doc.is(stream, JsonKind::kBool) && doc.node(stream).boolean);
  zone.model = std::string(doc.get_string(doc.root(), "model"));
  zone.declares_retrieve_tool = declares_retrieve(doc);
  return zone;
}

LiveZone extract_live_zone(Endpoint endpoint, const JsonDoc& doc, std::size_t min_bytes) {
  LiveZone zone = inspect_request(endpoint, doc);
  Extractor x(doc, min_bytes, &zone);
  switch (endpoint) {
    case Endpoint::kMessages:
      anthropic(doc, x);
      break;
    case Endpoint::kChatCompletions:
      openai_chat(doc, x);
      break;
    case Endpoint::kResponses:
      openai_responses(doc, x);
      break;
    case Endpoint::kGenerateContent:
    case Endpoint::kStreamGenerate:
      gemini(doc, x);
      break;
    default:
      break;
  }
  return zone;
}

}  // namespace caveman::proxy
