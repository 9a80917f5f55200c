#include "cli/read_input.h"

#include <istream>

namespace caveman::engine_cli {

Result<std::string> read_all(std::istream& in, std::size_t max_bytes) {
  std::string data;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    std::streamsize n = in.gcount();
    if (n <= 0) break;
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      return Status::ResourceExhausted(
          "cave_input_too_large", "stdin exceeds " + std::to_string(max_bytes) + " bytes");
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  return data;
}

}  // namespace caveman::engine_cli
