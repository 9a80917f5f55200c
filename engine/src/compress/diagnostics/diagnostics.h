// Compiler diagnostics and stack traces, recognised by their line formats
// (docs/spec/detect.md#diagnostics): `path:line:col: error|warning|note: …` (gcc, clang,
// UBSan, javac without the column), `path(line,col): error TS…` and `path:line:col - error TS…`
// (tsc), `error[E…]: …` with `--> path:line:col` (rustc), `Traceback (most recent call last):`
// with `File "…", line N` frames (Python), `    at f (file:l:c)` frames (node), a
// `==PID==ERROR: …Sanitizer` report, `==PID==` lines (valgrind), and the build tools' own
// failure lines (`make: ***`, `FAILED:`, `collect2:`, `ld:`). A header line opens a
// diagnostic; its source excerpt, caret and gutter lines and the indented lines under it
// belong to it. Shared by Detect and the diagnostics compressor.
#ifndef CAVEMAN_COMPRESS_DIAGNOSTICS_DIAGNOSTICS_H_
#define CAVEMAN_COMPRESS_DIAGNOSTICS_DIAGNOSTICS_H_

#include <cstddef>
#include <string_view>

namespace caveman::compress::diagnostics {

struct DiagnosticStats {
  std::size_t lines = 0;       // non-blank lines
  std::size_t headers = 0;     // lines that open a diagnostic or a trace
  std::size_t diagnostic = 0;  // headers and the lines that belong to them
};

// A line that opens a diagnostic or a trace (`path:12:5: error: …`, `Traceback …`,
// `TypeError: …`, `==PID==ERROR: …`, `make: *** …`).
bool is_header(std::string_view line);

// A build tool's step (a log line of a build, docs/spec/detect.md#line-shapes): `[3/12] Building C
// object …` (ninja), or a command line whose program is a compiler, assembler, linker or archiver
// (`cc -c x.c -o x.o`, `/usr/bin/c++ …`).
bool is_build_step(std::string_view line);

DiagnosticStats scan(std::string_view text);

// At least one header, and diagnostic lines are at least half the non-blank lines. A build
// transcript whose steps outnumber its diagnostics is a log (its steps are log lines).
bool is_diagnostics(std::string_view text);

}  // namespace caveman::compress::diagnostics

#endif  // CAVEMAN_COMPRESS_DIAGNOSTICS_DIAGNOSTICS_H_
