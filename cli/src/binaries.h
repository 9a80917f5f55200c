// Companion binaries the CLI drives (docs/cli.md#where-things-are, narrowed by issue 9): where each
// one is, and whether it answers `version --json`.
//
// locate() looks, in order, at `CAVEMAN_<X>_BIN` (used as is), the first executable on PATH,
// `$CAVEMAN_HOME/bin/<name>` (default ~/.caveman/bin) and the directory of the running
// `caveman` binary. probe() runs `<bin> version --json` with stdin closed and a timeout
// (`CAVE_BINARY_PROBE_TIMEOUT_MS`, default 2000, clamped to 100..30000). A missing or
// silent binary disables only the verbs it powers; nothing here fails the whole CLI.
#ifndef CAVEMAN_CLI_BINARIES_H_
#define CAVEMAN_CLI_BINARIES_H_

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "process.h"

namespace caveman::cli {

struct BinarySpec {
  std::string_view name;        // caveman-proxy
  std::string_view env_var;     // CAVEMAN_PROXY_BIN
  bool required;                // status exits 1 when a required binary is missing
  std::string_view capability;  // must appear in version --json capabilities ("" = any)
  std::string_view powers;      // the verbs it enables, for status
};

// The six companions, in display order.
const std::vector<BinarySpec>& binary_specs();
const BinarySpec* find_binary_spec(std::string_view name);

struct BinaryLocation {
  std::string name;
  std::string path;    // empty when not found
  std::string source;  // env | path | home | sibling | missing
  bool found() const { return !path.empty(); }
};

// `self_dir` is the directory of the running caveman binary ("" to skip that step).
BinaryLocation locate_binary(const BinarySpec& spec, const Environment& env,
                             const std::string& self_dir);

struct BinaryProbe {
  bool ok = false;  // answered version --json with the right name (and capability)
  std::string version;
  std::vector<std::string> capabilities;
  // Why not ok: codes::kBinaryMissing | codes::kBinaryProbeFailed | codes::kBinaryStale.
  std::string error;

  bool has_capability(std::string_view name) const {
    return std::find(capabilities.begin(), capabilities.end(), name) != capabilities.end();
  }
};

int probe_timeout_ms(const Environment& env);
BinaryProbe probe_binary(const BinarySpec& spec, const BinaryLocation& where, const Environment& env);

// The state root: CAVEMAN_HOME, else $HOME/.caveman ("" when neither is set).
std::string caveman_home(const Environment& env);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_BINARIES_H_
