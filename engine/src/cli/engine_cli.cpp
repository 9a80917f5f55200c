#include "cli/engine_cli.h"

#include <spdlog/spdlog.h>

#include <istream>
#include <optional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/tokens.h"
#include "caveman/common_flags.h"
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
  PixelEnv pixel_env;
};

constexpr std::string_view kTool = "caveman-engine";

constexpr const char* kFooter =
    "exit codes: 0 ok (also when the input passes through unchanged), 1 error,\n"
    "            2 usage error, unknown command or not implemented\n"
    "environment: CAVEMAN_CCR_DB, CAVEMAN_HOME, CAVEMAN_CCR_MAX_BYTES, CAVE_ENGINE_TOON,\n"
    "             CAVE_PIXEL_MODELS, CAVE_PIXEL_DENSITY, CAVEMAN_LOG_LEVEL\n";

// What the command line asked for, filled by CLI11.
struct Flags {
  Options compress;
  bool json = false;
  std::string handle;
  std::optional<std::string> query;
  bool ids = false;
  bool jsonl = false;
  std::string fixtures;
  ToonFlags toon;
  ObjectsFlags objects;
  PixelFlags pixel;
  std::string pixel_help;  // pixel alone prints it
};

int fail(Io& io, const std::string& context, const Status& s) {
  base::stream_logger(io.err)->error("{}: {}", context, s.ToString());
  return kExitError;
}

Result<std::string> read_stdin(Io& io) { return read_all(io.in, kMaxStdinBytes); }

Result<std::shared_ptr<ccr::Store>> open_default_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<ccr::Store> store, ccr::open_store(path, options));
  return std::shared_ptr<ccr::Store>(std::move(store));
}

int cmd_compress(const Flags& f, Io& io) {
  Options options = f.compress;
  options.mode = "compress";
  const bool as_json = f.json;
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

int cmd_detect(const Flags& f, Io& io) {
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  io.out << detect(input.value(), f.compress.source_path) << "\n";
  return kExitOk;
}

int cmd_expand(const Flags&, Io& io) {
  Result<std::string> input = read_stdin(io);
  if (!input.ok()) return fail(io, "read stdin", input.status());
  Result<std::string> out = expand_view(input.value());
  if (!out.ok()) return fail(io, "expand", out.status());
  io.out << out.value();
  return kExitOk;
}

int cmd_retrieve(const Flags& f, Io& io) {
  Result<std::shared_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) return fail(io, "cannot open recovery store", store.status());
  Engine engine(store.value());
  std::string handle = base::normalize_ccr_handle(f.handle);
  Result<std::string> r = f.query ? engine.retrieve_query(handle, *f.query) : engine.retrieve(handle);
  if (!r.ok()) return fail(io, "retrieve", r.status());
  io.out << r.value();
  return kExitOk;
}

int cmd_stats(const Flags&, Io& io) {
  Result<std::shared_ptr<ccr::Store>> store = open_default_store();
  if (!store.ok()) return fail(io, "cannot open recovery store", store.status());
  Result<ccr::StoreStats> s = store.value()->stats();
  if (!s.ok()) return fail(io, "stats", s.status());
  io.out << s->to_json() << "\n";
  return kExitOk;
}

int cmd_registry(const Flags&, Io& io) {
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
int cmd_count(const Flags& f, Io& io) {
  const bool ids = f.ids;
  const bool jsonl = f.jsonl;
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
      base::stream_logger(io.err)->error("count: {}: line {} is not a JSON string",
                                         codes::kInvalidInput, line_no);
      return kExitError;
    }
    write_count(counter, v->text, ids, out);
  }
  io.out << out;
  return kExitOk;
}

int cmd_evals(const Flags& f, Io& io) { return run_evals(f.fixtures, io.out, io.err); }

int cmd_toon(const Flags& f, Io& io) { return run_toon_command(f.toon, io.in, io.out, io.err); }

int cmd_objects(const Flags& f, Io& io) { return run_objects_command(f.objects, io.out, io.err); }

int cmd_pixel(const Flags& f, Io& io) {
  return run_pixel(f.pixel, f.pixel_help, io.out, io.err, io.pixel_env);
}

using Handler = int (*)(const Flags&, Io&);

struct Command {
  const char* name;
  const char* summary;
  Handler run;
};

