// browse_session.h — what the four tools do, over one lazily started browser.
//
// A BrowseSession belongs to one MCP client session. The browser starts on the first call
// that needs it; when it crashes or its connection drops, that call fails with
// codes::kBrowserUnavailable, the dead browser is cleaned up at once, and the next call starts
// a fresh one. The uid map of the latest snapshots is kept per document: snapshots of the
// same document add to it, a navigation replaces it, and an action on a uid that is not in
// it (or whose node is gone) is codes::kUnknownUid. The whole view the agent last saw of the
// page is kept too: an action answers with what changed since (view_diff.h), or with the
// whole new view when the page was replaced, when asked (`full`), or when the change would
// not be smaller (docs/browse.md, "What an action answers").
// take_snapshot()/act_on_uid() are also used by the direct CLI with its attached browser.
// Errors are Status values carrying the tool error codes of docs/browse.md#tools.
// Single-threaded (MCP handlers of one session never run concurrently).
#ifndef CAVEMAN_BROWSE_BROWSE_SESSION_H_
#define CAVEMAN_BROWSE_BROWSE_SESSION_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "browser.h"
#include "caveman/engine.h"
#include "snapshot.h"
#include "tool_args.h"

namespace caveman::browse {

struct SnapshotOutcome {
  Json payload;          // what the agent receives
  std::string handle;
  UidMap uids;           // uids visible in this view
  std::string document;  // Browser::document_id() at snapshot time
  std::string view;      // the outline
  bool whole = false;    // neither query nor expand: the whole view
};

// Optional navigation, optional wait, AX tree, compression, payload.
Result<SnapshotOutcome> take_snapshot(Browser& browser, const Engine& engine, const SnapshotRequest& request,
                                      const BrowseConfig& config);

// The current page as it is (AX tree, compression, payload); `focus` is a query or
// "expand:<uid>" ("" = the whole view). A tree not ready in time makes the page be replaced
// by a blank one only when `reset_when_stuck`.
Result<SnapshotOutcome> read_view(Browser& browser, const Engine& engine, const std::string& focus,
                                  const BrowseConfig& config, Clock::time_point deadline,
                                  bool reset_when_stuck = true);

// Acts on `request.uid` looked up in `uids` (valid for `document`).
Result<Json> act_on_uid(Browser& browser, const UidMap& uids, const std::string& document,
                        const ActRequest& request, const BrowseConfig& config);

// The whole view of the raw tree stored under `handle` (nullopt when it is gone).
std::optional<std::string> whole_view_of(const Engine& engine, const std::string& handle, const BrowseConfig& config);

// What browser_act answers once `acted` (perform_action's result) is done: the page settles, its
// whole view is read (into `now`) and compared with `before()` — the whole view last seen of
// `document`, asked only when the page is still that document and `full` is not set.
Result<Json> answer_action(Browser& browser, const Engine& engine, const BrowseConfig& config,
                           const ActRequest& request, Json acted, const std::string& document,
                           const std::function<std::optional<std::string>()>& before,
                           std::optional<SnapshotOutcome>* now);

// browser_eval: {"result": <value>} (+ "dialogs").
Result<Json> evaluate_expression(Browser& browser, const EvalRequest& request, const BrowseConfig& config);

// browser_recover: the exact raw AX JSON, or its query-narrowed view.
Result<std::string> recover(const Engine& engine, const RecoverRequest& request);

class BrowseSession {
 public:
  BrowseSession(BrowseConfig config, std::shared_ptr<const Engine> engine);
  ~BrowseSession();

  Result<Json> snapshot(const SnapshotRequest& request);
  Result<Json> act(const ActRequest& request);
  Result<Json> eval(const EvalRequest& request);
  Result<std::string> recover(const RecoverRequest& request) const;

  // Ends the browser now (also done by the destructor).
  void close();

 private:
  Result<Browser*> browser();
  // Turns a failure into the tool's error; drops the browser when it is gone.
  Status after_failure(Status s);
  // Adds a view's uids (a new document replaces them) and makes it the latest view.
  void remember(const SnapshotOutcome& view);
  // The whole view behind the latest snapshot (recomputed from its raw tree after a focused one).
  std::optional<std::string> baseline();
  Result<Json> write_file(const SnapshotRequest& request, const SnapshotOutcome& view);

  BrowseConfig config_;
  std::shared_ptr<const Engine> engine_;
  std::unique_ptr<Browser> browser_;
  UidMap uids_;
  std::string uid_document_;
  std::string last_view_;    // the whole view the agent last saw ("" → from last_handle_)
  std::string last_handle_;  // its raw tree
};

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSE_SESSION_H_
