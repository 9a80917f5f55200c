// cavemem at scale (acceptance 2 of issue 12) and ranking quality (acceptance 1), one JSON
// object on stdout for bench/mem_bench.sh to turn into docs/BENCHMARKS.md section `mem`.
//
// usage: mem_bench <work dir> <testdata dir> [memories=100000] [queries=1000] [scan_queries=30]
//                  [single_sample=2000] [--reuse] [--recall-only]
//
// 1. Makes N synthetic coding-agent memories (fixed seed, own PRNG so every platform makes the
//    same corpus). The first `single_sample` go through MemStore::remember — one fsynced
//    transaction per memory, as the CLI does — which gives the single-remember rate; the rest
//    go through the bulk path (MemStore::import, what `cavemem import` runs: one transaction
//    per batch), so building 100,000 memories takes seconds rather than most of half an hour.
//    --reuse keeps an existing <work dir>/mem.db that already holds N memories (iterating on
//    recall); --recall-only skips the exhaustive ranking and the full-scan timings.
// 2. Runs Q recall queries (2–4 words taken from a random memory plus a distractor word)
//    through MemService::recall (parse → FTS5 → rows → engine compression → packing) and
//    times each; also the store search alone, with and without rarest-first pruning.
// 3. Simulates the original's full scan on the same store: load every current row, tokenize,
//    BM25 in process (scan_recall), for S of the same queries.
// 4. Ranking quality on the hand-made test set: top-3 and MRR@10 for both rankers.
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scan_rank.h"
#include "service.h"

namespace {

using caveman::mem::MemService;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// splitmix64: tiny, fast and identical everywhere (std distributions are not).
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  double unit() { return double(next() >> 11) / double(1ULL << 53); }
};

// A 20,000-word vocabulary (the technical words below, then pronounceable pseudo-words) drawn
// with Zipf-like frequencies P(rank r) ∝ 1/(r + 50): the offset stands for the stopwords that
// recall drops, so the most common content word is in roughly one memory in ten.
class Vocabulary {
 public:
  Vocabulary(const std::vector<std::string>& seed_words, std::size_t size, Rng rng) {
    for (const std::string& w : seed_words) {
      if (std::find(words_.begin(), words_.end(), w) == words_.end()) words_.push_back(w);
    }
    static const char* kOnsets[] = {"b", "br", "d", "dr", "f", "g", "k", "kl", "l", "m", "n", "p",
                                    "pr", "r", "s", "st", "t", "tr", "v", "z"};
    static const char* kVowels[] = {"a", "e", "i", "o", "u", "ai", "ea", "io"};
    static const char* kCodas[] = {"", "n", "r", "s", "x", "l", "m", "t"};
    std::map<std::string, bool> seen;
    for (const std::string& w : words_) seen[w] = true;
    while (words_.size() < size) {
      std::string w;
      const std::size_t syllables = 2 + rng.below(2);
      for (std::size_t i = 0; i < syllables; ++i) {
        w += kOnsets[rng.below(std::size(kOnsets))];
        w += kVowels[rng.below(std::size(kVowels))];
      }
      w += kCodas[rng.below(std::size(kCodas))];
      if (!seen[w]) {
        seen[w] = true;
        words_.push_back(w);
      }
    }
    double total = 0;
    for (std::size_t r = 0; r < words_.size(); ++r) {
      total += 1.0 / (double(r) + 51.0);
      cumulative_.push_back(total);
    }
    for (double& c : cumulative_) c /= total;
  }
  const std::string& draw(Rng& rng) const {
    const double u = rng.unit();
    auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), u);
    return words_[std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_.begin()), words_.size() - 1)];
  }
  const std::string& any(Rng& rng) const { return words_[rng.below(words_.size())]; }

 private:
  std::vector<std::string> words_;
  std::vector<double> cumulative_;
};

