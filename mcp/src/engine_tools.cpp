#include "engine_tools.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/codes.h"
#include "caveman/base/mutex.h"
#include "caveman/base/text.h"
#include "caveman/toon.h"
#include "retrieve_ledger.h"
#include "schema.h"

namespace caveman::mcp {
namespace {

// The engine's content types plus the registry keys reachable only by forcing a type.
constexpr std::string_view kForcedOnly[] = {"toolschema", "repetition"};

// Optional string argument; a non-string value is an error.
bool string_arg(const Json& args, const char* name, std::string* out, ToolResult* err) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) return true;
  if (!it->is_string()) {
    *err = ToolResult::error(codes::kInvalidArguments,
                             std::string("\"") + name + "\" must be a string");
    return false;
  }
  *out = it->get<std::string>();
  return true;
}

// Optional non-negative integer argument; anything else is an error.
bool count_arg(const Json& args, const char* name, std::optional<std::int64_t>* out, ToolResult* err) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) return true;
  if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
    *err = ToolResult::error(codes::kInvalidArguments,
                             std::string("\"") + name + "\" must be a non-negative integer");
    return false;
  }
  *out = it->get<std::int64_t>();
  return true;
}

bool required_string(const Json& args, const char* name, std::string* out, ToolResult* err) {
  if (!args.contains(name)) {
    *err = ToolResult::error(codes::kInvalidArguments, std::string("missing \"") + name + "\"");
    return false;
  }
  return string_arg(args, name, out, err);
}

Json read_only_annotations(bool read_only) {
  return Json{{"readOnlyHint", read_only}, {"destructiveHint", false},
              {"idempotentHint", true},     {"openWorldHint", false}};
}

struct SessionTotals {
  base::Mutex mu;
  std::int64_t requests GUARDED_BY(mu) = 0;
  std::int64_t tokens_before GUARDED_BY(mu) = 0;
  std::int64_t tokens_after GUARDED_BY(mu) = 0;
};

Tool compress_tool(std::shared_ptr<const Engine> engine, std::shared_ptr<SessionTotals> totals) {
  Tool t;
  t.name = "caveman_compress";
  t.title = "Compress a tool output";
  t.description =
      "Shrink a large tool output (JSON, logs, code, diffs, HTML, tables, config, grep or "
      "terminal output) before reading it. Errors, structure and anything unique are kept; "
      "elision markers state verified facts about what they replaced, so answer from the view. "
      "recovery_handle restores the exact original (null when nothing was removed).";
  Json type_enum = Json::array();
  for (std::string_view ty : kContentTypes) type_enum.push_back(std::string(ty));
  for (std::string_view ty : kForcedOnly) type_enum.push_back(std::string(ty));
  t.input_schema =
      Json{{"type", "object"},
           {"properties",
            {{"input", {{"type", "string"}, {"description", "Text to compress."}}},
             {"content_type",
              {{"type", "string"},
               {"enum", type_enum},
               {"description", "Force a type; default: detect."}}},
             {"type", {{"type", "string"}, {"description", "Alias of content_type."}}},
             {"query",
              {{"type", "string"}, {"description", "What you look for; matching parts are kept."}}},
             {"path", {{"type", "string"}, {"description", "The file the input shows, if any."}}},
             {"budget",
              {{"type", "integer"},
               {"minimum", 0},
               {"description",
                "Token budget: a line view still larger is cut to about this size "
                "(default 25000; 0 = no budget)."}}}}},
           {"required", Json::array({"input"})}};
  t.output_schema = schema::object({{"compressed", "string"},
                                    {"ratio", "number"},
                                    {"tokens_before", "integer"},
                                    {"tokens_after", "integer"},
                                    {"basis", "string"},
                                    {"content_type", "string"},
                                    {"recovery_handle", schema::nullable("string")},
                                    {"method", schema::nullable("string")},
                                    {"lossless_to_model", schema::nullable("boolean")},
                                    {"error", "string", false}});
  t.annotations = read_only_annotations(false);
  t.handler = [engine, totals](const Json& args, const CallContext&) {
    ToolResult err;
    std::string input, type, alias, query, path;
    std::optional<std::int64_t> budget;
    if (!required_string(args, "input", &input, &err) ||
        !string_arg(args, "content_type", &type, &err) || !string_arg(args, "type", &alias, &err) ||
        !string_arg(args, "query", &query, &err) || !string_arg(args, "path", &path, &err) ||
        !count_arg(args, "budget", &budget, &err)) {
      return err;
    }
    Options opts;
    opts.source_path = path;
    opts.mode = "compress";
    if (budget) opts.budget_tokens = *budget;
    opts.type = type.empty() ? alias : type;
    if (opts.type == "auto") opts.type.clear();
    opts.query = query;
    CompressResult r = engine->compress(input, opts);
    {
      base::MutexLock lock(totals->mu);
      ++totals->requests;
      totals->tokens_before += r.tokens_before;
      totals->tokens_after += r.tokens_after;
    }
    Json p = Json::object();
    p["compressed"] = std::move(r.output);
    p["ratio"] = r.ratio;
    p["tokens_before"] = r.tokens_before;
    p["tokens_after"] = r.tokens_after;
    p["basis"] = r.basis;
    p["content_type"] = r.content_type;
    p["recovery_handle"] = r.recovery_handle.empty() ? Json(nullptr) : Json(r.recovery_handle);
    p["method"] = r.method.empty() ? Json(nullptr) : Json(r.method);
    p["lossless_to_model"] = r.lossless_to_model ? Json(*r.lossless_to_model) : Json(nullptr);
    if (!r.error.empty()) p["error"] = r.error;
    return ToolResult::payload(std::move(p));
  };
  return t;
}

