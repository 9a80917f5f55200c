// Paragraph-level tidying of an article extract: what a reader of the page gets nothing
// from twice or at all. Standard licence text (manuals carry BSD/MIT conditions, GNU
// notices and whole GFDL appendices) is recognised by the fixed sentences those licences
// open with, never by topic, so a page *about* licensing keeps its text; copyright lines
// (which name the holder) stay. A paragraph repeated later in the page (API references
// describe a call's sync and async forms alike) is replaced by a pointer to its first
// copy. Each replacement is one marker saying what went; the page itself stays in CCR.
#ifndef CAVEMAN_COMPRESS_HTML_ARTICLE_BLOCKS_H_
#define CAVEMAN_COMPRESS_HTML_ARTICLE_BLOCKS_H_

#include <string>
#include <string_view>

namespace caveman::compress {

// `text` is rendered text whose blocks are separated by one blank line ("\n\n"), headings
// as `#` lines. Two rules:
// * a heading naming a licence (GNU FDL/GPL/LGPL, Apache, Mozilla) whose first paragraph
//   is "Version N…" is the licence's full text: its section body (up to the next heading
//   of the same or a higher level) becomes a marker quoting that version line;
// * a run of paragraphs that each open with a standard licence sentence (BSD conditions
//   and the list items after them, MIT/ISC permission, GNU and Apache notices, warranty
//   disclaimers, "you should have received a copy…") becomes a marker.
// Runs under 300 bytes are left as they are. Unchanged text is returned as is.
std::string elide_licence_text(std::string_view text);

// Same block format. A paragraph of at least 200 bytes (not a heading) whose text equals an
// earlier paragraph's, white space aside, becomes `… 1 paragraph elided (caveman): same text
// as the paragraph under "<heading of the first copy>" …`; a one-line paragraph that differs
// only in punctuation or letter case says "same words as". Multi-line blocks (code,
// preformatted text) must match as text. Unchanged text is returned as is.
std::string elide_repeated_paragraphs(std::string_view text);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_HTML_ARTICLE_BLOCKS_H_
