// caveman-shrink's untrusted inputs: a tool catalog on stdin and a command's output. Byte 0
// picks the path (even: catalog, odd: command output with exit code byte0/2, 0 = success).
// Properties:
// - catalog (the engine's shrinker, caveman/toolschema.h): the JSON DOM round-trips; a shrunk
//   catalog is valid JSON that a second pass leaves unchanged; a run either passes the exact
//   input through (no handle) or stores the exact input under the handle it reports;
// - output: a failed command's view shows every error line and the last 20 lines; the exact
//   capture is stored whenever the text shown is not the capture itself.
// Self-contained (no fuzz_util.h) so it builds with the shrink library alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "caveman/toolschema.h"
#include "catalog_shrink.h"
#include "command_runner.h"
#include "json/json.h"
#include "output_lines.h"
#include "output_shrink.h"

#define SHRINK_FUZZ_CHECK(cond, msg)                                                     \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "property violated: %s (%s:%d)\n", msg, __FILE__, __LINE__); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

namespace {

using caveman::shrink::CatalogRun;
using caveman::toolschema::CatalogShrink;

// A fresh in-memory store every 1,000 calls, so a long run is not ended by a growing store.
caveman::ccr::Store& memory_store() {
  static std::unique_ptr<caveman::ccr::Store> store;
  static unsigned calls = 0;
  if (!store || ++calls % 1000 == 0) {
    auto opened = caveman::ccr::open_store(std::string(caveman::ccr::kMemoryPath));
    if (!opened.ok()) std::abort();
    store = std::move(opened).value();
  }
  return *store;
}

void check_catalog(std::string_view input) {
  if (auto dom = caveman::json::parse(input)) {
    std::string compact = caveman::json::to_compact(*dom);
    auto again = caveman::json::parse(compact);
    SHRINK_FUZZ_CHECK(again && caveman::json::to_compact(*again) == compact,
                      "compact JSON does not parse back to the same DOM");
  }
  CatalogShrink first = caveman::toolschema::shrink_catalog(input);
  if (first.shrunk) {
    SHRINK_FUZZ_CHECK(caveman::json::parse(first.output).has_value(),
                      "a shrunk catalog is not valid JSON");
    CatalogShrink second = caveman::toolschema::shrink_catalog(first.output);
    SHRINK_FUZZ_CHECK(!second.shrunk || second.output == first.output,
                      "a second pass changed the shrunk catalog");
  }
  caveman::ccr::Store& store = memory_store();
  CatalogRun run =
      caveman::shrink::run_catalog_shrink(input, &store, "", caveman::tokens::default_counter());
  if (run.report.recovery_handle.empty()) {
    SHRINK_FUZZ_CHECK(run.output == input, "pass-through changed the input");
  } else {
    auto original = store.get(run.report.recovery_handle);
    SHRINK_FUZZ_CHECK(original.ok() && original.value() == input, "stored original differs");
    SHRINK_FUZZ_CHECK(run.report.tokens_after < run.report.tokens_before,
                      "a shrunk catalog is not smaller");
  }
}

void check_output(std::string_view input, int exit_code) {
  caveman::shrink::RunResult run;
  run.exit_code = exit_code;
  run.output = std::string(input);
  caveman::ccr::Store& store = memory_store();
  // The window holds the whole input: overflow summaries are covered by the unit tests.
  caveman::shrink::OutputShrink shown = caveman::shrink::shrink_output(
      run, std::size_t{1} << 20, &store, "", caveman::tokens::default_counter());
  if (shown.handle.empty()) {
    SHRINK_FUZZ_CHECK(shown.text.starts_with(input), "shown in full but not the capture");
  } else {
    auto original = store.get(shown.handle);
    SHRINK_FUZZ_CHECK(original.ok() && original.value() == input, "stored capture differs");
  }
  if (exit_code == 0 || shown.content_type == "binary") return;
  caveman::shrink::CleanLines lines(input);
  std::vector<std::size_t> evidence = caveman::shrink::failure_evidence(lines.lines());
  SHRINK_FUZZ_CHECK(caveman::shrink::shows_lines(shown.text, lines.lines(), evidence),
                    "a failed command's error or tail line is not shown");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    check_catalog(input);
  } else {
    check_output(input, data[0] / 2);
  }
  return 0;
}
