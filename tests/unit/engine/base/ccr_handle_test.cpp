// Handle spellings (docs/base.md). Five copies disagreed: the proxy stripped "<<" and ">>" one
// at a time and kept inner spaces, the engine CLI knew only ccr://, shrink and browse trimmed
// different white space. These cases pin the one answer.
#include "caveman/base/ccr_handle.h"

#include <gtest/gtest.h>

namespace caveman::base {
namespace {

TEST(NormalizeCcrHandle, AcceptsEverySpelling) {
  EXPECT_EQ(normalize_ccr_handle("ccr_ab"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle(" <<ccr:ccr_ab>> "), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("<<ccr_ab>>"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("<< ccr:ccr_ab >>"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("ccr:ccr_ab"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("ccr: ccr_ab"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("ccr://ccr_ab/"), "ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("ccr:///ccr_obj_12//"), "ccr_obj_12");
  EXPECT_EQ(normalize_ccr_handle("<<ccr://ccr_obj_12>>"), "ccr_obj_12");
  EXPECT_EQ(normalize_ccr_handle("\n ccr_ab \t\r"), "ccr_ab");
}

TEST(NormalizeCcrHandle, AHalfMarkerIsNotUnwrapped) {
  // "<<" without ">>" (or the reverse) is not a marker: it stays, so the store says unknown.
  EXPECT_EQ(normalize_ccr_handle("<<ccr:ccr_ab"), "<<ccr:ccr_ab");
  EXPECT_EQ(normalize_ccr_handle("ccr:ccr_ab>>"), "ccr_ab>>");
  EXPECT_EQ(normalize_ccr_handle("<<>>"), "");
  EXPECT_EQ(normalize_ccr_handle("<>"), "<>");
}

TEST(NormalizeCcrHandle, LeavesOtherTextAlone) {
  EXPECT_EQ(normalize_ccr_handle(""), "");
  EXPECT_EQ(normalize_ccr_handle("   "), "");
  EXPECT_EQ(normalize_ccr_handle("file_read"), "file_read");
  EXPECT_EQ(normalize_ccr_handle("CCR:ccr_ab"), "CCR:ccr_ab");  // the scheme is lowercase
}

}  // namespace
}  // namespace caveman::base