const std::vector<std::string> kWords = {
    "test", "build", "deploy", "config", "database", "migration", "cache", "queue", "worker", "api",
    "handler", "router", "schema", "index", "query", "transaction", "retry", "timeout", "latency", "error",
    "log", "metric", "alert", "dashboard", "token", "secret", "key", "certificate", "proxy", "gateway",
    "cluster", "node", "pod", "container", "image", "registry", "pipeline", "job", "cron", "schedule",
    "branch", "commit", "review", "merge", "release", "tag", "version", "changelog", "lint", "format",
    "type", "interface", "module", "package", "dependency", "lockfile", "script", "command", "flag", "env",
    "variable", "path", "directory", "file", "fixture", "mock", "stub", "snapshot", "golden", "benchmark",
    "profile", "memory", "cpu", "thread", "lock", "mutex", "channel", "stream", "buffer", "socket",
    "request", "response", "header", "cookie", "session", "auth", "login", "permission", "role", "policy",
    "tenant", "customer", "invoice", "payment", "subscription", "plan", "price", "currency", "tax", "refund",
    "webhook", "event", "topic", "subject", "consumer", "producer", "partition", "offset", "replica", "backup",
    "restore", "snapshot", "volume", "bucket", "object", "upload", "download", "cdn", "dns", "domain",
    "route", "middleware", "component", "hook", "state", "store", "reducer", "form", "validation", "input",
    "button", "modal", "page", "layout", "style", "theme", "color", "font", "icon", "translation",
    "locale", "timezone", "date", "duration", "interval", "threshold", "limit", "quota", "budget", "cost",
    "feature", "flag", "experiment", "rollout", "canary", "rollback", "incident", "postmortem", "runbook", "oncall",
    "model", "training", "dataset", "feature", "label", "metric", "evaluation", "inference", "gpu", "batch",
    "notebook", "pipeline", "orchestrator", "dag", "task", "operator", "sensor", "trigger", "callback", "plugin",
    "compiler", "linker", "toolchain", "target", "artifact", "binary", "library", "header", "macro", "template",
    "parser", "lexer", "token", "grammar", "syntax", "ast", "visitor", "pass", "optimizer", "codegen",
    "encoding", "utf8", "json", "yaml", "toml", "csv", "parquet", "protobuf", "grpc", "graphql",
    "rest", "openapi", "sdk", "client", "server", "daemon", "service", "endpoint", "port", "host"};
const std::vector<std::string> kProjects = {
    "billing-api", "webapp", "ml-pipeline", "infra", "logslice", "mobile-android", "docs-site", "warehouse",
    "auth-service", "search", "notifications", "gateway", "scheduler", "exporter", "admin-ui", "sdk-js",
    "sdk-python", "cli", "agent", "ingest", "reports", "payments", "ledger", "catalog", "inventory",
    "checkout", "shipping", "analytics", "feature-store", "observability"};
const std::vector<std::string> kVerbs = {"run", "use", "never", "always", "prefer", "avoid", "check",
                                         "set", "keep", "pin", "regenerate", "restart", "update", "rotate"};
const std::vector<std::string> kTools = {"make test", "pnpm build", "cargo nextest run", "uv run pytest",
                                         "go test ./...", "terraform plan", "kubectl rollout restart",
                                         "docker compose up -d", "dbt build", "npm ci", "gradle check"};

std::string memory_text(Rng& rng, const Vocabulary& vocab, std::size_t i) {
  const std::string& project = kProjects[rng.below(kProjects.size())];
  std::string t = project + ": " + kVerbs[rng.below(kVerbs.size())];
  const std::size_t words = 8 + rng.below(40);
  for (std::size_t w = 0; w < words; ++w) {
    t += ' ';
    t += vocab.draw(rng);
    if (rng.below(60) == 0) t += " `" + kTools[rng.below(kTools.size())] + "`";
    if (rng.below(40) == 0) t += " src/" + vocab.draw(rng) + "/" + vocab.any(rng) + ".go";
    if (rng.below(20) == 0) t += " " + std::to_string(rng.below(10000));
  }
  t += " #" + std::to_string(i);  // distinct texts
  return t;
}

std::string query_from(Rng& rng, const Vocabulary& vocab, const std::string& text) {
  std::vector<std::string> words = caveman::mem::scan_tokenize(text);
  std::string q;
  const std::size_t n = 2 + rng.below(3);
  for (std::size_t k = 0; k < n && !words.empty(); ++k) q += words[rng.below(words.size())] + " ";
  q += vocab.draw(rng);  // one word the memory may not contain
  return q;
}

