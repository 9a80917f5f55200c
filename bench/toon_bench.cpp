// TOON codec throughput (bench/toon_bench.sh runs it beside @toon-format/toon in node).
//
// usage: toon_bench <input.json> <runs> <out.toon> <out.json>
// Times toon_encode on the JSON file and toon_decode on the TOON it produced (one warm-up run,
// then `runs` timed runs each; the whole call: JSON parsing, encoding, output assembly, and for
// decode the compact JSON writing). Writes both outputs for byte comparison and prints one JSON
// object with the timings in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "caveman/toon.h"

namespace {

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool write_file(const char* path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
  return static_cast<bool>(out);
}

struct Timing {
  double min_ms;
  double median_ms;
};

template <typename F>
Timing time_runs(int runs, F&& f) {
  f();  // warm-up
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    f();
    auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: toon_bench <input.json> <runs> <out.toon> <out.json>\n");
    return 2;
  }
  std::string json = read_file(argv[1]);
  int runs = std::max(1, std::atoi(argv[2]));

  caveman::Result<std::string> toon = caveman::toon::toon_encode(json);
  if (!toon.ok()) {
    std::fprintf(stderr, "toon_bench: encode: %s\n", toon.status().ToString().c_str());
    return 1;
  }
  caveman::Result<std::string> back = caveman::toon::toon_decode(toon.value());
  if (!back.ok()) {
    std::fprintf(stderr, "toon_bench: decode: %s\n", back.status().ToString().c_str());
    return 1;
  }
  std::size_t sink = 0;
  Timing encode = time_runs(runs, [&] { sink += caveman::toon::toon_encode(json).value().size(); });
  Timing decode =
      time_runs(runs, [&] { sink += caveman::toon::toon_decode(toon.value()).value().size(); });
  if (!write_file(argv[3], toon.value()) || !write_file(argv[4], back.value())) {
    std::fprintf(stderr, "toon_bench: cannot write outputs\n");
    return 1;
  }
  std::printf(
      "{\"json_bytes\":%zu,\"toon_bytes\":%zu,\"runs\":%d,\"encode_ms_min\":%.3f,"
      "\"encode_ms_median\":%.3f,\"decode_ms_min\":%.3f,\"decode_ms_median\":%.3f,\"sink\":%zu}\n",
      json.size(), toon.value().size(), runs, encode.min_ms, encode.median_ms, decode.min_ms,
      decode.median_ms, sink);
  return 0;
}
