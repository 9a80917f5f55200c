// The repetition compressor (docs/spec/compressors.md#repetition, forced only): every run of ≥ 3
// byte-identical consecutive lines keeps its first line and replaces the copies with
// `… caveman: K identical lines elided …`.
#include <string>
#include <vector>

#include "compress/compressors.h"
#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMinInputBytes = 200;
constexpr std::size_t kMinRun = 3;
constexpr std::string_view kOwnMarkerPrefix = "… caveman: ";

std::optional<CompressorOutput> compress_repetition(std::string_view input, std::string_view) {
  if (input.size() < kMinInputBytes || !text::is_valid_utf8(input)) return std::nullopt;
  text::Lines split = text::split_lines(input);
  const std::vector<std::string_view>& lines = split.lines;
  std::string out;
  out.reserve(input.size());
  bool collapsed = false;
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t j = i + 1;
    while (j < lines.size() && lines[j] == lines[i]) ++j;
    const std::size_t run = j - i;
    if (i > 0) out.push_back('\n');
    out.append(lines[i]);
    // Our own markers are never collapsed, so a second pass changes nothing.
    if (run >= kMinRun && !text::is_blank(lines[i]) &&
        lines[i].substr(0, kOwnMarkerPrefix.size()) != kOwnMarkerPrefix) {
      out.push_back('\n');
      out +=
          text::marker_line("… caveman: " + std::to_string(run - 1) + " identical lines elided …",
                            split.crlf_majority);
      collapsed = true;
    } else {
      for (std::size_t k = i + 1; k < j; ++k) {
        out.push_back('\n');
        out.append(lines[k]);
      }
    }
    i = j;
  }
  if (split.trailing_newline) out.push_back('\n');
  if (!collapsed || out.size() >= input.size()) return std::nullopt;
  return output_of(std::move(out));
}

}  // namespace

std::unique_ptr<Compressor> make_repetition_compressor() {
  return make_compressor("repetition", compress_repetition);
}

}  // namespace caveman::compress
