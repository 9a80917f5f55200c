#include "browse_cli.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdlib>
#include <thread>

#include "browse_session.h"
#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/ccr.h"
#include "chrome_launcher.h"
#include "session_state.h"
#include "url_policy.h"
#include "websocket.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kHealthTimeout{500};
constexpr milliseconds kLaunchTimeout{10000};

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

int fail(std::ostream& err, const Status& s) {
  base::stream_logger(err)->error("caveman-browse: {}", s.ToString());
  return base::kExitError;
}

int usage(std::ostream& err, const std::string& message) {
  base::usage_error("caveman-browse", message, err);
  err << kCliSynopsis;
  return base::kExitUsage;
}

std::string join(const std::vector<std::string>& v, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < v.size(); ++i) out += (i > from ? " " : "") + v[i];
  return out;
}

bool healthy(const std::string& endpoint) {
  Result<Endpoint> e = parse_endpoint(endpoint);
  return e.ok() && http_get(*e, "/json/version", Clock::now() + kHealthTimeout).ok();
}

std::shared_ptr<ccr::Store> open_store() {
  if (env("CAVEMAN_BROWSE_EPHEMERAL") != "1") {
    ccr::OpenOptions options;
    Result<std::string> path = ccr::resolve_store_path(&options);
    if (path.ok()) {
      Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(path.value(), options);
      if (s.ok()) return std::move(s).value();
      spdlog::warn("{}; using an in-memory store", s.status().ToString());
    } else {
      spdlog::warn("{}; using an in-memory store", path.status().ToString());
    }
  }
  Result<std::unique_ptr<ccr::Store>> mem = ccr::open_store(std::string(ccr::kMemoryPath));
  return mem.ok() ? std::shared_ptr<ccr::Store>(std::move(mem).value()) : nullptr;
}

// Ends a browser we launched (its whole process group) and removes its private TMPDIR — only
// a directory named like ours, whatever the state file says.
void end_owned_browser(const SessionState& s) {
  if (s.pid > 0 && process_alive(s.pid)) ::kill(-s.pid, SIGKILL);
  Clock::time_point until = Clock::now() + milliseconds(2000);
  while (s.pid > 0 && process_alive(s.pid) && Clock::now() < until) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  std::string_view name = std::string_view(s.browser_tmp).substr(s.browser_tmp.rfind('/') + 1);
  if (!s.browser_tmp.empty() && name.rfind(kBrowserTempName, 0) == 0) remove_tree(s.browser_tmp);
}

// The endpoint to use, launching the shared browser when there is none.
Result<std::string> ensure_endpoint(SessionState* state, const std::string& home, const BrowseConfig& config) {
  if (!config.cdp_endpoint.empty()) {
    if (state->endpoint != config.cdp_endpoint) *state = SessionState{};
    state->endpoint = config.cdp_endpoint;
    state->owned = false;
    return config.cdp_endpoint;
  }
  if (!state->empty() && healthy(state->endpoint)) return state->endpoint;
  if (state->owned) end_owned_browser(*state);
  *state = SessionState{};
  CAVEMAN_ASSIGN_OR_RETURN(std::string binary, find_chrome(config.chrome));
  LaunchOptions options;
  options.binary = binary;
  options.headful = config.headful;
  options.user_data_dir = config.user_data_dir.empty() ? home + "/browse-profile" : config.user_data_dir;
  options.log_path = home + "/browse-chrome.log";
  int port = std::atoi(env("CAVEMAN_BROWSE_PORT").c_str());
  CAVEMAN_ASSIGN_OR_RETURN(DetachedBrowser launched, launch_detached(options, port > 0 ? port : 0, kLaunchTimeout));
  state->endpoint = launched.endpoint;
  state->owned = true;
  state->pid = launched.pid;
  state->browser_tmp = launched.temp_dir;
  return launched.endpoint;
}

int close_session(const std::string& state_path, std::ostream& out, std::ostream& err) {
  Result<SessionState> loaded = load_state(state_path);
  if (!loaded.ok()) {
    remove_state(state_path);
    return fail(err, loaded.status());
  }
  SessionState& s = *loaded;
  if (s.empty()) {
    out << "no browser session\n";
    return base::kExitOk;
  }
  if (s.owned) {
    if (healthy(s.endpoint)) {
      if (Result<std::unique_ptr<Browser>> b = Browser::attach(s.endpoint, s.target_id, Clock::now() + milliseconds(3000));
          b.ok()) {
        (void)(*b)->close_browser();
      }
    }
    // Make sure the browser and its helpers are gone, then its TMPDIR.
    Clock::time_point until = Clock::now() + milliseconds(5000);
    while (s.pid > 0 && process_alive(s.pid) && Clock::now() < until) std::this_thread::sleep_for(milliseconds(50));
    if (s.pid > 0) ::kill(-s.pid, SIGKILL);
    end_owned_browser(s);
  }
  remove_state(state_path);
  out << (s.owned ? "closed the browser\n" : "detached from the browser (left running)\n");
  return base::kExitOk;
}

