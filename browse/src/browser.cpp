#include "browser.h"

#include <cstdlib>

#include "caveman/base/codes.h"
#include "websocket.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

std::string env_or(const char* name, std::string fallback = "") {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : fallback;
}

milliseconds env_ms(const char* name, milliseconds fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n <= 0) return fallback;
  return milliseconds(n);
}

// A non-negative count; anything else keeps the fallback.
std::int64_t env_count(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  return *end != '\0' || n < 0 ? fallback : n;
}

std::string string_field(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// ws:// URL of the browser behind an http:// endpoint (GET /json/version).
Result<std::string> browser_ws_url(std::string_view endpoint, Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(Endpoint e, parse_endpoint(endpoint));
  if (e.scheme == "ws") return std::string(endpoint);
  CAVEMAN_ASSIGN_OR_RETURN(std::string body, http_get(e, "/json/version", deadline));
  Json j = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  std::string ws = j.is_object() ? string_field(j, "webSocketDebuggerUrl") : "";
  if (ws.empty()) {
    return Status::Unavailable(codes::kBrowserUnavailable,
                               std::string(endpoint) + "/json/version has no webSocketDebuggerUrl");
  }
  return ws;
}

}  // namespace

BrowseConfig BrowseConfig::from_env() {
  BrowseConfig c;
  c.chrome = env_or("CAVEMAN_BROWSE_CHROME");
  c.cdp_endpoint = env_or("CAVEMAN_BROWSE_CDP");
  c.user_data_dir = env_or("CAVEMAN_BROWSE_USER_DATA_DIR");
  c.chrome_log = env_or("CAVEMAN_BROWSE_CHROME_LOG");
  c.headful = env_or("CAVEMAN_BROWSE_HEADFUL") == "1";
  c.snapshot_timeout = env_ms("CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS", c.snapshot_timeout);
  c.action_timeout = env_ms("CAVEMAN_BROWSE_ACTION_TIMEOUT_MS", c.action_timeout);
  c.launch_timeout = env_ms("CAVEMAN_BROWSE_LAUNCH_TIMEOUT_MS", c.launch_timeout);
  c.budget_tokens = env_count("CAVEMAN_BROWSE_BUDGET_TOKENS", c.budget_tokens);
  return c;
}

Result<std::unique_ptr<Browser>> Browser::open(const BrowseConfig& config) {
  Clock::time_point deadline = Clock::now() + config.launch_timeout;
  std::unique_ptr<Browser> b(new Browser());
  if (!config.cdp_endpoint.empty()) {
    CAVEMAN_ASSIGN_OR_RETURN(std::string ws, browser_ws_url(config.cdp_endpoint, deadline));
    CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<WebSocketTransport> t, WebSocketTransport::connect(ws, deadline));
    b->cdp_ = std::make_unique<CdpClient>(std::move(t));
    b->cdp_->set_event_hook([raw = b.get()](const CdpMessage& e) { raw->on_event(e); });
    CAVEMAN_RETURN_IF_ERROR(b->attach_target("", /*create=*/true, deadline));
    b->close_target_ = true;
    return b;
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::string binary, find_chrome(config.chrome));
  LaunchOptions options;
  options.binary = binary;
  options.headful = config.headful;
  options.user_data_dir = config.user_data_dir;
  options.log_path = config.chrome_log;
  CAVEMAN_ASSIGN_OR_RETURN(b->launched_, LaunchedChrome::start(options));
  b->cdp_ = std::make_unique<CdpClient>(b->launched_->take_transport());
  b->cdp_->set_event_hook([raw = b.get()](const CdpMessage& e) { raw->on_event(e); });
  Result<CdpMessage> version = b->cdp_->call("Browser.getVersion", Json::object(), "", deadline);
  if (!version.ok()) {
    std::string why = is_timeout(version.status()) ? "did not answer within " +
                                                         std::to_string(config.launch_timeout.count()) + " ms"
                                                   : "exited during startup (" + b->exit_description() + ")";
    return Status::Unavailable(codes::kBrowserUnavailable,
                               binary + " " + why + "; " + std::string(kInstallHint));
  }
  // The browser opens one about:blank page at startup: drive that one.
  std::string first_page;
  if (Result<Json> targets = b->cdp_->call_json("Target.getTargets", Json::object(), "", deadline); targets.ok()) {
    for (const Json& t : targets->value("targetInfos", Json::array())) {
      if (t.is_object() && string_field(t, "type") == "page") {
        first_page = string_field(t, "targetId");
        break;
      }
    }
  }
  CAVEMAN_RETURN_IF_ERROR(b->attach_target(first_page, first_page.empty(), deadline));
  return b;
}

