#include "shrink_cli.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <istream>
#include <limits>
#include <memory>
#include <string_view>
#include <ostream>
#include <sstream>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/base/text.h"
#include "caveman/base/cli.h"
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
using base::kExitError;
using base::kExitOk;
using base::kExitRunnerFailed;
using base::kExitUsage;

constexpr const char* kSynopsis =
    "caveman-shrink: compress tool catalogs and noisy command output, recoverably.\n"
    "  caveman-shrink [shrink] [--json]          tool catalog on stdin -> smaller catalog on stdout\n"
    "  caveman-shrink lint [FILE] [--json]       per-tool token cost and the worst offenders\n"
    "  caveman-shrink recover <handle>           the exact original bytes behind a handle\n"
    "  caveman-shrink [--full] [--shell] [--max-bytes N] -- <cmd> [args...]\n"
    "                                            run a command, print its output compressed";

constexpr const char* kFooter =
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
    "environment: CAVEMAN_CCR_DB, CAVEMAN_HOME, CAVEMAN_CCR_MAX_BYTES, CAVEMAN_LOG_LEVEL\n";

constexpr std::string_view kTool = "caveman-shrink";

// What the command line asked for, filled by CLI11.
struct Flags {
  bool json = false;
  bool lint_json = false;
  std::string lint_file;
  std::string handle;
  bool full = false;
  bool shell = false;
  std::size_t window = kDefaultWindowBytes;
};

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  std::shared_ptr<spdlog::logger> log;  // diagnostics, written to `err`
};

Result<std::string> read_all(std::istream& in, std::size_t cap) {
  std::string data;
  char buf[64 * 1024];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<std::size_t>(in.gcount()));
    if (data.size() > cap) {
      return Status::ResourceExhausted(codes::kInputTooLarge,
                                       "stdin exceeds " + std::to_string(cap) + " bytes");
    }
  }
  if (in.bad()) return Status::Io(codes::kIoError, "cannot read input");
  return data;
}

Result<std::unique_ptr<ccr::Store>> open_default_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  return ccr::open_store(path, options);
}

int cmd_shrink(bool as_json, Io& io) {
  Result<std::string> input = read_all(io.in, kMaxStdinBytes);
  if (!input.ok()) {
    io.log->error("caveman-shrink: {}", input.status().ToString());
    return kExitError;
  }
  Result<std::unique_ptr<ccr::Store>> store = open_default_store();
  std::string store_error = store.ok() ? "" : store.status().ToString();
  CatalogRun run = run_catalog_shrink(input.value(), store.ok() ? store.value().get() : nullptr,
                                      store_error, tokens::default_counter());
  if (!run.warning.empty()) io.log->warn("{}", run.warning);
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

int cmd_lint(const std::string& file, bool as_json, Io& io) {
  Result<std::string> input = Status::Internal(codes::kInternalError, "unread");
  if (file.empty() || file == "-") {
    input = read_all(io.in, kMaxStdinBytes);
  } else {
    std::ifstream f(file, std::ios::binary);
    if (!f) {
      io.log->error("caveman-shrink lint: {}: cannot open {}", codes::kNotFound, file);
      return kExitError;
    }
    input = read_all(f, kMaxStdinBytes);
  }
  if (!input.ok()) {
    io.log->error("caveman-shrink lint: {}", input.status().ToString());
    return kExitError;
  }
  LintReport report = lint_catalog(input.value(), tokens::default_counter());
  if (!report.catalog) {
    io.log->error("caveman-shrink lint: {}", report.note);
    return kExitError;
  }
  io.out << (as_json ? report.to_json() + "\n" : report.table());
  return kExitOk;
}

int cmd_recover(const std::string& handle, Io& io) {
  Result<std::unique_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) {
    io.log->error("caveman-shrink recover: {}", store.status().ToString());
    return kExitError;
  }
  Result<std::string> original = store.value()->get(base::normalize_ccr_handle(handle));
  if (!original.ok()) {
    io.log->error("caveman-shrink recover: {}", original.status().ToString());
    return kExitError;
  }
  io.out << original.value();
  return kExitOk;
}