// A view read: its uids join the state's (a new document replaces them); its raw tree is the
// baseline of the next act.
void remember(SessionState* state, const SnapshotOutcome& view) {
  if (view.document != state->document) state->uids.clear();
  state->document = view.document;
  for (const auto& [uid, t] : view.uids) state->uids[uid] = t;
  state->last_handle = view.handle;
}

void print_snapshot(const Json& p, bool json, std::ostream& out) {
  if (json) {
    out << dump_compact(p) << "\n";
    return;
  }
  out << p.value("uids", std::string()) << "\n";
  out << "# recovery_handle=" << p.value("recovery_handle", std::string())
      << " tokens_before=" << p.value("tokens_before", 0) << " tokens_after=" << p.value("tokens_after", 0) << "\n";
  if (p.contains("dialogs")) out << "# dialogs " << dump_compact(p["dialogs"]) << "\n";
}

}  // namespace

int run_cli(const CliCommand& command, std::ostream& out, std::ostream& err) {
  // args[0] is the verb, as on the command line.
  std::vector<std::string> args{command.verb};
  args.insert(args.end(), command.words.begin(), command.words.end());
  const std::string& verb = command.verb;
  const bool json = command.json;
  Result<std::string> home = caveman_home();
  if (!home.ok()) return fail(err, home.status());
  const std::string state_path = *home + "/browse-session.json";
  if (verb == "close") return close_session(state_path, out, err);

  auto engine = std::make_shared<const Engine>(open_store());
  if (verb == "recover") {
    Result<RecoverRequest> req = parse_recover_args(Json{{"recovery_handle", args[1]}, {"query", join(args, 2)}});
    if (!req.ok()) return fail(err, req.status());
    Result<std::string> raw = recover(*engine, *req);
    if (!raw.ok()) return fail(err, raw.status());
    out << *raw;
    return base::kExitOk;
  }

  SnapshotRequest snap;
  ActRequest act;
  EvalRequest eval;
  if (verb == "snapshot") {
    std::size_t q = 1;
    if (args.size() > 1 && !url_scheme(args[1]).empty()) {
      Status ok = check_url(args[1]);
      if (!ok.ok()) return fail(err, ok);
      snap.has_url = true;
      snap.url = args[1];
      q = 2;
    }
    snap.query = join(args, q);
    if (snap.query.size() > kMaxQueryBytes) return usage(err, "query is longer than 4 KiB");
  } else if (verb == "act") {
    Json a = Json{{"uid", args[1]}, {"action", args[2]}};
    if (args.size() > 3) a[args[2] == "select" ? "option" : "text"] = join(args, 3);
    Result<ActRequest> r = parse_act_args(a);
    if (!r.ok()) return fail(err, r.status());
    act = std::move(r).value();
  } else if (verb == "eval") {
    Result<EvalRequest> r = parse_eval_args(Json{{"expression", join(args, 1)}});
    if (!r.ok()) return usage(err, r.status().message());
    eval = std::move(r).value();
  }

  Result<SessionState> loaded = load_state(state_path);
  SessionState state = loaded.ok() ? std::move(loaded).value() : SessionState{};
  BrowseConfig config = BrowseConfig::from_env();
  if (verb == "act" && state.empty() && config.cdp_endpoint.empty()) {
    return fail(err,
                Status::NotFound(codes::kUnknownUid,
                                 "no browser session; run caveman-browse snapshot <url> first"));
  }
  Result<std::string> endpoint = ensure_endpoint(&state, *home, config);
  if (!endpoint.ok()) return fail(err, endpoint.status());
  Result<std::unique_ptr<Browser>> browser = Browser::attach(*endpoint, state.target_id, Clock::now() + config.launch_timeout);
  if (!browser.ok()) return fail(err, browser.status());
  Browser& b = **browser;
  if (b.target_id() != state.target_id) {
    state.uids.clear();
    state.document.clear();
  }
  state.target_id = b.target_id();
  state.targets = {b.target_id()};

  int rc = base::kExitOk;
  if (verb == "snapshot") {
    Result<SnapshotOutcome> r = take_snapshot(b, *engine, snap, config);
    if (r.ok()) {
      remember(&state, *r);
      print_snapshot(r->payload, json, out);
    } else {
      rc = fail(err, r.status());
    }
  } else if (verb == "act") {
    // Like browser_act: what changed since the latest snapshot (its raw tree is in the store).
    Result<Json> r = act_on_uid(b, state.uids, state.document, act, config);
    std::optional<SnapshotOutcome> now;
    if (r.ok()) {
      r = answer_action(b, *engine, config, act, std::move(r).value(), state.document,
                        [&] { return whole_view_of(*engine, state.last_handle, config); }, &now);
    }
    if (r.ok()) {
      if (now) remember(&state, *now);
      r->erase("counts");
      out << dump_compact(*r) << "\n";
    } else {
      rc = fail(err, r.status());
    }
  } else {
    Result<Json> r = evaluate_expression(b, eval, config);
    if (r.ok()) {
      out << dump_compact(*r) << "\n";
    } else {
      rc = fail(err, r.status());
    }
  }
  Status saved = save_state(state_path, state);
  if (!saved.ok()) spdlog::warn("{}", saved.ToString());
  return rc;
}

}  // namespace caveman::browse
