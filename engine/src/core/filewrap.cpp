#include "core/wrappers.h"

#include "caveman/base/split.h"
#include "text/utf8.h"

namespace caveman::core {
namespace {

constexpr std::string_view kOpen = "<file";
constexpr std::string_view kClose = "</file>";
constexpr int kMaxLayers = 4;

}  // namespace

std::optional<FileWrapper> strip_file_wrapper(std::string_view input, std::string* inner) {
  std::string_view trimmed = text::trim_space(input);
  if (trimmed.size() < 9) return std::nullopt;
  if (trimmed.substr(0, kOpen.size()) != kOpen) return std::nullopt;
  char after = trimmed[kOpen.size()];
  if (after != ' ' && after != '\t' && after != '>') return std::nullopt;
  if (trimmed.substr(trimmed.size() - kClose.size()) != kClose) return std::nullopt;
  if (base::count_occurrences(trimmed, kOpen) != 1 || base::count_occurrences(trimmed, kClose) != 1) {
    return std::nullopt;
  }

  // Find the opening tag's '>' outside quoted attribute values.
  std::size_t close_tag = trimmed.size() - kClose.size();
  std::size_t gt = std::string_view::npos;
  char quote = 0;
  for (std::size_t i = kOpen.size(); i < close_tag; ++i) {
    char c = trimmed[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      gt = i;
      break;
    }
  }
  if (gt == std::string_view::npos) return std::nullopt;
  std::string_view body = trimmed.substr(gt + 1, close_tag - gt - 1);
  if (text::trim_space(body).empty()) return std::nullopt;

  std::size_t lead = static_cast<std::size_t>(trimmed.data() - input.data());
  FileWrapper w;
  w.prefix = std::string(input.substr(0, lead + gt + 1));
  w.suffix = std::string(input.substr(lead + close_tag));
  *inner = std::string(body);
  return w;
}

std::optional<FileWrapper> strip_trailing_reminders(std::string_view input, std::string* inner) {
  constexpr std::string_view kOpenTag = "<system-reminder>";
  constexpr std::string_view kCloseTag = "</system-reminder>";
  std::size_t start = input.size();
  std::string_view rest = input;
  // Walk back over reminders that follow one another (white space between them) at the end.
  while (true) {
    std::string_view trimmed = rest;
    while (!trimmed.empty() && std::string_view(" \t\r\n").find(trimmed.back()) != std::string_view::npos) {
      trimmed.remove_suffix(1);
    }
    if (!trimmed.ends_with(kCloseTag)) break;
    std::size_t open = trimmed.rfind(kOpenTag);
    if (open == std::string_view::npos || (open > 0 && trimmed[open - 1] != '\n')) break;
    start = open;
    rest = input.substr(0, open);
  }
  if (start == input.size() || text::trim_space(input.substr(0, start)).empty()) return std::nullopt;
  *inner = std::string(input.substr(0, start));
  return FileWrapper{"", std::string(input.substr(start))};
}

Unwrapped unwrap_input(std::string_view input) {
  Unwrapped u;
  u.body = std::string(input);
  for (int round = 0; round < kMaxLayers; ++round) {
    if (std::optional<Listing> l = strip_gutter(u.body)) {
      std::string body = l->source;
      u.layers.emplace_back(std::move(*l));
      u.body = std::move(body);
      continue;
    }
    std::string inner;
    if (std::optional<FileWrapper> w = strip_file_wrapper(u.body, &inner)) {
      u.layers.emplace_back(std::move(*w));
      u.body = std::move(inner);
      continue;
    }
    if (std::optional<FileWrapper> w = strip_trailing_reminders(u.body, &inner)) {
      u.layers.emplace_back(std::move(*w));
      u.body = std::move(inner);
      continue;
    }
    break;
  }
  return u;
}

std::optional<std::string> rewrap_file_read(std::string body, const std::vector<Layer>& layers) {
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    if (const auto* l = std::get_if<Listing>(&*it)) {
      std::optional<std::string> shown = restore_file_read(body, *l);
      if (!shown) return std::nullopt;
      body = std::move(*shown);
    } else {
      const auto& w = std::get<FileWrapper>(*it);
      body = w.prefix + body + w.suffix;
    }
  }
  return body;
}

std::string rewrap(std::string body, const std::vector<Layer>& layers, GutterStyle style) {
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    if (const auto* l = std::get_if<Listing>(&*it)) {
      body = restore_gutter(body, *l, style);
    } else {
      const auto& w = std::get<FileWrapper>(*it);
      body = w.prefix + body + w.suffix;
    }
  }
  return body;
}

}  // namespace caveman::core
