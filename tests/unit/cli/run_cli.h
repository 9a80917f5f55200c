// Runs the caveman CLI in-process, as its main would, capturing what it prints.
#ifndef CAVEMAN_TESTS_UNIT_CLI_RUN_CLI_H_
#define CAVEMAN_TESTS_UNIT_CLI_RUN_CLI_H_

#include <sstream>
#include <string>
#include <vector>

#include "cli_lib.h"

namespace caveman::cli::testing {

struct CliOutcome {
  int code;
  std::string out;
  std::string err;
};

inline CliOutcome run_cli(const std::vector<std::string>& args, const Environment& env) {
  std::ostringstream out;
  std::ostringstream err;
  int code = run(args, env, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace caveman::cli::testing

#endif  // CAVEMAN_TESTS_UNIT_CLI_RUN_CLI_H_
