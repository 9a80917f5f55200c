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
    s += std::to_string(first + i) + "\t127.0.0.1 - - [07/Dec/2026:02:48:" +
         std::to_string(10 + i % 50) + " +0000] \"GET /api/orders/" + std::to_string(1000 + i * 7) +
         " HTTP/1.1\" " + (miss ? "404" : "200") + " " + std::to_string(20 + i % 5) +
         " \"-\" \"curl/7.88.1\"\n";
  }
  return s;
}

// A log read from the top is read for what it says: lines hidden behind markers that name
// their range and the re-read that shows them; every 404 stays.
TEST(FileReadTest, ALogReadHidesLinesOnlyBehindMarkersThatNameTheirRange) {
  Engine engine = make_engine();
  CompressResult r = engine.compress(access_log_read(1), compress_options());
  ASSERT_EQ(r.content_type, "log");
  ASSERT_FALSE(r.passed_through());
  EXPECT_LT(r.tokens_after, r.tokens_before / 2);
  EXPECT_NE(r.output.find(" elided (caveman): Read offset="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\xE2\x80\xA6 lines 3\xE2\x80\x93" "50 matching \""), std::string::npos)
      << r.output;
  for (int i = 50; i < 400; i += 97) {
    EXPECT_NE(r.output.find("/api/orders/" + std::to_string(1000 + i * 7) + " HTTP/1.1\" 404"),
              std::string::npos) << i;
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
