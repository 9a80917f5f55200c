// session_state.h — the direct CLI's state file, `<home>/browse-session.json`.
//
// It lets successive `caveman-browse` invocations share one detached browser: the DevTools
// endpoint, the page target, whether we launched the browser (`owned`, and its pid so
// `close` can make sure it is gone, and its private TMPDIR so `close` can remove it), and the uid
// map of the latest snapshots of the current document. Written atomically (temp file + rename) with
// mode 0600 in a 0700 home. load() of a missing file is an empty state; a corrupt file is reported,
// not trusted.
#ifndef CAVEMAN_BROWSE_SESSION_STATE_H_
#define CAVEMAN_BROWSE_SESSION_STATE_H_

#include <string>
#include <vector>

#include "caveman/status.h"
#include "snapshot.h"

namespace caveman::browse {

struct SessionState {
  std::string endpoint;   // http://127.0.0.1:<port>
  std::string target_id;
  std::vector<std::string> targets;
  bool owned = false;
  int pid = 0;            // the browser we launched (0 = unknown)
  std::string browser_tmp;  // its private TMPDIR (a short cvb-*), removed once it is gone
  std::string document;   // document id the uids belong to
  UidMap uids;
  std::string last_handle;

  bool empty() const { return endpoint.empty(); }
  std::string to_json() const;
  static Result<SessionState> from_json(std::string_view text);
};

// $CAVEMAN_HOME, else ~/.caveman (created 0700).
Result<std::string> caveman_home();

Result<SessionState> load_state(const std::string& path);
Status save_state(const std::string& path, const SessionState& state);
void remove_state(const std::string& path);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_SESSION_STATE_H_
