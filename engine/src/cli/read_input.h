// Bounded stdin reading shared by the CLI verbs.
#ifndef CAVEMAN_CLI_READ_INPUT_H_
#define CAVEMAN_CLI_READ_INPUT_H_

#include <cstddef>
#include <iosfwd>
#include <string>

#include "caveman/status.h"

namespace caveman::engine_cli {

// Reads all of `in`; more than `max_bytes` → kResourceExhausted (codes::kInputTooLarge).
Result<std::string> read_all(std::istream& in, std::size_t max_bytes);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_READ_INPUT_H_
