// Strict JSON → Document for the TOON encoder: exactly one value, valid UTF-8, unique keys,
// no lone surrogate escapes (TOON cannot carry them), nesting ≤ kMaxNesting, numbers in
// canonical TOON form. Errors are codes::kInvalidJson with "line L, column C: reason".
#ifndef CAVEMAN_TOON_JSON_READER_H_
#define CAVEMAN_TOON_JSON_READER_H_

#include <string_view>

#include "caveman/status.h"
#include "toon/document.h"

namespace caveman::toon {

// Builds `doc` from `json`; views in `doc` may point into `json`, which must outlive it.
Status read_json(std::string_view json, Document& doc);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_JSON_READER_H_
