// memory.h: ids, text limits, tags and projects.
#include "memory.h"

#include <gtest/gtest.h>

#include "caveman/ccr.h"

namespace caveman::mem {
namespace {

TEST(MemoryIdTest, IsMemPrefixPlusFirstEightBytesOfSha256) {
  const std::string text = "use pnpm, not npm";
  const std::string id = memory_id(text);
  EXPECT_EQ(id, "mem_" + ccr::sha256_hex(text).substr(0, 16));
  EXPECT_EQ(id.size(), 20u);
  EXPECT_TRUE(is_memory_id(id));
  EXPECT_EQ(memory_id(text), id);  // content-addressed
  EXPECT_NE(memory_id(text + " "), id);
}

TEST(MemoryIdTest, RejectsMalformedIds) {
  EXPECT_FALSE(is_memory_id("mem_0123456789abcde"));     // 15 hex
  EXPECT_FALSE(is_memory_id("mem_0123456789ABCDEF"));    // uppercase
  EXPECT_FALSE(is_memory_id("ccr_0123456789abcdef"));
  EXPECT_FALSE(is_memory_id("mem_0123456789abcdeg"));
  EXPECT_FALSE(is_memory_id("mem_0123456789abcdef0"));
  EXPECT_TRUE(is_memory_id("mem_0123456789abcdef"));
}

TEST(ValidateTextTest, SizeCapIsExactly256KiB) {
  EXPECT_TRUE(validate_text(std::string(kMaxMemoryBytes, 'a')).ok());
  Status s = validate_text(std::string(kMaxMemoryBytes + 1, 'a'));
  EXPECT_EQ(s.code(), Code::kResourceExhausted);
  EXPECT_EQ(s.error_code(), "cave_memory_too_large");
}

TEST(ValidateTextTest, RefusesBlankNulAndInvalidUtf8) {
  for (const std::string& bad : {std::string(""), std::string(" \n\t "), std::string("a\0b", 3),
                                 std::string("caf\xC3"), std::string("\xED\xA0\x80")}) {
    Status s = validate_text(bad);
    EXPECT_EQ(s.error_code(), "cave_invalid_arguments") << bad;
  }
  EXPECT_TRUE(validate_text("数据库迁移 ✓ café").ok());
}

TEST(TagsTest, LowercasedSortedDistinctAndAnyScript) {
  auto tags = normalize_tags({"Deploy", "ci/cd", "deploy", "数据库", "v1.2+rc"});
  ASSERT_TRUE(tags.ok()) << tags.status().ToString();
  EXPECT_EQ(tags.value(), (std::vector<std::string>{"ci/cd", "deploy", "v1.2+rc", "数据库"}));
}

TEST(TagsTest, RefusesSpacesPunctuationLeadingSymbolsAndTooMany) {
  for (const std::string& bad : std::vector<std::string>{"", "two words", "-lead", "a%b", "a\"b", std::string(65, 'x')}) {
    EXPECT_FALSE(normalize_tags({bad}).ok()) << bad;
  }
  std::vector<std::string> many;
  for (int i = 0; i < 17; ++i) many.push_back("t" + std::to_string(i));
  EXPECT_FALSE(normalize_tags(many).ok());
}

TEST(ProjectTest, RefusesControlCharactersAndOversize) {
  EXPECT_TRUE(validate_project("billing-api").ok());
  EXPECT_FALSE(validate_project("").ok());
  EXPECT_FALSE(validate_project("a\nb").ok());
  EXPECT_FALSE(validate_project(std::string(kMaxProjectBytes + 1, 'p')).ok());
}

}  // namespace
}  // namespace caveman::mem
