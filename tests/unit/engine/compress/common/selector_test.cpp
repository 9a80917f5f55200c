// Issue 36: needle-safe elision (compress/common/selector.h). A 4xx line is never hidden; every
// marker's selector is true of every line it hides and its count is the number hidden; no
// selector or factored template splits a number; a file read's view shows each line as the
// file has it, markup byte for byte.
#include "compress/common/selector.h"

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "compress/compressors.h"
#include "compress/factor/line_blocks.h"
#include "text/lines.h"

namespace caveman::compress {
namespace {

// An access log: 120 ordinary requests, with a 404, a 500 and a slow request among them.
std::string access_log() {
  std::string s;
  for (int i = 0; i < 120; ++i) {
    int status = 200;
    std::string ms = std::to_string(1 + i % 7) + "." + std::to_string(100 + i % 900) + "ms";
    if (i == 40) status = 404;
    if (i == 77) status = 500;
    if (i == 90) ms = "1503.250ms";
    s += "127.0.0.1 - - [07/Dec/2026:02:48:" + std::to_string(10 + i % 50) +
         "] \"GET /api/orders/" + std::to_string(1000 + i * 37) + " HTTP/1.1\" " +
         std::to_string(status) + " 25 \"-\" \"curl/7.88.1\" " + ms + "\n";
  }
  return s;
}

// The markers of `view` and the source lines they stand for, found by walking both in order
// (every line of a log view is a source line or a marker).
struct Hidden {
  std::string marker;
  std::vector<std::string> lines;
};

std::vector<Hidden> hidden_runs(const std::string& source, const std::string& view) {
  std::vector<std::string_view> src = text::split_lines(source).lines;
  std::vector<std::string_view> out = text::split_lines(view).lines;
  std::vector<Hidden> runs;
  std::size_t s = 0;
  for (std::size_t o = 0; o < out.size(); ++o) {
    if (out[o].find("elided (caveman)") == std::string_view::npos) {
      EXPECT_LT(s, src.size());
      EXPECT_EQ(out[o], src[s]) << "a shown line that is not the next source line";
      ++s;
      continue;
    }
    // A marker: it stands for the source lines up to the next shown line.
    Hidden h{std::string(out[o]), {}};
    std::string_view next = o + 1 < out.size() ? out[o + 1] : std::string_view{};
    while (s < src.size() && (o + 1 >= out.size() || src[s] != next))
      h.lines.emplace_back(src[s++]);
    runs.push_back(std::move(h));
  }
  return runs;
}

std::string selector_in(const std::string& marker) {
  std::size_t at = marker.find("matching \"");
  if (at == std::string::npos) return {};
  std::string sel;
  for (std::size_t i = at + 10; i < marker.size(); ++i) {
    if (marker[i] == '\\' && i + 1 < marker.size() && marker[i + 1] == '"') {
      sel += '"';
      ++i;
    } else if (marker[i] == '"') {
      break;
    } else {
      sel += marker[i];
    }
  }
  return sel;
}

TEST(SelectorTest, AccessLogNeverHidesFailuresOrSlowRequests) {
  const std::string log = access_log();
  std::optional<CompressorOutput> out = make_log_compressor()->compress(log, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("\" 404 25 "), std::string::npos) << out->bytes;
  EXPECT_NE(out->bytes.find("\" 500 25 "), std::string::npos);
  EXPECT_NE(out->bytes.find("1503.250ms"), std::string::npos);
  EXPECT_NE(out->bytes.find("matching \""), std::string::npos) << "something was elided";
}

TEST(SelectorTest, EveryMarkerSelectorIsTrueOfEveryLineItHides) {
  const std::string log = access_log();
  std::optional<CompressorOutput> out = make_log_compressor()->compress(log, "");
  ASSERT_TRUE(out.has_value());
  std::vector<Hidden> runs = hidden_runs(log, out->bytes);
  ASSERT_FALSE(runs.empty());
  for (const Hidden& h : runs) {
    std::string sel = selector_in(h.marker);
    ASSERT_FALSE(sel.empty()) << "a marker with no selector: " << h.marker;
    EXPECT_NE(h.marker.find("… " + std::to_string(h.lines.size()) + " lines matching"),
              std::string::npos)
        << h.marker << " hides " << h.lines.size();
    for (const std::string& l : h.lines) {
      EXPECT_TRUE(selector_matches(sel, l)) << sel << " vs " << l;
      EXPECT_EQ(l.find("\" 404 "), std::string::npos);
    }
  }
}

TEST(SelectorTest, MatcherReadsPlaceholdersAsTheFormatsDocSays) {
  EXPECT_TRUE(selector_matches("GET /api/orders/{id} 200 {ms}", "  GET /api/orders/17 200 3ms \r"));
  EXPECT_FALSE(selector_matches("GET /api/orders/{id} 200 {ms}", "GET /api/orders/17 404 3ms"));
  EXPECT_FALSE(selector_matches("a {x} b", "a one two b"));  // {x} is one field
  EXPECT_TRUE(selector_matches("a {*} b", "a one two b"));
  EXPECT_TRUE(selector_matches("a {*} b", "a  b"));
  EXPECT_FALSE(selector_matches("a {x}", "a "));
}

TEST(SelectorTest, CategoriesNeverVaryUnderOneSelector) {
  std::vector<std::string> owned;
  for (int i = 0; i < 6; ++i) owned.push_back("2026-01-01 INFO job " + std::to_string(i) + " done");
  for (int i = 0; i < 6; ++i)
    owned.push_back("2026-01-01 DEBUG job " + std::to_string(i) + " done");
  std::vector<std::string_view> lines(owned.begin(), owned.end());
  std::vector<Covered> cover = cover_run(lines, 0, lines.size(), 2);
  ASSERT_EQ(cover.size(), 2u);
  EXPECT_EQ(cover[0].selector, "2026-01-01 INFO job {n} done");
  EXPECT_EQ(cover[1].selector, "2026-01-01 DEBUG job {n} done");
}

TEST(SelectorTest, RareLinesAndFailureSignalsAreNeedles) {
  std::vector<std::string_view> lines = {"tick 1", "tick 2",
                                         "tick 3", "disk full on /dev/sda1",
                                         "tick 4", "open(\"/x\") = -1 ENOENT (No such file)",
                                         "tick 5", "tick 6"};
  std::vector<bool> pin = needle_lines(lines);
  EXPECT_FALSE(pin[0]);
  EXPECT_TRUE(pin[3]);  // rare
  EXPECT_TRUE(pin[5]);  // an errno name
  EXPECT_TRUE(is_failure_signal("10.0.0.1 - - \"POST /x HTTP/1.1\" 413 0"));
  EXPECT_TRUE(is_failure_signal("child exited with code 2"));
  EXPECT_FALSE(is_failure_signal("child exited with code 0"));
  EXPECT_FALSE(is_failure_signal("\"GET / HTTP/1.1\" 200 512"));
}

TEST(SelectorTest, NoSelectorOrTemplateSplitsANumber) {
  EXPECT_FALSE(is_field_cut("1.394ms", 2));  // `1.{…}`
  EXPECT_FALSE(is_field_cut("1.394ms", 1));
  EXPECT_FALSE(is_field_cut("-12", 1));
  EXPECT_TRUE(is_field_cut("/api/orders/17", 12));
  EXPECT_FALSE(is_field_cut("orders", 3));  // inside a word
  std::vector<std::string_view> lines = {"took 1.394ms ok", "took 1.786ms ok", "took 1.5ms ok"};
  std::optional<std::string> sel = selector_of(lines, 0, lines.size());
  ASSERT_TRUE(sel.has_value());
  EXPECT_EQ(*sel, "took {ms} ok");
  // Factored templates too: no placeholder right after a digit and a '.'.
  std::string text;
  for (int i = 0; i < 30; ++i) {
    text += "request " + std::to_string(i) + " took 1." + std::to_string(100 + i * 7) +
            "ms status ok\n";
  }
  std::optional<std::string> view = factor::factor_text(text);
  ASSERT_TRUE(view.has_value());
  EXPECT_FALSE(std::regex_search(*view, std::regex("[0-9][.,]\\{[0-9]+\\}"))) << *view;
}

// A file read of markup keeps every line byte for byte (only the gutter is thinned).
TEST(SelectorTest, HtmlFileReadIsByteIdentical) {
  Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(":memory:");
  ASSERT_TRUE(store.ok());
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  std::vector<std::string> file = {"<!DOCTYPE html>", "<html lang=\"en\">",
                                   "<head>",          "  <title>Orders</title>",
                                   "</head>",         "<body>"};
  for (int i = 0; i < 60; ++i) {
    file.push_back("  <p class=\"row\">Order " + std::to_string(i) +
                   " shipped to <b>Berlin</b></p>");
  }
  file.push_back("</body>");
  file.push_back("</html>");
  std::string listing;
  for (std::size_t i = 0; i < file.size(); ++i)
    listing += std::to_string(i + 1) + "\t" + file[i] + "\n";
  listing += std::to_string(file.size() + 1) + "\t";
  Options o;
  o.mode = "compress";
  CompressResult r = engine.compress(listing, o);
  std::vector<std::string_view> out = text::split_all(r.output);
  ASSERT_GE(out.size(), file.size());
  for (std::size_t i = 0; i < file.size(); ++i) {
    std::string_view l = out[i];
    std::size_t tab = l.find('\t');
    if (tab != std::string_view::npos && tab <= 3) {
      EXPECT_EQ(std::string(l.substr(0, tab)), std::to_string(i + 1));
      l.remove_prefix(tab + 1);
    }
    EXPECT_EQ(l, file[i]) << "line " << i + 1;
  }
}

}  // namespace
}  // namespace caveman::compress
