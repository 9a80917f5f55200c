// Sectioning for the text compressor (docs/spec/compressors.md#text): blank-line separated blocks
// (paragraph mode) or single lines (line mode, when the text has no blank line), with
// fenced code blocks always one unit. Sections are byte ranges of the input, so kept
// sections and the gaps between adjacent kept sections can be copied verbatim.
#ifndef CAVEMAN_COMPRESS_TEXT_TEXT_SECTIONS_H_
#define CAVEMAN_COMPRESS_TEXT_TEXT_SECTIONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

struct Section {
  std::size_t begin = 0;  // first byte of the first line (indentation included)
  std::size_t end = 0;    // one past the last non-whitespace byte
  bool fence = false;     // a fenced code block
};

struct Sections {
  std::vector<Section> sections;
  bool paragraph_mode = false;
};

// Beyond the original: in paragraph mode a block whose first line is a heading (an ATX
// `#` heading, or a heading-shaped line followed by a more indented line, as in man pages
// and --help definition lists: "--follow\n    Continue listing …") is split into the
// heading line and the rest, so the heading survives when its body is elided.
Sections split_sections(std::string_view text);

// docs/spec/compressors.md#text heading: starts with '#', or ≤ 96 bytes with no '.', '!' or '?' and
// 1–8 whitespace-separated words. `trimmed` is the whitespace-trimmed section text.
bool is_heading(std::string_view trimmed);

// Fenced code opener: 0–3 spaces/TABs then ≥ 3 backticks or tildes. Sets the fence
// character and length.
bool is_fence_open(std::string_view line, char* fence_char, std::size_t* fence_len);

// HTML-looking text (starts with <!doctype html / <html, or contains <body): every
// <script>, <style> and <svg> element becomes `marker`, comments are deleted. Other text is
// returned unchanged.
std::string strip_html_noise(std::string_view text, std::string_view marker);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TEXT_TEXT_SECTIONS_H_
