#include "cli/evals_command.h"

#include <spdlog/spdlog.h>

#include <ostream>

#include "caveman/base/log.h"
#include "caveman/evals.h"
#include "cli/engine_cli.h"

namespace caveman::engine_cli {

int run_evals(const std::string& dir, std::ostream& out, std::ostream& err) {
  Result<evals::Suite> suite =
      dir.empty() ? Result<evals::Suite>(evals::embedded_suite()) : evals::load_dir(dir);
  if (!suite.ok()) {
    base::stream_logger(err)->error("evals: {}", suite.status().ToString());
    return kExitError;
  }
  Result<evals::Report> report = evals::run_suite(suite.value());
  if (!report.ok()) {
    base::stream_logger(err)->error("evals: {}", report.status().ToString());
    return kExitError;
  }
  out << report->to_json() << "\n";
  return report->passed ? kExitOk : kExitError;
}

}  // namespace caveman::engine_cli
