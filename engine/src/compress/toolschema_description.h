// Tool/parameter description shortening (docs/spec/compressors.md#toolschema):
// keep every sentence that states a constraint ("must", "at most", "format", "RFC 3339"…)
// and the first other sentence, cut to 80 bytes. Pure functions; thread-safe.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::toolschema {

// Sentences of `text`: split after a '.' (or '…') that is followed by whitespace and an
// uppercase letter, unless the dot ends an abbreviation ("e.g.", "Dr.", "J."). Trimmed.
std::vector<std::string_view> split_sentences(std::string_view text);

// True when `sentence` contains a constraint marker (case-insensitive, whole words).
bool has_constraint(std::string_view sentence);

// The shortened description. Trimmed input of ≤ 160 bytes is returned whole. Idempotent:
// shorten(shorten(x)) == shorten(x).
std::string shorten_description(std::string_view text);

}  // namespace caveman::compress::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_
