// What the view headers of docs/formats.md share: each opens with fixed words and then the
// positive count of lines or rows the view stands for, e.g. `[CSV rows: 12 records, …`.
#ifndef CAVEMAN_COMPRESS_FACTOR_HEADER_COUNT_H_
#define CAVEMAN_COMPRESS_FACTOR_HEADER_COUNT_H_

#include <charconv>
#include <cstddef>
#include <optional>
#include <string_view>

namespace caveman::compress::factor {

// The rest of `s` after `open` and the decimal count that follows it (stored in `*count`), or
// nullopt when `s` does not start with `open` and a count above zero.
inline std::optional<std::string_view> after_count(std::string_view s, std::string_view open,
                                                   std::size_t* count) {
  if (!s.starts_with(open)) return std::nullopt;
  s.remove_prefix(open.size());
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *count);
  if (ec != std::errc() || *count == 0) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return s;
}

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_HEADER_COUNT_H_
