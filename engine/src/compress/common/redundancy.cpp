// The redundancy gate (docs/spec/markers.md#redundancy). Tokens are interned to small integers per
// call and classes are indexed by token (an inverted index), so a dropped unit is tested against
// every class in one pass over its own tokens instead of one pass per class.
#include "compress/common/redundancy.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/probe_table.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxTokens = 128;      // distinct tokens collected per unit
constexpr std::size_t kMaxPromotions = 128;  // then the payload is a document: keep all
constexpr std::size_t kMaxSeeds = 64;

// ASCII character classes for the tokenizer: word characters are letters, digits and '_'.
enum AsciiClass : unsigned char { kSep, kLower, kUpper, kDigit, kUnderscore };

constexpr std::array<unsigned char, 128> make_ascii_classes() {
  std::array<unsigned char, 128> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kLower;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kUpper;
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  t['_'] = kUnderscore;
  return t;
}
constexpr std::array<unsigned char, 128> kAsciiClass = make_ascii_classes();

// One unit's vocabulary: distinct interned token ids (≤ 128) and whether digits were masked.
struct Profile {
  std::vector<std::uint32_t> tokens;
  bool masked = false;
};

class Vocabulary {
 public:
  // The profile (docs/spec/markers.md#redundancy): the masked vocabulary when it holds a
  // letter-bearing token, else the unmasked one.
  void profile(std::string_view unit, Profile& p) {
    p.tokens.clear();
    // Without any letter no token can be letter-bearing: skip the masked pass.
    if (has_letter(unit) && collect(unit, /*mask=*/true, p.tokens)) {
      p.masked = true;
      return;
    }
    p.tokens.clear();
    p.masked = false;
    collect(unit, /*mask=*/false, p.tokens);
  }

 private:
  static bool has_letter(std::string_view unit) {
    for (char c : unit) {
      auto b = static_cast<unsigned char>(c);
      if (b >= 0x80 || kAsciiClass[b] == kLower || kAsciiClass[b] == kUpper) return true;
    }
    return false;
  }

  // Appends the distinct token ids of `unit` (stopping at 128); returns whether any token
  // contains a letter.
  bool collect(std::string_view unit, bool mask, std::vector<std::uint32_t>& out) {
    ++serial_;
    bool any_letter = false;
    bool tok_letter = false;
    bool in_digits = false;
    tok_.clear();
    auto add = [&](std::string_view tok) {
      std::uint32_t id = intern(tok);
      if (seen_[id] != serial_) {
        seen_[id] = serial_;
        out.push_back(id);
      }
    };
    auto flush = [&]() {
      if (tok_.empty()) return;
      any_letter = any_letter || tok_letter;
      add(tok_);
      tok_.clear();
      tok_letter = false;
      in_digits = false;
    };
    const std::size_t n = unit.size();
    for (std::size_t i = 0; i < n && out.size() < kMaxTokens;) {
      unsigned char b = static_cast<unsigned char>(unit[i]);
      if (tok_.empty() && b < 0x80 && kAsciiClass[b] != kSep) {
        // Most tokens are already lowercase ASCII: intern them in place, without a copy.
        std::size_t j = i;
        bool letter = false;
        for (; j < n; ++j) {
          auto c = static_cast<unsigned char>(unit[j]);
          if (c >= 0x80) break;
          unsigned char cls = kAsciiClass[c];
          if (cls == kUpper || (cls == kDigit && mask)) break;
          if (cls == kSep) break;
          letter = letter || cls == kLower;
        }
        if (j > i && (j == n || (static_cast<unsigned char>(unit[j]) < 0x80 &&
                                  kAsciiClass[static_cast<unsigned char>(unit[j])] == kSep))) {
          any_letter = any_letter || letter;
          add(unit.substr(i, j - i));
          i = j;
          continue;
        }
        // Needs folding or masking: copy the plain prefix and continue byte by byte. When
        // the token starts with such a byte (j == i) the byte path below takes it, so the
        // scan always advances.
        if (j > i) {
          tok_.assign(unit.data() + i, j - i);
          tok_letter = letter;
          i = j;
          continue;
        }
      }
      if (b < 0x80) {  // ASCII
        ++i;
        switch (kAsciiClass[b]) {
          case kSep:
            flush();
            continue;
          case kDigit:
            if (mask) {
              if (!in_digits) tok_.push_back('#');
              in_digits = true;
            } else {
              tok_.push_back(static_cast<char>(b));
            }
            continue;
          case kUpper:
            b = static_cast<unsigned char>(b + 32);
            [[fallthrough]];
          case kLower:
            tok_letter = true;
            [[fallthrough]];
          default:  // '_'
            in_digits = false;
            tok_.push_back(static_cast<char>(b));
            continue;
        }
      }
      text::Decoded d = text::decode_utf8(unit, i);
      i += d.len;
      char32_t cp = d.valid ? text::to_lower(d.cp) : text::kReplacementChar;
      bool letter = d.valid && text::is_letter(cp);
      bool digit = d.valid && text::is_decimal_digit(cp);
      if (!letter && !digit) {
        flush();
      } else if (digit && mask) {
        if (!in_digits) tok_.push_back('#');
        in_digits = true;
      } else {
        in_digits = false;
        tok_letter = tok_letter || letter;
        text::append_utf8(tok_, cp);
      }
    }
    if (out.size() < kMaxTokens) flush();
    return any_letter;
  }