int cmd_run(const Flags& flags, const Args& command, Io& io) {
  const bool shell = flags.shell;
  const std::size_t window = flags.window;
  if (command.empty()) return base::usage_error(kTool, "no command after --", io.err, kExitRunnerFailed);
  RunOptions run_options;
  run_options.argv = command;
  run_options.shell = shell;
  run_options.stop_after_bytes = window * kStopFactor;
  Result<RunResult> ran = run_command(run_options);
  if (!ran.ok()) {
    io.log->error("caveman-shrink: {}", ran.status().ToString());
    return kExitRunnerFailed;
  }
  const RunResult& run = ran.value();
  if (run.exec_failed) {
    io.log->error("caveman-shrink: {}: {}: {}",
                  run.exit_code == base::kExitNotFound ? codes::kCommandNotFound
                                                       : codes::kCommandNotExecutable,
                  shell ? std::string("/bin/sh") : command[0], run.exec_error);
    return run.exit_code;
  }
  if (flags.full) {
    io.out << run.output;
    io.out.flush();
    if (run.stopped) io.log->warn("caveman-shrink: output stopped: {}", describe_exit(run));
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

// The app: shrink's flags at the top (a bare call shrinks), three subcommands, and the
// options of `-- <cmd>` mode, which only count before the `--`.
std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool, Flags* f) {
  std::unique_ptr<CLI::App> app = base::make_app(tool, kSynopsis, kFooter);
  app->add_flag("--json", f->json, "Catalog mode: the report and the output as one JSON object on stdout");
  app->add_flag("--full", f->full, "With --: print the output exactly");
  app->add_flag("--shell", f->shell, "With --: run /bin/sh -c \"<cmd> [args...]\"");
  app->add_option("--max-bytes", f->window, "With --: compress the first N bytes (default 8388608)")
      ->transform(base::decimal())
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
  CLI::App* shrink = app->add_subcommand("shrink", "Tool catalog on stdin -> smaller catalog on stdout");
  shrink->add_flag("--json", f->json, "The report and the output as one JSON object on stdout");
  CLI::App* lint = app->add_subcommand("lint", "Per-tool token cost and the worst offenders");
  lint->add_option("file", f->lint_file, "The catalog (default or -: stdin)");
  lint->add_flag("--json", f->lint_json, "The report as JSON");
  CLI::App* recover = app->add_subcommand("recover", "The exact original bytes behind a handle");
  recover->add_option("handle", f->handle, "A ccr_ handle, in any spelling an agent quotes")->required();
  return app;
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err) {
  Io io{in, out, err, base::stream_logger(err)};
  ToolInfo tool{kTool, "caveman.shrink.version.v1", kSynopsis,
                {"catalog-shrink", "lint", "recover", "command-output"}};
  // `--` splits caveman-shrink's options from the command, whose arguments are never parsed.
  auto dashes = std::find(args.begin(), args.end(), "--");
  const bool command_mode = dashes != args.end();
  Flags flags;
  std::unique_ptr<CLI::App> app = make_cli(tool, &flags);
  if (auto rc = base::parse_args(*app, tool, {args.begin(), dashes}, out, err,
                                 command_mode ? kExitRunnerFailed : kExitUsage)) {
    return *rc;
  }
  const bool command_options = flags.full || flags.shell || app->count("--max-bytes") > 0;
  if (command_mode) {
    if (!app->get_subcommands().empty() || flags.json) {
      return base::usage_error(kTool, "only --full, --shell and --max-bytes go before --", err,
                               kExitRunnerFailed);
    }
    return cmd_run(flags, Args(dashes + 1, args.end()), io);
  }
  if (command_options) return base::usage_error(kTool, "--full, --shell and --max-bytes need -- <cmd>", err);
  if (app->got_subcommand("lint")) return cmd_lint(flags.lint_file, flags.lint_json, io);
  if (app->got_subcommand("recover")) return cmd_recover(flags.handle, io);
  return cmd_shrink(flags.json, io);
}

}  // namespace caveman::shrink
