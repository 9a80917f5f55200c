#include "caveman/base/cli.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "caveman/base/codes.h"
#include "caveman/base/log.h"

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

CLI::App* find_subcommand(CLI::App& app, std::string_view name) {
  for (CLI::App* sub : app.get_subcommands({})) {
    if (sub->check_name(std::string(name))) return sub;
  }
  return nullptr;
}

// A first word that is neither an option nor a subcommand, in an app that takes no positional
// arguments of its own: a mistyped command.
bool is_unknown_command(CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args[0].starts_with("-") || args[0] == "help") return false;
  if (app.get_subcommands({}).empty()) return false;
  if (!app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty()) return false;
  return find_subcommand(app, args[0]) == nullptr;
}

// `help` as the last word after subcommand names (`tool evals help`) asks for that command's
// help, unless the last of them takes positional arguments (where `help` could be one) or
// is a prefix command.
bool is_help_word(CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args.back() != "help") return false;
  CLI::App* at = &app;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    at = find_subcommand(*at, args[i]);
    if (at == nullptr) return false;
  }
  if (args.size() == 1) return true;
  // A prefix command passes its words on as they are (`caveman aider help`).
  return !at->get_prefix_command() &&
         at->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
}

// Subcommands copy their parent's footer when created; a footer belongs to the help of the
// command that set it. Depth first, so a grandchild is compared before its parent changes.
void drop_inherited_footers(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    drop_inherited_footers(*sub);
    if (sub->get_footer() == app.get_footer()) sub->footer("");
  }
}

}  // namespace

std::optional<int> parse_args(CLI::App& app, const ToolInfo& tool,
                              const std::vector<std::string>& args, std::ostream& out,
                              std::ostream& err, int usage_code) {
  if (is_unknown_command(app, args)) {
    stream_logger(err)->error("{}: {}: unknown command \"{}\" (see {} --help)", tool.name,
                              codes::kUnknownCommand, args[0], tool.name);
    return usage_code;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  if (is_help_word(app, args)) reversed.front() = "--help";
  drop_inherited_footers(app);
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
  // An app not made by make_app (a verb's own, in `caveman`) has neither.
  if (const CLI::Option* flag = app.get_option_no_throw("--version"); flag != nullptr && flag->count() > 0) {
    print_version(tool, /*json=*/false, out);
    return kExitOk;
  }
  if (const CLI::App* version = find_subcommand(app, "version"); version != nullptr && version->parsed()) {
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
  stream_logger(err)->error("{}: {}: {} (see {} --help)", tool, codes::kInvalidArguments, message,
                            tool);
  return code;
}

}  // namespace caveman::base