constexpr Command kCommands[] = {
    {"compress", "stdin -> compressed stdout, report on stderr", cmd_compress},
    {"detect", "Print the content type of stdin", cmd_detect},
    {"expand", "Factored view on stdin -> the exact bytes it stands for (no store; markers stay)",
     cmd_expand},
    {"retrieve", "Exact original bytes (or a query view); handle: ccr_..., ccr_obj_... or ccr://<id>",
     cmd_retrieve},
    {"stats", "Recovery-store savings as JSON", cmd_stats},
    {"registry", "Compressor capability manifest as JSON", cmd_registry},
    {"count", "o200k_base token count (or ids) of stdin", cmd_count},
    {"evals", "Run the eval suite: evals run [--fixtures DIR], JSON report", cmd_evals},
    {"toon", "JSON <-> TOON, stdin to stdout: toon encode|decode [options]", cmd_toon},
    {"objects", "Typed objects of the native runtime: objects list|get|set", cmd_objects},
    {"pixel", "Text -> PNG pages; request transform dry run: pixel render|simulate", cmd_pixel},
};

void add_options(CLI::App& app, Flags* f) {
  CLI::App* compress = app.get_subcommand("compress");
  compress->add_option("--type", f->compress.type, "Content type, or auto (default)");
  compress->add_option("--query", f->compress.query, "What the reader looks for (ranks the kept lines)");
  compress->add_option("--budget", f->compress.budget_tokens,
                       "o200k tokens a line-oriented view is cut to (default 25000, 0 = none)")
      ->transform(base::decimal());
  compress->add_flag("--page", f->compress.page_text,
                     "The input is a page fetched from the web: HTML may become its page text");
  compress->add_option("--path", f->compress.source_path,
                       "The file the input shows (a Read's file_path): its extension is a "
                       "detection hint");
  compress->add_flag("--json", f->json, "The report and the output as one JSON object on stdout");
  app.get_subcommand("detect")->add_option("--path", f->compress.source_path,
                                           "The file the input shows: its extension is a hint");
  CLI::App* retrieve = app.get_subcommand("retrieve");
  retrieve->add_option("handle", f->handle, "ccr_..., ccr_obj_... or ccr://<id>")->required();
  retrieve->add_option("query", f->query, "Only the records that match");
  CLI::App* count = app.get_subcommand("count");
  count->add_flag("--ids", f->ids, "Token ids instead of the count");
  count->add_flag("--jsonl", f->jsonl, "One JSON string per line in and out");
  CLI::App* evals = app.get_subcommand("evals")->require_subcommand(1);
  evals->add_subcommand("run", "Run the suite (the embedded one, or --fixtures DIR)")
      ->add_option("--fixtures", f->fixtures, "A directory of fixtures and a manifest");
  add_toon_commands(*app.get_subcommand("toon"), &f->toon);
  add_objects_commands(*app.get_subcommand("objects"), &f->objects);
  add_pixel_commands(*app.get_subcommand("pixel"), &f->pixel);
}

// The verb under toon, objects or pixel (`toon encode`: "encode").
void set_verb(const CLI::App& command, Flags* f) {
  std::vector<CLI::App*> verbs = command.get_subcommands();
  std::string verb = verbs.empty() ? "" : verbs.front()->get_name();
  f->toon.verb = verb;
  f->objects.verb = verb;
  f->pixel.verb = verb;
}

std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool, Flags* f) {
  std::unique_ptr<CLI::App> app = base::make_app(
      tool, "caveman-engine: compress, detect, retrieve and count, stdin to stdout.", kFooter);
  app->require_subcommand(0, 1);
  for (const Command& c : kCommands) app->add_subcommand(c.name, c.summary);
  add_options(*app, f);
  return app;
}

}  // namespace

int run_engine_cli(const Args& args, std::istream& in, std::ostream& out, std::ostream& err,
                   PixelEnv pixel_env) {
  Io io{in, out, err, pixel_env};
  ToolInfo tool{kTool, "caveman.engine.version.v1", "", {}};
  Flags flags;
  std::unique_ptr<CLI::App> app = make_cli(tool, &flags);
  if (args.empty()) {  // a bare call shows the help, on stderr
    err << app->help();
    return kExitOk;
  }
  if (auto rc = base::parse_args(*app, tool, args, out, err)) {
    // pixel's own flags and verbs have always been errors (exit 1), not usage errors.
    if (*rc == kExitUsage && app->get_subcommand("pixel")->parsed()) return kExitError;
    return *rc;
  }
  const CLI::App* command = app->get_subcommands().front();
  set_verb(*command, &flags);
  if (command->get_name() == "pixel") flags.pixel_help = command->help(std::string(kTool));
  for (const Command& c : kCommands) {
    if (command->get_name() == c.name) return c.run(flags, io);
  }
  return kExitUsage;  // unreachable: CLI11 accepts only the names above
}

}  // namespace caveman::engine_cli
