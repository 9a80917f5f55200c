// The redundancy gate (ENGINE.md §5.1). Tokens are interned to small integers per call and
// classes are indexed by token (an inverted index), so a dropped unit is tested against
// every class in one pass over its own tokens instead of one pass per class.
#include "compress/redundancy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxTokens = 128;      // distinct tokens collected per unit
constexpr std::size_t kMaxPromotions = 128;  // then the payload is a document: keep all
constexpr std::size_t kMaxSeeds = 64;

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// One unit's vocabulary: distinct interned token ids (≤ 128) and whether digits were masked.
struct Profile {
  std::vector<std::uint32_t> tokens;
  bool masked = false;
};

class Vocabulary {
 public:
  // §5.1 profile: the masked vocabulary when it holds a letter-bearing token, else the
  // unmasked one.
  Profile profile(std::string_view unit) {
    Profile p;
    bool letter_bearing = collect(unit, /*mask=*/true, p.tokens);
    if (letter_bearing) {
      p.masked = true;
    } else {
      p.tokens.clear();
      collect(unit, /*mask=*/false, p.tokens);
    }
    return p;
  }

 private:
  // Appends the distinct token ids of `unit` (stopping at 128); returns whether any token
  // contains a letter.
  bool collect(std::string_view unit, bool mask, std::vector<std::uint32_t>& out) {
    ++serial_;
    bool any_letter = false;
    std::string tok;
    bool tok_letter = false;
    bool in_digits = false;
    auto flush = [&]() {
      if (tok.empty()) return;
      any_letter = any_letter || tok_letter;
      std::uint32_t id = intern(tok);
      if (seen_[id] != serial_) {
        seen_[id] = serial_;
        out.push_back(id);
      }
      tok.clear();
      tok_letter = false;
      in_digits = false;
    };
    for (std::size_t i = 0; i < unit.size() && out.size() < kMaxTokens;) {
      unsigned char b = static_cast<unsigned char>(unit[i]);
      char32_t cp;
      bool letter = false, digit = false;
      if (b < 0x80) {
        cp = b;
        ++i;
        if (cp >= 'A' && cp <= 'Z') cp += 32;
        letter = cp >= 'a' && cp <= 'z';
        digit = cp >= '0' && cp <= '9';
      } else {
        text::Decoded d = text::decode_utf8(unit, i);
        i += d.len;
        cp = d.valid ? text::to_lower(d.cp) : text::kReplacementChar;
        letter = d.valid && text::is_letter(cp);
        digit = d.valid && text::is_decimal_digit(cp);
      }
      if (!letter && !digit && cp != '_') {
        flush();
        continue;
      }
      if (digit && mask) {
        if (!in_digits) tok.push_back('#');
        in_digits = true;
        continue;
      }
      in_digits = false;
      tok_letter = tok_letter || letter;
      text::append_utf8(tok, cp);
    }
    if (out.size() < kMaxTokens) flush();
    return any_letter;
  }

  std::uint32_t intern(const std::string& tok) {
    auto it = ids_.find(std::string_view(tok));
    if (it != ids_.end()) return it->second;
    auto id = static_cast<std::uint32_t>(ids_.size());
    ids_.emplace(tok, id);
    seen_.push_back(0);
    return id;
  }

  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> ids_;
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
  std::vector<bool> masked_;
  std::vector<std::uint32_t> hits_;
  std::vector<std::uint32_t> touched_;
  std::vector<std::vector<std::uint32_t>> postings_;
};

}  // namespace

void keep_non_redundant(const std::vector<std::string_view>& units, std::vector<bool>& keep) {
  keep.resize(units.size(), false);
  Vocabulary vocab;
  Classes classes;

  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (keep[i]) kept.push_back(i);
  }
  const std::size_t step = kept.size() > kMaxSeeds ? kept.size() / kMaxSeeds : 1;
  for (std::size_t k = 0, seeds = 0; k < kept.size() && seeds < kMaxSeeds; k += step, ++seeds) {
    classes.add(vocab.profile(units[kept[k]]));
  }

  std::size_t promotions = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (keep[i]) continue;
    if (promotions >= kMaxPromotions) {
      keep[i] = true;
      continue;
    }
    Profile p = vocab.profile(units[i]);
    if (p.tokens.empty() || classes.represents(p)) continue;
    keep[i] = true;
    ++promotions;
    classes.add(p);
  }
}

}  // namespace caveman::compress
