// The written form of a grep block (docs/formats.md, "grep output"): grep, ripgrep and git
// grep lines ("PATH:N:TEXT", context "PATH-N-TEXT") with each file's path written once.
// This file is the only place that writes or reads that syntax; grep_view.cpp decides
// when to use it.
//
//   [grep output, 3 lines: a file path, then its lines "N:TEXT" / "N-TEXT" standing for
//    "/usr/lib/python3.11/PATH:N:TEXT" / "…PATH-N-TEXT"]
//   _pydecimal.py
//   625:                raise ValueError('Invalid tuple size in creation of Decimal '
//   630:                raise ValueError("Invalid sign.  The first value in the tuple "
//   datetime.py
//   281:                raise ValueError("Invalid ISO string")
//
// (the header is one line). A body line is, in this order: "--" or an elision marker ("… ",
// as written); a hit "N:TEXT" or "N-TEXT" of the path above it; a whole grep line (as
// written); else a path, relative to the root, that the hits below it belong to. Lines as
// written stand only in blocks whose header says so.
#ifndef CAVEMAN_COMPRESS_FACTOR_GREP_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_GREP_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

struct GrepHeader {
  std::size_t lines = 0;   // lines the block stands for
  std::string root;        // prefix of every path line's path
  bool as_written = false;  // the body holds lines written as they are ("--", whole lines)
};

// nullopt when the root cannot be written so that it reads back the same.
std::optional<std::string> write_grep_header(const GrepHeader& header);
std::optional<GrepHeader> parse_grep_header(std::string_view line);

// Where a grep line's path ends: line = PATH + c + DIGITS + c + TEXT with c ':' or '-' and
// PATH not empty. `hint` (the previous line's path) is taken when it fits; otherwise the
// first ":N:" split, else the first "-N-" split. nullopt when the line is no grep line.
std::optional<std::size_t> grep_path_end(std::string_view line, std::string_view hint = {});

// How the decoder reads one body line (the encoder checks its lines against it).
enum class GrepRow { kAsWritten, kHit, kPath };
GrepRow classify_grep_row(std::string_view row);

// The lines of the block whose header stands at lines[at], appended to `out`; returns the
// index after its body, or nullopt when the body does not fit the header.
std::optional<std::size_t> decode_grep_block(const std::vector<std::string_view>& lines,
                                             std::size_t at, const GrepHeader& header,
                                             std::vector<std::string>& out);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_GREP_SYNTAX_H_
