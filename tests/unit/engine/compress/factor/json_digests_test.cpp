#include "compress/factor/json_digests.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caveman/engine.h"
#include "json/json.h"

namespace caveman::compress::factor {
namespace {

std::string sri(int i) {
  std::string b64;
  for (int k = 0; k < 86; ++k)
    b64 +=
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 7 + k * 13) % 64];
  return "sha512-" + b64 + "==";
}

// A package-lock shape: one entry per package with a version and an integrity value; with
// `shared`, packages come in pairs of one integrity value.
std::string lockfile(int packages, bool shared = false) {
  std::string s = "{\n  \"lockfileVersion\": 3,\n  \"packages\": {";
  for (int i = 0; i < packages; ++i) {
    s += std::string(i ? "," : "") + "\n    \"node_modules/p" + std::to_string(i) +
         "\": {\n      \"version\": \"1." + std::to_string(i) + ".0\",\n      \"integrity\": \"" +
         sri(shared ? i / 2 : i) + "\"\n    }";
  }
  return s + "\n  }\n}\n";
}

TEST(JsonDigestsTest, RecognisesIntegrityDigestsAndNotHashesThatNameThings) {
  EXPECT_EQ(digest_prefix(sri(1)), "sha512-");
  EXPECT_EQ(digest_prefix("sha1-5sdSh1l45bJc5pxQBMU/TfLibcE="), "sha1-");
  EXPECT_EQ(digest_prefix("h1:Nv5zEJyTOpcLaqXm6SPUDeSU9Ax8VvADrNhFjuV3DVw="), "h1:");
  EXPECT_FALSE(digest_prefix(std::string(64, 'f')));              // a content hash or object id
  EXPECT_FALSE(digest_prefix("sha256:" + std::string(64, 'a')));  // an image digest
  EXPECT_FALSE(digest_prefix(std::string(40, 'f')));              // a git commit hash
  EXPECT_FALSE(digest_prefix("sha512-short"));                    // too short to be a digest
  EXPECT_FALSE(digest_prefix("sha512-has spaces and more than twenty chars"));
  EXPECT_FALSE(digest_prefix("4.21.2"));
}

TEST(JsonDigestsTest, ElidesValuesNeverKeysAndStaysValidJson) {
  std::string lock = lockfile(10);
  std::optional<std::string> cut = elide_digests(lock);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->find("sha512-A"), std::string::npos);
  EXPECT_NE(cut->find("\"integrity\": \"sha512-\xE2\x80\xA6\""), std::string::npos);
  EXPECT_NE(cut->find("\"version\": \"1.9.0\""), std::string::npos);
  EXPECT_TRUE(json::parse(*cut).has_value());
  // A digest used as a key is a name: it stays.
  std::string keyed = "{";
  for (int i = 0; i < 10; ++i)
    keyed += std::string(i ? "," : "") + "\"" + sri(i) + "\": " + std::to_string(i);
  EXPECT_FALSE(elide_digests(keyed + "}"));
}

TEST(JsonDigestsTest, TooFewDigestsAreNotWorthALossyView) {
  EXPECT_FALSE(elide_digests(lockfile(static_cast<int>(kMinDigests) - 1)));
  EXPECT_TRUE(elide_digests(lockfile(static_cast<int>(kMinDigests))));
}

// Property: over random documents with escapes, digests in strings and keys, the result is
// valid JSON whenever the input is, and only digest values change.
TEST(JsonDigestsTest, RandomDocumentsStayValid) {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::string s = "[";
    int n = 8 + static_cast<int>(rng() % 20);
    for (int i = 0; i < n; ++i) {
      if (i) s += ",";
      switch (rng() % 4) {
        case 0:
          s += "\"" + sri(static_cast<int>(rng() % 100)) + "\"";
          break;
        case 1:
          s += "{\"" + sri(i) + "\":\"x\\\"y\"}";
          break;
        case 2:
          s += "\"a\\\\\"";
          break;
        default:
          s += std::to_string(rng() % 1000);
          break;
      }
    }
    s += "]";
    ASSERT_TRUE(json::parse(s).has_value()) << s;
    if (std::optional<std::string> cut = elide_digests(s))
      EXPECT_TRUE(json::parse(*cut).has_value()) << *cut;
  }
}

// The json compressor takes the digest view over the lossless table when it pays. In a prompt
// where a retrieve would re-read too much, neither pays: a table's lines are not the input's
// either (engine.cpp), so the input passes through. Each integrity value occurs twice: a lossy
// view must keep every rare line (one that occurs once) as written.
TEST(JsonDigestsTest, TheJsonCompressorWeighsTheDigestViewLikeAnyElision) {
  Engine engine(nullptr);
  Options options;
  options.mode = "compress";
  options.external_recovery = true;
  CompressResult r = engine.compress(lockfile(60, /*shared=*/true), options);
  EXPECT_EQ(r.method, "digests+table");
  EXPECT_EQ(r.lossless_to_model, false);
  options.context_tokens = 2'000'000;  // a retrieve would re-read a huge prompt
  CompressResult kept = engine.compress(lockfile(60, /*shared=*/true), options);
  EXPECT_TRUE(kept.passed_through()) << kept.method;
}

}  // namespace
}  // namespace caveman::compress::factor
