// Runs every case of the vendored TOON v3.3 conformance suite (@toon-format/spec 3.3.2,
// tests/testdata/toon-spec) through toon_encode / toon_decode; one gtest case per fixture.
#include <gtest/gtest.h>

#include <string>

#include "caveman/toon.h"
#include "json/json.h"
#include "unit/engine/toon/spec_fixtures.h"

namespace caveman::toon {
namespace {

using testing::FixtureCase;

EncodeOptions encode_options(const json::Value* o) {
  EncodeOptions options;
  if (o == nullptr) return options;
  if (const json::Value* d = o->find("delimiter")) options.delimiter = d->text.at(0);
  if (const json::Value* i = o->find("indent")) options.indent = std::stoi(i->text);
  if (const json::Value* k = o->find("keyFolding")) {
    options.key_folding = k->text == "safe" ? KeyFolding::kSafe : KeyFolding::kOff;
  }
  if (const json::Value* f = o->find("flattenDepth")) options.flatten_depth = std::stoi(f->text);
  return options;
}

DecodeOptions decode_options(const json::Value* o) {
  DecodeOptions options;
  if (o == nullptr) return options;
  if (const json::Value* i = o->find("indent")) options.indent = std::stoi(i->text);
  if (const json::Value* s = o->find("strict")) options.strict = s->boolean;
  if (const json::Value* e = o->find("expandPaths")) {
    options.expand_paths = e->text == "safe" ? ExpandPaths::kSafe : ExpandPaths::kOff;
  }
  return options;
}

class ToonConformance : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(ToonConformance, Case) {
  const FixtureCase& c = GetParam();
  const json::Value& t = c.test;
  SCOPED_TRACE(c.file + ": " + c.name);
  if (c.category == "encode") {
    std::string input = json::to_compact(*t.find("input"));
    Result<std::string> got = toon_encode(input, encode_options(c.options()));
    if (c.should_error()) {
      EXPECT_FALSE(got.ok()) << "expected an error, got: " << got.value();
      return;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(got.value(), t.find("expected")->text);
  } else {
    Result<std::string> got = toon_decode(t.find("input")->text, decode_options(c.options()));
    if (c.should_error()) {
      EXPECT_FALSE(got.ok()) << "expected an error, got: " << got.value();
      if (!got.ok()) EXPECT_EQ(got.status().error_code(), "cave_invalid_toon");
      return;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(got.value(), testing::expected_decode_json(c));
  }
}

INSTANTIATE_TEST_SUITE_P(Spec33, ToonConformance, ::testing::ValuesIn(testing::all_fixture_cases()),
                         [](const ::testing::TestParamInfo<FixtureCase>& info) {
                           return info.param.label;
                         });

// Guards against a partially vendored suite: the 3.3.2 package ships exactly 400 cases.
TEST(ToonConformanceSuite, HasAllFourHundredCases) {
  std::size_t encode = 0, decode = 0;
  for (const FixtureCase& c : testing::all_fixture_cases()) {
    (c.category == "encode" ? encode : decode)++;
  }
  EXPECT_EQ(encode, 153u);
  EXPECT_EQ(decode, 247u);
}

}  // namespace
}  // namespace caveman::toon
