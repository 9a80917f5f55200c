// actions.h — browser_act: click, type, select, scroll and wait on snapshot uids.
//
// Every action but `wait` resolves the uid's DOM node (backendDOMNodeId), scrolls it to the
// centre of the viewport, and waits (≤ 5 s) for a box that is stable across a 32 ms
// re-measure, visible, enabled and hit-testable at its centre. click = mouse press/release
// at that point; type = click, then replace the field's content with `text` (inserted as
// typed text, so input events fire); select = choose the <select> option whose value, label
// or text matches `option` and fire input + change; scroll = the scroll-into-view alone;
// wait = 250 ms during which dialogs are still answered, or with `text` until the page's text
// holds it; navigate = load `url` (url_policy.h) like browser_snapshot does.
// Errors: codes::kUnknownUid (the node is gone: the page changed since the snapshot),
// codes::kBrowserActionFailed (not actionable in time, no such option, …), and the
// connection errors of CdpClient. Single-threaded.
#ifndef CAVEMAN_BROWSE_ACTIONS_H_
#define CAVEMAN_BROWSE_ACTIONS_H_

#include <string>

#include "browser.h"
#include "snapshot.h"

namespace caveman::browse {

struct ActRequest {
  std::string action;  // click | type | select | scroll | wait | navigate
  std::string uid;
  std::string text;    // type: the text; select: fallback for `option`; wait: text to wait for
  std::string option;  // select: value, label or text of the option
  std::string url;     // navigate
  bool full = false;   // answer with the whole view instead of what changed
};

inline constexpr std::string_view kActions[] = {"click", "type", "select", "scroll", "wait", "navigate"};

// Actions that need no uid.
inline bool needs_uid(std::string_view action) { return action != "wait" && action != "navigate"; }

// Performs `request` on `target` (ignored for wait and navigate). Result: {ok, uid?, settled, note?}.
Result<Json> perform_action(Browser& browser, const ActRequest& request, const UidTarget& target,
                            Clock::time_point deadline);

// Lets `duration` pass while still handling browser events (dialogs).
void pump_for(Browser& browser, std::chrono::milliseconds duration);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_ACTIONS_H_
