// Growth of the engine's open-addressing tables (the redundancy gate's vocabulary and
// profiles, the segment-count memo): power-of-two slot vectors with linear probing, kept at
// most half full. Each table probes with its own key comparison; only the rehash is shared.
#ifndef CAVEMAN_CORE_PROBE_TABLE_H_
#define CAVEMAN_CORE_PROBE_TABLE_H_

#include <cstddef>
#include <utility>
#include <vector>

namespace caveman::core {

// Doubles `slots` (or allocates `initial` slots, a power of two, when empty) and re-inserts
// every slot for which is_free(slot) is false at the first free position from
// `slot.hash & mask`. Fresh slots are value-initialised Slot{}, which must be free.
template <typename Slot, typename IsFree>
void grow_probe_table(std::vector<Slot>& slots, std::size_t initial, IsFree is_free) {
  std::vector<Slot> old = std::move(slots);
  slots.assign(old.empty() ? initial : old.size() * 2, Slot{});
  const std::size_t mask = slots.size() - 1;
  for (const Slot& slot : old) {
    if (is_free(slot)) continue;
    std::size_t i = static_cast<std::size_t>(slot.hash) & mask;
    while (!is_free(slots[i])) i = (i + 1) & mask;
    slots[i] = slot;
  }
}

}  // namespace caveman::core

#endif  // CAVEMAN_CORE_PROBE_TABLE_H_
