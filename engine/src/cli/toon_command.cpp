#include "cli/toon_command.h"

#include <charconv>
#include <istream>
#include <optional>
#include <ostream>
#include <string_view>

#include "caveman/toon.h"
#include "cli/engine_cli.h"
#include "cli/read_input.h"

namespace caveman::engine_cli {
namespace {

constexpr const char* kToonUsage =
    "usage: caveman-engine toon encode [--delimiter comma|tab|pipe] [--indent N]\n"
    "                                  [--key-folding off|safe] [--flatten-depth N|infinity]\n"
    "       caveman-engine toon decode [--indent N] [--strict|--no-strict]\n"
    "                                  [--expand-paths off|safe]\n"
    "JSON → TOON (encode) or TOON → compact JSON (decode), stdin → stdout, TOON spec v3.3.\n";

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Splits "--flag=value" / "--flag value"; advances `i` past a consumed value.
struct Flag {
  std::string_view name;
  std::optional<std::string_view> value;
};

class FlagReader {
 public:
  explicit FlagReader(const std::vector<std::string>& args) : args_(args) {}
  bool done() const { return i_ >= args_.size(); }
  Flag next() {
    std::string_view a = args_[i_++];
    std::size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string_view::npos) {
      return {a.substr(0, eq), a.substr(eq + 1)};
    }
    return {a, std::nullopt};
  }
  std::optional<std::string_view> value(const Flag& f) {
    if (f.value) return f.value;
    if (i_ >= args_.size()) return std::nullopt;
    return std::string_view(args_[i_++]);
  }

 private:
  const std::vector<std::string>& args_;
  std::size_t i_ = 1;  // args_[0] is the verb
};

int usage_error(std::ostream& err, std::string_view verb, std::string_view problem) {
  err << "toon" << (verb.empty() ? "" : " ") << verb << ": cave_invalid_arguments: " << problem
      << "\n"
      << kToonUsage;
  return kExitUsage;
}

int run(std::string_view verb, std::istream& in, std::ostream& out, std::ostream& err,
        const auto& convert) {
  Result<std::string> input = read_all(in, kMaxStdinBytes);
  if (!input.ok()) {
    err << "read stdin: " << input.status().ToString() << "\n";
    return kExitError;
  }
  Result<std::string> result = convert(input.value());
  if (!result.ok()) {
    err << "toon " << verb << ": " << result.status().ToString() << "\n";
    return kExitError;
  }
  out << result.value();
  return kExitOk;
}

int encode(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  toon::EncodeOptions options;
  FlagReader flags(args);
  while (!flags.done()) {
    Flag f = flags.next();
    std::optional<std::string_view> v;
    if (f.name == "--delimiter") {
      v = flags.value(f);
      if (v == "comma" || v == ",") {
        options.delimiter = ',';
      } else if (v == "tab" || v == "\t") {
        options.delimiter = '\t';
      } else if (v == "pipe" || v == "|") {
        options.delimiter = '|';
      } else {
        return usage_error(err, "encode", "--delimiter takes comma, tab or pipe");
      }
    } else if (f.name == "--indent") {
      v = flags.value(f);
      std::optional<int> n = v ? parse_int(*v) : std::nullopt;
      if (!n) return usage_error(err, "encode", "--indent takes a number");
      options.indent = *n;
    } else if (f.name == "--key-folding") {
      v = flags.value(f);
      if (v == "off") {
        options.key_folding = toon::KeyFolding::kOff;
      } else if (v == "safe") {
        options.key_folding = toon::KeyFolding::kSafe;
      } else {
        return usage_error(err, "encode", "--key-folding takes off or safe");
      }
    } else if (f.name == "--flatten-depth") {
      v = flags.value(f);
      if (v == "infinity" || v == "Infinity") {
        options.flatten_depth = toon::kUnlimitedFlattenDepth;
      } else if (std::optional<int> n = v ? parse_int(*v) : std::nullopt) {
        options.flatten_depth = *n;
      } else {
        return usage_error(err, "encode", "--flatten-depth takes a number or infinity");
      }
    } else {
      return usage_error(err, "encode", "unknown flag " + std::string(f.name));
    }
  }
  return run("encode", in, out, err,
             [&](std::string_view json) { return toon::toon_encode(json, options); });
}

int decode(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
           std::ostream& err) {
  toon::DecodeOptions options;
  FlagReader flags(args);
  while (!flags.done()) {
    Flag f = flags.next();
    if (f.name == "--strict" && !f.value) {
      options.strict = true;
    } else if (f.name == "--no-strict" && !f.value) {
      options.strict = false;
    } else if (f.name == "--indent") {
      std::optional<std::string_view> v = flags.value(f);
      std::optional<int> n = v ? parse_int(*v) : std::nullopt;
      if (!n) return usage_error(err, "decode", "--indent takes a number");
      options.indent = *n;
    } else if (f.name == "--expand-paths") {
      std::optional<std::string_view> v = flags.value(f);
      if (v == "off") {
        options.expand_paths = toon::ExpandPaths::kOff;
      } else if (v == "safe") {
        options.expand_paths = toon::ExpandPaths::kSafe;
      } else {
        return usage_error(err, "decode", "--expand-paths takes off or safe");
      }
    } else {
      return usage_error(err, "decode", "unknown flag " + std::string(f.name));
    }
  }
  return run("decode", in, out, err,
             [&](std::string_view text) { return toon::toon_decode(text, options); });
}

}  // namespace

int run_toon_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                     std::ostream& err) {
  if (args.empty()) return usage_error(err, "", "missing verb (encode or decode)");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    out << kToonUsage;
    return kExitOk;
  }
  if (args[0] == "encode") return encode(args, in, out, err);
  if (args[0] == "decode") return decode(args, in, out, err);
  return usage_error(err, args[0], "unknown verb (use encode or decode)");
}

}  // namespace caveman::engine_cli
