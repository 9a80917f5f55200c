// Loader for the vendored TOON v3.3 conformance fixtures (tests/testdata/toon-spec), shared by
// the codec conformance test and the CLI test. Header-only: test sources are globbed by name.
#ifndef CAVEMAN_TESTS_UNIT_ENGINE_TOON_SPEC_FIXTURES_H_
#define CAVEMAN_TESTS_UNIT_ENGINE_TOON_SPEC_FIXTURES_H_

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "json/json.h"
#include "support/test_support.h"
#include "toon/number.h"

namespace caveman::toon::testing {

struct FixtureCase {
  std::string category;  // "encode" or "decode"
  std::string file;
  std::string name;
  std::string label;  // unique gtest-safe name
  json::Value test;

  bool should_error() const {
    const json::Value* e = test.find("shouldError");
    return e != nullptr && e->boolean;
  }
  const json::Value* options() const { return test.find("options"); }
};

// Keeps gtest from dumping the struct's bytes when a case fails.
inline void PrintTo(const FixtureCase& c, std::ostream* os) { *os << c.file << ": " << c.name; }

inline std::string sanitize_label(const std::string& s) {
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

inline std::vector<FixtureCase> load_fixture_cases() {
  namespace fs = std::filesystem;
  const std::string dir = std::string(CAVEMAN_SOURCE_DIR) + "/tests/testdata/toon-spec/fixtures";
  std::vector<FixtureCase> cases;
  for (const char* category : {"encode", "decode"}) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir + "/" + category, ec)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      std::optional<json::Value> doc = json::parse(::caveman::testing::read_file(path.string()));
      if (!doc || !doc->find("tests")) continue;
      int index = 0;
      for (const json::Value& t : doc->find("tests")->items) {
        FixtureCase c;
        c.category = category;
        c.file = path.stem().string();
        c.name = t.find("name") ? t.find("name")->text : "";
        c.label = std::string(category) + "_" + sanitize_label(c.file) + "_" +
                  std::to_string(index++) + "_" + sanitize_label(c.name).substr(0, 60);
        c.test = t;
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

inline const std::vector<FixtureCase>& all_fixture_cases() {
  static const std::vector<FixtureCase> cases = load_fixture_cases();
  return cases;
}

// Numbers rewritten in canonical form (what toon_decode prints); false on a bad literal.
inline bool canonicalize_numbers(json::Value& v) {
  if (v.is_number()) {
    std::string canonical;
    if (canonical_number(v.text, canonical) != NumberForm::kNumber) return false;
    v.text = canonical;
  }
  for (json::Value& item : v.items) {
    if (!canonicalize_numbers(item)) return false;
  }
  for (json::Member& m : v.members) {
    if (!canonicalize_numbers(m.value)) return false;
  }
  return true;
}

// The expected decode output of a decode case: compact JSON with canonical numbers.
inline std::string expected_decode_json(const FixtureCase& c) {
  json::Value expected = *c.test.find("expected");
  if (!canonicalize_numbers(expected)) return "<bad number in fixture>";
  return json::to_compact(expected);
}

}  // namespace caveman::toon::testing

#endif  // CAVEMAN_TESTS_UNIT_ENGINE_TOON_SPEC_FIXTURES_H_