std::string plan_name(caveman::mem::SearchPlan p) {
  switch (p) {
    case caveman::mem::SearchPlan::kWhole: return "whole";
    case caveman::mem::SearchPlan::kRarePrefix: return "rare_prefix";
    case caveman::mem::SearchPlan::kCoveringSets: return "covering_sets";
    case caveman::mem::SearchPlan::kNone: break;
  }
  return "none";
}

// CPU time of this thread: unlike wall time it does not grow when other processes share the
// cores, so runs on a loaded machine stay comparable.
double thread_cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double rank = p / 100.0 * double(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = static_cast<std::size_t>(std::ceil(rank));
  return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

Json stats_of(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return Json{{"n", v.size()},
              {"p50_ms", percentile(v, 50)},
              {"p95_ms", percentile(v, 95)},
              {"p99_ms", percentile(v, 99)},
              {"mean_ms", v.empty() ? 0 : sum / double(v.size())},
              {"max_ms", v.empty() ? 0 : *std::max_element(v.begin(), v.end())}};
}

std::int64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_size) : 0;
}

std::vector<Json> read_jsonl(const std::string& path) {
  std::ifstream f(path);
  std::vector<Json> out;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty()) out.push_back(Json::parse(line));
  }
  return out;
}

// Top-3 share and MRR@10 of cavemem and of the original ranker on the hand-made test set.
Json ranking_quality(const std::string& testdata) {
  const std::vector<Json> memories = read_jsonl(testdata + "/memories.jsonl");
  const std::vector<Json> queries = read_jsonl(testdata + "/queries.jsonl");
  auto svc = MemService::open("");
  if (!svc.ok()) return Json{{"error", svc.status().ToString()}};
  std::map<std::string, std::string> id_of;
  std::vector<std::pair<std::string, std::string>> docs;
  for (const Json& m : memories) {
    caveman::mem::NewMemory nm{m["text"], std::nullopt, std::vector<std::string>{}};
    if (m.contains("project")) nm.project = m["project"].get<std::string>();
    for (const Json& t : m["tags"]) nm.tags->push_back(t);
    auto r = svc.value()->remember(nm);
    if (!r.ok()) return Json{{"error", r.status().ToString()}};
    id_of[m["key"]] = r->memory.id;
    docs.emplace_back(r->memory.id, r->memory.text);
  }
  int top3 = 0, scan_top3 = 0, top1 = 0, scan_top1 = 0;
  double mrr = 0, scan_mrr = 0;
  for (const Json& q : queries) {
    const std::string expected = id_of.at(q["expect"]);
    caveman::mem::RecallRequest req;
    req.query = q["query"];
    req.limit = 10;
    req.token_budget = 0;
    if (q.contains("project")) req.project = q["project"].get<std::string>();
    auto got = svc.value()->recall(req);
    if (!got.ok()) return Json{{"error", got.status().ToString()}};
    for (std::size_t i = 0; i < got->hits.size(); ++i) {
      if (got->hits[i].id != expected) continue;
      top1 += i == 0;
      top3 += i < 3;
      mrr += 1.0 / double(i + 1);
    }
    auto scan = caveman::mem::scan_rank(docs, req.query, 10, caveman::mem::kDefaultThreshold);
    for (std::size_t i = 0; i < scan.size(); ++i) {
      if (scan[i].id != expected) continue;
      scan_top1 += i == 0;
      scan_top3 += i < 3;
      scan_mrr += 1.0 / double(i + 1);
    }
  }
  const double n = double(queries.size());
  return Json{{"memories", memories.size()}, {"queries", queries.size()},
              {"top1", top1}, {"top3", top3}, {"mrr10", mrr / n},
              {"scan_top1", scan_top1}, {"scan_top3", scan_top3}, {"scan_mrr10", scan_mrr / n}};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args;
  bool reuse = false, recall_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reuse") {
      reuse = true;
    } else if (a == "--recall-only") {
      recall_only = true;
    } else {
      args.push_back(a);
    }
  }
  if (args.size() < 2) {
    std::cerr << "usage: mem_bench <work dir> <testdata dir> [memories] [queries] [scan_queries] "
                 "[single_sample] [--reuse] [--recall-only]\n";
    return 2;
  }
  const std::string dir = args[0];
  const std::string testdata = args[1];
  const std::size_t n_memories = args.size() > 2 ? std::stoul(args[2]) : 100000;
  const std::size_t n_queries = args.size() > 3 ? std::stoul(args[3]) : 1000;
  const std::size_t n_scan = recall_only ? 0 : args.size() > 4 ? std::stoul(args[4]) : 30;
  const std::size_t n_single = std::min(n_memories, args.size() > 5 ? std::stoul(args[5]) : 2000);

  Json out = Json::object();
  out["ranking"] = ranking_quality(testdata);

  auto opened = MemService::open(dir);
  if (!opened.ok()) {
    std::cerr << opened.status().ToString() << "\n";
    return 1;
  }
  MemService& svc = *opened.value();
  Rng rng{42};
  const Vocabulary vocab(kWords, 20000, Rng{7});
  std::vector<std::string> texts;
  texts.reserve(n_memories);
  std::int64_t text_bytes = 0;
  for (std::size_t i = 0; i < n_memories; ++i) {
    texts.push_back(memory_text(rng, vocab, i));
    text_bytes += static_cast<std::int64_t>(texts.back().size());
  }
  auto before = svc.store().stats();
  if (!before.ok()) {
    std::cerr << before.status().ToString() << "\n";
    return 1;
  }
  if (reuse && before->current == static_cast<std::int64_t>(n_memories)) {
    out["insert"] = Json{{"memories", n_memories}, {"text_bytes", text_bytes}, {"reused", true}};
  } else if (before->versions != 0) {
    std::cerr << "mem_bench: " << dir << "/mem.db is not empty (use --reuse with the same N)\n";
    return 1;
  } else {
    // Single remembers: what every CLI/MCP remember costs (a BEGIN IMMEDIATE transaction and
    // an fsync of the WAL each, synchronous=FULL).
    auto t0 = Clock::now();
    for (std::size_t i = 0; i < n_single; ++i) {
      auto r = svc.store().remember(caveman::mem::NewMemory{texts[i], std::nullopt, std::nullopt});
      if (!r.ok()) {
        std::cerr << r.status().ToString() << "\n";
        return 1;
      }
    }
    const double single_ms = ms_since(t0);
    // The rest through the bulk path, in batches of kBatch rows per transaction.
    constexpr std::size_t kBatch = 10000;
    t0 = Clock::now();
    for (std::size_t from = n_single; from < n_memories; from += kBatch) {
      std::vector<caveman::mem::ImportRow> rows;
      for (std::size_t i = from; i < std::min(n_memories, from + kBatch); ++i) {
        caveman::mem::ImportRow row;
        row.line = static_cast<int>(i - from + 1);
        row.memory.text = texts[i];
        rows.push_back(std::move(row));
      }
      auto r = svc.store().import(rows);
      if (!r.ok() || r->imported != static_cast<std::int64_t>(rows.size())) {
        std::cerr << (r.ok() ? "mem_bench: import skipped rows" : r.status().ToString()) << "\n";
        return 1;
      }
    }
    const double bulk_ms = ms_since(t0);
    const std::size_t n_bulk = n_memories - n_single;
    out["insert"] = Json{
        {"memories", n_memories},
        {"text_bytes", text_bytes},
        {"single", Json{{"memories", n_single},
                        {"seconds", single_ms / 1000},
                        {"per_second", n_single ? double(n_single) / (single_ms / 1000) : 0.0},
                        {"transaction", "one BEGIN IMMEDIATE transaction and WAL fsync per "
                                        "memory, synchronous=FULL"}}},
        {"bulk", Json{{"memories", n_bulk},
                      {"seconds", bulk_ms / 1000},
                      {"per_second", n_bulk ? double(n_bulk) / (bulk_ms / 1000) : 0.0},
                      {"batch", kBatch},
                      {"transaction", "one transaction per batch"}}}};
  }

  std::vector<std::string> queries;
  for (std::size_t i = 0; i < n_queries; ++i) queries.push_back(query_from(rng, vocab, texts[rng.below(texts.size())]));

  // Warm the page cache and the engine (first recall opens mem/ccr.db) outside the timings.
  for (std::size_t i = 0; i < std::min<std::size_t>(20, queries.size()); ++i) {
    caveman::mem::RecallRequest warm;
    warm.query = queries[i];
    (void)svc.recall(warm);
  }
  std::vector<double> recall_ms, recall_cpu_ms, search_ms, exhaustive_ms;
  std::size_t with_hits = 0, hits_total = 0;
  std::map<std::string, std::size_t> plans;  // how each search was ranked (SearchTrace)
  std::size_t fts_queries = 0;
  for (const std::string& q : queries) {
    caveman::mem::RecallRequest req;
    req.query = q;
    const double c1 = thread_cpu_ms();
    auto t1 = Clock::now();
    auto r = svc.recall(req);
    recall_ms.push_back(ms_since(t1));
    recall_cpu_ms.push_back(thread_cpu_ms() - c1);
    if (!r.ok()) {
      std::cerr << r.status().ToString() << "\n";
      return 1;
    }
    with_hits += !r->hits.empty();
    hits_total += r->hits.size();
    caveman::mem::SearchRequest s;
    s.query = caveman::mem::parse_query(q).value();
    caveman::mem::SearchTrace trace;
    s.trace = &trace;
    auto t2 = Clock::now();
    (void)svc.store().search(s);
    search_ms.push_back(ms_since(t2));
    s.trace = nullptr;
    ++plans[plan_name(trace.plan)];
    fts_queries += static_cast<std::size_t>(trace.fts_queries);
    if (recall_only) continue;
    s.exhaustive = true;  // the same ranking without rarest-first pruning
    auto t3 = Clock::now();
    (void)svc.store().search(s);
    exhaustive_ms.push_back(ms_since(t3));
  }
  out["recall"] = stats_of(recall_ms);
  out["recall"]["queries_with_hits"] = with_hits;
  out["recall"]["mean_hits"] = double(hits_total) / double(queries.size());
  out["recall_cpu"] = stats_of(recall_cpu_ms);
  out["search_only"] = stats_of(search_ms);
  out["search_only"]["plans"] = plans;
  out["search_only"]["mean_fts_queries"] = double(fts_queries) / double(queries.size());
  out["search_exhaustive"] = stats_of(exhaustive_ms);

  std::vector<double> scan_ms;
  std::size_t same_top1 = 0;
  for (std::size_t i = 0; i < n_scan && i < queries.size(); ++i) {
    auto t1 = Clock::now();
    auto r = caveman::mem::scan_recall(svc.store(), queries[i], caveman::mem::kDefaultLimit,
                                       caveman::mem::kDefaultThreshold);
    scan_ms.push_back(ms_since(t1));
    if (!r.ok()) {
      std::cerr << r.status().ToString() << "\n";
      return 1;
    }
    caveman::mem::SearchRequest s;
    s.query = caveman::mem::parse_query(queries[i]).value();
    auto fts = svc.store().search(s);
    if (fts.ok() && !fts->empty() && !r->empty() && (*fts)[0].memory.id == (*r)[0].id) ++same_top1;
  }
  out["scan"] = stats_of(scan_ms);
  out["scan"]["same_top1_as_fts"] = same_top1;
  if (recall_only) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  out["speedup_p50"] = percentile(scan_ms, 50) / percentile(recall_ms, 50);
  out["speedup_p95"] = percentile(scan_ms, 95) / percentile(recall_ms, 95);
  std::vector<double> ratios;  // the same queries through both paths
  for (std::size_t i = 0; i < scan_ms.size(); ++i) ratios.push_back(scan_ms[i] / recall_ms[i]);
  out["speedup_same_queries_median"] = percentile(ratios, 50);

  auto st = svc.store().stats();
  out["db"] = Json{{"mem_db_bytes", file_size(dir + "/mem.db")},
                   {"wal_bytes", file_size(dir + "/mem.db-wal")},
                   {"page_bytes", st.ok() ? st->db_bytes : 0}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
