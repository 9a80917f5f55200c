// Presentation wrappers that agents' Read tools put around file contents: a line-number
// gutter ("     1\tline", "1→line", "1 | line", "1: line") and a single <file …>…</file>
// element (docs/spec/pipeline.md#wrappers). They are stripped before detection and compression and
// put back afterwards, so compressors see plain source text.
#ifndef CAVEMAN_CORE_WRAPPERS_H_
#define CAVEMAN_CORE_WRAPPERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace caveman::core {

// The listing contract: strip_gutter(x) succeeds only when rewrapping its unchanged source
// gives x back byte for byte, so unwrap → rewrap is the identity and detection sees the
// file's own text.
struct Listing {
  std::string source;                 // text under the gutter
  std::vector<std::int64_t> numbers;  // one per source line
  std::string separator;              // "\t", "→", " | " or ": " (taken from the first line)
  std::size_t pad_width = 0;          // right-align numbers to this width (0 = no padding)
  std::size_t lead_spaces = 0;        // spaces before the first line's number
  bool fixed_lead = false;            // every number follows lead_spaces spaces (no aligning)
  bool bare_blanks = false;           // some blank lines carried no gutter: restore them bare
  bool number_only_blanks = false;    // numbered empty lines are the number alone ("    14")
  // Claude Code's Read of a file ending in a newline ends with one more numbered line, empty
  // and without a newline ("151\t"): its exact text, put back after the last line. The
  // source then ends in the file's final newline. "" = no such line.
  std::string last_empty;
};

// Recognises a gutter: each line with a gutter or blank, strictly increasing numbers starting
// ≥ 1, and ≥ 8 numbered lines — or fewer, all numbered consecutively, with Claude Code's
// numbered empty last line without a newline or ≥ 1 KiB of text under them. Declines when
// the gutter cannot be re-rendered exactly (mixed padding or separators).
std::optional<Listing> strip_gutter(std::string_view input);

// How a gutter is drawn again. kFull: every line numbered as the reader printed it (the
// byte-exact round trip). kSparse, for a view: a listing numbered consecutively shows the
// numbers a reader cannot count to without help — the first line, every line after a gap or
// an added line, every multiple of kSparseGutterStep — and leaves the rest bare. Every number
// still follows from the view (docs/spec/pipeline.md#wrappers), at about a tenth of the gutter's
// tokens, which are near a third of a Read of source code.
enum class GutterStyle { kFull, kSparse };
inline constexpr std::int64_t kSparseGutterStep = 5;

// Re-applies the gutter to compressed text, tracing each output line back to its source
// line number, then the numbered empty last line; returns the text without a gutter when
// fewer than half the non-blank lines trace back (the decline rule). kSparse falls back to
// kFull for a listing whose numbers are not consecutive (grep -n: they are content).
std::string restore_gutter(std::string_view compressed, const Listing& listing,
                           GutterStyle style = GutterStyle::kFull);

// A file read's view (docs/engine.md#the-listing-contract-read-tool-gutters): the sparse gutter
// when every line of `compressed` is its source line, unchanged, or a marker whose count of
// lines fills the gap it stands in exactly (each then names its range and re-read); nullopt
// when a line is neither — a line that would read as the file's and is not.
std::optional<std::string> restore_file_read(std::string_view compressed, const Listing& listing);

// True when the numbers run 1 apart with no bare line before the last numbered one: they
// follow from the first one.
bool numbers_consecutive(const Listing& listing);

struct FileWrapper {
  std::string prefix;  // leading whitespace + opening tag
  std::string suffix;  // "</file>" + trailing whitespace
};

// Recognises exactly one <file …>…</file> element around non-blank content.
std::optional<FileWrapper> strip_file_wrapper(std::string_view input, std::string* inner);

// Claude Code appends <system-reminder>…</system-reminder> blocks to a tool's result (a Read
// listing followed by "deferred tools are now available"): they are a suffix around the
// output, not part of it. Recognised when the input ends with such blocks, each opening a line.
std::optional<FileWrapper> strip_trailing_reminders(std::string_view input, std::string* inner);

using Layer = std::variant<Listing, FileWrapper>;

struct Unwrapped {
  std::string body;
  std::vector<Layer> layers;  // outermost first
};

// Up to 4 layers; each round tries the gutter first, then the file wrapper, then trailing
// system reminders.
Unwrapped unwrap_input(std::string_view input);
std::string rewrap(std::string body, const std::vector<Layer>& layers,
                   GutterStyle style = GutterStyle::kFull);
// rewrap for a file read: each gutter by restore_file_read; nullopt when one declines.
std::optional<std::string> rewrap_file_read(std::string body, const std::vector<Layer>& layers);

}  // namespace caveman::core

#endif  // CAVEMAN_CORE_WRAPPERS_H_
