#include "report_json.h"

#include <charconv>
#include <cmath>

#include "caveman/base/text.h"


namespace caveman::shrink {

void ReportWriter::key(std::string_view k) {
  if (out_.size() > 1) out_.push_back(',');
  base::append_json_string(k, out_);
  out_.push_back(':');
}

ReportWriter& ReportWriter::string(std::string_view k, std::string_view value) {
  key(k);
  base::append_json_string(value, out_);
  return *this;
}

ReportWriter& ReportWriter::integer(std::string_view k, std::int64_t value) {
  key(k);
  out_ += std::to_string(value);
  return *this;
}

ReportWriter& ReportWriter::number(std::string_view k, double value) {
  key(k);
  out_ += format_number(value);
  return *this;
}

ReportWriter& ReportWriter::boolean(std::string_view k, bool value) {
  key(k);
  out_ += value ? "true" : "false";
  return *this;
}

ReportWriter& ReportWriter::raw(std::string_view k, std::string_view json) {
  key(k);
  out_ += json;
  return *this;
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc()) return "0";
  return std::string(buf, end);
}

}  // namespace caveman::shrink
