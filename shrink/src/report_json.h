// A tiny writer for caveman-shrink's one-line JSON reports (compact, fields in call order).
// Numbers use the shortest round-trip form; strings are escaped like JSON.stringify.
#ifndef CAVEMAN_SHRINK_REPORT_JSON_H_
#define CAVEMAN_SHRINK_REPORT_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace caveman::shrink {

class ReportWriter {
 public:
  ReportWriter& string(std::string_view key, std::string_view value);
  ReportWriter& integer(std::string_view key, std::int64_t value);
  ReportWriter& number(std::string_view key, double value);
  ReportWriter& boolean(std::string_view key, bool value);
  // A value that is already JSON text.
  ReportWriter& raw(std::string_view key, std::string_view json);
  // The object text, without a trailing newline.
  std::string finish() const { return out_ + "}"; }

 private:
  void key(std::string_view k);
  std::string out_ = "{";
};

// Shortest round-trip decimal form of `value` ("0.5", "0.4312", "0").
std::string format_number(double value);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_REPORT_JSON_H_
