// html — article extraction (docs/spec/compressors.md#html): the page's title and its main text,
// without markup, scripts, styles, navigation or controls. Not query-aware; markers stand only for
// standard licence text and repeated paragraphs (article_blocks.h). The page itself stays
// in CCR.
#include <optional>
#include <string>
#include <string_view>

#include "compress/compressors.h"
#include "compress/html/article_blocks.h"
#include "compress/html/html_extract.h"
#include "compress/markup/markup.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMinOutput = 200;  // shorter extracts are too thin to replace a page

std::optional<CompressorOutput> compress_html(std::string_view input, std::string_view /*query*/) {
  // Page text is extracted only from what a tag scanner proves to be HTML: text that merely
  // holds `<…>` (a C++ template, an e-mail address, XML) passes through.
  if (markup::classify(input) != markup::Kind::kHtml) return std::nullopt;
  std::optional<std::string> text = html::extract_article(input);
  if (text) text = elide_repeated_paragraphs(elide_licence_text(*text));
  if (!text || text->size() < kMinOutput || text->size() >= input.size()) return std::nullopt;
  return CompressorOutput{std::move(*text), "html", std::nullopt, {}};
}

}  // namespace

std::unique_ptr<Compressor> make_html_compressor() {
  return make_compressor("html", compress_html);
}

}  // namespace caveman::compress
