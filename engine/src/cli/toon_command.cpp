#include "cli/toon_command.h"

#include <spdlog/spdlog.h>

#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>

#include "caveman/base/cli.h"
#include "caveman/base/log.h"
#include "cli/engine_cli.h"
#include "cli/read_input.h"

namespace caveman::engine_cli {
namespace {

constexpr const char* kToonFooter = "JSON -> TOON (encode) or TOON -> compact JSON (decode), "
                                    "stdin -> stdout, TOON spec v3.3.\n";

// --delimiter: a name or the character itself.
std::optional<char> delimiter_of(std::string_view name) {
  if (name == "comma" || name == ",") return ',';
  if (name == "tab" || name == "\t") return '\t';
  if (name == "pipe" || name == "|") return '|';
  return std::nullopt;
}

// --flatten-depth: a decimal depth, or infinity (no limit).
const CLI::Validator& depth_or_infinity() {
  static const CLI::Validator kDepth(
      [](std::string& value) -> std::string {
        if (value == "infinity" || value == "Infinity") {
          value = std::to_string(toon::kUnlimitedFlattenDepth);
          return {};
        }
        return base::decimal()(value);
      },
      "N|infinity", "depth");
  return kDepth;
}

int run(std::string_view verb, std::istream& in, std::ostream& out, std::ostream& err,
        const auto& convert) {
  Result<std::string> input = read_all(in, kMaxStdinBytes);
  if (!input.ok()) {
    base::stream_logger(err)->error("read stdin: {}", input.status().ToString());
    return kExitError;
  }
  Result<std::string> result = convert(input.value());
  if (!result.ok()) {
    base::stream_logger(err)->error("toon {}: {}", verb, result.status().ToString());
    return kExitError;
  }
  out << result.value();
  return kExitOk;
}

}  // namespace

void add_toon_commands(CLI::App& toon, ToonFlags* f) {
  toon.require_subcommand(1);
  toon.footer(kToonFooter);
  const std::map<std::string, toon::KeyFolding> folding{{"off", toon::KeyFolding::kOff},
                                                        {"safe", toon::KeyFolding::kSafe}};
  const std::map<std::string, toon::ExpandPaths> expand{{"off", toon::ExpandPaths::kOff},
                                                        {"safe", toon::ExpandPaths::kSafe}};
  CLI::App* encode = toon.add_subcommand("encode", "JSON on stdin -> TOON on stdout");
  encode->add_option("--delimiter", f->delimiter, "Document delimiter (default comma)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            return delimiter_of(v) ? "" : "takes comma, tab or pipe";
          },
          ""))
      ->type_name("comma|tab|pipe");
  encode->add_option("--indent", f->encode.indent, "Spaces per level, 1..64 (default 2)")
      ->transform(base::decimal());
  encode->add_option("--key-folding", f->encode.key_folding, "Fold single-key chains (default off)")
      ->transform(CLI::CheckedTransformer(folding))
      ->type_name("off|safe");
  encode->add_option("--flatten-depth", f->encode.flatten_depth,
                     "Most segments per folded key (default infinity)")
      ->transform(depth_or_infinity());
  CLI::App* decode = toon.add_subcommand("decode", "TOON on stdin -> compact JSON on stdout");
  decode->add_option("--indent", f->decode.indent, "Spaces per level, 1..64 (default 2)")
      ->transform(base::decimal());
  decode->add_flag("--strict,!--no-strict", f->decode.strict, "Enforce every check (default on)");
  decode->add_option("--expand-paths", f->decode.expand_paths, "Expand dotted keys (default off)")
      ->transform(CLI::CheckedTransformer(expand))
      ->type_name("off|safe");
}

int run_toon_command(const ToonFlags& f, std::istream& in, std::ostream& out, std::ostream& err) {
  if (f.verb == "encode") {
    toon::EncodeOptions options = f.encode;
    if (!f.delimiter.empty()) options.delimiter = *delimiter_of(f.delimiter);
    return run("encode", in, out, err,
               [&](std::string_view json) { return toon::toon_encode(json, options); });
  }
  return run("decode", in, out, err,
             [&](std::string_view text) { return toon::toon_decode(text, f.decode); });
}

}  // namespace caveman::engine_cli
