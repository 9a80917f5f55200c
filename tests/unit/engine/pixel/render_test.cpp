#include <gtest/gtest.h>

#include <string>

#include "caveman/ccr.h"
#include "caveman/pixel.h"
#include "pixel/atlas.h"
#include "png_reader.h"
#include "support/test_support.h"

namespace caveman::pixel {
namespace {

using pngtest::decode_png;

const char* const kReturn = "\xE2\x86\xB5";  // ↵

std::string returns(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += kReturn;
  return s;
}

TEST(PixelReflow, JoinsLinesWithReturnSymbolAndTrimsTrailingSpace) {
  EXPECT_EQ(reflow("a  \nb\t\n"), "a" + returns(1) + "b");
  EXPECT_EQ(reflow("a\r\nb"), "a" + returns(1) + "b");
  EXPECT_EQ(reflow(""), "");
}

TEST(PixelReflow, CollapsesFourOrMoreNewlinesToThree) {
  EXPECT_EQ(reflow("a\n\nb"), "a" + returns(2) + "b");
  EXPECT_EQ(reflow("a\n\n\nb"), "a" + returns(3) + "b");
  EXPECT_EQ(reflow("a\n\n\n\n\n\nb"), "a" + returns(3) + "b");
  EXPECT_EQ(reflow("a\n  \n\t\n \n\nb"), "a" + returns(3) + "b");  // whitespace-only lines are blank
}

TEST(PixelReflow, ExpandsTabsToMultiplesOfFour) {
  EXPECT_EQ(reflow("\tx"), "    x");
  EXPECT_EQ(reflow("ab\tx"), "ab  x");
  EXPECT_EQ(reflow("abcd\tx"), "abcd    x");
  EXPECT_EQ(reflow("\xE4\xB8\xAD\tx"), "\xE4\xB8\xAD   x");  // columns counted in code points
}

TEST(PixelAtlas, CoversAsciiCjkAndTheReplacementGlyph) {
  EXPECT_GT(atlas_glyph_count(), 50000u);
  EXPECT_GT(atlas_spleen_glyph_count(), 95u);
  for (char32_t c = 0x20; c < 0x7F; ++c) {
    GlyphRef g = find_glyph(c);
    ASSERT_NE(g.data, nullptr) << static_cast<int>(c);
    EXPECT_EQ(g.cells, 1);
  }
  EXPECT_EQ(find_glyph(0x4E2D).cells, 2);  // 中
  EXPECT_NE(find_glyph(0x21B5).data, nullptr);  // ↵
  EXPECT_NE(find_glyph(0xFFFD).data, nullptr);
  EXPECT_EQ(find_glyph(0x1F600).data, nullptr);  // emoji: outside the BMP atlas
  // 'A' has ink; ' ' has none.
  int ink_a = 0, ink_space = 0;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 5; ++x) {
      ink_a += glyph_pixel(find_glyph('A'), x, y);
      ink_space += glyph_pixel(find_glyph(' '), x, y);
    }
  }
  EXPECT_GT(ink_a, 0);
  EXPECT_EQ(ink_space, 0);
  // Spleen maps accented Latin-1 letters to blank cells; those must come from Unifont.
  for (char32_t c : {U'\u00DC', U'\u00E9', U'\u00F1', U'\u00DF'}) {
    GlyphRef g = find_glyph(c);
    ASSERT_NE(g.data, nullptr);
    int ink = 0;
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 5; ++x) ink += glyph_pixel(g, x, y);
    }
    EXPECT_GT(ink, 0) << static_cast<int>(c);
  }
}

TEST(PixelRender, EmptyTextHasNoPages) {
  Result<RenderResult> r = render("", RenderOptions{});
  ASSERT_OK(r);
  EXPECT_TRUE(r->pages.empty());
  EXPECT_EQ(r->chars_total, 0);
}

TEST(PixelRender, RejectsBadOptions) {
  RenderOptions o;
  o.cols = -1;
  EXPECT_EQ(render("x", o).status().code(), Code::kInvalidArgument);
  o = RenderOptions{};
  o.multicol = 0;
  EXPECT_EQ(render("x", o).status().code(), Code::kInvalidArgument);
}