bool budget_arg(const Json& args, std::int64_t* out, ToolResult* err) {
  auto it = args.find("max_bytes");
  if (it == args.end() || it->is_null()) return true;
  if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
    *err = ToolResult::error(codes::kInvalidArguments, "\"max_bytes\" must be a positive integer");
    return false;
  }
  *out = it->get<std::int64_t>();
  return true;
}

// Multi Round-Trip (2026-07-28 basic/patterns/mrtr): an original over the caller's budget is
// returned only after the user confirms. Clients that cannot elicit (and legacy clients) get
// it without being asked, as before: an exact original is never withheld silently.
std::optional<ToolResult> confirm_over_budget(const CallContext& ctx, const std::string& handle,
                                              std::size_t bytes, std::int64_t max_bytes) {
  if (!ctx.modern || max_bytes <= 0 || bytes <= static_cast<std::size_t>(max_bytes) ||
      !ctx.client_has("elicitation")) {
    return std::nullopt;
  }
  const Json* answer = ctx.input_responses.is_object() && ctx.input_responses.contains("confirm_size")
                           ? &ctx.input_responses["confirm_size"]
                           : nullptr;
  if (answer == nullptr || ctx.state.is_null()) {
    std::string message = "The original behind " + handle + " is " + std::to_string(bytes) +
                          " bytes, over the " + std::to_string(max_bytes) +
                          "-byte budget. Return it whole?";
    Json schema = Json{{"type", "object"},
                       {"properties", {{"return_whole", {{"type", "boolean"}, {"title", "Return the whole original"}}}}},
                       {"required", Json::array({"return_whole"})}};
    Json ask = Json{{"method", "elicitation/create"},
                    {"params", {{"mode", "form"}, {"message", message}, {"requestedSchema", schema}}}};
    return ToolResult::ask(Json{{"confirm_size", std::move(ask)}}, Json{{"bytes", bytes}});
  }
  bool yes = answer->value("action", "") == "accept" && answer->contains("content") &&
             (*answer)["content"].is_object() && (*answer)["content"].value("return_whole", false);
  if (yes) return std::nullopt;
  ToolResult r;
  r.texts.push_back("caveman: not returned: the original behind " + handle + " is " +
                    std::to_string(bytes) + " bytes and the user declined. Pass query to get only "
                    "the matching records.");
  return r;
}

