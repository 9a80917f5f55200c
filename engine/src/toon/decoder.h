// TOON text → Document (spec v3.3 §4–§12 and the §14 strict-mode checks). Path expansion and
// non-strict last-write-wins are applied afterwards by expand.h.
#ifndef CAVEMAN_TOON_DECODER_H_
#define CAVEMAN_TOON_DECODER_H_

#include <string_view>

#include "caveman/status.h"
#include "caveman/toon.h"
#include "toon/document.h"

namespace caveman::toon {

struct DecodeStats {
  bool duplicate_keys = false;  // some object repeats a key (non-strict mode only)
};

// Builds `doc` from `text`; views in `doc` may point into `text`, which must outlive it.
// Errors: codes::kInvalidToon with "line N: reason".
Status parse_toon(std::string_view text, const DecodeOptions& options, Document& doc,
                  DecodeStats& stats);

// "line N: reason" as a codes::kInvalidToon Status.
Status toon_error(std::uint32_t line, std::string_view reason);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_DECODER_H_
