// cavemem's untrusted inputs. The first byte picks the surface, the rest is the input:
//   0  recall query → parse_query → MemStore::search on a seeded store (with a project and a
//      tag filter on odd selector bytes). Any query that parses must search without error: an
//      error here would mean FTS5 or LIKE interpreted part of the query as syntax.
//   1  import JSONL → parse_import_line per line → MemStore::import on a fresh store. Invalid
//      input is refused with cave_invalid_import; after an accepted import every imported id
//      has a walkable history (links mutual and acyclic).
//   2  one MCP JSON-RPC line to a session with the five cavemem tools: no reply or exactly
//      one single-line JSON reply.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_util.h"
#include "json/json.h"
#include "json_io.h"
#include "mcp_tools.h"
#include "query.h"
#include "store.h"

namespace {

using caveman::mem::MemStore;

MemStore& seeded_store() {
  static std::unique_ptr<MemStore> store = [] {
    auto opened = MemStore::open(":memory:");
    if (!opened.ok()) std::abort();
    const char* texts[] = {"run `make test` before every commit", "the NOT operator is literal here",
                           "部署前先运行迁移脚本", "café config lives in src/config/app.yaml",
                           "100% of 50_percent paths use \\ escapes"};
    for (const char* t : texts) {
      caveman::mem::NewMemory m{t, std::string("proj"), std::vector<std::string>{"ops", "t_1"}};
      if (!opened.value()->remember(m).ok()) std::abort();
    }
    return std::move(opened).value();
  }();
  return *store;
}

void fuzz_query(std::uint8_t selector, std::string_view input) {
  auto parsed = caveman::mem::parse_query(input);
  if (!parsed.ok()) return;
  caveman::mem::SearchRequest req;
  req.query = std::move(parsed).value();
  req.threshold = 0.0;
  if (selector & 1) {
    req.project = std::string(input.substr(0, 8));
    req.tags = {"t_1"};
  }
  auto hits = seeded_store().search(req);
  FUZZ_CHECK(hits.ok(), "a parsed query failed to search");
  FUZZ_CHECK(hits->size() <= static_cast<std::size_t>(req.limit), "more hits than the limit");
}

void fuzz_import(std::string_view input) {
  std::vector<caveman::mem::ImportRow> rows;
  int line_no = 0;
  while (!input.empty()) {
    const std::size_t nl = input.find('\n');
    const std::string_view line = input.substr(0, nl);
    input = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    auto row = caveman::mem::parse_import_line(line, ++line_no);
    if (!row.ok()) return;  // the CLI rejects the whole import
    rows.push_back(std::move(row).value());
  }
  auto store = MemStore::open(":memory:");
  FUZZ_CHECK(store.ok(), "in-memory store did not open");
  auto summary = store.value()->import(rows);
  if (!summary.ok()) {
    FUZZ_CHECK(summary.status().error_code() == "cave_invalid_import",
               "import failed with another code");
    return;
  }
  for (const caveman::mem::ImportRow& r : rows) {
    FUZZ_CHECK(store.value()->history(r.memory.id).ok(), "imported chain is not walkable");
  }
}

void fuzz_mcp(std::string_view line) {
  static auto service = std::make_shared<caveman::mem::ServiceHandle>(
      [] { return caveman::mem::MemService::open(""); });
  static caveman::mcp::ServerInfo info{"cavemem", "Cavemem", "fuzz", ""};
  static caveman::mcp::ServerOptions options;
  static caveman::mcp::Session session(info, options, caveman::mem::make_mem_tools(service));
  const std::string reply = session.handle_line(line);
  if (!reply.empty()) {
    FUZZ_CHECK(reply.find('\n') == std::string::npos, "reply spans lines");
    FUZZ_CHECK(caveman::json::is_valid(reply), "reply is not JSON");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: fuzz_query(data[0], input); break;
    case 1: fuzz_import(input); break;
    default: fuzz_mcp(input); break;
  }
  return 0;
}
