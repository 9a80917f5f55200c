// Markup by proof (docs/spec/detect.md#markup): whether a text is a document of HTML
// elements, an XML document, or neither. A text is markup only when a tag scanner reads it as
// tags — `<` + a name + attributes + `>` as HTML and XML write them — and those tags carry
// the text: a C++ template (`std::vector<P>`), an e-mail address (`<a@b>`), a symbol
// (`<sym+0x10>`) or a `< HTTP/1.1` transcript line holds `<` but is no markup. Shared by
// Detect and the html compressor, which declines any input that is not HTML by this proof.
#ifndef CAVEMAN_COMPRESS_MARKUP_MARKUP_H_
#define CAVEMAN_COMPRESS_MARKUP_MARKUP_H_

#include <cstddef>
#include <string_view>

namespace caveman::compress::markup {

struct MarkupStats {
  std::size_t tags = 0;          // start and end tags
  std::size_t html_tags = 0;     // …whose name is an HTML element (gumbo's table)
  std::size_t html_starts = 0;   // start tags of HTML elements that need an end tag
  std::size_t html_ends = 0;     // end tags of HTML elements
  std::size_t stray_lt = 0;      // '<' that opens no tag, comment, declaration or PI
  std::size_t lines = 0;         // non-blank lines
  std::size_t markup_lines = 0;  // …that start (after indentation) with a tag, comment or
                                 // declaration, or lie inside one
  bool xml_prolog = false;       // `<?xml` opens the text (after a byte-order mark)
  bool doctype_html = false;     // the first declaration is `<!DOCTYPE html`
  bool other_doctype = false;    // a `<!DOCTYPE` naming another root (svg, fontconfig, …)
  bool root_html = false;        // the first element is <html>
  bool root_svg = false;         // the first element is <svg>
  bool qualified_names = false;  // a tag name holds ':' (xs:element, svg:path)
};

MarkupStats scan(std::string_view text);

enum class Kind { kNone, kHtml, kXml };

// kHtml: an HTML document (`<!DOCTYPE html` or an `<html>` root), or markup whose tags are
// HTML elements (≥ 90%) with end tags; kXml: an XML prolog, a non-HTML doctype, an <svg> root,
// or markup whose elements are not HTML's; kNone otherwise. Markup means: at least 4 tags,
// stray '<' at most a tenth of them, and at least half the non-blank lines are markup lines.
Kind classify(const MarkupStats& st);
Kind classify(std::string_view text);

// The text says what it is: an XML prolog, a doctype, or an <html> or <svg> root.
bool declared(const MarkupStats& st);

}  // namespace caveman::compress::markup

#endif  // CAVEMAN_COMPRESS_MARKUP_MARKUP_H_
