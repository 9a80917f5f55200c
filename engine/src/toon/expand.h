// Decoder post-processing on a rebuilt tree: non-strict last-write-wins for repeated keys
// (§14.4: the value of the last occurrence at the position of the first) and safe path
// expansion (§13.4: unquoted dotted keys made of IdentifierSegments become nested objects,
// deep-merged in document order; conflicts error in strict mode, last write wins otherwise).
#ifndef CAVEMAN_TOON_EXPAND_H_
#define CAVEMAN_TOON_EXPAND_H_

#include "caveman/status.h"
#include "toon/document.h"

namespace caveman::toon {

// Replaces `doc` with the processed tree. Errors: codes::kInvalidToon naming the line of the
// conflicting value, or an expansion that would nest deeper than kMaxNesting.
Status postprocess(Document& doc, bool strict, bool expand_paths);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_EXPAND_H_
