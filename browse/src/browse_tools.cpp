#include "browse_tools.h"

#include "caveman/base/codes.h"
#include "snapshot.h"

namespace caveman::browse {
namespace {

using mcp::Tool;
using mcp::ToolResult;

ToolResult error_result(const Status& s) {
  std::string_view code = s.error_code().empty() ? codes::kInternalError : s.error_code();
  // Internal codes that never reach an agent as such.
  if (code == codes::kBrowserTimeout || code == codes::kBrowserCdpError ||
      code == codes::kBrowserProtocol) {
    code = codes::kBrowserUnavailable;
  }
  return ToolResult::error(code, s.message());
}

ToolResult from(Result<Json> r) {
  if (!r.ok()) return error_result(r.status());
  return ToolResult::payload(std::move(r).value());
}

Json annotations(bool read_only, bool destructive, bool idempotent) {
  return Json{{"readOnlyHint", read_only},
              {"destructiveHint", destructive},
              {"idempotentHint", idempotent},
              {"openWorldHint", true}};
}

Json str(const char* description) { return Json{{"type", "string"}, {"description", description}}; }

}  // namespace

std::vector<Tool> make_browse_tools(std::shared_ptr<BrowseSession> session) {
  std::vector<Tool> tools;

  Tool snap;
  snap.name = "browser_snapshot";
  snap.title = "Page snapshot";
  snap.description =
      "Open url (optional) and return the page as a compact outline: `[uid] role \"name\" "
      "= \"value\" {states}`; uids mark controls for browser_act. query keeps only matching "
      "parts. A page over the token budget comes as an outline whose `… hidden` markers name the "
      "uid to expand. recovery_handle gives the raw tree via browser_recover.";
  snap.input_schema = Json{
      {"type", "object"},
      {"properties",
       {{"url", str("http(s) URL, about:blank or data:text/html,…; omit for the current page")},
        {"wait", {{"type", "integer"}, {"minimum", 0}, {"maximum", 30000}, {"description", "extra ms to wait"}}},
        {"query", str("words to look for")},
        {"expand", str("uid named by a \"… hidden\" marker (or any uid): that section in full")},
        {"file",
         {{"type", {"boolean", "string"}},
          {"description", "true or a file name: write the view to $CAVEMAN_HOME/browse/ and answer its path, bytes, tokens"}}}}}};
  snap.annotations = annotations(false, false, false);
  snap.handler = [session](const Json& args, const mcp::CallContext&) {
    Result<SnapshotRequest> req = parse_snapshot_args(args);
    if (!req.ok()) return error_result(req.status());
    Result<Json> full = session->snapshot(*req);
    if (!full.ok()) return error_result(full.status());
    if (req->to_file) return ToolResult::payload(std::move(full).value());
    ToolResult r;
    r.texts.push_back(dump_compact(agent_view(*full)));
    r.structured = std::move(full).value();
    return r;
  };
  tools.push_back(std::move(snap));

  Tool act;
  act.name = "browser_act";
  act.title = "Act on a control";
  act.description =
      "click, type (replaces the field's text), select (option by value/label/text), scroll, wait "
      "(250 ms, or until text appears), navigate (url). Answers what changed in the view: lines "
      "`+` added, `-` removed, `~` changed, `>` the target, under their unchanged ancestors; the "
      "whole view (uids) when the page was replaced or full is true.";
  act.input_schema =
      Json{{"type", "object"},
           {"properties",
            {{"action", {{"type", "string"}, {"enum", {"click", "type", "select", "scroll", "wait", "navigate"}}}},
             {"uid", str("e.g. u2x")},
             {"text", str("for type; for wait: the text to wait for")},
             {"option", str("for select")},
             {"url", str("for navigate")},
             {"full", {{"type", "boolean"}, {"description", "answer with the whole view"}}}}},
           {"required", Json::array({"action"})}};
  act.annotations = annotations(false, true, false);
  act.handler = [session](const Json& args, const mcp::CallContext&) {
    Result<ActRequest> req = parse_act_args(args);
    if (!req.ok()) return error_result(req.status());
    Result<Json> answer = session->act(*req);
    if (!answer.ok()) return error_result(answer.status());
    // The counts and the raw tree's handle are for programs (structuredContent): the agent
    // reads the lines themselves, and browser_snapshot gives it a handle when it wants one.
    ToolResult r;
    Json text = *answer;
    text.erase("counts");
    text.erase("recovery_handle");
    r.texts.push_back(dump_compact(text));
    r.structured = std::move(answer).value();
    return r;
  };
  tools.push_back(std::move(act));

  Tool eval;
  eval.name = "browser_eval";
  eval.title = "Evaluate JavaScript";
  eval.description = "Evaluate a JavaScript expression in the page (promises are awaited); returns {result}.";
  eval.input_schema = Json{{"type", "object"},
                           {"properties", {{"expression", str("JavaScript expression")}}},
                           {"required", Json::array({"expression"})}};
  eval.annotations = annotations(false, true, false);
  eval.handler = [session](const Json& args, const mcp::CallContext&) {
    Result<EvalRequest> req = parse_eval_args(args);
    if (!req.ok()) return error_result(req.status());
    return from(session->eval(*req));
  };
  tools.push_back(std::move(eval));

  Tool rec;
  rec.name = "browser_recover";
  rec.title = "Raw accessibility tree";
  rec.description = "The exact raw accessibility-tree JSON behind a snapshot's recovery_handle (query narrows it).";
  rec.input_schema = Json{{"type", "object"},
                          {"properties", {{"recovery_handle", str("ccr_…")}, {"query", str("optional")}}},
                          {"required", Json::array({"recovery_handle"})}};
  rec.annotations = annotations(true, false, true);
  rec.exempt_result_cap = true;
  rec.handler = [session](const Json& args, const mcp::CallContext&) {
    Result<RecoverRequest> req = parse_recover_args(args);
    if (!req.ok()) return error_result(req.status());
    Result<std::string> raw = session->recover(*req);
    if (!raw.ok()) return error_result(raw.status());
    ToolResult r;
    r.texts.push_back(std::move(raw).value());
    return r;
  };
  tools.push_back(std::move(rec));
  return tools;
}

}  // namespace caveman::browse
