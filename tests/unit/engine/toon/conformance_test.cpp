// Runs every case of the vendored TOON v3.3 conformance suite (@toon-format/spec 3.3.2,
// tests/testdata/toon-spec) through toon_encode / toon_decode; one gtest case per fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "caveman/toon.h"
#include "json/json.h"
#include "support/test_support.h"
#include "toon/number.h"

namespace caveman::toon {
namespace {

namespace fs = std::filesystem;

struct FixtureCase {
  std::string category;  // "encode" or "decode"
  std::string file;
  std::string name;
  std::string label;  // unique gtest-safe name
  json::Value test;
};

// Keeps gtest from dumping the struct's bytes when a case fails.
void PrintTo(const FixtureCase& c, std::ostream* os) { *os << c.file << ": " << c.name; }

std::string fixtures_dir() {
  return std::string(CAVEMAN_SOURCE_DIR) + "/tests/testdata/toon-spec/fixtures";
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (ok) {
      out.push_back(c);
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::vector<FixtureCase> load_cases() {
  std::vector<FixtureCase> cases;
  for (const char* category : {"encode", "decode"}) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fixtures_dir() + "/" + category, ec)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      std::optional<json::Value> doc = json::parse(testing::read_file(path.string()));
      if (!doc || !doc->find("tests")) continue;
      int index = 0;
      for (const json::Value& t : doc->find("tests")->items) {
        FixtureCase c;
        c.category = category;
        c.file = path.stem().string();
        c.name = t.find("name") ? t.find("name")->text : "";
        c.label = std::string(category) + "_" + sanitize(c.file) + "_" + std::to_string(index++) +
                  "_" + sanitize(c.name).substr(0, 60);
        c.test = t;
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

const std::vector<FixtureCase>& all_cases() {
  static const std::vector<FixtureCase> cases = load_cases();
  return cases;
}

// Expected JSON with numbers in canonical form, compact — the shape toon_decode returns.
void canonicalize(json::Value& v) {
  if (v.is_number()) {
    std::string canonical;
    ASSERT_EQ(canonical_number(v.text, canonical), NumberForm::kNumber) << v.text;
    v.text = canonical;
  }
  for (json::Value& item : v.items) canonicalize(item);
  for (json::Member& m : v.members) canonicalize(m.value);
}

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
  const json::Value* should_error = t.find("shouldError");
  bool expect_error = should_error != nullptr && should_error->boolean;
  SCOPED_TRACE(c.file + ": " + c.name);
  if (c.category == "encode") {
    std::string input = json::to_compact(*t.find("input"));
    Result<std::string> got = toon_encode(input, encode_options(t.find("options")));
    if (expect_error) {
      EXPECT_FALSE(got.ok()) << "expected an error, got: " << got.value();
      return;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(got.value(), t.find("expected")->text);
  } else {
    Result<std::string> got =
        toon_decode(t.find("input")->text, decode_options(t.find("options")));
    if (expect_error) {
      EXPECT_FALSE(got.ok()) << "expected an error, got: " << got.value();
      if (!got.ok()) EXPECT_EQ(got.status().cave_code(), "cave_invalid_toon");
      return;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    json::Value expected = *t.find("expected");
    canonicalize(expected);
    EXPECT_EQ(got.value(), json::to_compact(expected));
  }
}

INSTANTIATE_TEST_SUITE_P(Spec33, ToonConformance, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<FixtureCase>& info) {
                           return info.param.label;
                         });

// Guards against a partially vendored suite: the 3.3.2 package ships exactly 400 cases.
TEST(ToonConformanceSuite, HasAllFourHundredCases) {
  std::size_t encode = 0, decode = 0;
  for (const FixtureCase& c : all_cases()) (c.category == "encode" ? encode : decode)++;
  EXPECT_EQ(encode, 153u);
  EXPECT_EQ(decode, 247u);
}

}  // namespace
}  // namespace caveman::toon