TEST(PixelRender, SmallTextIsCroppedAndDecodes) {
  RenderOptions o;
  o.density = Density::kConservative;
  Result<RenderResult> r = render("hello", o);
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  const Page& p = r->pages[0];
  // 5 cells at 5 px + 4 px padding each side; one 8 px line.
  EXPECT_EQ(p.width, 4 + 4 * 5 + 5 + 4);
  EXPECT_EQ(p.height, 4 + 8 + 4);
  EXPECT_EQ(p.chars_rendered, 5);
  EXPECT_EQ(p.dropped_chars, 0);
  std::optional<pngtest::DecodedPng> d = decode_png(p.png);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->width, p.width);
  EXPECT_EQ(d->height, p.height);
  EXPECT_EQ(d->channels, 1);  // conservative pages are grayscale
  // The padding stays paper-white; the text has ink.
  int dark = 0;
  for (int y = 0; y < d->height; ++y) {
    for (int x = 0; x < d->width; ++x) {
      std::uint8_t v = d->pixels[static_cast<std::size_t>(y * d->width + x)];
      if (x < 4 || y < 4 || x >= d->width - 4 || y >= d->height - 4) {
        ASSERT_EQ(v, 255) << x << "," << y;
      }
      if (v < 128) ++dark;
    }
  }
  EXPECT_GT(dark, 20);
}

TEST(PixelRender, FullPagesUseTheWholeStandardCanvas) {
  for (Density d : {Density::kConservative, Density::kBalanced, Density::kMax}) {
    RenderOptions o;
    o.density = d;
    std::string text(static_cast<std::size_t>(chars_per_page(d)) + 10, 'x');
    Result<RenderResult> r = render(text, o);
    ASSERT_OK(r);
    ASSERT_EQ(r->pages.size(), 2u) << density_name(d);
    EXPECT_EQ(r->pages[0].chars_rendered, chars_per_page(d));
    EXPECT_EQ(r->pages[1].chars_rendered, 10);
    EXPECT_LE(r->pages[0].width, kStandardCanvas.width);
    EXPECT_LE(r->pages[0].height, kStandardCanvas.height);
    EXPECT_GE(r->pages[0].width, kStandardCanvas.width - 8);
    EXPECT_GE(r->pages[0].height, kStandardCanvas.height - 8);
    EXPECT_EQ(r->pages[0].layers, d == Density::kMax ? 2 : 1);
    EXPECT_EQ(image_tokens(r->pages[0].width, r->pages[0].height), 1602);
    std::optional<pngtest::DecodedPng> png = decode_png(r->pages[0].png);
    ASSERT_TRUE(png.has_value());
    EXPECT_EQ(png->channels, d == Density::kConservative ? 1 : 3);
  }
}

TEST(PixelRender, HiResTierHoldsMoreCharacters) {
  RenderOptions o;
  o.tier = Tier::kHiRes;
  std::string text(200000, 'y');
  Result<RenderResult> r = render(text, o);
  ASSERT_OK(r);
  ASSERT_FALSE(r->pages.empty());
  EXPECT_EQ(r->pages[0].chars_rendered, chars_per_page(Density::kBalanced, Tier::kHiRes));
  EXPECT_GT(chars_per_page(Density::kBalanced, Tier::kHiRes), chars_per_page(Density::kBalanced));
  EXPECT_LE(r->pages[0].width, kHiResCanvas.width);
}

TEST(PixelRender, SameInputGivesByteIdenticalPngs) {
  std::string text = "Golden page: the quick brown fox\tjumps over the lazy dog.\n中文 テキスト\n";
  for (int i = 0; i < 40; ++i) text += "line " + std::to_string(i) + ": {\"id\": " + std::to_string(i * 7) + "}\n";
  for (Density d : {Density::kConservative, Density::kBalanced, Density::kMax}) {
    RenderOptions o;
    o.density = d;
    Result<RenderResult> a = render(text, o);
    Result<RenderResult> b = render(text, o);
    ASSERT_OK(a);
    ASSERT_OK(b);
    ASSERT_EQ(a->pages.size(), b->pages.size());
    for (std::size_t k = 0; k < a->pages.size(); ++k) EXPECT_EQ(a->pages[k].png, b->pages[k].png);
  }
}

