#include "cli.h"

#include <cmath>
#include <istream>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>

#include "caveman/common_flags.h"
#include "json_io.h"
#include "mcp_tools.h"
#include "service.h"

namespace caveman::mem {
namespace {

constexpr const char* kUsage =
    "usage: cavemem [mcp]                         serve MCP on stdin/stdout (server \"cavemem\")\n"
    "       cavemem remember <text> | --stdin [--project P] [--tag T]...\n"
    "       cavemem recall <query> [limit] [token_budget] [--project P] [--tag T]...\n"
    "                      [--threshold X]        (limit 0 = 5, max 50; budget default 2000,\n"
    "                                              0 = unlimited)\n"
    "       cavemem supersede <id> <text> | <id> --stdin [--project P] [--tag T]...\n"
    "       cavemem history <id>\n"
    "       cavemem forget <id>\n"
    "       cavemem recover <handle>                 exact original behind a recall handle\n"
    "       cavemem stats\n"
    "       cavemem export [--current]               JSONL, one memory version per line\n"
    "       cavemem import                           JSONL on stdin (the export format)\n"
    "       cavemem version [--json] | --version | --help\n"
    "\n"
    "Durable agent memory with ranked recall (SQLite FTS5, BM25). Output is JSON (2-space\n"
    "indent; --json is accepted and changes nothing). Store: $CAVEMAN_HOME/mem/mem.db (default\n"
    "~/.caveman/mem/mem.db), recall originals in mem/ccr.db.\n"
    "\n"
    "exit codes: 0 ok, 1 refused or failed (stderr: cavemem: cave_<code>: message),\n"
    "            2 usage error, 65 memory text larger than 256 KiB (cave_memory_too_large)\n";

struct Flags {
  std::vector<std::string> positional;
  std::optional<std::string> project;
  std::vector<std::string> tags;
  std::optional<std::string> threshold;
  bool from_stdin = false;
  bool current = false;
};

struct Verb {
  const char* name;
  std::size_t min_args;
  std::size_t max_args;
  std::set<std::string> flags;  // allowed flags besides --json
};

const Verb kVerbs[] = {
    {"remember", 0, 1, {"--stdin", "--project", "--tag"}},
    {"recall", 1, 3, {"--project", "--tag", "--threshold"}},
    {"supersede", 1, 2, {"--stdin", "--project", "--tag"}},
    {"history", 1, 1, {}},
    {"forget", 1, 1, {}},
    {"recover", 1, 1, {}},
    {"stats", 0, 0, {}},
    {"export", 0, 0, {"--current"}},
    {"import", 0, 0, {}},
};

class Cli {
 public:
  Cli(std::istream& in, std::ostream& out, std::ostream& err) : in_(in), out_(out), err_(err) {}

  int usage(const std::string& message) {
    err_ << "cavemem: " << message << "\n" << kUsage;
    return kExitUsage;
  }

  int fail(const Status& s) {
    err_ << "cavemem: " << s.ToString() << "\n";
    if (s.cave_code() == "cave_memory_too_large") return kMemoryTooLargeExit;
    return kExitFailed;
  }

