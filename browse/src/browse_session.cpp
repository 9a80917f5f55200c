#include "browse_session.h"

#include <algorithm>
#include <functional>

#include "actions.h"
#include "caveman/base/codes.h"
#include "view_diff.h"
#include "view_file.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kSettleWait{5000};
constexpr milliseconds kBusyProbe{1500};

std::string ms_text(milliseconds ms) { return std::to_string(ms.count()) + " ms"; }

Status snapshot_failed(std::string message) {
  return Status::Unavailable(codes::kBrowserSnapshotFailed, std::move(message));
}

// The code of a call that failed inside the browser: a command error or time-out becomes the
// tool's own failure code; connection loss stays codes::kBrowserUnavailable.
Status as_tool_failure(const Status& s, std::string_view code, const std::string& what,
                       milliseconds limit) {
  if (is_timeout(s)) return Status::Unavailable(code, what + " timed out after " + ms_text(limit));
  if (s.error_code() == codes::kBrowserCdpError || s.error_code() == codes::kBrowserProtocol) {
    return Status::Unavailable(code, what + " failed: " + s.message());
  }
  return s;
}

// Without a url the page may still be loading (e.g. a click just followed a link): give it
// a moment to reach readyState "complete" before reading its tree.
void settle(Browser& b, Clock::time_point until) {
  while (Clock::now() < until && b.alive()) {
    Result<Json> state = b.evaluate("document.readyState", std::min(until, Clock::now() + milliseconds(1000)));
    if (state.ok() && state->is_string() && state->get<std::string>() == "complete") return;
    pump_for(b, milliseconds(50));
  }
}

// The a11y compressor reads `expand:<uid>` as the section that uid names.
CompressResult compress_tree(const Engine& engine, std::string_view raw, const std::string& focus,
                             const BrowseConfig& config) {
  Options options;
  options.mode = "compress";
  options.type = "a11y";
  options.query = focus;
  options.budget_tokens = config.budget_tokens;
  return engine.compress(raw, options);
}

void add_dialogs(Browser& b, Json* payload) {
  Json d = b.take_dialogs();
  if (!d.empty()) (*payload)["dialogs"] = std::move(d);
}

// After an action: a navigation it started (a link, a form post) is followed to the new
// document's load (≤ 5 s); otherwise the page's handlers get 100 ms to finish their updates.
void settle_after_action(Browser& b, Clock::time_point deadline) {
  pump_for(b, milliseconds(100));
  auto main_frame = [&](const CdpMessage& e, std::initializer_list<std::string_view> methods) {
    if (e.session_id != b.session() || std::find(methods.begin(), methods.end(), e.method) == methods.end()) return false;
    Json p = Json::parse(e.params(), nullptr, /*allow_exceptions=*/false);
    return p.is_object() && p.value("frameId", std::string()) == b.target_id();
  };
  bool navigating = b.cdp()
                        .wait_event([&](const CdpMessage& e) {
                          return main_frame(e, {"Page.frameRequestedNavigation", "Page.frameStartedLoading"});
                        },
                                    Clock::now())
                        .ok();
  if (!navigating) return;
  (void)b.cdp().wait_event([&](const CdpMessage& e) { return main_frame(e, {"Page.frameStoppedLoading"}); },
                           std::min(deadline, Clock::now() + kSettleWait));
  settle(b, std::min(deadline, Clock::now() + kSettleWait));
}

// The change, unless there is none to compare, the whole view would cost no more, or the page
// was replaced: then the whole view.
Json change_or_view(const std::optional<ViewDiff>& diff, const SnapshotOutcome& now, bool same_page,
                    const tokens::Counter& counter) {
  Json answer = Json::object();
  if (diff && diff->empty()) {
    answer["changes"] = "none";
  } else if (diff && static_cast<std::int64_t>(counter.count(diff->text)) < now.payload.value("view_tokens", std::int64_t{0})) {
    answer["changes"] = diff->text;
  } else {
    if (!same_page) answer["new_page"] = true;
    Json whole = agent_view(now.payload);
    for (auto it = whole.begin(); it != whole.end(); ++it) {
      if (it.key() != "dialogs") answer[it.key()] = it.value();
    }
  }
  if (diff) answer["counts"] = Json{{"added", diff->added}, {"removed", diff->removed}, {"changed", diff->changed}};
  return answer;
}

}  // namespace

