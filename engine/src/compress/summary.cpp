#include "compress/summary.h"

#include "json/json.h"

namespace caveman::compress {

// Placeholders until the summary engine lands: no fields, no summary (markers then carry
// counts only, which is still true).
Fields log_line_fields(std::string_view) { return {}; }
Fields table_row_fields(const std::vector<std::string>&, const std::vector<std::string>&) {
  return {};
}
Fields json_element_fields(const json::Value&) { return {}; }
std::string summarize(const std::vector<Fields>&, std::int64_t) { return {}; }

bool worth_eliding(std::size_t run_units, std::string_view summary, std::size_t marker_bytes,
                   std::size_t run_bytes) {
  if (run_units >= 3) return true;
  return !summary.empty() && 2 * marker_bytes <= run_bytes;
}

std::string elision_note(std::string_view unit) {
  std::string out(kNotePrefix);
  out += unit;
  out += " resemble shown ";
  out += unit;
  out += " and match the stated invariants — answer from this view; if you truly cannot, one "
         "broad caveman_retrieve …";
  return out;
}

}  // namespace caveman::compress
