#include "retrieve_loop.h"

#include <nlohmann/json.hpp>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/codes.h"
#include "json_spans.h"
#include "live_zone.h"

namespace caveman::proxy {
namespace {

using OJson = nlohmann::ordered_json;

constexpr std::string_view kRetrieveToolDescription =
    "Return the exact original content behind a <<ccr:HANDLE>> marker in this conversation. "
    "Pass the handle (ccr_...); an optional query returns only the matching records.";

std::string schema(std::string_view object_type, std::string_view string_type) {
  std::string s = "{\"type\":\"" + std::string(object_type) + "\",\"properties\":{\"handle\":{\"type\":\"" +
                  std::string(string_type) + "\",\"description\":\"the ccr_ handle from a <<ccr:...>> marker\"},"
                  "\"query\":{\"type\":\"" + std::string(string_type) +
                  "\",\"description\":\"optional words to narrow the result\"}},\"required\":[\"handle\"]}";
  return s;
}

std::string tool_json(Endpoint endpoint) {
  std::string desc = json_quote(kRetrieveToolDescription);
  switch (endpoint) {
    case Endpoint::kMessages:
      return "{\"name\":\"caveman_retrieve\",\"description\":" + desc + ",\"input_schema\":" +
             schema("object", "string") + "}";
    case Endpoint::kChatCompletions:
      return "{\"type\":\"function\",\"function\":{\"name\":\"caveman_retrieve\",\"description\":" +
             desc + ",\"parameters\":" + schema("object", "string") + "}}";
    case Endpoint::kResponses:
      return "{\"type\":\"function\",\"name\":\"caveman_retrieve\",\"description\":" + desc +
             ",\"parameters\":" + schema("object", "string") + "}";
    case Endpoint::kGenerateContent:
      return "{\"functionDeclarations\":[{\"name\":\"caveman_retrieve\",\"description\":" + desc +
             ",\"parameters\":" + schema("OBJECT", "STRING") + "}]}";
    default:
      return {};
  }
}

Status transform_failed(std::string message) {
  return Status::InvalidArgument(codes::kTransformFailed, std::move(message));
}

// Appends `items` (comma-joined JSON texts) to array member `key` of the root object,
// creating the member when absent.
Result<std::string> append_to_root_array(std::string_view body, const JsonDoc& doc,
                                         std::string_view key, const std::string& items) {
  NodeId root = doc.root();
  if (!doc.is(root, JsonKind::kObject)) return transform_failed("body is not a JSON object");
  NodeId arr = doc.get(root, key);
  std::vector<Splice> splices;
  if (arr == kNoNode) {
    const JsonNode& r = doc.node(root);
    std::string member = json_quote(key) + ":[" + items + "]";
    if (!r.members.empty()) member += ",";
    splices.push_back(Splice{r.begin + 1, r.begin + 1, member});
  } else if (doc.is(arr, JsonKind::kArray)) {
    const JsonNode& a = doc.node(arr);
    std::string insert = a.items.empty() ? items : "," + items;
    splices.push_back(Splice{a.end - 1, a.end - 1, insert});
  } else {
    return transform_failed(std::string(key) + " is not an array");
  }
  return apply_splices(body, std::move(splices));
}

std::string raw(std::string_view text, const JsonDoc& doc, NodeId id) {
  const JsonNode& n = doc.node(id);
  return std::string(text.substr(n.begin, n.end - n.begin));
}

// Reads handle/query from a JSON object (arguments of a call).
void read_args(const OJson& args, RetrieveCall* call) {
  if (!args.is_object()) return;
  if (auto it = args.find("handle"); it != args.end() && it->is_string()) {
    call->handle = it->get<std::string>();
  }
  if (auto it = args.find("query"); it != args.end() && it->is_string()) {
    call->query = it->get<std::string>();
  }
}

void read_args_text(const std::string& text, RetrieveCall* call) {
  OJson args = OJson::parse(text, nullptr, false);
  if (!args.is_discarded()) read_args(args, call);
}

std::string str(const OJson& obj, const char* key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Result<std::string> inject_retrieve_tool(Endpoint endpoint, std::string_view body) {
  std::string tool = tool_json(endpoint);
  if (tool.empty()) return transform_failed("no retrieve tool shape for this endpoint");
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  if (!doc) return transform_failed("body is not JSON");
  return append_to_root_array(body, *doc, "tools", tool);
}

std::optional<ToolCalls> find_tool_calls(Endpoint endpoint, std::string_view response) {
  OJson doc = OJson::parse(response, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  ToolCalls calls;
  auto consider = [&](const std::string& name, RetrieveCall call) {
    if (is_retrieve_tool_name(name)) {
      calls.retrieve.push_back(std::move(call));
    } else {
      calls.other_tools = true;
    }
  };
  switch (endpoint) {
    case Endpoint::kMessages: {
      auto content = doc.find("content");
      if (content == doc.end() || !content->is_array()) return calls;
      for (const OJson& block : *content) {
        if (str(block, "type") != "tool_use") continue;
        RetrieveCall call;
        call.id = str(block, "id");
        if (auto in = block.find("input"); in != block.end()) read_args(*in, &call);
        consider(str(block, "name"), std::move(call));
      }
      return calls;
    }
    case Endpoint::kChatCompletions: {
      auto choices = doc.find("choices");
      if (choices == doc.end() || !choices->is_array() || choices->empty()) return calls;
      const OJson& message = (*choices)[0].value("message", OJson::object());
      auto tc = message.find("tool_calls");
      if (tc == message.end() || !tc->is_array()) return calls;
      for (const OJson& t : *tc) {
        RetrieveCall call;
        call.id = str(t, "id");
        const OJson& fn = t.value("function", OJson::object());
        read_args_text(str(fn, "arguments"), &call);
        consider(str(fn, "name"), std::move(call));
      }
      return calls;
    }
    case Endpoint::kResponses: {
      auto output = doc.find("output");
      if (output == doc.end() || !output->is_array()) return calls;
      for (const OJson& item : *output) {
        if (str(item, "type") != "function_call") continue;
        RetrieveCall call;
        call.id = str(item, "call_id");
        read_args_text(str(item, "arguments"), &call);
        consider(str(item, "name"), std::move(call));
      }
      return calls;
    }
    case Endpoint::kGenerateContent: {
      auto cands = doc.find("candidates");
      if (cands == doc.end() || !cands->is_array() || cands->empty()) return calls;
      const OJson& content = (*cands)[0].value("content", OJson::object());
      auto parts = content.find("parts");
      if (parts == content.end() || !parts->is_array()) return calls;
      for (const OJson& part : *parts) {
        auto fc = part.find("functionCall");
        if (fc == part.end()) continue;
        RetrieveCall call;
        call.id = str(*fc, "name");
        if (auto args = fc->find("args"); args != fc->end()) read_args(*args, &call);
        consider(str(*fc, "name"), std::move(call));
      }
      return calls;
    }
    default:
      return std::nullopt;
  }
}

Result<std::string> append_retrieve_round(Endpoint endpoint, std::string_view request,
                                          std::string_view response,
                                          const std::vector<RetrieveCall>& calls,
                                          const std::vector<std::string>& results) {
  std::optional<JsonDoc> req = JsonDoc::parse(request);
  std::optional<JsonDoc> res = JsonDoc::parse(response);
  if (!req || !res) return transform_failed("request or response is not JSON");
  NodeId rroot = res->root();
  std::string items;
  switch (endpoint) {
    case Endpoint::kMessages: {
      NodeId content = res->get(rroot, "content");
      if (!res->is(content, JsonKind::kArray)) return transform_failed("response has no content");
      items = "{\"role\":\"assistant\",\"content\":" + raw(response, *res, content) + "},{\"role\":\"user\",\"content\":[";
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (i > 0) items += ",";
        items += "{\"type\":\"tool_result\",\"tool_use_id\":" + json_quote(calls[i].id) +
                 ",\"content\":" + json_quote(results[i]) + "}";
      }
      items += "]}";
      return append_to_root_array(request, *req, "messages", items);
    }
    case Endpoint::kChatCompletions: {
      NodeId choices = res->get(rroot, "choices");
      if (!res->is(choices, JsonKind::kArray) || res->node(choices).items.empty()) {
        return transform_failed("response has no choices");
      }
      NodeId message = res->get(res->node(choices).items[0], "message");
      NodeId tool_calls = res->get(message, "tool_calls");
      NodeId content = res->get(message, "content");
      if (tool_calls == kNoNode) return transform_failed("response has no tool calls");
      items = "{\"role\":\"assistant\",\"content\":" +
              (content == kNoNode ? std::string("null") : raw(response, *res, content)) +
              ",\"tool_calls\":" + raw(response, *res, tool_calls) + "}";
      for (std::size_t i = 0; i < calls.size(); ++i) {
        items += ",{\"role\":\"tool\",\"tool_call_id\":" + json_quote(calls[i].id) +
                 ",\"content\":" + json_quote(results[i]) + "}";
      }
      return append_to_root_array(request, *req, "messages", items);
    }
    case Endpoint::kResponses: {
      NodeId output = res->get(rroot, "output");
      if (!res->is(output, JsonKind::kArray)) return transform_failed("response has no output");
      for (NodeId item : res->node(output).items) {
        if (!items.empty()) items += ",";
        items += raw(response, *res, item);
      }
      for (std::size_t i = 0; i < calls.size(); ++i) {
        items += ",{\"type\":\"function_call_output\",\"call_id\":" + json_quote(calls[i].id) +
                 ",\"output\":" + json_quote(results[i]) + "}";
      }
      NodeId input = req->get(req->root(), "input");
      if (req->is(input, JsonKind::kString)) {
        // A bare-string input becomes the first user item of a list.
        const JsonNode& n = req->node(input);
        std::string list = "[{\"role\":\"user\",\"content\":" + raw(request, *req, input) + "}," + items + "]";
        return apply_splices(request, {Splice{n.begin, n.end, list}});
      }
      return append_to_root_array(request, *req, "input", items);
    }
    case Endpoint::kGenerateContent: {
      NodeId cands = res->get(rroot, "candidates");
      if (!res->is(cands, JsonKind::kArray) || res->node(cands).items.empty()) {
        return transform_failed("response has no candidates");
      }
      NodeId parts = res->get(res->get(res->node(cands).items[0], "content"), "parts");
      if (!res->is(parts, JsonKind::kArray)) return transform_failed("response has no parts");
      items = "{\"role\":\"model\",\"parts\":" + raw(response, *res, parts) + "},{\"role\":\"user\",\"parts\":[";
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (i > 0) items += ",";
        items += "{\"functionResponse\":{\"name\":\"caveman_retrieve\",\"response\":{\"content\":" +
                 json_quote(results[i]) + "}}}";
      }
      items += "]}";
      return append_to_root_array(request, *req, "contents", items);
    }
    default:
      return transform_failed("no retrieve loop for this endpoint");
  }
}

std::optional<std::string> strip_retrieve_calls(Endpoint endpoint, std::string_view response) {
  OJson doc = OJson::parse(response, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  bool changed = false;
  auto drop_if = [&](OJson& arr, auto pred) {
    if (!arr.is_array()) return;
    OJson kept = OJson::array();
    for (OJson& v : arr) {
      if (pred(v)) {
        changed = true;
      } else {
        kept.push_back(std::move(v));
      }
    }
    arr = std::move(kept);
  };
  switch (endpoint) {
    case Endpoint::kMessages: {
      if (!doc.contains("content")) return std::nullopt;
      drop_if(doc["content"], [](const OJson& b) {
        return str(b, "type") == "tool_use" && is_retrieve_tool_name(str(b, "name"));
      });
      bool tool_left = false;
      for (const OJson& b : doc["content"]) tool_left = tool_left || str(b, "type") == "tool_use";
      if (changed && !tool_left && str(doc, "stop_reason") == "tool_use") doc["stop_reason"] = "end_turn";
      break;
    }
    case Endpoint::kChatCompletions: {
      if (!doc.contains("choices") || !doc["choices"].is_array()) return std::nullopt;
      for (OJson& choice : doc["choices"]) {
        if (!choice.is_object() || !choice.contains("message")) continue;
        OJson& message = choice["message"];
        if (!message.is_object() || !message.contains("tool_calls")) continue;
        drop_if(message["tool_calls"], [](const OJson& t) {
          return is_retrieve_tool_name(str(t.value("function", OJson::object()), "name"));
        });
        if (message["tool_calls"].is_array() && message["tool_calls"].empty()) {
          message.erase("tool_calls");
          if (str(choice, "finish_reason") == "tool_calls") choice["finish_reason"] = "stop";
        }
      }
      break;
    }
    case Endpoint::kResponses: {
      if (!doc.contains("output")) return std::nullopt;
      drop_if(doc["output"], [](const OJson& item) {
        return str(item, "type") == "function_call" && is_retrieve_tool_name(str(item, "name"));
      });
      break;
    }
    case Endpoint::kGenerateContent: {
      if (!doc.contains("candidates") || !doc["candidates"].is_array()) return std::nullopt;
      for (OJson& cand : doc["candidates"]) {
        if (!cand.is_object() || !cand.contains("content")) continue;
        OJson& content = cand["content"];
        if (!content.is_object() || !content.contains("parts")) continue;
        drop_if(content["parts"], [](const OJson& p) {
          return p.is_object() && p.contains("functionCall") &&
                 is_retrieve_tool_name(str(p["functionCall"], "name"));
        });
      }
      break;
    }
    default:
      return std::nullopt;
  }
  if (!changed) return std::nullopt;
  return doc.dump();
}

LoopOutcome run_retrieve_loop(Endpoint endpoint, Provider provider,
                              std::shared_ptr<const std::string> body_with_tool,
                              const std::set<std::string>& handles, const Engine& engine,
                              const SendFn& send, Status* error) {
  LoopOutcome out;
  std::shared_ptr<const std::string> body = std::move(body_with_tool);
  auto add_usage = [&](const BufferedResponse& r) {
    Usage u = parse_usage(provider, false, r.body);
    auto add = [](std::optional<std::int64_t>* into, const std::optional<std::int64_t>& v) {
      if (v) *into = into->value_or(0) + *v;
    };
    add(&out.usage.input, u.input);
    add(&out.usage.output, u.output);
    add(&out.usage.cache_read, u.cache_read);
    add(&out.usage.cache_write, u.cache_write);
    add(&out.usage.cache_write_1h, u.cache_write_1h);
    add(&out.usage.reasoning, u.reasoning);
    if (out.rounds == 1 || u.basis != "provider_complete") out.usage.basis = u.basis;
    if (out.rounds == 1) out.usage.cache_status = u.cache_status;
  };
  while (true) {
    Result<BufferedResponse> sent = send(body);
    ++out.rounds;
    if (!sent.ok()) {
      *error = sent.status();
      return out;
    }
    out.response = std::move(sent).value();
    if (out.response.too_large) {
      out.replay_original = true;
      return out;
    }
    add_usage(out.response);
    bool ok_status = out.response.status >= 200 && out.response.status < 300;
    bool identity = out.response.content_encoding.empty() || out.response.content_encoding == "identity";
    if (!ok_status || !identity) return out;
    std::optional<ToolCalls> calls = find_tool_calls(endpoint, out.response.body);
    if (!calls || calls->retrieve.empty()) return out;
    bool answerable = !calls->other_tools && out.rounds < kMaxRetrieveRounds;
    if (answerable) {
      std::vector<std::string> results;
      for (const RetrieveCall& call : calls->retrieve) {
        std::string handle = base::normalize_ccr_handle(call.handle);
        if (handles.count(handle) == 0) {
          results.push_back(std::string(codes::kUnknownHandle) + ": " + handle +
                            " is not a handle of this conversation");
          continue;
        }
        Result<std::string> original = call.query.empty() ? engine.retrieve(handle)
                                                          : engine.retrieve_query(handle, call.query);
        results.push_back(original.ok() ? *original : original.status().ToString());
        ++out.retrievals;
      }
      Result<std::string> next = append_retrieve_round(endpoint, *body, out.response.body, calls->retrieve, results);
      if (next.ok()) {
        body = std::make_shared<const std::string>(std::move(next).value());
        continue;
      }
    }
    if (std::optional<std::string> stripped = strip_retrieve_calls(endpoint, out.response.body)) {
      out.response.body = std::move(*stripped);
    }
    return out;
  }
}

}  // namespace caveman::proxy
