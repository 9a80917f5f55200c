#include "cli/read_input.h"

#include <istream>
#include <memory>
#include <vector>

#include "caveman/base/codes.h"

namespace caveman::engine_cli {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

}  // namespace

// Reads in 1 MiB chunks and joins them once: appending to one string would double its
// buffer as it grows, holding up to three times the input while it copies (64 MiB of stdin
// peaked near 200 MiB); chunks then one exact copy peak at twice the input.
Result<std::string> read_all(std::istream& in, std::size_t max_bytes) {
  std::vector<std::unique_ptr<char[]>> chunks;
  std::size_t total = 0, last = 0;
  while (in) {
    if (chunks.empty() || last == kChunk) {
      // Uninitialised, as std::make_unique_for_overwrite would give (libc++ 14 lacks it:
      // docs/STATUS.md#clang--libc-the-macos-proxy); read() fills what is kept.
      chunks.push_back(std::unique_ptr<char[]>(new char[kChunk]));
      last = 0;
    }
    in.read(chunks.back().get() + last, static_cast<std::streamsize>(kChunk - last));
    std::streamsize n = in.gcount();
    if (n <= 0) break;
    last += static_cast<std::size_t>(n);
    total += static_cast<std::size_t>(n);
    if (total > max_bytes) {
      return Status::ResourceExhausted(codes::kInputTooLarge,
                                       "stdin exceeds " + std::to_string(max_bytes) + " bytes");
    }
  }
  std::string data;
  data.reserve(total);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    data.append(chunks[i].get(), i + 1 == chunks.size() ? last : kChunk);
    chunks[i].reset();
  }
  return data;
}

}  // namespace caveman::engine_cli
