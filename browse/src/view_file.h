// view_file.h — browser_snapshot{file}: the view written to a file instead of the answer.
//
// Files go to $CAVEMAN_HOME/browse/ (0700), never anywhere else: the agent names a plain file
// there or lets one be named `view-<first 16 hex of the view's SHA-256>.txt` (the same view,
// the same file). They outlive the session (the agent reads them with its own tools later),
// unlike the browser's temp profile. Written atomically, mode 0600. Thread-safe.
#ifndef CAVEMAN_BROWSE_VIEW_FILE_H_
#define CAVEMAN_BROWSE_VIEW_FILE_H_

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::browse {

// The absolute path written; kIo/codes::kBrowserFileFailed when it cannot be.
Result<std::string> write_view_file(std::string_view view, const std::string& name);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_VIEW_FILE_H_
