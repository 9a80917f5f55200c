// Line helpers for command output: terminal clean-up, error-line recognition and the
// line-keeping view that guarantees a failed command's evidence survives.
// Pure functions; thread-safe.
#ifndef CAVEMAN_SHRINK_OUTPUT_LINES_H_
#define CAVEMAN_SHRINK_OUTPUT_LINES_H_

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::shrink {

inline constexpr std::size_t kTailLines = 20;  // a failure always shows its last 20 lines
inline constexpr std::size_t kHeadLines = 3;

// What a terminal would show for one line: carriage-return redraws collapsed to the last
// non-empty segment, ANSI/VT escape sequences (CSI, OSC, two-byte) removed, trailing white
// space trimmed.
std::string clean_line(std::string_view line);

// The cleaned lines of a text, without copying the lines cleaning leaves alone (views into
// the text; the text must outlive this object). Megabytes of output stay cheap.
class CleanLines {
 public:
  explicit CleanLines(std::string_view text);
  CleanLines(const CleanLines&) = delete;
  CleanLines& operator=(const CleanLines&) = delete;
  const std::vector<std::string_view>& lines() const { return lines_; }

 private:
  std::deque<std::string> owned_;  // stable addresses for cleaned copies
  std::vector<std::string_view> lines_;
};

// A line that reports a failure: whole words error/err/fatal/fail(ed|ure)/panic/exception/
// traceback/abort(ed)/denied/assertion, a word ending in "error" or "exception"
// (TypeError, AssertionError), or "undefined reference", "segmentation fault",
// "core dumped", "no such file", "not found", "cannot". Case-insensitive; expects a clean line.
bool is_error_line(std::string_view line);

// Indices of the lines a failure must show: every error line and the last kTailLines
// non-blank lines, ascending.
std::vector<std::size_t> failure_evidence(const std::vector<std::string_view>& clean_lines);

// True when every line named by `required` appears (cleaned) as a line of `shown`.
bool shows_lines(std::string_view shown, const std::vector<std::string_view>& clean_lines,
                 const std::vector<std::size_t>& required);

// The clean lines with only the first `head`, the `keep` indices and nothing else; every
// dropped run of two or more lines becomes "… N lines elided (caveman) …" (a single dropped
// line is cheaper shown). Ends with '\n' unless empty.
std::string keep_lines_view(const std::vector<std::string_view>& clean_lines,
                            const std::vector<std::size_t>& keep, std::size_t head);

// The same view over a line sequence that is not held in memory: `kept` lists (index, clean
// text) in ascending index order, `total` is the number of lines.
std::string sparse_lines_view(const std::vector<std::pair<std::size_t, std::string>>& kept,
                              std::size_t total);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_OUTPUT_LINES_H_
