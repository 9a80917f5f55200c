#include "cli/engine_cli.h"

#include <charconv>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <ostream>

#include "caveman/base/ccr_handle.h"
#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/tokens.h"
#include "caveman/version.h"
#include "cli/evals_command.h"
#include "cli/objects_command.h"
#include "cli/pixel_command.h"
#include "cli/read_input.h"
#include "cli/toon_command.h"
#include "json/json.h"

namespace caveman::engine_cli {
namespace {

using Args = std::vector<std::string>;

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

// Per-command usage lines; the top-level usage is assembled from them so the two never drift.
constexpr const char* kCompressUsage =
    "  compress [--type T|auto] [--query Q] [--budget N] [--json]\n"
    "                                                stdin → compressed stdout, report on stderr;\n"
    "                                                --budget: o200k tokens a line-oriented view is\n"
    "                                                cut to (default 25000, 0 = none)\n";
constexpr const char* kDetectUsage =
    "  detect                                        print the content type of stdin\n";
constexpr const char* kExpandUsage =
    "  expand                                        factored view on stdin → the exact bytes it\n"
    "                                                stands for (no store; markers stay)\n";
constexpr const char* kRetrieveUsage =
    "  retrieve <handle> [query]                     exact original bytes (or a query view);\n"
    "                                                handle: ccr_…, ccr_obj_… or ccr://<id>\n";
constexpr const char* kObjectsUsage =
    "  objects list|get|set …                        typed objects of the native runtime\n";
constexpr const char* kStatsUsage =
    "  stats                                         recovery-store savings as JSON\n";
constexpr const char* kRegistryUsage =
    "  registry                                      compressor capability manifest as JSON\n";
constexpr const char* kCountUsage =
    "  count [--ids] [--jsonl]                       o200k_base token count (or ids) of stdin;\n"
    "                                                --jsonl: one JSON string per line in and out\n";
constexpr const char* kToonUsage =
    "  toon encode|decode [options]                  JSON ⇄ TOON\n";
constexpr const char* kEvalsUsage =
    "  evals run [--fixtures DIR]                    run the eval suite, JSON report\n";
constexpr const char* kPixelUsage =
    "  pixel render|simulate [options] <file>        text → PNG pages; request transform dry run\n";
constexpr const char* kVersionUsage =
    "  version [--json]                              print the version\n";

constexpr const char* kUsageFooter =
    "\n"
    "exit codes: 0 ok (also when the input passes through unchanged), 1 error,\n"
    "            2 usage error, unknown command or not implemented\n"
    "environment: CAVEMAN_CCR_DB, CAVEMAN_HOME, CAVEMAN_CCR_MAX_BYTES, CAVE_ENGINE_TOON,\n"
    "             CAVE_PIXEL_MODELS, CAVE_PIXEL_DENSITY\n";

const std::string& usage() {
  static const std::string text = std::string("usage: caveman-engine <command> [options]\n\ncommands:\n") +
                                  kCompressUsage + kDetectUsage + kExpandUsage + kRetrieveUsage + kObjectsUsage +
                                  kStatsUsage + kRegistryUsage + kCountUsage + kToonUsage +
                                  kEvalsUsage + kPixelUsage + kVersionUsage + kUsageFooter;
  return text;
}

int fail(Io& io, const std::string& context, const Status& s) {
  io.err << context << ": " << s.ToString() << "\n";
  return kExitError;
}

Result<std::string> read_stdin(Io& io) { return read_all(io.in, kMaxStdinBytes); }

Result<std::shared_ptr<ccr::Store>> open_default_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<ccr::Store> store, ccr::open_store(path, options));
  return std::shared_ptr<ccr::Store>(std::move(store));
}

int cmd_compress(const Args& args, Io& io) {
  Options options;
  options.mode = "compress";
  bool as_json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      as_json = true;
    } else if (a == "--type" || a == "--query" || a == "--budget") {
      if (i + 1 >= args.size()) {
        io.err << "compress: " << a << " needs a value\n" << usage();
        return kExitUsage;
      }
      const std::string& v = args[++i];
      if (a == "--budget") {
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), options.budget_tokens);
        if (ec != std::errc() || end != v.data() + v.size() || options.budget_tokens < 0) {
          io.err << "compress: cave_invalid_arguments: --budget takes a whole number ≥ 0\n";
          return kExitUsage;
        }
      } else {
        (a == "--type" ? options.type : options.query) = v;
      }
    } else {
      io.err << "compress: cave_invalid_arguments: unknown compress flag: " << a << "\n";
      return kExitUsage;
    }
  }
  if (options.type == "auto") options.type.clear();
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  Result<std::shared_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) return fail(io, "cannot open recovery store", store.status());
  Engine engine(store.value());
  CompressResult r = engine.compress(input.value(), options);
  if (as_json) {
    std::string report = r.report_json();
    report.pop_back();  // reopen the object to append the output
    report += ",\"output\":";
    json::write_string(r.output, report);
    report += "}\n";
    io.out << report;
  } else {
    io.out << r.output;
    io.err << r.report_json() << "\n";
  }
  return kExitOk;
}

int cmd_detect(const Args&, Io& io) {
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  io.out << detect(input.value()) << "\n";
  return kExitOk;
}

