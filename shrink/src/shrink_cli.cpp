#include "shrink_cli.h"

#include <charconv>
#include <fstream>
#include <istream>
#include <memory>
#include <ostream>
#include <sstream>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/text.h"
#include "caveman/ccr.h"
#include "caveman/common_flags.h"
#include "caveman/tokens.h"
#include "catalog_shrink.h"
#include "command_runner.h"
#include "lint.h"
#include "output_shrink.h"

namespace caveman::shrink {
namespace {

using Args = std::vector<std::string>;

constexpr const char* kUsage =
    "usage: caveman-shrink [shrink] [--json]          tool catalog on stdin -> smaller catalog on stdout\n"
    "       caveman-shrink lint [FILE] [--json]       per-tool token cost and the worst offenders\n"
    "       caveman-shrink recover <handle>           the exact original bytes behind a handle\n"
    "       caveman-shrink [--full] [--shell] [--max-bytes N] -- <cmd> [args...]\n"
    "                                                 run a command, print its output compressed\n"
    "       caveman-shrink --help | --version | version --json\n"
    "\n"
    "catalogs: an MCP tools/list result, a bare array of tools, Anthropic `tools` (input_schema),\n"
    "  OpenAI `tools` (function.parameters), {\"functions\":[...]}, a JSON-RPC response or one tool.\n"
    "  Output keeps the shape; names, types, enums, required, defaults and constraint sentences\n"
    "  stay; documentation and client-only metadata go. The original is stored first; its\n"
    "  handle is in the JSON report on stderr (or in stdout's report with --json). Invalid JSON\n"
    "  passes through unchanged with a warning (exit 0).\n"
    "commands: -- runs <cmd> without a shell (--shell: /bin/sh -c \"<cmd> [args...]\"), captures\n"
    "  stdout+stderr, prints the compressed output and a footer with the handle, and exits with\n"
    "  the command's exit code (127 not found, 126 not executable, 128+N killed by signal N).\n"
    "  A failed command always shows every error line and its last 20 lines. --full prints the\n"
    "  output exactly instead. --max-bytes N: compress the first N bytes (default 8388608);\n"
    "  capture stops at 4N bytes (the command is stopped; everything captured is stored).\n"
    "\n"
    "exit codes: 0 ok (also on pass-through), 1 error, 2 usage error;\n"
    "            with --: the command's code, or 125 when caveman-shrink itself failed\n"
    "environment: CAVEMAN_CCR_DB, CAVEMAN_HOME, CAVEMAN_CCR_MAX_BYTES\n";

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

Result<std::string> read_all(std::istream& in, std::size_t cap) {
  std::string data;
  char buf[64 * 1024];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<std::size_t>(in.gcount()));
    if (data.size() > cap) {
      return Status::ResourceExhausted("cave_input_too_large",
                                       "stdin exceeds " + std::to_string(cap) + " bytes");
    }
  }
  if (in.bad()) return Status::Io("cave_io_error", "cannot read input");
  return data;
}

Result<std::unique_ptr<ccr::Store>> open_default_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  return ccr::open_store(path, options);
}

int usage_error(Io& io, const std::string& message, int code = kExitUsage) {
  io.err << "caveman-shrink: cave_invalid_arguments: " << message << "\n";
  return code;
}

int cmd_shrink(const Args& args, Io& io) {
  bool as_json = false;
  for (const std::string& a : args) {
    if (a != "--json") return usage_error(io, "unknown argument: " + a);
    as_json = true;
  }
  Result<std::string> input = read_all(io.in, kMaxStdinBytes);
  if (!input.ok()) {
    io.err << "caveman-shrink: " << input.status().ToString() << "\n";
    return kExitError;
  }
  Result<std::unique_ptr<ccr::Store>> store = open_default_store();
  std::string store_error = store.ok() ? "" : store.status().ToString();
  CatalogRun run = run_catalog_shrink(input.value(), store.ok() ? store.value().get() : nullptr,
                                      store_error, tokens::default_counter());
  if (!run.warning.empty()) io.err << run.warning << "\n";
  if (as_json) {
    std::string report = run.report.to_json();
    report.pop_back();  // reopen the object to add the output
    report += ",\"output\":";
    base::append_json_string(run.output, report);
    io.out << report << "}\n";
  } else {
    io.out << run.output;
    io.err << run.report.to_json() << "\n";
  }
  return kExitOk;
}