Result<std::unique_ptr<Browser>> Browser::attach(std::string_view endpoint, std::string_view target_id,
                                                 Clock::time_point deadline) {
  std::unique_ptr<Browser> b(new Browser());
  CAVEMAN_ASSIGN_OR_RETURN(std::string ws, browser_ws_url(endpoint, deadline));
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<WebSocketTransport> t, WebSocketTransport::connect(ws, deadline));
  b->cdp_ = std::make_unique<CdpClient>(std::move(t));
  b->cdp_->set_event_hook([raw = b.get()](const CdpMessage& e) { raw->on_event(e); });
  bool exists = false;
  if (!target_id.empty()) {
    CAVEMAN_ASSIGN_OR_RETURN(Json targets, b->cdp_->call_json("Target.getTargets", Json::object(), "", deadline));
    for (const Json& info : targets.value("targetInfos", Json::array())) {
      exists = exists || (info.is_object() && string_field(info, "targetId") == target_id &&
                          string_field(info, "type") == "page");
    }
  }
  CAVEMAN_RETURN_IF_ERROR(b->attach_target(exists ? target_id : "", !exists, deadline));
  return b;
}

Browser::~Browser() {
  if (cdp_ && !cdp_->broken()) {
    Clock::time_point soon = Clock::now() + milliseconds(1000);
    if (close_target_ && !target_id_.empty()) {
      (void)cdp_->call("Target.closeTarget", Json{{"targetId", target_id_}}, "", soon);
    } else if (launched_) {
      (void)cdp_->call("Browser.close", Json::object(), "", soon);
    }
  }
  cdp_.reset();
  if (launched_) launched_->stop();
}

Status Browser::attach_target(std::string_view target_id, bool create, Clock::time_point deadline) {
  std::string id(target_id);
  if (create || id.empty()) {
    CAVEMAN_ASSIGN_OR_RETURN(Json created,
                             cdp_->call_json("Target.createTarget", Json{{"url", "about:blank"}}, "", deadline));
    id = string_field(created, "targetId");
  }
  CAVEMAN_ASSIGN_OR_RETURN(Json attached, cdp_->call_json("Target.attachToTarget",
                                                          Json{{"targetId", id}, {"flatten", true}}, "", deadline));
  target_id_ = id;
  session_id_ = string_field(attached, "sessionId");
  if (session_id_.empty())
    return Status::Corrupt(codes::kBrowserProtocol, "Target.attachToTarget: no sessionId");
  CAVEMAN_RETURN_IF_ERROR(cdp_->call("Page.enable", Json::object(), session_id_, deadline).status());
  CAVEMAN_RETURN_IF_ERROR(
      cdp_->call("Page.setLifecycleEventsEnabled", Json{{"enabled", true}}, session_id_, deadline).status());
  return Status::Ok();
}

void Browser::on_event(const CdpMessage& event) {
  if (event.method != "Page.javascriptDialogOpening") return;
  Json p = Json::parse(event.params(), nullptr, /*allow_exceptions=*/false);
  if (!p.is_object()) p = Json::object();
  std::string type = string_field(p, "type");
  Json params = Json{{"accept", true}};
  Json record = Json{{"type", type}, {"message", string_field(p, "message")}};
  if (type == "prompt") {
    params["promptText"] = string_field(p, "defaultPrompt");
    record["answer"] = params["promptText"];
  } else {
    record["answer"] = type == "alert" ? "dismissed" : "accepted";
  }
  (void)cdp_->send_only("Page.handleJavaScriptDialog", params, event.session_id);
  if (dialogs_.size() < 20) dialogs_.push_back(std::move(record));
}

