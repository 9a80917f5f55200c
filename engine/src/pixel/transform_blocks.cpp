#include "pixel/transform_blocks.h"

#include <algorithm>
#include <map>

#include "caveman/base64.h"
#include "text/utf8.h"

namespace caveman::pixel {
namespace {

bool is_reminder(std::string_view text) {
  return text::trim_space(text).rfind("<system-reminder>", 0) == 0;
}

const std::string* string_member(const json::Value& v, std::string_view key) {
  const json::Value* m = v.is_object() ? v.find(key) : nullptr;
  return m != nullptr && m->is_string() ? &m->text : nullptr;
}

bool member_is(const json::Value& v, std::string_view key, std::string_view want) {
  const std::string* s = string_member(v, key);
  return s != nullptr && *s == want;
}

// Index of the last element of `items` whose role is "user" (Gemini: or has no role).
int last_user(const json::Value& items, bool role_optional) {
  for (std::size_t i = items.items.size(); i-- > 0;) {
    const json::Value& m = items.items[i];
    if (!m.is_object()) continue;
    const std::string* role = string_member(m, "role");
    if ((role != nullptr && *role == "user") || (role == nullptr && role_optional)) return static_cast<int>(i);
  }
  return -1;
}

Block text_block(std::string text, json::Value* container, std::size_t index, Placement placement) {
  Block b;
  b.kind = is_reminder(text) ? BlockKind::kReminder : BlockKind::kText;
  b.text = std::move(text);
  b.container = container;
  b.index = index;
  b.placement = placement;
  return b;
}

// Text parts of a user message's content (string or array); `text_type` is the part type
// that carries text ("text" or "input_text").
void content_blocks(json::Value& content, std::string_view text_type, Extraction& ex) {
  if (content.is_string()) {
    ex.blocks.push_back(text_block(content.text, &content, 0, Placement::kAssign));
    return;
  }
  if (!content.is_array()) return;
  for (std::size_t i = 0; i < content.items.size(); ++i) {
    json::Value& part = content.items[i];
    if (member_is(part, "type", text_type)) {
      if (const std::string* t = string_member(part, "text")) {
        ex.blocks.push_back(text_block(*t, &content, i, Placement::kSplice));
      }
    } else if (member_is(part, "type", "tool_result")) {
      json::Value* inner = part.find("content");
      if (inner == nullptr) continue;
      Block b;
      b.kind = BlockKind::kToolResult;
      b.container = inner;
      b.placement = Placement::kAssign;
      if (inner->is_string()) {
        b.text = inner->text;
      } else if (inner->is_array()) {
        bool only_text = true;
        for (const json::Value& p : inner->items) {
          const std::string* t = member_is(p, "type", "text") ? string_member(p, "text") : nullptr;
          if (t == nullptr) {
            only_text = false;
            break;
          }
          if (!b.text.empty()) b.text.push_back('\n');
          b.text += *t;
        }
        if (!only_text) {
          ex.skipped.emplace_back("tool_result_not_text");
          continue;
        }
      } else {
        continue;
      }
      ex.blocks.push_back(std::move(b));
    }
  }
}

// The member `field` of the last user message in `doc`'s `list` array; nullptr when there is
// none, with ex.reason set when the list or its user message is missing.
json::Value* last_user_member(json::Value& doc, const char* list, bool role_optional,
                              const char* field, Extraction& ex) {
  json::Value* messages = doc.find(list);
  if (messages == nullptr || !messages->is_array() || messages->items.empty()) {
    ex.reason = "no_messages";
    return nullptr;
  }
  ex.message_count = static_cast<int>(messages->items.size());
  ex.user_index = last_user(*messages, role_optional);
  if (ex.user_index < 0) {
    ex.reason = "no_user_message";
    return nullptr;
  }
  return messages->items[static_cast<std::size_t>(ex.user_index)].find(field);
}

void extract_anthropic_or_chat(json::Value& doc, WireFormat format, Extraction& ex) {
  json::Value* content = last_user_member(doc, "messages", false, "content", ex);
  if (content == nullptr) return;
  (void)format;  // Chat user messages carry no tool results; "tool_result" never matches there
  content_blocks(*content, "text", ex);
}

void extract_responses(json::Value& doc, Extraction& ex) {
  json::Value* input = doc.find("input");
  if (input == nullptr || (!input->is_string() && !input->is_array())) {
    ex.reason = "no_messages";
    return;
  }
  if (input->is_string()) {
    ex.message_count = 1;
    ex.user_index = 0;
    ex.blocks.push_back(text_block(input->text, input, 0, Placement::kAssignAsUser));
    return;
  }
  if (input->items.empty()) {
    ex.reason = "no_messages";
    return;
  }
  ex.message_count = static_cast<int>(input->items.size());
  ex.user_index = last_user(*input, false);
  int call_output = -1;
  for (std::size_t i = input->items.size(); i-- > 0;) {
    if (member_is(input->items[i], "type", "function_call_output")) {
      call_output = static_cast<int>(i);
      break;
    }
  }
  if (ex.user_index < 0 && call_output < 0) {
    ex.reason = "no_user_message";
    return;
  }
  // Document order: whichever of the two comes first.
  auto add_user = [&] {
    if (ex.user_index < 0) return;
    json::Value* content = input->items[static_cast<std::size_t>(ex.user_index)].find("content");
    if (content != nullptr) content_blocks(*content, "input_text", ex);
  };
  auto add_output = [&] {
    if (call_output < 0) return;
    json::Value* out = input->items[static_cast<std::size_t>(call_output)].find("output");
    if (out == nullptr || !out->is_string()) {
      if (out != nullptr) ex.skipped.emplace_back("function_call_output_not_text");
      return;
    }
    Block b;
    b.kind = BlockKind::kToolResult;
    b.text = out->text;
    b.container = out;
    b.placement = Placement::kAssign;
    ex.blocks.push_back(std::move(b));
  };
  if (call_output >= 0 && call_output < ex.user_index) {
    add_output();
    add_user();
  } else {
    add_user();
    add_output();
  }
}

void extract_gemini(json::Value& doc, Extraction& ex) {
  json::Value* parts = last_user_member(doc, "contents", true, "parts", ex);
  if (parts == nullptr || !parts->is_array()) return;
  for (std::size_t i = 0; i < parts->items.size(); ++i) {
    json::Value& part = parts->items[i];
    if (const std::string* t = string_member(part, "text")) {
      ex.blocks.push_back(text_block(*t, parts, i, Placement::kSplice));
    } else if (part.is_object() && part.find("functionResponse") != nullptr) {
      ex.skipped.emplace_back("function_response_not_text");
    }
  }
}

json::Value object(std::initializer_list<std::pair<const char*, json::Value>> members) {
  json::Value v = json::Value::object();
  for (const auto& [k, m] : members) v.add(k, m);
  return v;
}

}  // namespace

Extraction extract_blocks(json::Value& doc, WireFormat format) {
  Extraction ex;
  switch (format) {
    case WireFormat::kAnthropic:
    case WireFormat::kOpenAiChat: extract_anthropic_or_chat(doc, format, ex); break;
    case WireFormat::kOpenAiResponses: extract_responses(doc, ex); break;
    case WireFormat::kGemini: extract_gemini(doc, ex); break;
  }
  return ex;
}

json::Value image_part(WireFormat format, const std::string& png) {
  std::string b64 = base64_encode(png);
  switch (format) {
    case WireFormat::kAnthropic:
      return object({{"type", json::Value::string("image")},
                     {"source", object({{"type", json::Value::string("base64")},
                                        {"media_type", json::Value::string("image/png")},
                                        {"data", json::Value::string(std::move(b64))}})}});
    case WireFormat::kOpenAiChat:
      return object({{"type", json::Value::string("image_url")},
                     {"image_url", object({{"url", json::Value::string("data:image/png;base64," + b64)},
                                           {"detail", json::Value::string("high")}})}});
    case WireFormat::kOpenAiResponses:
      return object({{"type", json::Value::string("input_image")},
                     {"image_url", json::Value::string("data:image/png;base64," + b64)},
                     {"detail", json::Value::string("high")}});
    case WireFormat::kGemini:
      return object({{"inlineData", object({{"mimeType", json::Value::string("image/png")},
                                            {"data", json::Value::string(std::move(b64))}})}});
  }
  return json::Value::null();
}

json::Value text_part(WireFormat format, std::string text) {
  switch (format) {
    case WireFormat::kAnthropic:
    case WireFormat::kOpenAiChat:
      return object({{"type", json::Value::string("text")}, {"text", json::Value::string(std::move(text))}});
    case WireFormat::kOpenAiResponses:
      return object({{"type", json::Value::string("input_text")}, {"text", json::Value::string(std::move(text))}});
    case WireFormat::kGemini: return object({{"text", json::Value::string(std::move(text))}});
  }
  return json::Value::null();
}

void apply_blocks(std::vector<Block>& blocks) {
  // Assignments first (they do not move array items), then splices from the back of each
  // array so earlier indices stay valid.
  std::map<std::pair<json::Value*, std::size_t>, Block*> splices;
  for (Block& b : blocks) {
    if (b.replacement.empty()) continue;
    if (b.placement == Placement::kSplice) {
      splices[{b.container, b.index}] = &b;
      continue;
    }
    json::Value parts = json::Value::array();
    parts.items = std::move(b.replacement);
    if (b.placement == Placement::kAssignAsUser) {
      json::Value msg = json::Value::object();
      msg.add("role", json::Value::string("user"));
      msg.add("content", std::move(parts));
      json::Value arr = json::Value::array();
      arr.items.push_back(std::move(msg));
      *b.container = std::move(arr);
    } else {
      *b.container = std::move(parts);
    }
  }
  for (auto it = splices.rbegin(); it != splices.rend(); ++it) {
    Block& b = *it->second;
    auto& items = b.container->items;
    auto at = items.begin() + static_cast<std::ptrdiff_t>(b.index);
    at = items.erase(at);
    items.insert(at, std::make_move_iterator(b.replacement.begin()), std::make_move_iterator(b.replacement.end()));
  }
}

}  // namespace caveman::pixel
