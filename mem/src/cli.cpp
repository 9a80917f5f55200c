#include "cli.h"

#include <spdlog/spdlog.h>

#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/common_flags.h"
#include "json_io.h"
#include "mcp_tools.h"
#include "service.h"

namespace caveman::mem {
namespace {

using base::kExitOk;

constexpr std::string_view kTool = "cavemem";

constexpr const char* kSynopsis =
    "cavemem: durable agent memory with ranked recall (SQLite FTS5, BM25).\n"
    "  cavemem [mcp]                                serve MCP on stdin/stdout (server \"cavemem\")\n"
    "  cavemem remember <text> | --stdin [--project P] [--tag T]...\n"
    "  cavemem recall <query> [limit] [token_budget] [--project P] [--tag T]... [--threshold X]\n"
    "  cavemem supersede <id> <text> | <id> --stdin [--project P] [--tag T]...\n"
    "  cavemem history <id> | forget <id> | recover <handle> | stats\n"
    "  cavemem export [--current] | import          JSONL, one memory version per line";

// The help footer (exit codes spelled with the registry's codes).
std::string footer() {
  return std::string(
             "Output is JSON (2-space indent; --json is accepted and changes nothing). Store:\n"
             "$CAVEMAN_HOME/mem/mem.db (default ~/.caveman/mem/mem.db), recall originals in "
             "mem/ccr.db.\n"
             "\n"
             "exit codes: 0 ok, 1 refused or failed (stderr: cavemem: ") +
         std::string(codes::kPrefix) +
         "<code>: message),\n"
         "            2 usage error, 65 memory text larger than 256 KiB (" +
         std::string(codes::kMemoryTooLarge) + ")\n";
}

// What the command line asked for, filled by CLI11.
struct Flags {
  std::string verb;  // empty: serve MCP
  std::string first;               // query, id or handle
  std::optional<std::string> text;  // remember's and supersede's text
  std::optional<int> limit;
  std::optional<std::int64_t> token_budget;
  std::optional<std::string> project;
  std::vector<std::string> tags;
  std::optional<double> threshold;
  bool from_stdin = false;
  bool current = false;
};

std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool, Flags* f) {
  std::unique_ptr<CLI::App> app = base::make_app(tool, kSynopsis, footer());
  app->require_subcommand(0, 1);
  auto verb = [&](const char* name, const char* what) {
    CLI::App* sub = app->add_subcommand(name, what);
    sub->add_flag("--json")->description("Accepted; output is always JSON");
    return sub;
  };
  auto scope = [f](CLI::App* sub) {
    sub->add_option("--project", f->project, "The memory's project");
    sub->add_option("--tag", f->tags, "A tag (repeatable)");
  };
  verb("mcp", "Serve MCP on stdin/stdout (also with no command)");
  CLI::App* remember = verb("remember", "Store a memory (its text, or --stdin)");
  remember->add_option("text", f->text, "The memory text (quote multi-word text)");
  remember->add_flag("--stdin", f->from_stdin, "Read the text from stdin (256 KiB at most)");
  scope(remember);
  CLI::App* recall = verb("recall", "Ranked memories for a query");
  recall->add_option("query", f->first, "What to look for")->required();
  recall->add_option("limit", f->limit, "How many (0 = 5, max 50)")
      ->transform(base::decimal())->check(CLI::Range(0, kMaxLimit));
  recall->add_option("token_budget", f->token_budget, "Token budget (default 2000, 0 = unlimited)")
      ->transform(base::decimal());
  recall->add_option("--threshold", f->threshold, "Minimum relative score");
  scope(recall);
  CLI::App* supersede = verb("supersede", "Replace a memory with a new version");
  supersede->add_option("id", f->first, "The memory to replace")->required();
  supersede->add_option("text", f->text, "The new text");
  supersede->add_flag("--stdin", f->from_stdin, "Read the new text from stdin");
  scope(supersede);
  verb("history", "A memory's version chain")->add_option("id", f->first)->required();
  verb("forget", "Delete a memory and its recovery copies")->add_option("id", f->first)->required();
  verb("recover", "The exact original behind a recall handle")->add_option("handle", f->first)->required();
  verb("stats", "Counts and sizes of the store");
  verb("export", "JSONL, one memory version per line")
      ->add_flag("--current", f->current, "Only the current version of each memory");
  verb("import", "JSONL on stdin (the export format)");
  return app;
}

// The text comes from one place: the argument or --stdin.
std::optional<std::string> text_source_error(const Flags& f) {
  if (f.verb != "remember" && f.verb != "supersede") return std::nullopt;
  if (f.text.has_value() == f.from_stdin) {
    return f.verb + " takes the text or --stdin, one of them (quote multi-word text)";
  }
  return std::nullopt;
}

class Cli {
 public:
  Cli(std::istream& in, std::ostream& out, std::ostream& err)
      : in_(in), out_(out), log_(base::stream_logger(err)) {}

  int fail(const Status& s) {
    log_->error("cavemem: {}", s.ToString());
    return base::exit_code_for(s);
  }

  // The memory text: the positional argument, or stdin (read up to one byte past the cap).
  Result<std::string> text(const Flags& f) {
    if (!f.from_stdin) return *f.text;
    std::string data;
    char buf[65536];
    while (data.size() <= kMaxMemoryBytes && in_.read(buf, sizeof buf).gcount() > 0) {
      data.append(buf, static_cast<std::size_t>(in_.gcount()));
    }
    if (data.size() > kMaxMemoryBytes) {
      return Status::ResourceExhausted(codes::kMemoryTooLarge,
                                       "memory text on stdin is larger than " +
                                           std::to_string(kMaxMemoryBytes) + " bytes (256 KiB)");
    }
    return data;
  }

