#include "memory.h"

#include <algorithm>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "caveman/ccr.h"
#include "query.h"

namespace caveman::mem {
namespace {

Status invalid(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

// Letters and digits of any script, plus . _ : / + - after the first character.
bool valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > kMaxTagBytes || !base::is_valid_utf8(tag)) return false;
  std::size_t i = 0;
  bool first = true;
  while (i < tag.size()) {
    const char c = tag[i];
    const char32_t cp = next_code_point(tag, i);
    const bool word = classify(cp) != CharClass::kSeparator;
    const bool punct = c == '.' || c == '_' || c == ':' || c == '/' || c == '+' || c == '-';
    if (!word && (first || !punct)) return false;
    first = false;
  }
  return true;
}

}  // namespace

std::string memory_id(std::string_view text) {
  return "mem_" + ccr::sha256_hex(text).substr(0, 16);
}

bool is_memory_id(std::string_view id) {
  if (id.size() != 20 || id.substr(0, 4) != "mem_") return false;
  return std::all_of(id.begin() + 4, id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Status validate_text(std::string_view text) {
  if (text.size() > kMaxMemoryBytes) {
    return Status::ResourceExhausted(codes::kMemoryTooLarge,
                                     "memory text is " + std::to_string(text.size()) +
                                         " bytes; the limit is " + std::to_string(kMaxMemoryBytes) +
                                         " bytes (256 KiB)");
  }
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; })) {
    return invalid("memory text is empty");
  }
  if (text.find('\0') != std::string_view::npos) return invalid("memory text contains a NUL byte");
  if (!base::is_valid_utf8(text)) return invalid("memory text is not valid UTF-8");
  return Status::Ok();
}

Status validate_project(std::string_view project) {
  if (project.empty()) return invalid("project is empty");
  if (project.size() > kMaxProjectBytes) {
    return invalid("project is longer than " + std::to_string(kMaxProjectBytes) + " bytes");
  }
  if (!base::is_valid_utf8(project)) return invalid("project is not valid UTF-8");
  for (char c : project) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      return invalid("project contains a control character");
    }
  }
  return Status::Ok();
}

Result<std::vector<std::string>> normalize_tags(const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  for (const std::string& tag : tags) {
    if (!valid_tag(tag)) {
      return invalid("a tag must be 1-" + std::to_string(kMaxTagBytes) +
                     " bytes of letters, digits and . _ : / + -, starting with a letter or digit");
    }
    out.push_back(base::ascii_lower(tag));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > kMaxTags) {
    return invalid("at most " + std::to_string(kMaxTags) + " tags per memory");
  }
  return out;
}

}  // namespace caveman::mem
