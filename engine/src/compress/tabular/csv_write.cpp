#include "compress/tabular/csv_write.h"

#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress {

bool csv_field_needs_quotes(std::string_view field, char delimiter) {
  if (field.empty()) return false;
  if (field == "\\.") return true;
  for (char c : field) {
    if (c == '\n' || c == '\r' || c == '"' || c == delimiter) return true;
  }
  text::Decoded d = text::decode_utf8(field, 0);
  return d.valid && text::is_white_space(d.cp);
}

std::string csv_record(const std::vector<std::string>& fields, char delimiter, bool crlf) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back(delimiter);
    const std::string& f = fields[i];
    if (!csv_field_needs_quotes(f, delimiter)) {
      out += f;
      continue;
    }
    out.push_back('"');
    for (char c : f) {
      if (c == '"') {
        out += "\"\"";
      } else if (c == '\r') {
        if (!crlf) out.push_back('\r');
      } else if (c == '\n') {
        out += crlf ? "\r\n" : "\n";
      } else {
        out.push_back(c);
      }
    }
    out.push_back('"');
  }
  return out;
}

}  // namespace caveman::compress
