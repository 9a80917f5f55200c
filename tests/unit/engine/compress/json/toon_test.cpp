// The toon compressor (docs/spec/compressors.md#toon) and the CAVE_ENGINE_TOON=best-of selector
// (docs/spec/compressors.md#best-of-json).
#include "caveman/toon.h"

#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "compress/json/best_of_json.h"

namespace caveman::compress {
namespace {

const std::string kUniform =
    R"([{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Bob","role":"user"},)"
    R"({"id":3,"name":"Cy","role":"user"}])";

std::optional<CompressorOutput> run(std::string_view input, std::string_view query = "") {
  return make_toon_compressor()->compress(input, query);
}

TEST(ToonCompressorTest, EncodesJsonAsLosslessToon) {
  std::optional<CompressorOutput> out = run(kUniform);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->bytes, "[3]{id,name,role}:\n  1,Ada,admin\n  2,Bob,user\n  3,Cy,user");
  EXPECT_EQ(out->method, "toon");
  ASSERT_TRUE(out->lossless_to_model.has_value());
  EXPECT_TRUE(*out->lossless_to_model);
  EXPECT_EQ(make_toon_compressor()->type(), "toon");
  EXPECT_EQ(make_toon_compressor()->safety_class(), SafetyClass::kS4);
}

TEST(ToonCompressorTest, OutputDecodesToTheInput) {
  std::string input = R"({"a":{"b":[1,2.50,"x,y"]},"c":[{"d":null},{"e":true}],"f":""})";
  std::optional<CompressorOutput> out = run(input);
  ASSERT_TRUE(out);
  Result<std::string> back = toon::toon_decode(out->bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back.value(), R"({"a":{"b":[1,2.5,"x,y"]},"c":[{"d":null},{"e":true}],"f":""})");
}

TEST(ToonCompressorTest, IgnoresTheQuery) {
  std::optional<CompressorOutput> plain = run(kUniform);
  std::optional<CompressorOutput> queried = run(kUniform, "Bob admin");
  ASSERT_TRUE(plain && queried);
  EXPECT_EQ(plain->bytes, queried->bytes);
}

TEST(ToonCompressorTest, FailsOnWhatTheEncoderRejects) {
  EXPECT_FALSE(run("not json"));
  EXPECT_FALSE(run(R"({"a":1,"a":2})"));    // duplicate keys
  EXPECT_FALSE(run(R"({"a":1} {"b":2})"));  // trailing data
  EXPECT_FALSE(run(R"(["\ud800"])"));       // lone surrogate: TOON cannot carry it
  EXPECT_FALSE(run("{\"a\":\"\xff\"}"));    // invalid UTF-8
  EXPECT_FALSE(run(""));
}

TEST(ToonCompressorTest, EmptyObjectIsNotReplacedByAnEmptyDocument) {
  EXPECT_FALSE(run("{}"));
  EXPECT_FALSE(run("  {}\n"));
}

// Idempotence: a second pass over the output yields the same bytes or fails (pass-through).
TEST(ToonCompressorTest, IsIdempotent) {
  for (const std::string& input :
       {kUniform, std::string(R"({"k":"v","n":[1,2,3]})"), std::string("42"),
        std::string(R"("true")"), std::string("[]"), std::string(R"("plain text")")}) {
    std::optional<CompressorOutput> once = run(input);
    ASSERT_TRUE(once) << input;
    std::optional<CompressorOutput> twice = run(once->bytes);
    if (twice) EXPECT_EQ(twice->bytes, once->bytes) << input;
  }
}

// Forced-only: Detect never answers "toon", neither for JSON nor for TOON text.
TEST(ToonCompressorTest, IsNeverAutoDetected) {
  std::optional<CompressorOutput> toon_text = run(kUniform);
  ASSERT_TRUE(toon_text);
  for (const std::string& input :
       {kUniform, toon_text->bytes, std::string("a: 1\nb[2]: x,y\nc:\n  d: true\n"),
        std::string("users[2]{id,name}:\n  1,Ada\n  2,Bob\n")}) {
    EXPECT_NE(detect(input), "toon") << input;
  }
}