Result<SnapshotOutcome> take_snapshot(Browser& b, const Engine& engine, const SnapshotRequest& req,
                                      const BrowseConfig& config) {
  milliseconds limit = config.snapshot_timeout + milliseconds(req.wait_ms);
  Clock::time_point deadline = Clock::now() + limit;
  if (req.has_url) {
    Status nav = b.navigate(req.url, deadline);
    if (!nav.ok()) {
      std::string shown = req.url.substr(0, 200);
      if (is_timeout(nav)) {
        // Loading is stopped, but a page still busy in its scripts (a 10,000-row table being
        // built) would make every later call wait: probe it, and give up the page if so.
        if (b.alive() && !b.evaluate("1", Clock::now() + kBusyProbe).ok() && b.alive()) {
          Status reset = b.reset_page(Clock::now() + std::chrono::seconds(5));
          return snapshot_failed(shown + " did not finish loading within " + ms_text(limit) +
                                 " and was still busy running scripts; " +
                                 (reset.ok() ? "the page was closed and a blank one opened"
                                             : "the page may stay busy for a while"));
        }
        return snapshot_failed(shown + " did not finish loading within " + ms_text(limit) +
                               "; loading was stopped (browser_snapshot without url shows what did load)");
      }
      if (nav.error_code() == codes::kBrowserNavigationFailed) {
        return snapshot_failed(nav.message() + "; the browser is still usable");
      }
      return as_tool_failure(nav, codes::kBrowserSnapshotFailed, "navigation to " + shown, limit);
    }
  } else {
    settle(b, std::min(deadline, Clock::now() + kSettleWait));
  }
  if (req.wait_ms > 0) pump_for(b, milliseconds(req.wait_ms));
  return read_view(b, engine, req.expand.empty() ? req.query : "expand:" + req.expand, config, deadline);
}

Result<SnapshotOutcome> read_view(Browser& b, const Engine& engine, const std::string& focus,
                                  const BrowseConfig& config, Clock::time_point deadline, bool reset_when_stuck) {
  milliseconds limit = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
  Result<CdpMessage> ax = b.full_ax_tree(deadline);
  if (!ax.ok()) {
    if (is_timeout(ax.status()) && !reset_when_stuck) {
      return snapshot_failed("the accessibility tree was not ready within " + ms_text(limit));
    }
    if (is_timeout(ax.status())) {
      // The renderer is still busy building the tree: continue in a fresh page so the
      // browser answers the next call at once.
      Status reset = b.reset_page(Clock::now() + std::chrono::seconds(5));
      return snapshot_failed("the accessibility tree was not ready within " + ms_text(limit) +
                             " (a very large page? CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS raises the limit); " +
                             (reset.ok() ? "the page was closed and a blank one opened"
                                         : "the page may stay busy for a while"));
    }
    return as_tool_failure(ax.status(), codes::kBrowserSnapshotFailed,
                           "Accessibility.getFullAXTree", limit);
  }
  Result<std::string> doc = b.document_id(deadline);
  if (!doc.ok())
    return as_tool_failure(doc.status(), codes::kBrowserSnapshotFailed, "Page.getFrameTree", limit);

  CompressResult r = compress_tree(engine, ax->result(), focus, config);
  if (r.passed_through()) {
    return Status::Unavailable(
        codes::kBrowserSnapshotUncompressed,
        r.error.empty()
            ? "the page's accessibility tree could not be compressed (raw tree withheld; "
              "use browser_eval to inspect the page)"
            : "the recovery store refused the raw tree (" + r.error + "); raw tree withheld");
  }
  Result<std::string> metadata = engine.retrieve_metadata(r.recovery_handle);
  SnapshotOutcome out;
  out.handle = r.recovery_handle;
  out.document = std::move(doc).value();
  out.uids = uids_from_view(r.output, metadata.ok() ? metadata.value() : "");
  out.view = r.output;
  out.whole = focus.empty();
  Json extras = Json::object();
  add_dialogs(b, &extras);
  out.payload = snapshot_payload(r.output, r.recovery_handle, r.tokens_before, engine.counter(), extras);
  if (out.payload["tokens_after"].get<std::int64_t>() >= r.tokens_before) {
    return Status::Unavailable(
        codes::kBrowserSnapshotUncompressed,
        "the snapshot payload would not be smaller than the raw tree (raw tree withheld)");
  }
  return out;
}