int cmd_expand(const Args&, Io& io) {
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  Result<std::string> out = expand_view(input.value());
  if (!out.ok()) return fail(io, "expand", out.status());
  io.out << out.value();
  return kExitOk;
}

int cmd_retrieve(const Args& args, Io& io) {
  if (args.empty()) {
    io.err << "retrieve: cave_invalid_arguments: missing handle\n" << usage();
    return kExitUsage;
  }
  Result<std::shared_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) return fail(io, "cannot open recovery store", store.status());
  Engine engine(store.value());
  std::string handle = base::normalize_ccr_handle(args[0]);
  Result<std::string> r = args.size() >= 2 ? engine.retrieve_query(handle, args[1])
                                           : engine.retrieve(handle);
  if (!r.ok()) return fail(io, "retrieve", r.status());
  io.out << r.value();
  return kExitOk;
}

int cmd_stats(const Args&, Io& io) {
  Result<std::shared_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) return fail(io, "cannot open recovery store", store.status());
  Result<ccr::StoreStats> s = store.value()->stats();
  if (!s.ok()) return fail(io, "stats", s.status());
  io.out << s->to_json() << "\n";
  return kExitOk;
}

int cmd_registry(const Args&, Io& io) {
  io.out << Registry::capability_manifest_json() << "\n";
  return kExitOk;
}

void write_count(const tokens::O200kCounter& counter, std::string_view text, bool ids,
                 std::string& out) {
  if (!ids) {
    out += std::to_string(counter.count(text));
    out.push_back('\n');
    return;
  }
  out.push_back('[');
  bool first = true;
  for (std::uint32_t id : counter.encode(text)) {
    if (!first) out.push_back(',');
    first = false;
    out += std::to_string(id);
  }
  out += "]\n";
}

// count [--ids] [--jsonl]: with --jsonl every stdin line is one JSON string and each gets its
// own output line (batch mode for scripts and the tokenizer e2e test).
int cmd_count(const Args& args, Io& io) {
  bool ids = false;
  bool jsonl = false;
  for (const std::string& a : args) {
    if (a == "--ids") {
      ids = true;
    } else if (a == "--jsonl") {
      jsonl = true;
    } else {
      io.err << "count: cave_invalid_arguments: unknown argument: " << a << "\n";
      return kExitUsage;
    }
  }
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  const tokens::O200kCounter& counter = tokens::default_counter();
  std::string out;
  if (!jsonl) {
    write_count(counter, input.value(), ids, out);
    io.out << out;
    return kExitOk;
  }
  std::string_view rest = input.value();
  for (std::size_t line_no = 1; !rest.empty(); ++line_no) {
    std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    std::optional<json::Value> v = json::parse(line);
    if (!v || !v->is_string()) {
      io.err << "count: cave_invalid_input: line " << line_no << " is not a JSON string\n";
      return kExitError;
    }
    write_count(counter, v->text, ids, out);
  }
  io.out << out;
  return kExitOk;
}

int cmd_version(const Args& args, Io& io) {
  if (!args.empty() && args[0] == "--json") {
    io.out << "{\"name\":\"caveman-engine\",\"version\":\"" << kVersion
           << "\",\"schema\":\"caveman.engine.version.v1\"}\n";
  } else {
    io.out << "caveman-engine " << kVersion << "\n";
  }
  return kExitOk;
}

struct Command {
  const char* name;
  const char* usage;  // nullptr: the command prints its own detailed --help
  std::function<int(const Args&, Io&)> run;
};

bool asks_for_help(const Args& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

}  // namespace

int run_engine_cli(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  Io io{in, out, err};
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? err : out) << usage();
    return kExitOk;
  }
  if (args[0] == "--version") return cmd_version({}, io);
  const Command commands[] = {
      {"compress", kCompressUsage, cmd_compress},
      {"detect", kDetectUsage, cmd_detect},
      {"expand", kExpandUsage, cmd_expand},
      {"retrieve", kRetrieveUsage, cmd_retrieve},
      {"stats", kStatsUsage, cmd_stats},
      {"registry", kRegistryUsage, cmd_registry},
      {"count", kCountUsage, cmd_count},
      {"version", kVersionUsage, cmd_version},
      {"toon", nullptr,
       [](const Args& a, Io& io2) { return run_toon_command(a, io2.in, io2.out, io2.err); }},
      {"evals", kEvalsUsage,
       [](const Args& a, Io& io2) { return run_evals_command(a, io2.out, io2.err); }},
      {"objects", kObjectsUsage,
       [](const Args& a, Io& io2) { return run_objects_command(a, io2.out, io2.err); }},
      {"pixel", nullptr,
       [](const Args& a, Io& io2) { return run_pixel_command(a, io2.out, io2.err); }},
  };
  Args rest(args.begin() + 1, args.end());
  for (const Command& c : commands) {
    if (args[0] != c.name) continue;
    if (c.usage != nullptr && asks_for_help(rest)) {
      out << "usage: caveman-engine\n" << c.usage << kUsageFooter;
      return kExitOk;
    }
    return c.run(rest, io);
  }
  err << "caveman-engine: cave_unknown_command: unknown caveman-engine subcommand: " << args[0]
      << "\n";
  return kExitUsage;
}

}  // namespace caveman::engine_cli