int cmd_lint(const Args& args, Io& io) {
  bool as_json = false;
  std::string file;
  for (const std::string& a : args) {
    if (a == "--json") {
      as_json = true;
    } else if (file.empty() && !a.starts_with("--")) {
      file = a;
    } else {
      return usage_error(io, "unknown lint argument: " + a);
    }
  }
  Result<std::string> input = Status::Internal("cave_internal_error", "unread");
  if (file.empty() || file == "-") {
    input = read_all(io.in, kMaxStdinBytes);
  } else {
    std::ifstream f(file, std::ios::binary);
    if (!f) {
      io.err << "caveman-shrink lint: cave_not_found: cannot open " << file << "\n";
      return kExitError;
    }
    input = read_all(f, kMaxStdinBytes);
  }
  if (!input.ok()) {
    io.err << "caveman-shrink lint: " << input.status().ToString() << "\n";
    return kExitError;
  }
  LintReport report = lint_catalog(input.value(), tokens::default_counter());
  if (!report.catalog) {
    io.err << "caveman-shrink lint: " << report.note << "\n";
    return kExitError;
  }
  io.out << (as_json ? report.to_json() + "\n" : report.table());
  return kExitOk;
}

int cmd_recover(const Args& args, Io& io) {
  if (args.size() != 1) return usage_error(io, "recover takes exactly one handle");
  Result<std::unique_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) {
    io.err << "caveman-shrink recover: " << store.status().ToString() << "\n";
    return kExitError;
  }
  Result<std::string> original = store.value()->get(base::normalize_ccr_handle(args[0]));
  if (!original.ok()) {
    io.err << "caveman-shrink recover: " << original.status().ToString() << "\n";
    return kExitError;
  }
  io.out << original.value();
  return kExitOk;
}

int cmd_run(const Args& options, const Args& command, Io& io) {
  bool full = false;
  bool shell = false;
  std::size_t window = kDefaultWindowBytes;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& a = options[i];
    if (a == "--full") {
      full = true;
    } else if (a == "--shell") {
      shell = true;
    } else if (a == "--max-bytes" && i + 1 < options.size()) {
      const std::string& v = options[++i];
      std::size_t n = 0;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size() || n == 0) {
        return usage_error(io, "--max-bytes needs a positive integer", kExitShrinkFailed);
      }
      window = n;
    } else {
      return usage_error(io, "unknown option before --: " + a, kExitShrinkFailed);
    }
  }
  if (command.empty()) return usage_error(io, "no command after --", kExitShrinkFailed);
  RunOptions run_options;
  run_options.argv = command;
  run_options.shell = shell;
  run_options.stop_after_bytes = window * kStopFactor;
  Result<RunResult> ran = run_command(run_options);
  if (!ran.ok()) {
    io.err << "caveman-shrink: " << ran.status().ToString() << "\n";
    return kExitShrinkFailed;
  }
  const RunResult& run = ran.value();
  if (run.exec_failed) {
    io.err << "caveman-shrink: "
           << (run.exit_code == kExitNotFound ? "cave_command_not_found: "
                                              : "cave_command_not_executable: ")
           << (shell ? std::string("/bin/sh") : command[0]) << ": " << run.exec_error << "\n";
    return run.exit_code;
  }
  if (full) {
    io.out << run.output;
    io.out.flush();
    if (run.stopped) io.err << "caveman-shrink: output stopped: " << describe_exit(run) << "\n";
    return run.exit_code;
  }
  Result<std::unique_ptr<ccr::Store>> store = open_default_store();
  std::string store_error = store.ok() ? "" : store.status().ToString();
  OutputShrink shown = shrink_output(run, window, store.ok() ? store.value().get() : nullptr,
                                     store_error, tokens::default_counter());
  io.out << shown.text;
  io.out.flush();
  return run.exit_code;
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err) {
  Io io{in, out, err};
  ToolInfo tool{"caveman-shrink", "caveman.shrink.version.v1", kUsage,
                {"catalog-shrink", "lint", "recover", "command-output"}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;

  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      return cmd_run(Args(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(i)),
                     Args(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end()), io);
    }
  }
  if (args.empty()) return cmd_shrink({}, io);
  const std::string& verb = args[0];
  Args rest(args.begin() + 1, args.end());
  if (verb == "shrink") return cmd_shrink(rest, io);
  if (verb == "lint") return cmd_lint(rest, io);
  if (verb == "recover") return cmd_recover(rest, io);
  if (verb == "--json") return cmd_shrink(args, io);
  err << kUsage;
  return usage_error(io, "unknown command: " + verb);
}

}  // namespace caveman::shrink