Result<Json> act_on_uid(Browser& b, const UidMap& uids, const std::string& document, const ActRequest& req,
                        const BrowseConfig& config) {
  Clock::time_point deadline = Clock::now() + config.action_timeout;
  UidTarget target;
  if (needs_uid(req.action)) {
    auto it = uids.find(req.uid);
    if (it == uids.end()) {
      return Status::NotFound(
          codes::kUnknownUid,
          "unknown uid \"" + req.uid +
              "\": uids come from the latest browser_snapshot of the current page; take a new "
              "snapshot");
    }
    target = it->second;
    Result<std::string> now = b.document_id(deadline);
    if (!now.ok())
      return as_tool_failure(now.status(), codes::kBrowserActionFailed, req.action,
                             config.action_timeout);
    if (*now != document) {
      return Status::NotFound(codes::kUnknownUid,
                              "the page navigated since the snapshot that showed uid " + req.uid +
                                  "; take a new browser_snapshot");
    }
  }
  b.cdp().clear_events();  // what follows shows whether this action started a navigation
  Result<Json> r = perform_action(b, req, target, deadline);
  if (!r.ok())
    return as_tool_failure(r.status(), codes::kBrowserActionFailed, req.action,
                           config.action_timeout);
  Json out = std::move(r).value();
  add_dialogs(b, &out);
  return out;
}

Result<Json> evaluate_expression(Browser& b, const EvalRequest& req, const BrowseConfig& config) {
  Result<Json> v = b.evaluate(req.expression, Clock::now() + config.action_timeout);
  if (!v.ok())
    return as_tool_failure(v.status(), codes::kBrowserEvalFailed, "the expression",
                           config.action_timeout);
  Json out = Json{{"result", std::move(v).value()}};
  add_dialogs(b, &out);
  return out;
}

Result<std::string> recover(const Engine& engine, const RecoverRequest& req) {
  Result<std::string> r = req.query.empty() ? engine.retrieve(req.handle) : engine.retrieve_query(req.handle, req.query);
  if (!r.ok() && r.status().code() == Code::kNotFound) {
    return Status::NotFound(codes::kUnknownHandle,
                            "no snapshot stored under " + req.handle.substr(0, 80));
  }
  return r;
}

std::optional<std::string> whole_view_of(const Engine& engine, const std::string& handle, const BrowseConfig& config) {
  if (handle.empty()) return std::nullopt;
  Result<std::string> raw = engine.retrieve(handle);
  if (!raw.ok()) return std::nullopt;
  CompressResult r = compress_tree(engine, *raw, "", config);
  if (r.passed_through()) return std::nullopt;
  return r.output;
}

Result<Json> answer_action(Browser& b, const Engine& engine, const BrowseConfig& config, const ActRequest& req,
                           Json acted, const std::string& document,
                           const std::function<std::optional<std::string>()>& before,
                           std::optional<SnapshotOutcome>* now_out) {
  Clock::time_point deadline = Clock::now() + config.snapshot_timeout;
  settle_after_action(b, deadline);
  Result<SnapshotOutcome> read = read_view(b, engine, "", config, deadline, /*reset_when_stuck=*/false);
  if (!read.ok()) {
    // The action itself was done: say so rather than fail it (the page stays as it is).
    if (!b.alive()) return read.status();
    Json answer = Json{{"changes", "unknown"},
                       {"note", "the action was done but the page's view could not be read (" + read.status().message() +
                                    "); browser_snapshot shows the page"}};
    if (acted.contains("dialogs")) answer["dialogs"] = acted["dialogs"];
    return answer;
  }
  const SnapshotOutcome& now = now_out->emplace(std::move(read).value());
  bool same_page = now.document == document;
  std::optional<std::string> old = same_page && !req.full ? before() : std::nullopt;
  std::optional<ViewDiff> diff = old ? diff_views(*old, now.view, req.uid) : std::nullopt;
  Json answer = change_or_view(diff, now, same_page, engine.counter());
  Json dialogs = acted.value("dialogs", Json::array());
  for (const Json& d : now.payload.value("dialogs", Json::array())) dialogs.push_back(d);
  if (!dialogs.empty()) answer["dialogs"] = std::move(dialogs);
  return answer;
}

