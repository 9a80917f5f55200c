#include "view_file.h"

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "caveman/ccr.h"
#include "session_state.h"

namespace caveman::browse {

Result<std::string> write_view_file(std::string_view view, const std::string& name) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string home, caveman_home());
  std::string dir = home + "/browse";
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(dir, codes::kBrowserFileFailed));
  std::string path = dir + "/" + (name.empty() ? "view-" + ccr::sha256_hex(view).substr(0, 16) + ".txt" : name);
  CAVEMAN_RETURN_IF_ERROR(
      base::write_file_atomic(path, view, {.io_code = codes::kBrowserFileFailed}));
  return path;
}

}  // namespace caveman::browse