  // Parses `args` (verb excluded) against `verb`; returns an exit code on usage errors.
  std::optional<int> parse(const Verb& verb, const std::vector<std::string>& args, Flags* f) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--") {
        for (++i; i < args.size(); ++i) f->positional.push_back(args[i]);
        break;
      }
      if (a.size() < 2 || a[0] != '-' || a[1] != '-') {
        f->positional.push_back(a);
        continue;
      }
      if (a == "--json") continue;
      if (verb.flags.count(a) == 0) return usage("unknown flag " + a + " for " + verb.name);
      if (a == "--stdin") {
        f->from_stdin = true;
      } else if (a == "--current") {
        f->current = true;
      } else {
        if (i + 1 >= args.size()) return usage(a + " needs a value");
        const std::string& v = args[++i];
        if (a == "--project") {
          f->project = v;
        } else if (a == "--tag") {
          f->tags.push_back(v);
        } else {
          f->threshold = v;
        }
      }
    }
    std::size_t min = verb.min_args, max = verb.max_args;
    if (std::string(verb.name) == "remember" && !f->from_stdin) min = 1;
    if (std::string(verb.name) == "supersede") {
      min = f->from_stdin ? 1 : 2;
      max = f->from_stdin ? 1 : 2;
    }
    if (std::string(verb.name) == "remember" && f->from_stdin) max = 0;
    if (f->positional.size() < min || f->positional.size() > max) {
      return usage(std::string(verb.name) + ": wrong number of arguments (quote multi-word text)");
    }
    return std::nullopt;
  }

  // The memory text: the positional argument, or stdin (read up to one byte past the cap).
  Result<std::string> text(const Flags& f, std::size_t positional_index) {
    if (!f.from_stdin) return f.positional[positional_index];
    std::string data;
    char buf[65536];
    while (data.size() <= kMaxMemoryBytes && in_.read(buf, sizeof buf).gcount() > 0) {
      data.append(buf, static_cast<std::size_t>(in_.gcount()));
    }
    if (data.size() > kMaxMemoryBytes) {
      return Status::ResourceExhausted("cave_memory_too_large",
                                       "memory text on stdin is larger than " +
                                           std::to_string(kMaxMemoryBytes) + " bytes (256 KiB)");
    }
    return data;
  }

  int run_verb(const Verb& verb, const Flags& f) {
    const std::string name = verb.name;
    // Size and emptiness are checked before the store is opened: a refused memory creates
    // nothing.
    std::optional<std::string> body;
    if (name == "remember" || name == "supersede") {
      Result<std::string> t = text(f, name == "remember" ? 0 : 1);
      if (!t.ok()) return fail(t.status());
      Status s = validate_text(t.value());
      if (!s.ok()) return fail(s);
      body = std::move(t).value();
    }
    RecallRequest recall_request;
    if (name == "recall") {
      if (auto rc = prepare_recall(f, &recall_request)) return *rc;
    }
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
      Result<Memory> r = svc.supersede(f.positional[0], m);
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
      Result<std::vector<Memory>> r = svc.history(f.positional[0]);
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
      Result<MemService::ForgetOutcome> r = svc.forget(f.positional[0]);
      if (!r.ok()) return fail(r.status());
      if (!r->warning.empty()) err_ << "cavemem: warning: " << r->warning << "\n";
      Json j = Json::object();
      j["forgotten"] = r->forgotten;
      j["recovery_copies_removed"] = r->copies_removed;
      out_ << pretty(j);
      return kExitOk;
    }
    if (name == "recover") {
      Result<std::string> r = svc.recover(f.positional[0]);
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

  // Recall's numbers are checked before the store is opened (a usage error creates nothing).
  std::optional<int> prepare_recall(const Flags& f, RecallRequest* req) {
    req->query = f.positional[0];
    auto number = [](const std::string& s, std::int64_t* out) {
      if (s.empty() || s.size() > 12) return false;
      std::int64_t v = 0;
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
      }
      *out = v;
      return true;
    };
    std::int64_t v = 0;
    if (f.positional.size() > 1) {
      if (!number(f.positional[1], &v) || v > kMaxLimit) {
        return usage("recall: limit must be an integer 0-" + std::to_string(kMaxLimit));
      }
      req->limit = static_cast<int>(v);
    }
    if (f.positional.size() > 2) {
      if (!number(f.positional[2], &v)) return usage("recall: token_budget must be an integer >= 0");
      req->token_budget = v;
    }
    if (f.threshold) {
      try {
        std::size_t used = 0;
        req->threshold = std::stod(*f.threshold, &used);
        if (used != f.threshold->size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        return usage("recall: --threshold needs a number");
      }
    }
    req->project = f.project;
    req->tags = f.tags;
    return std::nullopt;
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
  std::ostream& err_;
};

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  ToolInfo tool{"cavemem", "caveman.mem.version.v1", kUsage,
                {"fts5_recall", "version_chains", "mcp_stdio", "jsonl_export"}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  Cli cli(in, out, err);
  if (args.empty() || args[0] == "mcp") {
    if (args.size() > 1) return cli.usage("mcp takes no arguments");
    return serve_mcp(err);
  }
  for (const Verb& verb : kVerbs) {
    if (args[0] != verb.name) continue;
    Flags flags;
    if (auto rc = cli.parse(verb, {args.begin() + 1, args.end()}, &flags)) return *rc;
    return cli.run_verb(verb, flags);
  }
  return cli.usage("unknown command \"" + args[0] + "\"");
}

}  // namespace caveman::mem
