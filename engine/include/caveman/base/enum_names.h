// caveman/base/enum_names.h — an enum's names in one table, read both ways (docs/base.md), so
// a name and its parse cannot drift apart. A table is a constexpr array of EnumName<Enum>.
// Pure constexpr functions; safe from any thread.
#ifndef CAVEMAN_BASE_ENUM_NAMES_H_
#define CAVEMAN_BASE_ENUM_NAMES_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace caveman::base {

template <typename Enum>
using EnumName = std::pair<Enum, std::string_view>;

// The name `table` gives `value`, or `fallback` when it gives none.
template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const EnumName<Enum> (&table)[N], Enum value,
                                   std::string_view fallback) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return fallback;
}

// The value whose name in `table` is exactly `name`, or nullopt.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&table)[N], std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_ENUM_NAMES_H_