Tool retrieve_tool(std::shared_ptr<const Engine> engine, std::shared_ptr<RetrieveLedger> ledger) {
  Tool t;
  t.name = "caveman_retrieve";
  t.title = "Retrieve an exact original";
  // Every request of a wrapped session carries this schema (docs/economics.md): keep it short.
  t.description =
      "The exact original behind a <<ccr:…>> marker, when the view lacks what you need. query: "
      "only the matching records.";
  t.input_schema =
      Json{{"type", "object"},
           {"properties",
            {{"recovery_handle", {{"type", "string"}, {"description", "ccr_… handle"}}},
             {"query", {{"type", "string"}}},
             {"max_bytes",
              {{"type", "integer"},
               {"minimum", 1},
               {"description", "larger originals need the user's approval"}}}}},
           {"required", Json::array({"recovery_handle"})}};
  t.annotations = read_only_annotations(true);
  t.exempt_result_cap = true;  // exact originals may legitimately exceed the result cap
  t.handler = [engine, ledger](const Json& args, const CallContext& ctx) {
    ToolResult err;
    std::string raw, query;
    std::int64_t max_bytes = 0;
    if (!required_string(args, "recovery_handle", &raw, &err) ||
        !string_arg(args, "query", &query, &err) || !budget_arg(args, &max_bytes, &err)) {
      return err;
    }
    std::string handle = base::normalize_ccr_handle(raw);
    if (handle.empty()) return ToolResult::error(codes::kInvalidArguments, "empty recovery_handle");
    query = std::string(base::trim_ascii(query));
    // The anti-storm ledger is per legacy session; a 2026-07-28 request stands alone
    // (basic/index "Statelessness": no context from prior requests on the connection).
    if (!ctx.modern && ledger->is_repeat(handle, query)) {
      ToolResult r;
      r.texts.push_back("caveman: this exact retrieve (" + handle +
                        (query.empty() ? "" : ", same query") +
                        ") was already answered earlier in this session; that answer is unchanged.");
      return r;
    }
    bool full = !ctx.modern && !query.empty() && ledger->storm();
    Result<std::string> got = (query.empty() || full) ? engine->retrieve(handle)
                                                       : engine->retrieve_query(handle, query);
    if (!got.ok()) {
      if (got.status().code() == Code::kNotFound) {
        return ToolResult::error(codes::kUnknownHandle, "no stored original for " + handle);
      }
      return ToolResult::error(got.status().error_code(), got.status().message());
    }
    if (std::optional<ToolResult> gate = confirm_over_budget(ctx, handle, got.value().size(), max_bytes)) {
      return std::move(*gate);
    }
    if (!ctx.modern) ledger->record(handle, query);
    ToolResult r;
    bool utf8 = base::is_valid_utf8(got.value());
    r.texts.push_back(std::move(got).value());
    if (full) {
      r.texts.push_back("caveman: more than " + std::to_string(RetrieveLedger::kStormThreshold) +
                        " distinct retrieves this session; returning the full original of " +
                        handle + " instead of another narrowed view.");
    }
    if (!utf8) {
      r.texts.push_back("caveman: the original is not valid UTF-8; invalid bytes appear as U+FFFD "
                        "here. `caveman-engine retrieve " + handle + "` prints the exact bytes.");
    }
    return r;
  };
  return t;
}

Tool stats_tool(std::shared_ptr<SessionTotals> totals) {
  Tool t;
  t.name = "caveman_stats";
  t.title = "Session savings";
  t.description = "This session's caveman_compress totals: tokens before/after (o200k, inferred).";
  t.input_schema = Json{{"type", "object"}, {"properties", Json::object()}};
  t.output_schema = schema::object({{"requests", "integer"},
                                    {"tokens_before", "integer"},
                                    {"tokens_after", "integer"},
                                    {"ratio", "number"},
                                    {"basis", "string"},
                                    {"scope", "string"}});
  t.annotations = read_only_annotations(true);
  t.handler = [totals](const Json&, const CallContext&) {
    base::MutexLock lock(totals->mu);
    Json p = Json::object();
    p["requests"] = totals->requests;
    p["tokens_before"] = totals->tokens_before;
    p["tokens_after"] = totals->tokens_after;
    p["ratio"] = totals->tokens_before > 0
                     ? double(totals->tokens_before - totals->tokens_after) / double(totals->tokens_before)
                     : 0.0;
    p["basis"] = "inferred";
    p["scope"] = "session";
    return ToolResult::payload(std::move(p));
  };
  return t;
}

