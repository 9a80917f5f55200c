// Go strconv.ParseFloat(s, 64) acceptance and value, for "is this value numeric" decisions in
// the invariant summaries (docs/spec/markers.md#summary). Pure functions; safe from any thread.
#ifndef CAVEMAN_COMPRESS_COMMON_GO_FLOAT_H_
#define CAVEMAN_COMPRESS_COMMON_GO_FLOAT_H_

#include <optional>
#include <string_view>

namespace caveman::compress {

// The value Go's ParseFloat(s, 64) returns when it returns no error; nullopt when Go would
// report an error. Accepts exactly Go's grammar: optional sign, decimal mantissa with
// optional '.', optional e/E exponent; hexadecimal "0x" mantissa with a mandatory p/P
// exponent; "inf"/"infinity" (any case, optional sign) and "nan" (any case, no sign); '_'
// digit separators only where Go literal syntax allows them. Overflow to ±Inf is an error
// (as in Go); underflow is not. No surrounding whitespace.
std::optional<double> parse_go_float(std::string_view s);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_GO_FLOAT_H_
