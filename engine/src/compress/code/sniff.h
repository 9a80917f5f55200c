// Language sniffing for the code compressor: which grammars to try, best guess first.
// The compressor parses with each candidate in order and keeps the first error-free parse,
// so a wrong guess costs time, never correctness. Pure function; deterministic.
#ifndef CAVEMAN_COMPRESS_CODE_SNIFF_H_
#define CAVEMAN_COMPRESS_CODE_SNIFF_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "compress/code/language.h"

namespace caveman::compress::code {

// Candidate languages for `source`, most likely first; empty when nothing looks like code
// in a supported language. Signals are line-anchored (`package x` + `func `, `def …:`,
// `#include`, `function`/`=>`/`const`, TypeScript-only syntax), so a word inside a
// string or comment rarely misleads it. Only the first kSniffBytes are examined, so a
// multi-megabyte minified line costs no more than a normal file.
inline constexpr std::size_t kSniffBytes = 256u << 10;
std::vector<Language> candidate_languages(std::string_view source);

}  // namespace caveman::compress::code

#endif  // CAVEMAN_COMPRESS_CODE_SNIFF_H_
