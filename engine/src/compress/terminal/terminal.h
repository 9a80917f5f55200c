// The terminal compressor (docs/spec/compressors.md#terminal): shows what the terminal showed
// (escape sequences removed, carriage-return redraws collapsed, see terminal_clean.h), then keeps
// the head, the tail, every problem line and every line the redundancy gate calls novel;
// each elided run becomes `… N lines elided (caveman) …`.
#ifndef CAVEMAN_COMPRESS_TERMINAL_TERMINAL_H_
#define CAVEMAN_COMPRESS_TERMINAL_TERMINAL_H_

#include <string_view>

namespace caveman::compress {

// A line the terminal compressor always shows (case-insensitive): the whole words
// error, err, fatal, panic, exception, traceback, fail, failed, failure, warn, warning; a
// letter run ending in "error" or "exception" (AssertionError, IOError); a stack frame
// (indented `at ` / `File "`, `--->`, `.go:<digit>`, "caused by"); a `:line:col:`
// position; `exit status` 1–9.
bool is_terminal_problem_line(std::string_view line);

// A git diffstat line (`git log --stat`, `git show --stat`, merges and pulls), also under a
// `--graph` prefix: "<path> | <n> <+/- run>" or "<path> | Bin …". Beyond the original: the
// file list of a change is structure, like a diff's file headers, so it is always shown.
bool is_diffstat_line(std::string_view line);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TERMINAL_TERMINAL_H_
