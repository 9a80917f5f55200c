// Duplicate-key detection for one object at a time: linear probing over a short list, a hash
// set once the object grows. Reused between objects to avoid allocations (clear()).
#ifndef CAVEMAN_TOON_KEY_SET_H_
#define CAVEMAN_TOON_KEY_SET_H_

#include <string_view>
#include <unordered_set>
#include <vector>

namespace caveman::toon {

class KeySet {
 public:
  // False when `key` was already inserted since the last clear().
  bool insert(std::string_view key) {
    if (!large_) {
      for (std::string_view k : small_) {
        if (k == key) return false;
      }
      small_.push_back(key);
      if (small_.size() > kSmallLimit) {
        large_ = true;
        set_.insert(small_.begin(), small_.end());
      }
      return true;
    }
    return set_.insert(key).second;
  }
  void clear() {
    small_.clear();
    if (large_) set_.clear();
    large_ = false;
  }

 private:
  static constexpr std::size_t kSmallLimit = 24;
  std::vector<std::string_view> small_;
  std::unordered_set<std::string_view> set_;  // membership only; never iterated into output
  bool large_ = false;
};

}  // namespace caveman::toon

#endif  // CAVEMAN_TOON_KEY_SET_H_
