// Shared pieces of the libFuzzer targets: a property check that aborts with a message
// (libFuzzer records the input as a crash), and a process-wide engine on an in-memory store.
#ifndef CAVEMAN_TESTS_FUZZ_FUZZ_UTIL_H_
#define CAVEMAN_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "caveman/ccr.h"
#include "caveman/engine.h"

#define FUZZ_CHECK(cond, msg)                                                \
  do {                                                                       \
    if (!(cond)) {                                                           \
      std::fprintf(stderr, "property violated: %s (%s:%d)\n", msg, __FILE__, __LINE__); \
      std::abort();                                                          \
    }                                                                        \
  } while (0)

namespace caveman::fuzz {

// A fresh in-memory store every 1,000 calls: every transformed input is stored, and a store
// that only grows would end a long run at the RSS limit instead of on a finding.
inline std::shared_ptr<const Engine> new_memory_engine() {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  if (!store.ok()) std::abort();
  return std::make_shared<const Engine>(std::shared_ptr<ccr::Store>(std::move(store).value()));
}

inline const Engine& memory_engine() {
  static std::shared_ptr<const Engine> engine;
  static unsigned calls = 0;
  if (!engine || ++calls % 1000 == 0) engine = new_memory_engine();
  return *engine;
}

}  // namespace caveman::fuzz

#endif  // CAVEMAN_TESTS_FUZZ_FUZZ_UTIL_H_
