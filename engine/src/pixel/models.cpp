// Density names, CAVE_PIXEL_* parsing, the model allowlist and reader capabilities
// (docs/pixel.md#models-and-environment).
#include <algorithm>
#include <cctype>

#include "caveman/base/enum_names.h"
#include "caveman/base/text.h"
#include "caveman/pixel.h"

namespace caveman::pixel {
namespace {

constexpr base::EnumName<Density> kDensities[] = {{Density::kConservative, "conservative"},
                                                  {Density::kBalanced, "balanced"},
                                                  {Density::kMax, "max"}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool falsey(std::string_view v) {
  std::string l = base::ascii_lower(trim(v));
  return l == "0" || l == "false" || l == "no" || l == "off" || l == "none";
}

// The id without `[...]` tags, then itself and every suffix after '.' or '/', each also
// without an '@…' suffix.
std::vector<std::string> candidates(std::string_view model) {
  std::string id;
  int depth = 0;
  for (char c : base::ascii_lower(trim(model))) {
    if (c == '[') {
      ++depth;
    } else if (c == ']' && depth > 0) {
      --depth;
    } else if (depth == 0) {
      id.push_back(c);
    }
  }
  id = std::string(trim(id));
  std::vector<std::string> out;
  auto add = [&](std::string c) {
    if (c.empty()) return;
    out.push_back(c);
    std::size_t at = c.find('@');
    if (at != std::string::npos && at > 0) out.push_back(c.substr(0, at));
  };
  add(id);
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (id[i] == '.' || id[i] == '/') add(id.substr(i + 1));
  }
  return out;
}

bool matches_base(const std::string& candidate, std::string_view base) {
  return candidate == base ||
         (candidate.size() > base.size() && candidate.compare(0, base.size(), base) == 0 &&
          candidate[base.size()] == '-');
}

bool any_candidate(std::string_view model, auto pred) {
  for (const std::string& c : candidates(model)) {
    if (pred(c)) return true;
  }
  return false;
}

// claude-opus-<major>[-<minor of 1–2 digits>] with (major, minor) ≥ (4, 8); a date suffix
// (claude-opus-4-20250514) is not a minor version.
bool opus_at_least_4_8(const std::string& c) {
  constexpr std::string_view kPrefix = "claude-opus-";
  if (c.compare(0, kPrefix.size(), kPrefix) != 0) return false;
  std::size_t i = kPrefix.size(), start = i;
  int major = 0, minor = 0;
  while (i < c.size() && std::isdigit(static_cast<unsigned char>(c[i])) && i - start < 3) major = major * 10 + (c[i++] - '0');
  if (i == start || (i < c.size() && c[i] != '-')) return false;
  if (i < c.size()) {
    std::size_t m = ++i;
    while (i < c.size() && std::isdigit(static_cast<unsigned char>(c[i]))) ++i;
    if (i > m && i - m <= 2 && (i == c.size() || c[i] == '-')) minor = std::stoi(c.substr(m, i - m));
  }
  return major > 4 || (major == 4 && minor >= 8);
}

}  // namespace

std::string_view density_name(Density density) {
  return base::name_of(kDensities, density, "conservative");
}

std::optional<Density> parse_density(std::string_view name) {
  return base::value_named(kDensities, name);
}

Density density_from_env(std::optional<std::string_view> value) {
  if (!value) return Density::kBalanced;
  if (falsey(*value)) return Density::kConservative;
  return parse_density(base::ascii_lower(trim(*value))).value_or(Density::kConservative);
}

std::vector<std::string> allowlist_from_env(std::optional<std::string_view> value) {
  if (!value || trim(*value).empty()) return {"claude-fable-5", "gpt-5.6"};
  if (falsey(*value)) return {};
  std::vector<std::string> out;
  std::string_view rest = *value;
  while (true) {
    std::size_t comma = rest.find(',');
    std::string item = base::ascii_lower(trim(rest.substr(0, comma)));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

bool model_allowed(std::string_view model, const std::vector<std::string>& allowlist) {
  for (const std::string& base : allowlist) {
    std::string b = base::ascii_lower(trim(base));
    if (!b.empty() && any_candidate(model, [&](const std::string& c) { return matches_base(c, b); })) {
      return true;
    }
  }
  return false;
}

Reader reader_for(std::string_view model, Density requested) {
  bool hires = any_candidate(model, [](const std::string& c) {
    return matches_base(c, "claude-fable-5") || matches_base(c, "claude-mythos-5") ||
           c.rfind("claude-sonnet-5", 0) == 0 || opus_at_least_4_8(c);
  });
  if (hires) return {requested, Tier::kHiRes};
  if (any_candidate(model, [](const std::string& c) { return matches_base(c, "gpt-5.6"); })) {
    return {requested, Tier::kStandard};
  }
  return {Density::kConservative, Tier::kStandard};
}

}  // namespace caveman::pixel
