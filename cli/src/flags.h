// CLI11 glue for the verbs: parse a verb's flags without letting CLI11 exceptions escape.
//
// parse_flags() returns nullopt when parsing succeeded, else the exit code to return: 0 after
// printing the verb's --help, 2 after a one-line usage error on `err`.
#ifndef CAVEMAN_CLI_FLAGS_H_
#define CAVEMAN_CLI_FLAGS_H_

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace caveman::cli {

inline std::optional<int> parse_flags(CLI::App& app, const std::vector<std::string>& args,
                                      std::ostream& out, std::ostream& err) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    err << "caveman " << app.get_name() << ": " << e.what() << " (usage: caveman "
        << app.get_name() << " --help)\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_FLAGS_H_
