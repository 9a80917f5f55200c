#include <gtest/gtest.h>

#include "caveman/compressor.h"
#include "caveman/tokens.h"

namespace caveman {
namespace {

TEST(RegistryTest, DefaultRegistryHasEighteenCompressors) {
  Registry r = Registry::default_registry(tokens::default_counter());
  EXPECT_EQ(r.types().size(), 18u);  // + diagnostics, records, xml (issue 36)
  for (const std::string& t : r.types()) {
    ASSERT_NE(r.find(t), nullptr) << t;
    EXPECT_EQ(r.find(t)->safety_class(), SafetyClass::kS4) << t;
  }
  EXPECT_EQ(r.find("nope"), nullptr);
}

TEST(RegistryTest, ManifestDigestMatchesPinnedValue) {
  std::string m = Registry::capability_manifest_json();
  EXPECT_NE(m.find("\"registry_sha256\":"
                   "\"979f05f5dbc52f00fefd35b7404ec583a8e1cd1de23b0a4c5e678231d5420ccd\""),
            std::string::npos)
      << m.substr(0, 200);
  EXPECT_EQ(m.find("toolschema-annotations"), std::string::npos);
}

TEST(SafetyTest, LadderMatchesSpec) {
  EXPECT_TRUE(safety_info(SafetyClass::kS4).requires_ccr);
  EXPECT_FALSE(safety_info(SafetyClass::kS4).reversible);
  EXPECT_TRUE(safety_info(SafetyClass::kS0).byte_safe);
  EXPECT_FALSE(safety_info(SafetyClass::kUnknown).valid);
  EXPECT_EQ(safety_name(SafetyClass::kUnknown), "S?");
}

}  // namespace
}  // namespace caveman
