// Description condensing for model-facing tool catalogs.
//
// A description keeps its lead sentence (cut to a byte cap at a word boundary, marked '…')
// and every sentence that states a constraint ("must", "at most 30", "either … not both",
// "Requires a UID", "between -90 and 90", "RFC 3339"…), in their original order. Sentences
// that only repeat the schema's `default`, example parentheticals inside kept sentences,
// articles and filler words go ("caveman prose"); the original is always recoverable from
// the store. Pure functions of their arguments; thread-safe.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::toolschema {

// Byte caps for the lead sentence (the '…' marker is counted inside the cap).
inline constexpr std::size_t kToolLeadCap = 80;
inline constexpr std::size_t kParamLeadCap = 50;

struct DescriptionOptions {
  std::size_t lead_cap = kToolLeadCap;
  bool has_default = false;  // the schema states `default`, so "Defaults to X." is redundant
};

// Sentences of `text` (whitespace already collapsed): split after '.', '!', '?' or '…' (the
// mark of a cut lead) followed by a space and an uppercase letter, quote, backtick or '(' —
// unless the dot ends an abbreviation ("e.g.", "i.e.", "etc.", "vs.", a single letter).
// Trimmed, never empty.
std::vector<std::string_view> split_sentences(std::string_view text);

// True when `sentence` states a constraint a caller must respect (see the header comment).
bool states_constraint(std::string_view sentence);

// The condensed description; empty when nothing worth keeping remains.
// Idempotent: condense(condense(x)) == condense(x).
std::string condense_description(std::string_view text, const DescriptionOptions& options);

// True when the description only echoes `names` (a parameter name, its tool's name…): every
// content word of it, compared case-insensitively and without a plural "s", already appears
// in one of the names (camelCase and snake_case are split into words), or all but one of
// exactly three do. "Page width" for
// `width` of `resize_page` echoes; "Maximum number of rules" for `pageSize` does not.
bool echoes_names(std::string_view description, const std::vector<std::string_view>& names);

// Lowercase words of an identifier or phrase: "includeSnapshot" → {include, snapshot},
// "from_uid" → {from, uid}, "HTTPHeaders" → {http, header} (plural "s" dropped).
std::vector<std::string> name_words(std::string_view name);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_DESCRIPTION_H_
