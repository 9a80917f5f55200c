#include <gtest/gtest.h>

#include "caveman/pixel.h"

namespace caveman::pixel {
namespace {

TEST(PixelEstimate, PageCapacitiesMatchTheSpec) {
  EXPECT_EQ(chars_per_page(Density::kConservative), 28080);
  EXPECT_EQ(chars_per_page(Density::kBalanced), 46291);
  EXPECT_EQ(chars_per_page(Density::kMax), 2 * 46291);
  EXPECT_EQ(columns_for(profile_for(Density::kConservative), Tier::kStandard), 312);
  EXPECT_EQ(rows_for(profile_for(Density::kConservative), Tier::kStandard), 90);
  EXPECT_EQ(columns_for(profile_for(Density::kBalanced), Tier::kStandard), 389);
  EXPECT_EQ(rows_for(profile_for(Density::kBalanced), Tier::kStandard), 119);
}

TEST(PixelEstimate, ProfilesRespectTheFloors) {
  for (Density d : {Density::kConservative, Density::kBalanced, Density::kMax}) {
    Profile p = profile_for(d);
    EXPECT_GE(p.pitch, p.zebra ? 5 : 6) << density_name(d);
    EXPECT_GE(p.layers, 1);
    EXPECT_LE(p.layers, 2);
  }
  EXPECT_EQ(profile_for(Density::kMax).layers, 2);
  EXPECT_FALSE(profile_for(Density::kConservative).zebra);
}

TEST(PixelEstimate, ImageTokensArePatchesTimesMargin) {
  // 1568×728 → 56 × 26 = 1456 patches → ×1.10 = 1601.6 → 1602.
  EXPECT_EQ(image_tokens(1568, 728), 1602);
  // Hi-res canvas: 92 × 52 = 4784 (the cap) → 5262.4 → 5263.
  EXPECT_EQ(image_tokens(2576, 1456, Tier::kHiRes), 5263);
  // A small crop: 100×20 → 4 × 1 = 4 → 4.4 → 5.
  EXPECT_EQ(image_tokens(100, 20), 5);
  EXPECT_EQ(image_tokens(0, 10), 0);
}

TEST(PixelEstimate, LongEdgeIsScaledDownThenCapped) {
  // 3136×100 → scaled by 0.5 to 1568×50 → 56 × 2 = 112 → 123.2 → 124.
  EXPECT_EQ(image_tokens(3136, 100), 124);
  // A hi-res page read on the standard tier is scaled to 1568 wide and capped at 1568 patches.
  EXPECT_LE(image_tokens(2576, 1456, Tier::kStandard), (1568 * 110 + 99) / 100);
}

TEST(PixelEstimate, TextTokensUseUtf16Length) {
  EXPECT_EQ(utf16_length("abcd"), 4);
  EXPECT_EQ(utf16_length("\xE4\xB8\xAD"), 1);           // 中: one UTF-16 unit
  EXPECT_EQ(utf16_length("\xF0\x9F\x98\x80"), 2);       // 😀: a surrogate pair
  EXPECT_EQ(utf16_length("\xFF\xFE"), 2);               // invalid bytes count one each
  EXPECT_EQ(text_tokens_estimate(std::string(4000, 'x')), 1000);
  EXPECT_EQ(text_tokens_estimate("abcde"), 2);
  EXPECT_EQ(text_tokens_estimate(std::string(10, 'x'), 2.5), 4);
}

TEST(PixelEstimate, SingleTurnGateAddsTheCacheBurnToTheImage) {
  EXPECT_TRUE(profitable(415, 1069));
  EXPECT_FALSE(profitable(1069, 1069));
  // 400 warm tokens burn 400 × 1.15 = 460 more: 415 + 460 ≥ 1069? no (875 < 1069).
  EXPECT_TRUE(profitable(415, 1069, 400));
  EXPECT_FALSE(profitable(415, 1069, 600));  // 415 + 690 = 1105
}

TEST(PixelEstimate, AmortizedGateComparesCacheWritesWithCacheReads) {
  // img·(1.25 + 0.10·(N−1)) < text·0.10·N.
  EXPECT_FALSE(profitable_amortized(100, 1000, 1));  // 125 vs 100
  EXPECT_TRUE(profitable_amortized(100, 1000, 2));   // 135 vs 200
  EXPECT_FALSE(profitable_amortized(900, 1000, 50)); // 5535 vs 5000
  EXPECT_EQ(profitable_amortized(100, 1000, 0), profitable_amortized(100, 1000, 1));
}

}  // namespace
}  // namespace caveman::pixel
