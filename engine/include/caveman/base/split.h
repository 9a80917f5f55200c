// caveman/base/split.h — cutting text into lines and counting a needle (docs/base.md).
// Views into the caller's text, which must outlive them. Pure functions; safe from any thread.
#ifndef CAVEMAN_BASE_SPLIT_H_
#define CAVEMAN_BASE_SPLIT_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace caveman::base {

// The lines of `s` without their '\n' (a '\r' stays); a final '\n' ends the last line
// instead of starting an empty one: "" has no lines, "a\n\nb" three.
std::vector<std::string_view> split_lines(std::string_view s);

// How many times a non-empty `needle` occurs in `s`, counting from the end of each match.
std::size_t count_occurrences(std::string_view s, std::string_view needle);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_SPLIT_H_
