// The search-result compressor (docs/spec/compressors.md#search-result): grep/ripgrep/git-grep
// style `path:line:` hits and URL lists. Keeps the head and tail, keyword lines, hits whose matched
// text reports an error or failure, query-relevant lines and every line the redundancy gate
// calls novel; each elided run becomes `… N search result lines elided (caveman) …`.
#ifndef CAVEMAN_COMPRESS_SEARCH_SEARCH_RESULT_H_
#define CAVEMAN_COMPRESS_SEARCH_SEARCH_RESULT_H_

#include <cstddef>
#include <optional>
#include <string_view>

namespace caveman::compress {

// Offset of the matched text in a `path:line:` or `path:line:col:` hit line (the byte after
// the prefix), or nullopt when the line is not such a hit. The path starts with one of
// `. / ~ _ -`, a letter or a digit and holds at most 240 bytes without ':'.
std::optional<std::size_t> search_hit_text_offset(std::string_view line);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_SEARCH_SEARCH_RESULT_H_