Json Browser::take_dialogs() {
  Json out = std::move(dialogs_);
  dialogs_ = Json::array();
  return out;
}

std::string Browser::exit_description() { return launched_ ? launched_->exit_description() : ""; }

Status Browser::navigate(std::string_view url, Clock::time_point deadline) {
  cdp_->clear_events();
  Result<Json> nav = cdp_->call_json("Page.navigate", Json{{"url", std::string(url)}}, session_id_, deadline);
  if (!nav.ok()) {
    if (is_timeout(nav.status())) {
      (void)cdp_->call("Page.stopLoading", Json::object(), session_id_, Clock::now() + milliseconds(2000));
      return timeout_status("the page did not respond in time; loading was stopped");
    }
    return nav.status();
  }
  std::string error = string_field(*nav, "errorText");
  if (!error.empty()) {
    return Status::Unavailable(
        codes::kBrowserNavigationFailed,
        "navigation to " + std::string(url.substr(0, 200)) + " failed: " + error);
  }
  std::string loader = string_field(*nav, "loaderId");
  if (loader.empty()) return Status::Ok();  // same-document navigation: no new load
  Result<CdpMessage> loaded = cdp_->wait_event(
      [&](const CdpMessage& e) {
        if (e.method != "Page.lifecycleEvent" || e.session_id != session_id_) return false;
        Json p = Json::parse(e.params(), nullptr, /*allow_exceptions=*/false);
        return p.is_object() && string_field(p, "name") == "load" && string_field(p, "loaderId") == loader;
      },
      deadline);
  if (!loaded.ok()) {
    if (is_timeout(loaded.status())) {
      (void)cdp_->call("Page.stopLoading", Json::object(), session_id_, Clock::now() + milliseconds(2000));
      return timeout_status("the page did not finish loading in time; loading was stopped");
    }
    return loaded.status();
  }
  return Status::Ok();
}

Result<CdpMessage> Browser::full_ax_tree(Clock::time_point deadline) {
  return cdp_->call("Accessibility.getFullAXTree", Json::object(), session_id_, deadline);
}

Result<std::string> Browser::document_id(Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(Json tree, cdp_->call_json("Page.getFrameTree", Json::object(), session_id_, deadline));
  const Json& frame = tree.value("frameTree", Json::object()).value("frame", Json::object());
  return string_field(frame, "id") + "/" + string_field(frame, "loaderId");
}

Result<Json> Browser::evaluate(std::string_view expression, Clock::time_point deadline) {
  Json params = Json{{"expression", std::string(expression)},
                     {"returnByValue", true},
                     {"awaitPromise", true},
                     {"userGesture", true},
                     {"timeout", std::max(1, ms_until(deadline) - 250)}};
  Result<Json> r = cdp_->call_json("Runtime.evaluate", params, session_id_, deadline);
  if (!r.ok()) {
    if (r.status().error_code() == codes::kBrowserCdpError) {
      return Status::InvalidArgument(codes::kBrowserEvalFailed, r.status().message());
    }
    return r.status();
  }
  if (auto ex = r->find("exceptionDetails"); ex != r->end() && ex->is_object()) {
    std::string text = ex->value("exception", Json::object()).value("description", std::string());
    if (text.empty()) text = string_field(*ex, "text");
    return Status::InvalidArgument(codes::kBrowserEvalFailed,
                                   text.empty() ? "the expression threw" : text);
  }
  const Json& obj = r->value("result", Json::object());
  if (auto v = obj.find("value"); v != obj.end()) return *v;
  if (auto u = obj.find("unserializableValue"); u != obj.end()) return *u;
  return Json(nullptr);  // undefined, or a value that has no JSON form
}

Status Browser::reset_page(Clock::time_point deadline) {
  if (!target_id_.empty()) {
    (void)cdp_->call("Target.closeTarget", Json{{"targetId", target_id_}}, "", deadline);
  }
  cdp_->clear_events();
  return attach_target("", /*create=*/true, deadline);
}

Status Browser::close_browser() {
  return cdp_->call("Browser.close", Json::object(), "", Clock::now() + milliseconds(3000)).status();
}

}  // namespace caveman::browse
