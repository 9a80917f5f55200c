#include "caveman/base/cli.h"

#include <algorithm>

namespace caveman::base {

std::unique_ptr<CLI::App> make_app(const ToolInfo& tool, std::string description,
                                   std::string footer) {
  auto app = std::make_unique<CLI::App>(std::move(description), std::string(tool.name));
  app->footer(std::move(footer));
  app->get_formatter()->column_width(34);
  app->add_flag("--version")->description("Print the version and exit");
  CLI::App* version =
      app->add_subcommand("version", "Print the version (--json: name, version, schema, capabilities)");
  version->add_flag("--json")->description("Machine-readable");
  return app;
}

namespace {

// A first word that is neither an option nor a subcommand, in an app that takes no positional
// arguments of its own: a mistyped command.
bool is_unknown_command(CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args[0].starts_with("-") || args[0] == "help") return false;
  if (app.get_subcommands({}).empty()) return false;
  if (!app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty()) return false;
  try {
    app.get_subcommand(args[0]);
    return false;
  } catch (const CLI::OptionNotFound&) {
    return true;
  }
}

}  // namespace

std::optional<int> parse_args(CLI::App& app, const ToolInfo& tool,
                              const std::vector<std::string>& args, std::ostream& out,
                              std::ostream& err, int usage_code) {
  if (is_unknown_command(app, args)) {
    err << tool.name << ": cave_unknown_command: unknown command \"" << args[0] << "\" (see "
        << tool.name << " --help)\n";
    return usage_code;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  if (args.size() == 1 && args[0] == "help") reversed = {"--help"};
  // Subcommands copy the footer when created; the exit codes and environment belong to the
  // tool's own help only.
  for (CLI::App* sub : app.get_subcommands({})) sub->footer("");
  try {
    app.parse(std::move(reversed));
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the help of the subcommand that asked, if any
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return usage_error(tool.name, e.what(), err, usage_code);
  }
  if (app.count("--version") > 0) {
    print_version(tool, /*json=*/false, out);
    return kExitOk;
  }
  if (const CLI::App* version = app.get_subcommand("version"); version->parsed()) {
    print_version(tool, version->count("--json") > 0, out);
    return kExitOk;
  }
  return std::nullopt;
}

const CLI::Validator& decimal() {
  static const CLI::Validator kDecimal(
      [](std::string& value) -> std::string {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
          return "not a decimal integer: " + value;
        }
        value.erase(0, std::min(value.find_first_not_of('0'), value.size() - 1));
        return {};
      },
      "DECIMAL", "decimal");
  return kDecimal;
}

int usage_error(std::string_view tool, std::string_view message, std::ostream& err, int code) {
  err << tool << ": cave_invalid_arguments: " << message << " (see " << tool << " --help)\n";
  return code;
}

}  // namespace caveman::base