  // Open addressing over an arena of token bytes: interning is the gate's hottest path.
  std::uint32_t intern(std::string_view tok) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : tok) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    if ((count_ + 1) * 2 > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.len == kEmpty) {
        slot = Slot{h, static_cast<std::uint32_t>(arena_.size()),
                    static_cast<std::uint32_t>(tok.size()), static_cast<std::uint32_t>(count_)};
        arena_.append(tok);
        seen_.push_back(0);
        return static_cast<std::uint32_t>(count_++);
      }
      if (slot.hash == h && slot.len == tok.size() &&
          std::string_view(arena_).substr(slot.offset, slot.len) == tok) {
        return slot.id;
      }
    }
  }

  void grow() {
    core::grow_probe_table(slots_, 1024, [](const Slot& s) { return s.len == kEmpty; });
  }

  static constexpr std::uint32_t kEmpty = 0xFFFFFFFF;
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t offset = 0;
    std::uint32_t len = kEmpty;
    std::uint32_t id = 0;
  };
  std::vector<Slot> slots_;
  std::string arena_;
  std::size_t count_ = 0;
  std::string tok_;                  // the token being built (reused: no allocation per token)
  std::vector<std::uint32_t> seen_;  // seen_[id] == serial_: already in this unit's set
  std::uint32_t serial_ = 0;
};

// Classes with an inverted index: postings_[token] lists the classes holding it.
class Classes {
 public:
  void add(const Profile& p) {
    auto cls = static_cast<std::uint32_t>(masked_.size());
    masked_.push_back(p.masked);
    hits_.push_back(0);
    for (std::uint32_t t : p.tokens) {
      if (t >= postings_.size()) postings_.resize(t + 1);
      postings_[t].push_back(cls);
    }
  }

  // True when some class with the same masked flag holds ≥ ⌈0.9·n⌉ of the unit's tokens.
  bool represents(const Profile& p) {
    const std::size_t n = p.tokens.size();
    const auto need = static_cast<std::size_t>(0.9 * static_cast<double>(n) + 0.999999);
    touched_.clear();
    bool found = false;
    for (std::uint32_t t : p.tokens) {
      if (t >= postings_.size()) continue;
      for (std::uint32_t cls : postings_[t]) {
        if (masked_[cls] != p.masked) continue;
        if (hits_[cls]++ == 0) touched_.push_back(cls);
        if (hits_[cls] >= need) found = true;
      }
      if (found) break;
    }
    for (std::uint32_t cls : touched_) hits_[cls] = 0;
    return found;
  }

 private:
  std::vector<std::uint8_t> masked_;
  std::vector<std::uint32_t> hits_;
  std::vector<std::uint32_t> touched_;
  std::vector<std::vector<std::uint32_t>> postings_;
};

// Profiles already decided. A profile seen before is represented now: it was either
// represented then (classes are never removed) or promoted to a class of its own. Repeated
// records (JSON array elements, log templates) skip the inverted-index walk this way.
class SeenProfiles {
 public:
  static std::uint64_t hash(const Profile& p) {
    std::uint64_t h = p.masked ? 0x9E3779B97F4A7C15ull : 0x2545F4914F6CDD1Dull;
    for (std::uint32_t t : p.tokens) h = (h ^ t) * 0x100000001B3ull;
    return h ^ (h >> 29);
  }

  bool contains(const Profile& p, std::uint64_t h) const {
    if (slots_.empty()) return false;
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!s.used) return false;
      if (s.hash == h && s.masked == p.masked && s.len == p.tokens.size() &&
          std::equal(p.tokens.begin(), p.tokens.end(),
                     arena_.begin() + static_cast<std::ptrdiff_t>(s.offset))) {
        return true;
      }
    }
  }

  void insert(const Profile& p, std::uint64_t h) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    slots_[i] = Slot{h, arena_.size(), p.tokens.size(), p.masked, true};
    arena_.insert(arena_.end(), p.tokens.begin(), p.tokens.end());
    ++count_;
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t offset = 0;
    std::size_t len = 0;
    bool masked = false;
    bool used = false;
  };

  void grow() {
    core::grow_probe_table(slots_, 256, [](const Slot& s) { return !s.used; });
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> arena_;
  std::size_t count_ = 0;
};

}  // namespace

void keep_non_redundant(const std::vector<std::string_view>& units, std::vector<bool>& keep) {
  keep.resize(units.size(), false);
  Vocabulary vocab;
  Classes classes;

  Profile scratch, previous;
  bool have_previous = false;
  SeenProfiles seen;
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (keep[i]) kept.push_back(i);
  }
  const std::size_t step = kept.size() > kMaxSeeds ? kept.size() / kMaxSeeds : 1;
  for (std::size_t k = 0, seeds = 0; k < kept.size() && seeds < kMaxSeeds; k += step, ++seeds) {
    vocab.profile(units[kept[k]], scratch);
    classes.add(scratch);
  }

  std::size_t promotions = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (keep[i]) continue;
    if (promotions >= kMaxPromotions) {
      keep[i] = true;
      continue;
    }
    Profile& p = scratch;
    vocab.profile(units[i], p);
    if (p.tokens.empty()) continue;
    // The same profile as the previous dropped unit is represented: either a class already
    // held it, or it was promoted and became one.
    bool same = have_previous && p.masked == previous.masked && p.tokens == previous.tokens;
    std::swap(previous, p);
    have_previous = true;
    if (same) continue;
    std::uint64_t h = SeenProfiles::hash(previous);
    if (seen.contains(previous, h)) continue;
    seen.insert(previous, h);
    if (classes.represents(previous)) continue;
    keep[i] = true;
    ++promotions;
    classes.add(previous);
  }
}

}  // namespace caveman::compress