  int run_verb(const Flags& f) {
    const std::string& name = f.verb;
    // Size and emptiness are checked before the store is opened: a refused memory creates
    // nothing.
    std::optional<std::string> body;
    if (name == "remember" || name == "supersede") {
      Result<std::string> t = text(f);
      if (!t.ok()) return fail(t.status());
      Status s = validate_text(t.value());
      if (!s.ok()) return fail(s);
      body = std::move(t).value();
    }
    RecallRequest recall_request;
    if (name == "recall") recall_request = recall_request_of(f);
    Result<std::string> dir = resolve_mem_dir();
    if (!dir.ok()) return fail(dir.status());
    Result<std::unique_ptr<MemService>> opened = MemService::open(dir.value());
    if (!opened.ok()) return fail(opened.status());
    MemService& svc = *opened.value();

    if (name == "remember") {
      NewMemory m{*body, f.project, f.tags};
      Result<RememberOutcome> r = svc.remember(m);
      if (!r.ok()) return fail(r.status());
      Json j = Json::object();
      j["id"] = r->memory.id;
      j["created_at"] = r->memory.created_at;
      j["created"] = r->created;
      j["basis"] = "inferred";
      out_ << pretty(j);
      return kExitOk;
    }
    if (name == "recall") return recall(svc, recall_request);
    if (name == "supersede") {
      NewMemory m{*body, f.project, std::nullopt};
      if (!f.tags.empty()) m.tags = f.tags;
      Result<Memory> r = svc.supersede(f.first, m);
      if (!r.ok()) return fail(r.status());
      Json j = Json::object();
      j["id"] = r->id;
      j["supersedes"] = *r->supersedes;
      j["created_at"] = r->created_at;
      j["basis"] = "inferred";
      out_ << pretty(j);
      return kExitOk;
    }
    if (name == "history") {
      Result<std::vector<Memory>> r = svc.history(f.first);
      if (!r.ok()) return fail(r.status());
      Json list = Json::array();
      for (const Memory& m : r.value()) list.push_back(memory_json(m));
      Json j = Json::object();
      j["history"] = std::move(list);
      j["basis"] = "inferred";
      out_ << pretty(j);
      return kExitOk;
    }
    if (name == "forget") {
      Result<MemService::ForgetOutcome> r = svc.forget(f.first);
      if (!r.ok()) return fail(r.status());
      if (!r->warning.empty()) log_->warn("cavemem: warning: {}", r->warning);
      Json j = Json::object();
      j["forgotten"] = r->forgotten;
      j["recovery_copies_removed"] = r->copies_removed;
      out_ << pretty(j);
      return kExitOk;
    }
    if (name == "recover") {
      Result<std::string> r = svc.recover(f.first);
      if (!r.ok()) return fail(r.status());
      out_ << r.value();
      return kExitOk;
    }
    if (name == "stats") {
      Result<StoreStats> r = svc.store().stats();
      if (!r.ok()) return fail(r.status());
      out_ << pretty(stats_json(r.value(), svc.dir()));
      return kExitOk;
    }
    if (name == "export") {
      Status s = svc.store().for_each(f.current, [&](const Memory& m) { out_ << export_line(m) << "\n"; });
      if (!s.ok()) return fail(s);
      return kExitOk;
    }
    return import(svc);
  }

  static RecallRequest recall_request_of(const Flags& f) {
    RecallRequest req;
    req.query = f.first;
    if (f.limit) req.limit = *f.limit;
    if (f.token_budget) req.token_budget = *f.token_budget;
    if (f.threshold) req.threshold = *f.threshold;
    req.project = f.project;
    req.tags = f.tags;
    return req;
  }

  int recall(MemService& svc, const RecallRequest& req) {
    Result<RecallResult> r = svc.recall(req);
    if (!r.ok()) return fail(r.status());
    out_ << pretty(recall_json(r.value()));
    return kExitOk;
  }

  int import(MemService& svc) {
    std::vector<ImportRow> rows;
    std::string line;
    int line_no = 0;
    while (std::getline(in_, line)) {
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      Result<ImportRow> row = parse_import_line(line, line_no);
      if (!row.ok()) return fail(row.status());
      rows.push_back(std::move(row).value());
    }
    Result<ImportSummary> r = svc.store().import(rows);
    if (!r.ok()) return fail(r.status());
    Json j = Json::object();
    j["imported"] = r->imported;
    j["skipped"] = r->skipped;
    out_ << pretty(j);
    return kExitOk;
  }

 private:
  std::istream& in_;
  std::ostream& out_;
  std::shared_ptr<spdlog::logger> log_;  // diagnostics, on the caller's error stream
};

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  ToolInfo tool{kTool, "caveman.mem.version.v1", kSynopsis,
                {"fts5_recall", "version_chains", "mcp_stdio", "jsonl_export"}};
  // Usage errors are found here, before anything is opened or created.
  Flags flags;
  std::unique_ptr<CLI::App> app = make_cli(tool, &flags);
  if (auto rc = base::parse_args(*app, tool, args, out, err)) return *rc;
  if (!app->get_subcommands().empty()) flags.verb = app->get_subcommands().front()->get_name();
  if (std::optional<std::string> message = text_source_error(flags)) {
    return base::usage_error(kTool, *message, err);
  }
  if (flags.verb.empty() || flags.verb == "mcp") return serve_mcp(err);
  return Cli(in, out, err).run_verb(flags);
}

}  // namespace caveman::mem
