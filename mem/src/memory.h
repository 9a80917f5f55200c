// memory.h — the memory record of cavemem, its limits and its input validation.
//
// A Memory is one version of one remembered fact. Its id is content-addressed
// (`mem_` + the first 8 bytes of SHA-256(text) in hex), so remembering the same text twice
// yields the same id. Versions form a chain through supersedes/superseded_by; a version is
// current while it has neither valid_until nor superseded_by. The validators here are pure
// functions shared by the CLI, the MCP tools and import; they return kInvalidArgument
// (codes::kInvalidArguments) or kResourceExhausted (codes::kMemoryTooLarge), never throw.
#ifndef CAVEMAN_MEM_MEMORY_H_
#define CAVEMAN_MEM_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::mem {

// Limits (docs/mem.md). The text cap matches the original (256 KiB, exit 65 beyond it).
inline constexpr std::size_t kMaxMemoryBytes = 256 * 1024;
inline constexpr std::size_t kMaxQueryChars = 500;
inline constexpr std::size_t kMaxQueryBytes = 1024;
inline constexpr std::size_t kMaxQueryTerms = 64;  // distinct terms kept, in query order
inline constexpr std::size_t kMaxProjectBytes = 256;
inline constexpr std::size_t kMaxTags = 16;
inline constexpr std::size_t kMaxTagBytes = 64;
inline constexpr int kDefaultLimit = 5;
inline constexpr int kMaxLimit = 50;
inline constexpr std::int64_t kDefaultTokenBudget = 2000;
inline constexpr std::int64_t kMaxTokenBudget = 1'000'000;
inline constexpr double kDefaultThreshold = 0.1;

struct Memory {
  std::string id;
  std::string text;
  std::string created_at;  // RFC 3339 UTC, microseconds
  std::string valid_from;
  std::optional<std::string> valid_until;
  std::optional<std::string> supersedes;
  std::optional<std::string> superseded_by;
  std::optional<std::string> project;
  std::vector<std::string> tags;  // sorted, distinct, lowercase

  bool current() const { return !valid_until && !superseded_by; }
};

// "mem_" + lowercase hex of the first 8 bytes of SHA-256(text).
std::string memory_id(std::string_view text);

// True for "mem_" followed by exactly 16 lowercase hex digits.
bool is_memory_id(std::string_view id);

// Memory text: non-blank, valid UTF-8 without NUL, at most kMaxMemoryBytes bytes
// (beyond → kResourceExhausted / codes::kMemoryTooLarge).
Status validate_text(std::string_view text);

// Project: 1..kMaxProjectBytes bytes of valid UTF-8 without control characters.
Status validate_project(std::string_view project);

// Tags: at most kMaxTags, each 1..kMaxTagBytes bytes of letters and digits (any script) and
// . _ : / + -, starting with a letter or digit. Returns them ASCII-lowercased, sorted and
// de-duplicated.
Result<std::vector<std::string>> normalize_tags(const std::vector<std::string>& tags);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_MEMORY_H_