BrowseSession::BrowseSession(BrowseConfig config, std::shared_ptr<const Engine> engine)
    : config_(std::move(config)), engine_(std::move(engine)) {}

BrowseSession::~BrowseSession() { close(); }

void BrowseSession::close() {
  browser_.reset();
  uids_.clear();
  uid_document_.clear();
  last_view_.clear();
  last_handle_.clear();
}

Result<Browser*> BrowseSession::browser() {
  if (browser_ && !browser_->alive()) close();
  if (!browser_) {
    CAVEMAN_ASSIGN_OR_RETURN(browser_, Browser::open(config_));
  }
  return browser_.get();
}

Status BrowseSession::after_failure(Status s) {
  if (!browser_ || browser_->alive()) return s;
  std::string why = browser_->exit_description();
  close();
  if (s.code() != Code::kUnavailable || s.error_code() != codes::kBrowserUnavailable) return s;
  return Status::Unavailable(
      codes::kBrowserUnavailable,
      s.message() + (why.empty() ? "" : " (" + why + ")") + "; the next call starts a new browser");
}

Result<Json> BrowseSession::snapshot(const SnapshotRequest& req) {
  CAVEMAN_ASSIGN_OR_RETURN(Browser * b, browser());
  Result<SnapshotOutcome> out = take_snapshot(*b, *engine_, req, config_);
  if (!out.ok()) return after_failure(out.status());
  remember(*out);
  if (req.to_file) return write_file(req, *out);
  return std::move(out->payload);
}

Result<Json> BrowseSession::write_file(const SnapshotRequest& req, const SnapshotOutcome& out) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, write_view_file(out.view, req.file_name));
  Json answer = Json{{"file", path},
                     {"bytes", out.view.size()},
                     {"tokens", out.payload.value("view_tokens", std::int64_t{0})}};
  if (out.payload.contains("dialogs")) answer["dialogs"] = out.payload["dialogs"];
  return answer;
}

void BrowseSession::remember(const SnapshotOutcome& out) {
  if (out.document != uid_document_) {
    uids_.clear();
    uid_document_ = out.document;
  }
  for (const auto& [uid, target] : out.uids) uids_[uid] = target;
  last_view_ = out.whole ? out.view : "";
  last_handle_ = out.handle;
}

std::optional<std::string> BrowseSession::baseline() {
  if (last_view_.empty()) last_view_ = whole_view_of(*engine_, last_handle_, config_).value_or("");
  if (last_view_.empty()) return std::nullopt;
  return last_view_;
}

Result<Json> BrowseSession::act(const ActRequest& req) {
  if (needs_uid(req.action) && (!browser_ || !browser_->alive() || !uids_.contains(req.uid))) {
    if (browser_ && !browser_->alive()) close();
    return Status::NotFound(codes::kUnknownUid,
                            "unknown uid \"" + req.uid +
                                "\": uids come from the latest browser_snapshot of the current "
                                "page; take a new snapshot");
  }
  CAVEMAN_ASSIGN_OR_RETURN(Browser * b, browser());
  Result<Json> r = act_on_uid(*b, uids_, uid_document_, req, config_);
  std::optional<SnapshotOutcome> now;
  if (r.ok()) r = answer_action(*b, *engine_, config_, req, std::move(r).value(), uid_document_, [this] { return baseline(); }, &now);
  if (!r.ok()) return after_failure(r.status());
  if (now) remember(*now);
  return r;
}


Result<Json> BrowseSession::eval(const EvalRequest& req) {
  CAVEMAN_ASSIGN_OR_RETURN(Browser * b, browser());
  Result<Json> r = evaluate_expression(*b, req, config_);
  if (!r.ok()) return after_failure(r.status());
  return r;
}

Result<std::string> BrowseSession::recover(const RecoverRequest& req) const { return browse::recover(*engine_, req); }

}  // namespace caveman::browse
