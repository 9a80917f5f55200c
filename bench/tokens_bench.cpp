// tokens_bench: single-thread throughput of Caveman's o200k_base counter on one input file.
//
// usage: tokens_bench <file> [runs]
// Prints one JSON object: bytes, tokens, and the best-of-`runs` (default 5) MB/s of count()
// and of encode(), by wall clock and by process CPU time. Best-of rather than mean because the
// machine is shared: the fastest run is the one least disturbed by other processes; CPU time
// is what the work costs whatever the load. bench/tokens_bench.sh runs it beside the JS peers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "caveman/tokens.h"
#include "support/corpus.h"

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Best {
  double wall = 1e100;
  double cpu = 1e100;
};

template <typename F>
Best best_seconds(int runs, F&& f) {
  Best best;
  for (int i = 0; i < runs; ++i) {
    double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    double c1 = cpu_seconds();
    best.wall = std::min(best.wall, std::chrono::duration<double>(t1 - t0).count());
    best.cpu = std::min(best.cpu, c1 - c0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tokens_bench <file> [runs]\n");
    return 2;
  }
  std::string text = caveman::corpus::read_file(argv[1]);
  int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const auto& counter = caveman::tokens::default_counter();
  std::size_t tokens = 0;
  std::size_t ids = 0;
  Best count_s = best_seconds(runs, [&] { tokens = counter.count(text); });
  Best encode_s = best_seconds(runs, [&] { ids = counter.encode(text).size(); });
  if (ids != tokens) {
    std::fprintf(stderr, "tokens_bench: count %zu != encode %zu\n", tokens, ids);
    return 1;
  }
  double mb = static_cast<double>(text.size()) / 1e6;
  std::printf(
      "{\"bytes\":%zu,\"tokens\":%zu,\"runs\":%d,\"count_mb_s\":%.2f,\"encode_mb_s\":%.2f,"
      "\"count_cpu_mb_s\":%.2f,\"encode_cpu_mb_s\":%.2f}\n",
      text.size(), tokens, runs, mb / count_s.wall, mb / encode_s.wall, mb / count_s.cpu,
      mb / encode_s.cpu);
  return 0;
}
