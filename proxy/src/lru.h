// The memory bound of the per-session books (SessionBook, LifetimeBook): an entry per session,
// the least recently touched one dropped first when the map is full.
#ifndef CAVEMAN_PROXY_LRU_H_
#define CAVEMAN_PROXY_LRU_H_

#include <cstddef>
#include <list>
#include <unordered_map>

namespace caveman::proxy {

// The entry of `key`, made the newest in `order` (front = newest); a new entry, default
// constructed, first drops the oldest when `map` holds `capacity`. `State::lru` is the entry's
// place in `order`.
template <typename Key, typename State>
State& touch_lru(std::unordered_map<Key, State>& map, std::list<Key>& order, const Key& key,
                 std::size_t capacity) {
  auto it = map.find(key);
  if (it != map.end()) {
    order.splice(order.begin(), order, it->second.lru);
    return it->second;
  }
  if (map.size() >= capacity && !order.empty()) {
    map.erase(order.back());
    order.pop_back();
  }
  order.push_front(key);
  State& s = map[key];
  s.lru = order.begin();
  return s;
}

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_LRU_H_
