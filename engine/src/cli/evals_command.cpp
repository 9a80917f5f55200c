#include "cli/evals_command.h"

#include <ostream>

#include "caveman/evals.h"
#include "cli/engine_cli.h"

namespace caveman::engine_cli {

int run_evals_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  constexpr const char* kEvalsUsage = "usage: caveman-engine evals run [--fixtures DIR]\n";
  if (args.empty() || args[0] != "run") {
    err << "evals: cave_invalid_arguments: expected `run`\n" << kEvalsUsage;
    return kExitUsage;
  }
  std::string dir;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--fixtures" && i + 1 < args.size()) {
      dir = args[++i];
    } else {
      err << "evals: cave_invalid_arguments: unexpected argument: " << args[i] << "\n"
          << kEvalsUsage;
      return kExitUsage;
    }
  }
  Result<evals::Suite> suite =
      dir.empty() ? Result<evals::Suite>(evals::embedded_suite()) : evals::load_dir(dir);
  if (!suite.ok()) {
    err << "evals: " << suite.status().ToString() << "\n";
    return kExitError;
  }
  Result<evals::Report> report = evals::run_suite(suite.value());
  if (!report.ok()) {
    err << "evals: " << report.status().ToString() << "\n";
    return kExitError;
  }
  out << report->to_json() << "\n";
  return report->passed ? kExitOk : kExitError;
}

}  // namespace caveman::engine_cli
