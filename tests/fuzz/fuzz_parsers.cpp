// The CSV/TSV/Markdown table parser, the config classifier (YAML via yaml-cpp), the JSON DOM
// and the shell-command reader of detection hints: never crash; a parsed table's spans lie
// inside the input; JSON validity agrees with the DOM parser; a command names a file only with
// bytes it holds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "caveman/tool_source.h"
#include "compress/config/config_parse.h"
#include "compress/tabular/table_parse.h"
#include "fuzz_util.h"
#include "json/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  if (auto t = caveman::compress::parse_table(input)) {
    FUZZ_CHECK(t->rows.size() == t->spans.size() || t->spans.empty(), "rows/spans mismatch");
    for (const auto& [b, e] : t->spans) FUZZ_CHECK(b <= e && e <= input.size(), "span outside input");
  }
  (void)caveman::compress::classify_config(input);
  std::string file = caveman::shell_source_path(input);
  FUZZ_CHECK(file.size() <= input.size(), "a command names a file longer than itself");
  bool valid = caveman::json::is_valid(input);
  auto dom = caveman::json::parse(input, 10000);
  FUZZ_CHECK(valid == dom.has_value(), "is_valid disagrees with parse");
  if (dom) {
    auto again = caveman::json::parse(caveman::json::to_compact(*dom), 10000);
    FUZZ_CHECK(again && caveman::json::to_compact(*again) == caveman::json::to_compact(*dom),
               "compact JSON does not round-trip");
  }
  return 0;
}