Tool toon_encode_tool(std::shared_ptr<const Engine> engine) {
  Tool t;
  t.name = "caveman_toon_encode";
  t.title = "JSON to TOON";
  t.description =
      "Re-encode JSON as TOON: lossless, far fewer tokens for uniform arrays. Invalid JSON comes "
      "back unchanged with a note.";
  t.input_schema = Json{
      {"type", "object"},
      {"properties",
       {{"input", {{"type", "string"}, {"description", "JSON text."}}},
        {"delimiter", {{"type", "string"}, {"enum", Json::array({"comma", "tab", "pipe"})}}}}},
      {"required", Json::array({"input"})}};
  t.output_schema = schema::object({{"output", "string"},
                                    {"encoded", "boolean"},
                                    {"input_bytes", "integer"},
                                    {"output_bytes", "integer"},
                                    {"tokens_before", "integer", false},
                                    {"tokens_after", "integer", false},
                                    {"note", "string", false}});
  t.annotations = read_only_annotations(true);
  t.handler = [engine](const Json& args, const CallContext&) {
    ToolResult err;
    std::string input, delimiter;
    if (!required_string(args, "input", &input, &err) ||
        !string_arg(args, "delimiter", &delimiter, &err)) {
      return err;
    }
    toon::EncodeOptions opts;
    if (delimiter == "tab") opts.delimiter = '\t';
    else if (delimiter == "pipe") opts.delimiter = '|';
    else if (!delimiter.empty() && delimiter != "comma")
      return ToolResult::error(codes::kInvalidArguments, "delimiter must be comma, tab or pipe");
    Result<std::string> out = toon::toon_encode(input, opts);
    Json p = Json::object();
    p["input_bytes"] = input.size();
    if (!out.ok()) {
      p["output"] = input;
      p["encoded"] = false;
      p["output_bytes"] = input.size();
      p["note"] = "not TOON-encodable, returned unchanged: " + out.status().message();
      return ToolResult::payload(std::move(p));
    }
    p["output"] = out.value();
    p["encoded"] = true;
    p["output_bytes"] = out.value().size();
    p["tokens_before"] = engine->counter().count(input);
    p["tokens_after"] = engine->counter().count(out.value());
    return ToolResult::payload(std::move(p));
  };
  return t;
}

Tool toon_decode_tool() {
  Tool t;
  t.name = "caveman_toon_decode";
  t.title = "TOON to JSON";
  t.description = "Decode TOON back to compact JSON. Invalid TOON is an error (" +
                  std::string(codes::kInvalidToon) + ").";
  t.input_schema = Json{{"type", "object"},
                        {"properties", {{"input", {{"type", "string"}, {"description", "TOON text."}}}}},
                        {"required", Json::array({"input"})}};
  t.output_schema = schema::object(
      {{"output", "string"}, {"input_bytes", "integer"}, {"output_bytes", "integer"}});
  t.annotations = read_only_annotations(true);
  t.handler = [](const Json& args, const CallContext&) {
    ToolResult err;
    std::string input;
    if (!required_string(args, "input", &input, &err)) return err;
    Result<std::string> out = toon::toon_decode(input);
    if (!out.ok()) return ToolResult::error(codes::kInvalidToon, out.status().message());
    Json p = Json::object();
    p["output"] = out.value();
    p["input_bytes"] = input.size();
    p["output_bytes"] = out.value().size();
    return ToolResult::payload(std::move(p));
  };
  return t;
}

}  // namespace

std::vector<Tool> make_engine_tools(std::shared_ptr<const Engine> engine,
                                    const std::vector<std::string>& only) {
  auto totals = std::make_shared<SessionTotals>();
  auto ledger = std::make_shared<RetrieveLedger>();
  std::vector<Tool> tools;
  tools.push_back(compress_tool(engine, totals));
  tools.push_back(retrieve_tool(engine, ledger));
  tools.push_back(stats_tool(totals));
  tools.push_back(toon_encode_tool(engine));
  tools.push_back(toon_decode_tool());
  if (only.empty()) return tools;
  std::erase_if(tools, [&](const Tool& t) {
    return std::find(only.begin(), only.end(), t.name) == only.end();
  });
  return tools;
}

std::vector<std::string> split_tool_names(std::string_view list) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = std::min(list.find(',', start), list.size());
    std::string name(base::trim_ascii(list.substr(start, comma - start)));
    if (!name.empty()) names.push_back(std::move(name));
    start = comma + 1;
  }
  return names;
}

bool known_tool_names(const std::vector<std::string>& names) {
  static constexpr std::string_view kNames[] = {"caveman_compress", "caveman_retrieve",
                                                "caveman_stats", "caveman_toon_encode",
                                                "caveman_toon_decode"};
  if (names.empty()) return false;
  return std::all_of(names.begin(), names.end(), [](const std::string& n) {
    return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
  });
}

}  // namespace caveman::mcp
