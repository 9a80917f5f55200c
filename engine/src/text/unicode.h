// Unicode character classes from Debian's UCD (generated tables, see unicode_tables.inc).
// Pure functions, no allocation; safe from any thread.
#ifndef CAVEMAN_TEXT_UNICODE_H_
#define CAVEMAN_TEXT_UNICODE_H_

#include <cstdint>

namespace caveman::text {

// Order matches scripts/gen_unicode_tables.py CATEGORIES.
enum class GeneralCategory : std::uint8_t {
  kCn, kLu, kLl, kLt, kLm, kLo, kMn, kMc, kMe, kNd, kNl, kNo,
  kPc, kPd, kPs, kPe, kPi, kPf, kPo, kSm, kSc, kSk, kSo,
  kZs, kZl, kZp, kCc, kCf, kCs, kCo,
};

GeneralCategory general_category(char32_t cp);

inline bool is_letter(char32_t cp) {  // \p{L}
  auto c = general_category(cp);
  return c >= GeneralCategory::kLu && c <= GeneralCategory::kLo;
}
inline bool is_mark(char32_t cp) {  // \p{M}
  auto c = general_category(cp);
  return c >= GeneralCategory::kMn && c <= GeneralCategory::kMe;
}
inline bool is_number(char32_t cp) {  // \p{N}
  auto c = general_category(cp);
  return c >= GeneralCategory::kNd && c <= GeneralCategory::kNo;
}
inline bool is_decimal_digit(char32_t cp) {  // \p{Nd} (Go unicode.IsDigit)
  return general_category(cp) == GeneralCategory::kNd;
}
inline bool is_upper(char32_t cp) { return general_category(cp) == GeneralCategory::kLu; }
inline bool is_control(char32_t cp) { return general_category(cp) == GeneralCategory::kCc; }
// The White_Space property (Rust regex \s, Go unicode.IsSpace).
bool is_white_space(char32_t cp);
// Simple (1:1) lowercase mapping; identity when there is none.
char32_t to_lower(char32_t cp);

const char* unicode_version();

}  // namespace caveman::text

#endif  // CAVEMAN_TEXT_UNICODE_H_
