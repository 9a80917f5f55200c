// caveman/base/ccr_handle.h — the spellings of a CCR handle a caller may paste (docs/base.md).
//
// Models and users copy handles out of markers and links: `ccr_…`, `<<ccr:ccr_…>>`,
// `ccr:ccr_…`, `ccr://ccr_obj_…/`. Every tool that takes a handle reduces them to the bare id
// with this one function. Pure; safe from any thread.
#ifndef CAVEMAN_BASE_CCR_HANDLE_H_
#define CAVEMAN_BASE_CCR_HANDLE_H_

#include <string>
#include <string_view>

namespace caveman::base {

// The bare id behind `handle`: ASCII white space trimmed; a whole `<<…>>` marker unwrapped
// (only when both ends are there: "<<ccr:x" stays as it is, so the store reports it unknown);
// then `ccr://` with its surrounding slashes, or `ccr:`, removed; trimmed again.
std::string normalize_ccr_handle(std::string_view handle);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_CCR_HANDLE_H_
