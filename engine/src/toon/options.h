// Option validation shared by toon_encode() and toon_decode().
#ifndef CAVEMAN_TOON_OPTIONS_H_
#define CAVEMAN_TOON_OPTIONS_H_

#include "caveman/status.h"
#include "caveman/toon.h"

namespace caveman::toon {

// Largest indentation accepted (keeps a hostile option from multiplying output size).
inline constexpr int kMaxIndent = 64;

Status validate(const EncodeOptions& options);
Status validate(const DecodeOptions& options);

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_OPTIONS_H_
