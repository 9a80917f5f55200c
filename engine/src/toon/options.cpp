#include "toon/options.h"

#include <string>

#include "caveman/base/codes.h"

namespace caveman::toon {
namespace {

Status bad(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

}  // namespace

Status validate(const EncodeOptions& options) {
  if (options.delimiter != ',' && options.delimiter != '\t' && options.delimiter != '|') {
    return bad("delimiter must be ',', tab or '|'");
  }
  if (options.indent < 1 || options.indent > kMaxIndent) {
    return bad("indent must be between 1 and " + std::to_string(kMaxIndent));
  }
  if (options.flatten_depth < 0) return bad("flatten depth must not be negative");
  return Status::Ok();
}

Status validate(const DecodeOptions& options) {
  if (options.indent < 1 || options.indent > kMaxIndent) {
    return bad("indent must be between 1 and " + std::to_string(kMaxIndent));
  }
  return Status::Ok();
}

}  // namespace caveman::toon