// Golden hashes: a change means the atlas, the layout or the encoder changed; check the
// new sample visually (docs/pixel-sample.png) before updating them.
TEST(PixelRender, GoldenHashes) {
  std::string text = "Caveman pixel golden text.\nSecond line\twith a tab.\n\n\n\n\nAfter blank lines: 中文.";
  struct Case {
    Density density;
    const char* sha256;
  };
  const Case cases[] = {
      {Density::kConservative, "0b13511569ca4c8314c131c8a92742e99a0859b116b9238808f6fec37e1b7c4e"},
      {Density::kBalanced, "8d44e1c72b2c631e7480064d7d6cd80f65a1d9bfe449d85b04bd3e4d38aff2ac"},
      {Density::kMax, "2cfd23fdba50294e9aa4d35e3b5e81e497d50d74965ec3c089ea9ec2d58c9a18"},
  };
  for (const Case& c : cases) {
    RenderOptions o;
    o.density = c.density;
    o.cols = 40;
    Result<RenderResult> r = render(text, o);
    ASSERT_OK(r);
    ASSERT_EQ(r->pages.size(), 1u);
    EXPECT_EQ(ccr::sha256_hex(r->pages[0].png), c.sha256) << density_name(c.density);
  }
}

TEST(PixelRender, NoReflowKeepsLineBreaksAndExpandsTabs) {
  RenderOptions o;
  o.density = Density::kConservative;
  o.reflow = false;
  Result<RenderResult> r = render("ab\n\tc\n", o);
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].height, 4 + 8 + 8 + 4);  // two lines
  EXPECT_EQ(r->pages[0].width, 4 + 4 * 5 + 5 + 4);  // "    c" is 5 cells
  EXPECT_EQ(r->pages[0].chars_rendered, 4);  // a b TAB c (tab padding is not a character)
}

TEST(PixelRender, LongLinesWrapAtTheColumnLimit) {
  RenderOptions o;
  o.density = Density::kConservative;
  o.cols = 10;
  Result<RenderResult> r = render(std::string(25, 'z'), o);
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].height, 4 + 2 * 8 + 8 + 4);  // 3 lines
  EXPECT_EQ(r->pages[0].width, 4 + 9 * 5 + 5 + 4);
}

TEST(PixelRender, InvalidUtf8AndEmojiBecomeReplacementGlyphsAndAreCounted) {
  RenderOptions o;
  Result<RenderResult> r = render("ok \xFF\xFE and \xF0\x9F\x98\x80!", o);
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].dropped_chars, 3);  // two invalid bytes + one emoji
}

TEST(PixelRender, ControlCharactersShowAsControlPictures) {
  RenderOptions o;
  Result<RenderResult> r = render(std::string("a\x01\x1b[0m\x7f", 7), o);
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].dropped_chars, 0);
  EXPECT_EQ(r->pages[0].chars_rendered, 7);
  EXPECT_NE(find_glyph(0x2401).data, nullptr);
}

TEST(PixelRender, CjkTakesTwoCells) {
  RenderOptions o;
  o.density = Density::kConservative;
  Result<RenderResult> r = render("\xE4\xB8\xAD\xE6\x96\x87", o);  // 中文
  ASSERT_OK(r);
  ASSERT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].chars_rendered, 2);
  EXPECT_EQ(r->pages[0].width, 4 + 3 * 5 + 5 + 4);  // 4 cells
}

TEST(PixelRender, MulticolForcesConservative) {
  RenderOptions o;
  o.density = Density::kMax;
  o.multicol = 2;
  Result<RenderResult> r = render(std::string(30000, 'm'), o);
  ASSERT_OK(r);
  EXPECT_EQ(r->density, Density::kConservative);
  ASSERT_FALSE(r->pages.empty());
  EXPECT_EQ(r->pages[0].layers, 1);
}

TEST(PixelRender, TenMegabytesStopAtThePageCap) {
  RenderOptions o;
  o.max_pages = 3;
  std::string text(10 * 1024 * 1024, 'q');
  Result<RenderResult> r = render(text, o);
  ASSERT_OK(r);
  EXPECT_EQ(r->pages.size(), 3u);
  EXPECT_EQ(r->chars_total, static_cast<std::int64_t>(text.size()));
  EXPECT_EQ(r->omitted_chars, static_cast<std::int64_t>(text.size()) - 3 * chars_per_page(Density::kBalanced));
}

}  // namespace
}  // namespace caveman::pixel