TEST(ToonCompressorTest, EngineReportsLosslessToonWhenForced) {
  Engine engine(nullptr);
  Options options;
  options.mode = "compress";
  options.type = "toon";
  options.external_recovery = true;
  std::string big = "[";
  for (int i = 0; i < 40; ++i) {
    if (i > 0) big += ",";
    big += R"({"id":)" + std::to_string(i) + R"(,"name":"user)" + std::to_string(i) +
           R"(","active":true})";
  }
  big += "]";
  CompressResult r = engine.compress(big, options);
  EXPECT_EQ(r.method, "toon");
  ASSERT_TRUE(r.lossless_to_model.has_value());
  EXPECT_TRUE(*r.lossless_to_model);
  EXPECT_LT(r.tokens_after, r.tokens_before);
  EXPECT_EQ(toon::toon_decode(r.output).value(), big);

  options.type.clear();  // auto-detect: json, never toon
  EXPECT_EQ(engine.compress(big, options).content_type, "json");
}

// ---- best-of selector ---------------------------------------------------------------------

// Counts bytes, so the tests choose sizes directly.
class ByteCounter final : public tokens::Counter {
 public:
  std::string_view name() const override { return "bytes"; }
  std::size_t count(std::string_view text) const override { return text.size(); }
};

// Returns fixed bytes (or fails) and remembers the query it saw.
class FixedCompressor final : public Compressor {
 public:
  FixedCompressor(std::optional<std::string> bytes, std::string method, std::string* seen_query)
      : bytes_(std::move(bytes)), method_(std::move(method)), seen_query_(seen_query) {}
  std::string_view type() const override { return method_; }
  std::optional<CompressorOutput> compress(std::string_view,
                                           std::string_view query) const override {
    if (seen_query_ != nullptr) *seen_query_ = std::string(query);
    if (!bytes_) return std::nullopt;
    CompressorOutput out;
    out.bytes = *bytes_;
    out.method = method_;
    if (method_ == "toon") out.lossless_to_model = true;
    return out;
  }

 private:
  std::optional<std::string> bytes_;
  std::string method_;
  std::string* seen_query_;
};

std::optional<CompressorOutput> best_of(std::optional<std::string> toon,
                                        std::optional<std::string> elision, std::string_view input,
                                        std::string_view query = "",
                                        std::string* toon_query = nullptr,
                                        std::string* elision_query = nullptr) {
  static const ByteCounter kCounter;
  auto selector =
      make_best_of_compressor(kCounter, std::make_unique<FixedCompressor>(toon, "toon", toon_query),
                              std::make_unique<FixedCompressor>(elision, "elision", elision_query));
  EXPECT_EQ(selector->type(), "json");
  return selector->compress(input, query);
}

const std::string kInput(100, 'x');

TEST(BestOfJsonTest, PicksToonWhenItIsSmallest) {
  std::optional<CompressorOutput> out = best_of(std::string(40, 't'), std::string(60, 'e'), kInput);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "toon");
  EXPECT_TRUE(out->lossless_to_model.value_or(false));
}

TEST(BestOfJsonTest, PicksElisionOnlyWhenStrictlySmaller) {
  std::optional<CompressorOutput> out = best_of(std::string(40, 't'), std::string(39, 'e'), kInput);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "elision");
  out = best_of(std::string(40, 't'), std::string(40, 'e'), kInput);  // tie → TOON
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "toon");
}

TEST(BestOfJsonTest, ToonMustBeatTheInputToCount) {
  std::optional<CompressorOutput> out =
      best_of(std::string(100, 't'), std::string(99, 'e'), kInput);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "elision");
  EXPECT_FALSE(best_of(std::string(100, 't'), std::string(100, 'e'), kInput));
  EXPECT_FALSE(best_of(std::nullopt, std::nullopt, kInput));
  out = best_of(std::nullopt, std::string(10, 'e'), kInput);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "elision");
}

TEST(BestOfJsonTest, QueryReachesElisionButNotToon) {
  std::string toon_query = "unset", elision_query = "unset";
  best_of(std::string(40, 't'), std::string(60, 'e'), kInput, "needle", &toon_query,
          &elision_query);
  EXPECT_EQ(toon_query, "");
  EXPECT_EQ(elision_query, "needle");
}

TEST(BestOfJsonTest, RealCandidatesChooseToonForASmallUniformArray) {
  // Arrays of ≤ 8 elements are never elided, so TOON is the only candidate that shrinks it.
  auto selector = make_best_of_json_compressor(tokens::default_counter());
  std::optional<CompressorOutput> out = selector->compress(kUniform, "");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->method, "toon");
  EXPECT_EQ(out->bytes, run(kUniform)->bytes);
  EXPECT_FALSE(selector->compress("not json", ""));
}

}  // namespace
}  // namespace caveman::compress
