// Presentation wrappers that agents' Read tools put around file contents: a line-number
// gutter ("     1\tline", "1→line", "1 | line", "1: line") and a single <file …>…</file>
// element (ENGINE.md §1.8, §3). They are stripped before detection and compression and put
// back afterwards, so compressors see plain source text.
#ifndef CAVEMAN_CORE_WRAPPERS_H_
#define CAVEMAN_CORE_WRAPPERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace caveman::core {

struct Listing {
  std::string source;                 // text under the gutter
  std::vector<std::int64_t> numbers;  // one per source line
  std::string separator;              // "\t", "→", " | " or ": " (taken from the first line)
  std::size_t pad_width = 0;          // right-align numbers to this width (0 = no padding)
  bool bare_blanks = false;           // some blank lines carried no gutter: restore them bare
};

// Recognises a gutter: ≥ 8 lines, each with a gutter or blank, strictly increasing numbers
// starting ≥ 1, ≥ 8 numbered lines.
std::optional<Listing> strip_gutter(std::string_view input);

// Re-applies the gutter to compressed text, tracing each output line back to its source
// line number; returns the text without a gutter when fewer than half the non-blank lines
// trace back (the decline rule).
std::string restore_gutter(std::string_view compressed, const Listing& listing);

struct FileWrapper {
  std::string prefix;  // leading whitespace + opening tag
  std::string suffix;  // "</file>" + trailing whitespace
};

// Recognises exactly one <file …>…</file> element around non-blank content.
std::optional<FileWrapper> strip_file_wrapper(std::string_view input, std::string* inner);

using Layer = std::variant<Listing, FileWrapper>;

struct Unwrapped {
  std::string body;
  std::vector<Layer> layers;  // outermost first
};

// Up to 4 layers; each round tries the gutter first, then the file wrapper.
Unwrapped unwrap_input(std::string_view input);
std::string rewrap(std::string body, const std::vector<Layer>& layers);

}  // namespace caveman::core

#endif  // CAVEMAN_CORE_WRAPPERS_H_
