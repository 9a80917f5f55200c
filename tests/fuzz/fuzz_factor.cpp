// The factoring layer: a factored view of any text expands to exactly that text, a view is
// never factored again, and decoding arbitrary bytes never crashes. The same for JSON table
// views of any bytes that parse as JSON, JSON-lines tables, for aligned-table and CSV-columns
// views, and for table headers and rows read on their own, for config sections as tables and
// unwrapped prose; a word-diff line reads back to the pair it was written for; eliding integrity
// digests keeps JSON valid and never grows it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "caveman/tokens.h"
#include "compress/diff/diff_words.h"
#include "compress/factor/expand.h"
#include "compress/factor/json_digests.h"
#include "compress/factor/json_table.h"
#include "compress/factor/line_blocks.h"
#include "compress/factor/prose_view.h"
#include "compress/factor/table_syntax.h"
#include "compress/factor/tabular_views.h"
#include "fuzz_util.h"
#include "json/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace factor = caveman::compress::factor;
  std::string input(reinterpret_cast<const char*>(data), size);
  (void)factor::expand_blocks(input);
  // A header line followed by arbitrary rows: decoding either fails or yields text.
  std::size_t nl = input.find('\n');
  if (std::optional<factor::TableHeader> h = factor::parse_table_header(input.substr(0, nl))) {
    std::optional<std::string> again = factor::write_table_header(*h);
    FUZZ_CHECK(again.has_value(), "a parsed table header cannot be written");
  }
  std::optional<std::string> view = factor::factor_text(input);
  if (view) {
    std::optional<std::string> back = factor::expand_blocks(*view);
    FUZZ_CHECK(back.has_value() && *back == input, "view does not expand to the input");
    FUZZ_CHECK(!factor::factor_text(*view), "a view was factored again");
  }
  const caveman::tokens::Counter& counter = caveman::tokens::default_counter();
  if (std::optional<std::string> table = factor::json_table_view(input, counter)) {
    std::optional<std::string> back = factor::expand_blocks(*table);
    FUZZ_CHECK(back.has_value() && *back == input, "table view does not expand to the input");
    FUZZ_CHECK(!factor::json_table_view(*table, counter), "a table view was tabled again");
  }
  if (std::optional<std::string> lines = factor::json_lines_view(input, {}, counter)) {
    std::optional<std::string> back = factor::expand_blocks(*lines);
    FUZZ_CHECK(back.has_value() && *back == input, "JSON-lines view does not expand to the input");
  }
  if (std::optional<std::string> cut = factor::elide_digests(input)) {
    FUZZ_CHECK(cut->size() < input.size(), "eliding digests grew the text");
    FUZZ_CHECK(caveman::json::parse(*cut).has_value(), "eliding digests broke the JSON");
  }
  // Aligned-table and CSV-columns views of any bytes expand exactly and are final.
  for (std::optional<std::string> v :
       {factor::aligned_table_view(input), factor::csv_columns_view(input)}) {
    if (!v) continue;
    std::optional<std::string> back = factor::expand_blocks(*v);
    FUZZ_CHECK(back.has_value() && *back == input, "tabular view does not expand to the input");
    FUZZ_CHECK(!factor::aligned_table_view(*v) && !factor::csv_columns_view(*v),
               "a tabular view was viewed again");
  }
  if (std::optional<std::string> sections = factor::factor_text(input, {}, true)) {
    std::optional<std::string> back = factor::expand_blocks(*sections);
    FUZZ_CHECK(back.has_value() && *back == input, "section view does not expand to the input");
    FUZZ_CHECK(!factor::factor_text(*sections, {}, true), "a section view was factored again");
  }
  // The first line against the rest as a removed/added pair.
  if (nl != std::string::npos) {
    std::string removed = "-" + input.substr(0, nl), added = "+" + input.substr(nl + 1);
    if (std::optional<std::string> w = caveman::compress::diff::word_diff_line(removed, added)) {
      auto pair = caveman::compress::diff::split_word_diff(*w);
      FUZZ_CHECK(pair && pair->first == removed && pair->second == added,
                 "a word-diff line does not read back to its pair");
    }
  }
  // Unwrapped prose of any bytes expands exactly and is final.
  if (std::optional<std::string> prose = factor::unwrap_view(input)) {
    std::optional<std::string> back = factor::expand_blocks(*prose);
    FUZZ_CHECK(back.has_value() && *back == input, "prose view does not expand to the input");
    FUZZ_CHECK(!factor::unwrap_view(*prose), "a prose view was unwrapped again");
  }
  return 0;
}
