// Issue 36: what the default engine does with a file read and with markup (docs/engine.md,
// "A file read is edit-safe"; docs/formats.md#markers).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "caveman/engine.h"

namespace caveman {
namespace {

Engine make_engine() {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  EXPECT_TRUE(store.ok());
  return Engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
}

Options compress_options() {
  Options o;
  o.mode = "compress";
  return o;
}

// 400 access-log lines, a 404 every 97th, under a Read gutter starting at `first`.
std::string access_log_read(int first) {
  std::string s;
  for (int i = 0; i < 400; ++i) {
    bool miss = i % 97 == 50;
    s += std::to_string(first + i) +
         "\t127.0.0.1 - - [07/Dec/2026:02:48:" + std::to_string(10 + i % 50) +
         " +0000] \"GET /api/orders/" + std::to_string(1000 + i * 7) + " HTTP/1.1\" " +
         (miss ? "404" : "200") + " " + std::to_string(20 + i % 5) + " \"-\" \"curl/7.88.1\"\n";
  }
  return s;
}

// A log read from the top is read for what it says: its view may factor lines (lossless) and
// hides a line only behind a marker whose selector is true of it, or that names its range and
// the re-read that shows it; every 404 stays.
TEST(FileReadTest, ALogReadHidesLinesOnlyBehindMarkersThatNameTheirRange) {
  Engine engine = make_engine();
  CompressResult r = engine.compress(access_log_read(1), compress_options());
  ASSERT_EQ(r.content_type, "log");
  ASSERT_FALSE(r.passed_through());
  EXPECT_LT(r.tokens_after, r.tokens_before / 2);
  for (std::size_t at = 0; (at = r.output.find(" elided (caveman)", at)) != std::string::npos;
       ++at) {
    std::size_t end = r.output.find('\n', at);
    std::size_t start = r.output.rfind('\n', at) + 1;
    std::string marker = r.output.substr(start, end - start);
    EXPECT_TRUE(marker.find(" matching \"") != std::string::npos ||
                marker.find(": Read offset=") != std::string::npos)
        << marker;
  }
  for (int i = 50; i < 400; i += 97) {
    EXPECT_NE(r.output.find("/api/orders/" + std::to_string(1000 + i * 7) + " HTTP/1.1\" 404"),
              std::string::npos)
        << i;
  }
}

// The re-read a marker names (a window: the listing starts past line 1) comes back whole.
TEST(FileReadTest, AWindowOfAFileComesBackWhole) {
  Engine engine = make_engine();
  std::string window = access_log_read(120);
  CompressResult r = engine.compress(window, compress_options());
  EXPECT_EQ(r.output.find("(caveman)"), std::string::npos);
  EXPECT_TRUE(r.passed_through() || r.method == "gutter") << r.method;
}

// A Go file of `n` functions with ten-line bodies, under a Read gutter from line 1.
std::string go_file_read(int n) {
  std::string src = "package orders\n\nimport \"fmt\"\n\n";
  for (int f = 0; f < n; ++f) {
    std::string k = std::to_string(f);
    src += "// Total" + k + " sums the order lines of batch " + k + ".\nfunc Total" + k +
           "(lines []int) int {\n";
    for (int l = 0; l < 10; ++l) {
      src += "\tlines = append(lines, " + std::to_string(f * 100 + l) + ") // step " +
             std::to_string(l) + " of batch " + k + "\n";
    }
    src += "\treturn len(lines)\n}\n\n";
  }
  std::string listing;
  std::size_t pos = 0;
  for (int line = 1; pos < src.size(); ++line) {
    std::size_t nl = src.find('\n', pos);
    listing += std::to_string(line) + "\t" + src.substr(pos, nl - pos + 1);
    pos = nl + 1;
  }
  return listing;
}

// A code file read from the top: bodies hidden only behind markers that name their lines and
// re-read; every other line is the file's own, so an Edit quoting any shown line matches.
TEST(FileReadTest, ACodeReadHidesBodiesBehindMarkersThatNameTheirRange) {
  Engine engine = make_engine();
  std::string listing = go_file_read(12);
  Options o = compress_options();
  o.type = "code";  // what a file of such uniform functions is sniffed as is not under test here
  CompressResult r = engine.compress(listing, o);
  ASSERT_EQ(r.content_type, "code");
  ASSERT_EQ(r.method, "code");
  EXPECT_LT(r.tokens_after, r.tokens_before / 2);
  // Function 0: comment on line 5, signature 6, body 7–17, `}` 18.
  EXPECT_NE(r.output.find("\t// \xE2\x80\xA6 lines 7\xE2\x80\x93"
                          "17 elided (caveman): Read offset=7 "
                          "limit=11\n"),
            std::string::npos)
      << r.output;
  std::string file;
  for (std::size_t pos = 0; pos < listing.size();) {
    std::size_t tab = listing.find('\t', pos), nl = listing.find('\n', pos);
    file += listing.substr(tab + 1, nl - tab);
    pos = nl + 1;
  }
  std::size_t start = 0;
  for (std::size_t nl; (nl = r.output.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = r.output.substr(start, nl - start);
    if (line.find("(caveman)") != std::string::npos || line.empty()) continue;
    std::size_t tab = line.find('\t');
    bool numbered =
        tab != std::string::npos && tab > 0 && line.find_first_not_of("0123456789") == tab;
    std::string text = numbered ? line.substr(tab + 1) : line;
    EXPECT_NE(file.find(text + "\n"), std::string::npos) << "not the file's own: " << line;
  }
}

std::string html_page() {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Orders</title>\n"
      "<style>body { font-family: sans-serif; margin: 0 auto; max-width: 60em; }</style>\n"
      "<script>window.dataLayer = window.dataLayer || [];</script>\n</head>\n<body>\n"
      "<nav><a href=\"/\">Home</a> <a href=\"/orders\">Orders</a></nav>\n<main>\n"
      "<h1>Order history</h1>\n";
  for (int i = 0; i < 40; ++i) {
    std::string n = std::to_string(i);
    s += "<p class=\"entry\" data-id=\"" + n + "\">Order <b>" + n +
         "</b> was shipped from the warehouse in Lyon on day " + n + " of the month.</p>\n";
  }
  return s + "</main>\n</body>\n</html>\n";
}

// HTML printed by a command or read as a file is markup the agent may edit: a lossless view
// or none; its page text only when the caller says it is a fetched page.
TEST(FileReadTest, HtmlIsPageTextOnlyForAFetchedPage) {
  Engine engine = make_engine();
  std::string page = html_page();
  CompressResult file = engine.compress(page, compress_options());
  EXPECT_EQ(file.content_type, "html");
  EXPECT_TRUE(file.passed_through() || file.lossless_to_model.value_or(false)) << file.output;
  if (!file.passed_through()) {
    Result<std::string> back = expand_view(file.output);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, page);
  }
  Options fetched = compress_options();
  fetched.page_text = true;
  CompressResult web = engine.compress(page, fetched);
  EXPECT_FALSE(web.passed_through());
  EXPECT_EQ(web.output.find("<p class=\"entry\""), std::string::npos) << web.output;
  EXPECT_NE(web.output.find("Order 7 was shipped"), std::string::npos) << web.output;
}

}  // namespace
}  // namespace caveman
