// browser.h — one browser connection and the page caveman-browse drives in it.
//
// open() either launches a private browser over `--remote-debugging-pipe` (LaunchedChrome)
// or, when CAVEMAN_BROWSE_CDP names an endpoint, attaches to an existing browser over its
// WebSocket; attach() is the CLI's form (reuse a target across invocations). Either way the
// page is a flattened target session with Page events on, and JavaScript dialogs (alert,
// confirm, prompt, beforeunload) are answered the moment they open — accepted, prompts with
// their default text — so they can never wedge a call; they are reported via take_dialogs().
// Destruction closes a target we created (attached mode) or ends the launched browser.
// Single-threaded.
#ifndef CAVEMAN_BROWSE_BROWSER_H_
#define CAVEMAN_BROWSE_BROWSER_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "cdp_client.h"
#include "chrome_launcher.h"

namespace caveman::browse {

struct BrowseConfig {
  std::string chrome;         // CAVEMAN_BROWSE_CHROME (empty → PATH discovery)
  std::string cdp_endpoint;   // CAVEMAN_BROWSE_CDP (empty → launch our own)
  std::string user_data_dir;  // CAVEMAN_BROWSE_USER_DATA_DIR (empty → temp, deleted)
  std::string chrome_log;     // CAVEMAN_BROWSE_CHROME_LOG (browser stderr; empty → discarded)
  bool headful = false;       // CAVEMAN_BROWSE_HEADFUL=1
  std::chrono::milliseconds snapshot_timeout{15000};  // CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS
  std::chrono::milliseconds action_timeout{10000};    // CAVEMAN_BROWSE_ACTION_TIMEOUT_MS
  std::chrono::milliseconds launch_timeout{30000};    // CAVEMAN_BROWSE_LAUNCH_TIMEOUT_MS
  // A view over this many o200k tokens becomes the page's outline (docs/browse.md, "Large
  // pages"); CAVEMAN_BROWSE_BUDGET_TOKENS, 0 = no budget.
  std::int64_t budget_tokens = 25000;

  static BrowseConfig from_env();
};

class Browser {
 public:
  static Result<std::unique_ptr<Browser>> open(const BrowseConfig& config);
  // Attaches to the browser behind `endpoint` (http://127.0.0.1:<port> or ws://…): target
  // `target_id` when it still exists, else a new about:blank page. The target is left open.
  static Result<std::unique_ptr<Browser>> attach(std::string_view endpoint, std::string_view target_id,
                                                 Clock::time_point deadline);
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  CdpClient& cdp() { return *cdp_; }
  const std::string& session() const { return session_id_; }
  const std::string& target_id() const { return target_id_; }
  bool alive() const { return cdp_ && !cdp_->broken(); }

  // Navigates the page and waits for its load event. Errors: codes::kBrowserNavigationFailed
  // (the browser's net error, e.g. net::ERR_CONNECTION_REFUSED), codes::kBrowserTimeout (the
  // page did not finish loading; loading is stopped so the page stays usable).
  Status navigate(std::string_view url, Clock::time_point deadline);
  // Accessibility.getFullAXTree of the page; the reply's result() is Chrome's raw JSON.
  Result<CdpMessage> full_ax_tree(Clock::time_point deadline);
  // Identity of the current document (main frame loaderId): uids are valid within it.
  Result<std::string> document_id(Clock::time_point deadline);
  // Runtime.evaluate with returnByValue + awaitPromise; codes::kBrowserEvalFailed on a thrown
  // exception (message = the exception's description).
  Result<Json> evaluate(std::string_view expression, Clock::time_point deadline);
  // Browser.close (the whole browser; the CLI's `close`).
  Status close_browser();
  // Closes the page and continues in a fresh about:blank one (a renderer stuck on a huge
  // page would otherwise delay every later call).
  Status reset_page(Clock::time_point deadline);

  // Dialogs answered since the last call: [{type, message, answer}].
  Json take_dialogs();
  // Why the browser went away, for error messages ("" when unknown).
  std::string exit_description();

 private:
  Browser() = default;
  Status attach_target(std::string_view target_id, bool create, Clock::time_point deadline);
  void on_event(const CdpMessage& event);

  std::unique_ptr<LaunchedChrome> launched_;
  std::unique_ptr<CdpClient> cdp_;
  std::string target_id_;
  std::string session_id_;
  bool close_target_ = false;
  Json dialogs_ = Json::array();
};

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSER_H_
