// corpus_bench: compresses every file of ../shared/corpus through the engine and reports,
// per file and per kind, the ratio, whether every MANIFEST must_keep substring survived,
// whether the handle restores the exact input, and single-thread throughput (MB/s,
// including both token counts), as the Markdown of the docs/BENCHMARKS.md `corpus` section.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "support/corpus.h"

namespace {

struct Row {
  caveman::corpus::CorpusFile file;
  std::string detected;
  std::size_t bytes = 0;
  caveman::CompressResult result;
  int kept = 0;
  std::vector<std::string> lost;
  bool restored = true;
  bool lossless = false;  // the view expands (no store) to the exact input
  double mb_per_s = 0;      // wall clock
  double cpu_mb_per_s = 0;  // per second of the process's CPU time (load-independent)
};

// The whole process: Engine::compress counts inputs of 1 MiB or more on a helper thread,
// whose time belongs to the call too (no corpus file is that large).
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Floors per kind: issue 21's medians for the factored kinds; code, diff and html must not
// fall below what they measured before factoring. Kinds without one print "—".
double floor_for(const std::string& kind) {
  static const std::map<std::string, double> kFloors = {
      {"json", 0.45},     {"log", 0.60},     {"search-result", 0.40}, {"terminal", 0.75},
      {"tabular", 0.25},  {"config", 0.15},  {"code", 0.61},          {"diff", 0.17},
      {"html", 0.499}};
  auto it = kFloors.find(kind);
  return it == kFloors.end() ? -1 : it->second;
}

std::string load_average() {
  double load[1] = {0};
  if (getloadavg(load, 1) != 1) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", load[0]);
  return buf;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fmt(double v, int prec = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

}  // namespace

int main() {
  auto opened = caveman::ccr::open_store(std::string(caveman::ccr::kMemoryPath));
  std::shared_ptr<caveman::ccr::Store> store;
  if (opened.ok()) store = std::move(opened).value();
  caveman::Engine engine(store);
  caveman::Options options;
  options.mode = "compress";
  options.external_recovery = store == nullptr;  // ratios still measurable without a store

  std::vector<Row> rows;
  for (const auto& f : caveman::corpus::corpus_manifest()) {
    Row row;
    row.file = f;
    std::string input = caveman::corpus::read_file(f.path);
    row.bytes = input.size();
    row.detected = caveman::detect(input);
    row.result = engine.compress(input, options);
    // What the model can read without a retrieve: the view with its factored blocks
    // expanded (elided parts stay markers).
    auto expanded = caveman::expand_view(row.result.output);
    const std::string& readable = expanded.ok() ? expanded.value() : row.result.output;
    row.lossless = !row.result.method.empty() && expanded.ok() && expanded.value() == input;
    for (const auto& needle : f.must_keep) {
      if (caveman::corpus::keeps(f.kind, readable, needle)) {
        ++row.kept;
      } else {
        row.lost.push_back(needle);
      }
    }
    if (!row.result.recovery_handle.empty()) {
      auto back = engine.retrieve(row.result.recovery_handle);
      row.restored = back.ok() && back.value() == input;
    }
    // Throughput: repeat until ≥ 0.3 s of work.
    int reps = 0;
    auto t0 = std::chrono::steady_clock::now();
    double c0 = process_cpu_seconds();
    double elapsed = 0;
    do {
      auto r = engine.compress(input, options);
      ++reps;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (elapsed < 0.3);
    double cpu = process_cpu_seconds() - c0;
    row.mb_per_s = static_cast<double>(input.size()) * reps / elapsed / 1e6;
    row.cpu_mb_per_s = static_cast<double>(input.size()) * reps / cpu / 1e6;
    rows.push_back(std::move(row));
  }

  std::map<std::string, std::vector<const Row*>> by_kind;
  for (const Row& r : rows) by_kind[r.file.kind].push_back(&r);

  std::cout << "Corpus: " << rows.size() << " files from ../shared/corpus/public "
            << (store ? "(in-memory CCR store)" : "(external recovery: no store built)")
            << ". Ratio = (tokens_before − tokens_after) / tokens_before, o200k_base. "
               "Speed is one thread running Engine::compress end to end (detect, compress, "
               "both token counts, CCR write); MB/s per wall second and per second of the "
               "process's CPU time (the load-independent figure; 1-minute load average "
            << load_average() << " when the run ended). `bench/corpus_bench`.\n\n";
  std::cout << "| kind | files | median ratio | floor | min ratio | must_keep kept | handles exact | "
               "lossless | MB/s wall | MB/s CPU |\n|---|---|---|---|---|---|---|---|---|---|\n";
  double all_before = 0, all_after = 0;
  for (const auto& [kind, list] : by_kind) {
    std::vector<double> ratios;
    double bytes = 0, wall_s = 0, cpu_s = 0;
    int kept = 0, total = 0, exact = 0, handles = 0, lossless = 0;
    for (const Row* r : list) {
      ratios.push_back(r->result.ratio);
      lossless += r->lossless;
      all_before += static_cast<double>(r->result.tokens_before);
      all_after += static_cast<double>(r->result.tokens_after);
      bytes += static_cast<double>(r->bytes);
      wall_s += static_cast<double>(r->bytes) / r->mb_per_s;
      cpu_s += static_cast<double>(r->bytes) / r->cpu_mb_per_s;
      kept += r->kept;
      total += static_cast<int>(r->file.must_keep.size());
      if (!r->result.recovery_handle.empty()) {
        ++handles;
        exact += r->restored;
      }
    }
    double floor = floor_for(kind);
    double med = median(ratios);
    std::string floor_cell =
        floor < 0 ? "—" : fmt(floor, 2) + (med >= floor ? " met" : " **not met**");
    // Aggregate throughput of the kind: all its bytes over all its time.
    std::cout << "| " << kind << " | " << list.size() << " | " << fmt(med) << " | " << floor_cell
              << " | " << fmt(*std::min_element(ratios.begin(), ratios.end())) << " | " << kept
              << "/" << total << " | " << exact << "/" << handles << " | " << lossless << "/"
              << list.size() << " | " << fmt(bytes / wall_s, 1) << " | " << fmt(bytes / cpu_s, 1) << " |\n";
  }
  std::cout << "\nToken-weighted over the whole corpus: " << fmt(all_before, 0) << " → "
            << fmt(all_after, 0) << " tokens, saving " << fmt(1 - all_after / all_before) << ".\n";
  std::cout << "\n| file | kind | detected | bytes | tokens before → after | ratio | method | "
               "lossless | must_keep | MB/s CPU |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    std::cout << "| " << r.file.name << " | " << r.file.kind << " | " << r.detected
              << (r.detected == r.file.kind ? "" : " ✗") << " | " << r.bytes << " | "
              << r.result.tokens_before << " → " << r.result.tokens_after << " | "
              << fmt(r.result.ratio) << " | " << (r.result.method.empty() ? "—" : r.result.method)
              << " | " << (r.result.method.empty() ? "—" : r.lossless ? "yes" : "no") << " | " << r.kept << "/" << r.file.must_keep.size() << " | " << fmt(r.cpu_mb_per_s, 1)
              << " |\n";
  }
  bool any_lost = false;
  for (const Row& r : rows) {
    for (const auto& l : r.lost) {
      if (!any_lost) std::cout << "\nLost must_keep substrings:\n\n";
      any_lost = true;
      std::cout << "- " << r.file.name << ": `" << l << "`\n";
    }
    if (!r.restored) std::cout << "- " << r.file.name << ": HANDLE DID NOT RESTORE THE INPUT\n";
  }
  return 0;
}
