#include "caveman/base/ccr_handle.h"

#include "caveman/base/text.h"

namespace caveman::base {

std::string normalize_ccr_handle(std::string_view handle) {
  std::string_view h = trim_ascii(handle);
  if (h.size() >= 4 && h.starts_with("<<") && h.ends_with(">>")) {
    h = trim_ascii(h.substr(2, h.size() - 4));
  }
  if (h.starts_with("ccr://")) {
    h.remove_prefix(6);
    while (!h.empty() && h.front() == '/') h.remove_prefix(1);
    while (!h.empty() && h.back() == '/') h.remove_suffix(1);
  } else if (h.starts_with("ccr:")) {
    h.remove_prefix(4);
  }
  return std::string(trim_ascii(h));
}

}  // namespace caveman::base
