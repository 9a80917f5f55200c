// caveman/evals.h — the eval harness: the quality gate every compressor change must pass.
//
// A Suite is a YAML manifest plus the fixture files it names. run_suite() compresses each
// fixture through a fresh Engine over an in-memory recovery store (the default registry, or
// one the caller supplies — e.g. with a deliberately broken compressor), applies the
// fixture's graders and retention probes, and returns a Report; a fixture passes only when
// every grader passes (fail closed: no graders, or an unknown grader type, fails it).
// Everything is a value: no globals, deterministic output, safe to call from any thread.
// Structural problems (bad manifest, missing fixture file, unsafe path) are Status values;
// grader failures are data in the Report, never errors.
#ifndef CAVEMAN_EVALS_H_
#define CAVEMAN_EVALS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "caveman/compressor.h"
#include "caveman/status.h"

namespace caveman::evals {

// The manifest's name inside a fixtures directory and inside an embedded suite.
inline constexpr const char* kManifestName = "manifest.yaml";

struct Suite {
  std::string manifest;                      // YAML text (docs/spec/ranking.md#manifest)
  std::map<std::string, std::string> files;  // relative path → exact bytes
};

struct ProbeResult {
  std::string dimension;     // "unspecified" when the manifest gave none
  std::string value_sha256;  // "sha256:<hex>" — reports never carry the probed value
  std::string state;         // "retained", "recoverable" or "lost"
};

struct ProbeCounts {
  std::int64_t total = 0;
  std::int64_t retained = 0;
  std::int64_t recoverable = 0;
  std::int64_t lost = 0;
};

struct FixtureReport {
  std::string name;
  std::string content_type;
  std::string method;  // empty on pass-through
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  double ratio = 0;
  std::int64_t words_before = 0;
  std::int64_t words_after = 0;
  double word_ratio = 0;
  std::string basis;
  bool passed = false;
  bool byte_recoverable = false;  // output == input, or the handle retrieves the input exactly
  std::vector<std::string> failures;
  std::vector<ProbeResult> probes;
  ProbeCounts probe_summary;
};

struct Report {
  bool passed = false;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  double token_ratio = 0;
  std::int64_t words_before = 0;
  std::int64_t words_after = 0;
  double word_ratio = 0;
  ProbeCounts probes;
  std::map<std::string, ProbeCounts> probes_by_dimension;  // sorted by dimension
  std::vector<FixtureReport> fixtures;                     // manifest order

  // docs/spec/ranking.md#report: JSON, 2-space indent, no trailing newline.
  std::string to_json() const;
};

// The suite compiled into the binary from engine/evals/fixtures/ (≥ 17 fixtures covering
// every shipped compressor).
Suite embedded_suite();

// Reads `dir`/manifest.yaml and every fixture it names. Each `file` must be a clean relative
// slash path (no "..", not absolute, not "."), and must resolve — symlinks followed — to a
// regular file inside `dir` (itself resolved). Errors: kNotFound (codes::kFixtureNotFound),
// kInvalidArgument (codes::kInvalidFixturePath, codes::kInvalidManifest), kIo.
Result<Suite> load_dir(const std::string& dir);

// Runs every fixture. Errors (kInvalidArgument, codes::kInvalidManifest) only when the
// manifest does not parse, has no fixtures, or names a file the suite lacks; every grader
// verdict is in the Report.
Result<Report> run_suite(const Suite& suite);
Result<Report> run_suite(const Suite& suite, Registry registry);

// The grader types run_suite() understands, sorted.
std::vector<std::string> grader_types();

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_H_
