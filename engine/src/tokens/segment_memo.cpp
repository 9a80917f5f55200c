#include "tokens/segment_memo.h"

#include <cstring>
#include <functional>
#include <limits>

#include "core/probe_table.h"

namespace caveman::tokens {
namespace {

// Calls fn(segment) for each segment of `text` (none for an empty text).
template <typename Fn>
void for_each_segment(std::string_view text, Fn&& fn) {
  const char* base = text.data();
  std::size_t n = text.size();
  std::size_t start = 0;
  for (std::size_t pos = 0; pos < n;) {
    const void* hit = std::memchr(base + pos, '\n', n - pos);
    if (hit == nullptr) break;
    pos = static_cast<std::size_t>(static_cast<const char*>(hit) - base) + 1;
    if (pos >= n) break;
    auto next = static_cast<unsigned char>(base[pos]);
    if (next >= 0x21 && next <= 0x7E && next != '/') {
      fn(text.substr(start, pos - start));
      start = pos;
    }
  }
  if (start < n) fn(text.substr(start));
}

}  // namespace

std::vector<std::string_view> SegmentMemo::segments(std::string_view text) {
  std::vector<std::string_view> out;
  for_each_segment(text, [&](std::string_view seg) { out.push_back(seg); });
  return out;
}

std::size_t SegmentMemo::count(std::string_view text, bool remember) {
  std::size_t total = 0;
  for_each_segment(text, [&](std::string_view seg) {
    std::size_t hash = std::hash<std::string_view>{}(seg);
    if (const Slot* s = find(seg, hash)) {
      total += s->count;
      return;
    }
    std::size_t c = counter_->count(seg);
    total += c;
    if (remember && seg.size() <= std::numeric_limits<std::uint32_t>::max()) {
      insert(seg, hash, c);
    }
  });
  return total;
}

const SegmentMemo::Slot* SegmentMemo::find(std::string_view seg, std::size_t hash) const {
  if (slots_.empty()) return nullptr;
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.used) return nullptr;
    if (s.hash == hash && s.len == seg.size() &&
        std::memcmp(s.data, seg.data(), seg.size()) == 0) {
      return &s;
    }
  }
}

void SegmentMemo::insert(std::string_view seg, std::size_t hash, std::size_t count) {
  if ((used_ + 1) * 2 > slots_.size()) grow();
  std::size_t mask = slots_.size() - 1;
  std::size_t i = hash & mask;
  while (slots_[i].used) i = (i + 1) & mask;
  slots_[i] = Slot{hash, seg.data(), static_cast<std::uint32_t>(seg.size()),
                   static_cast<std::uint32_t>(count), true};
  ++used_;
}

void SegmentMemo::grow() {
  core::grow_probe_table(slots_, 256, [](const Slot& s) { return !s.used; });
}

}  // namespace caveman::tokens
