// What a terminal would show for one line of captured output (docs/spec/compressors.md#terminal):
// ANSI/VT escape sequences removed, carriage-return redraws collapsed to the final frame,
// backspace overstrikes applied. Pure functions of their input bytes.
#ifndef CAVEMAN_COMPRESS_TERMINAL_TERMINAL_CLEAN_H_
#define CAVEMAN_COMPRESS_TERMINAL_TERMINAL_CLEAN_H_

#include <string>
#include <string_view>

namespace caveman::compress {

// Removes escape sequences (ECMA-48): CSI `ESC [` params/intermediates/final byte; OSC
// `ESC ]` … BEL or `ESC \`; DCS/SOS/PM/APC strings (`ESC P`, `ESC X`, `ESC ^`, `ESC _`)
// up to `ESC \`; nF escapes (`ESC (B`: intermediates 0x20–0x2F then a final byte) and the
// two-byte escapes `ESC` + 0x30–0x7E. An unterminated string sequence runs to the end.
std::string strip_ansi(std::string_view s);

// One line (no '\n'; a trailing '\r' is kept and re-attached): escape sequences removed,
// then the last carriage-return frame that is non-empty after stripping wins (the
// original took the last non-empty raw segment, which loses "100%\r\x1b[K"'s content),
// then each backspace erases the character before it.
std::string clean_terminal_line(std::string_view line);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TERMINAL_TERMINAL_CLEAN_H_
