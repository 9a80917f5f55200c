#include "text/unicode.h"

#include <algorithm>
#include <iterator>

namespace caveman::text {
namespace {
#include "text/unicode_tables.inc"
}  // namespace

GeneralCategory general_category(char32_t cp) {
  if (cp >= 0x110000) return GeneralCategory::kCn;
  unsigned block = kCategoryStage1[cp >> 8];
  return static_cast<GeneralCategory>(kCategoryStage2[block * 256 + (cp & 0xFF)]);
}

bool is_white_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D);
  for (const auto& r : kWhiteSpaceRanges) {
    if (cp < r[0]) return false;
    if (cp <= r[1]) return true;
  }
  return false;
}

char32_t to_lower(char32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  auto it = std::lower_bound(std::begin(kLowerPairs), std::end(kLowerPairs), cp,
                             [](const char32_t(&pair)[2], char32_t v) { return pair[0] < v; });
  if (it != std::end(kLowerPairs) && (*it)[0] == cp) return (*it)[1];
  return cp;
}

const char* unicode_version() { return kUnicodeDataVersion; }

}  // namespace caveman::text
