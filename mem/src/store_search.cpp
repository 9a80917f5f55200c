// MemStore::search — ranked recall over current memories.
//
// Up to three sources, each filtered by project/tags inside SQL:
//   words       → memories_fts MATCH "w1" OR "w2" …, scored by cavemem_bm25 (text and tags);
//   CJK ≥ 3     → memories_tri MATCH of the query's trigrams, scored the same way;
//   CJK 1–2     → LIKE '%…%' ESCAPE '\' over current CJK rows (trigrams cannot match them),
//                 scored in process with the same BM25 saturation and no length norm.
// A memory's score is the sum over sources. With a single source SQL does the ordering and
// the limit; with several, each returns at most kMergeCap rows and the merge happens here.
//
// Pruning (words only, exact): scoring every row that contains a common word dominates the
// cost (FTS5 must decode positions, look up the row length and call the ranker per row), so
// each term gets a bound ub(t) > anything it can add to a score — idf · F(k1+1)/(F + k1(1−b)),
// F the most times one row can hold it (from the fts5vocab counts; see term_stats). Then:
//   1. the rows holding one of the leading (largest-bound, usually rarest) terms E are ranked
//      over all terms; their k-th score θ is a lower bound of the true k-th score. If the
//      other terms' bounds add up to less than θ, these rows are the answer (kRarePrefix);
//   2. otherwise a row can reach θ only if it holds a set of terms whose bounds add up to θ,
//      so only rows holding one of the minimal such sets are ranked:
//      `(("a") OR ("b" AND "c") …) AND ("a" OR "b" OR "c" …)` (kCoveringSets). With common
//      terms these are the rows sharing several query words, not every row sharing one.
// The leading filter group is skipped by cavemem_bm25, which also gets the document
// frequencies already counted instead of walking every doclist again. A test checks that
// the pruned ranking equals the exhaustive one (ids, order and scores).
#include <algorithm>
#include <cmath>
#include <map>

#include "caveman/base/codes.h"
#include "caveman/base/split.h"
#include "fts_rank.h"
#include "store_internal.h"

namespace caveman::mem {
namespace {

constexpr int kMergeCap = 5000;
constexpr int kTieMargin = 16;  // extra rows fetched so ties at the cut can be ordered by id

struct Scored {
  std::string id;
  double score = 0;
};

struct Ranked {
  std::int64_t seq = 0;
  std::string id;
  double score = 0;
};

bool has_filters(const SearchRequest& req) { return req.project.has_value() || !req.tags.empty(); }

// " AND m.project = ?n AND (' ' || m.tags || ' ') LIKE ?n+1 ESCAPE '\'" …, from `first`.
std::string filter_sql(const SearchRequest& req, int first) {
  std::string sql;
  int n = first;
  if (req.project) sql += " AND m.project = ?" + std::to_string(n++);
  for (std::size_t i = 0; i < req.tags.size(); ++i) {
    sql += " AND (' ' || m.tags || ' ') LIKE ?" + std::to_string(n++) + " ESCAPE '\\'";
  }
  return sql;
}

void bind_filters(SQLite::Statement& q, const SearchRequest& req, int first) {
  int n = first;
  if (req.project) q.bind(n++, *req.project);
  for (const std::string& tag : req.tags) q.bind(n++, "% " + escape_like(tag) + " %");
}

bool better(const Ranked& a, const Ranked& b) {
  return a.score != b.score ? a.score > b.score : a.id < b.id;
}

// The best `k` rows of one FTS query (k ≤ 0: all rows), score descending then id ascending.
// `ranker` is the cavemem_bm25 argument list after the table ("skip, w0, w1").
std::vector<Ranked> fts_top(SQLite::Database& db, const SearchRequest& req, const char* table,
                            const std::string& ranker, const std::string& match, int k) {
  std::vector<Ranked> rows;
  if (req.trace != nullptr) ++req.trace->fts_queries;
  // cavemem_bm25's first argument `keep`: with LIMIT keep and no later filter, a row whose
  // score bound is below the keep-th best so far is not ranked exactly (fts_rank.h). Filters
  // drop rows after ranking, and the exhaustive reference ranks every row: keep = 0 there.
  const std::string score = std::string("cavemem_bm25(") + table + ", " +
                            (has_filters(req) || req.exhaustive ? "0" : "?3") + ", " + ranker + ")";
  if (has_filters(req)) {
    // Filters need the memories row anyway: one joined query, ordered in SQL.
    SQLite::Statement q(db, "SELECT m.seq, m.id, s.score FROM (SELECT rowid AS r, " + score +
                                " AS score FROM " + table + " WHERE " + table +
                                " MATCH ?1) AS s JOIN memories AS m ON m.seq = s.r WHERE 1" +
                                filter_sql(req, 3) + " ORDER BY s.score DESC, m.id ASC LIMIT ?2");
    q.bind(1, match);
    q.bind(2, k > 0 ? k : -1);
    bind_filters(q, req, 3);
    while (q.executeStep()) {
      rows.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getString(), q.getColumn(2).getDouble()});
    }
    return rows;
  }
  // No filters: rank inside FTS5 alone (no per-row join), then order ties by id here. If the
  // tie at the cut may continue past the fetched rows, fetch everything.
  SQLite::Statement q(db, "SELECT rowid, " + score + " AS score FROM " + table + " WHERE " + table +
                              " MATCH ?1 ORDER BY score DESC LIMIT ?2");
  SQLite::Statement id_of(db, "SELECT id FROM memories WHERE seq = ?1");
  for (int fetch = k > 0 ? k + kTieMargin : -1;; fetch = -1) {
    rows.clear();
    q.bind(1, match);
    q.bind(2, fetch);
    if (!req.exhaustive) q.bind(3, fetch > 0 ? fetch : 0);
    while (q.executeStep()) rows.push_back({q.getColumn(0).getInt64(), "", q.getColumn(1).getDouble()});
    q.reset();
    const bool complete = fetch < 0 || static_cast<int>(rows.size()) < fetch ||
                          rows[static_cast<std::size_t>(k - 1)].score != rows.back().score;
    if (complete) break;
  }
  for (Ranked& r : rows) {
    id_of.bind(1, r.seq);
    if (id_of.executeStep()) r.id = id_of.getColumn(0).getString();
    id_of.reset();
  }
  std::sort(rows.begin(), rows.end(), better);
  if (k > 0 && rows.size() > static_cast<std::size_t>(k)) rows.resize(static_cast<std::size_t>(k));
  return rows;
}

std::int64_t count_matches(SQLite::Database& db, const std::string& match) {
  SQLite::Statement q(db, "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?1");
  q.bind(1, match);
  q.executeStep();
  return q.getColumn(0).getInt64();
}

struct Term {
  std::string text;
  std::int64_t df = 0;
  double ub = 0;  // more than the term can add to any row's score
};

// Document frequency and score bound of each term (terms matching nothing are left out).
// A one-token term is looked up in the fts5vocab table: `doc` rows hold it `cnt` times in all,
// so no row holds it more than F = cnt − doc + 1 times and its contribution stays below
// idf·F(k1+1)/(F + k1(1−b)) (row length ≥ 0). That is about 1.8·idf for the usual F = 1,
// where the tf-free bound idf·(k1+1) is 2.5·idf. Other terms (a query word the tokenizer
// splits) are counted with MATCH and keep the tf-free bound.
std::vector<Term> term_stats(SQLite::Database& db, const std::vector<std::string>& terms) {
  // ub grows with N, so any N' ≥ N keeps the bound valid: max(rowid) is an index lookup where
  // count(*) would scan every row.
  const double n = double(db.execAndGet("SELECT coalesce(max(rowid), 0) FROM memories_fts_docsize").getInt64());
  std::vector<std::vector<std::string>> tokens;
  if (!fts_query_tokens(db.getHandle(), terms, tokens)) tokens.assign(terms.size(), {});
  SQLite::Statement vocab(db, "SELECT doc, cnt FROM temp.memories_vocab WHERE term = ?1");
  std::vector<Term> out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    Term term{terms[i], 0, 0};
    double max_tf = -1;  // unknown
    if (tokens[i].size() == 1) {
      vocab.bind(1, tokens[i][0]);
      if (vocab.executeStep()) {
        term.df = vocab.getColumn(0).getInt64();
        max_tf = double(vocab.getColumn(1).getInt64() - term.df + 1);
      }
      vocab.reset();
    } else {
      term.df = count_matches(db, fts_quote(terms[i]));
    }
    if (term.df == 0) continue;  // matches nothing, scores nothing
    const double idf = std::log(1.0 + (n - double(term.df) + 0.5) / (double(term.df) + 0.5));
    term.ub = max_tf < 1 ? idf * (kBm25K1 + 1.0)
                         : idf * max_tf * (kBm25K1 + 1.0) / (max_tf + kBm25K1 * (1.0 - kBm25B));
    out.push_back(std::move(term));
  }
  return out;
}

// "skip, 1.0, 1.0, df…": cavemem_bm25's arguments for a scored group of `terms` after `skip`
// filter phrases. The document frequencies are the ones already counted, so the ranker does
// not walk every scored term's whole doclist again for each query (xQueryPhrase).
std::string ranker_args(std::size_t skip, const std::vector<Term>& terms) {
  std::string out = std::to_string(skip) + ", 1.0, 1.0";
  for (const Term& t : terms) out += ", " + std::to_string(t.df);
  return out;
}

// The minimal sets of terms whose bounds add up to at least θ (terms sorted by ub descending).
// A row whose terms form no such set scores below θ. False when there are more than `cap`.
bool covering_sets(const std::vector<Term>& terms, double theta, std::size_t cap,
                   std::vector<std::vector<std::size_t>>& out) {
  std::vector<double> suffix(terms.size() + 1, 0.0);
  for (std::size_t i = terms.size(); i-- > 0;) suffix[i] = suffix[i + 1] + terms[i].ub;
  std::vector<std::size_t> chosen;
  bool fits = true;
  // Adding terms in descending ub order and stopping at θ yields only minimal sets: removing
  // any member takes away at least the last (smallest) bound, which brought the sum to θ.
  auto walk = [&](auto&& self, std::size_t from, double sum) -> void {
    for (std::size_t i = from; i < terms.size() && fits; ++i) {
      if (sum + suffix[i] < theta) return;
      chosen.push_back(i);
      if (sum + terms[i].ub >= theta) {
        if (out.size() >= cap) {
          fits = false;
        } else {
          out.push_back(chosen);
        }
      } else {
        self(self, i + 1, sum + terms[i].ub);
      }
      chosen.pop_back();
    }
  };
  walk(walk, 0, 0.0);
  return fits;
}

// The words source for a single-source query: exact top-`limit` with rarest-first pruning.
std::vector<Ranked> ranked_words(SQLite::Database& db, const SearchRequest& req, bool exhaustive) {
  auto plan = [&req](SearchPlan p) {
    if (req.trace != nullptr) req.trace->plan = p;
  };
  plan(SearchPlan::kWhole);
  const std::vector<std::string>& terms = req.query.terms;
  const std::string all = fts_any(terms);
  if (terms.size() < 2 || exhaustive) return fts_top(db, req, "memories_fts", "0, 1.0, 1.0", all, req.limit);

  std::vector<Term> ordered = term_stats(db, terms);
  if (ordered.empty()) return {};
  // Largest bound first (mostly the rarest first): covering_sets then yields minimal sets.
  std::sort(ordered.begin(), ordered.end(),
            [](const Term& a, const Term& b) { return a.ub != b.ub ? a.ub > b.ub : a.text < b.text; });
  std::vector<std::string> every;
  for (const Term& t : ordered) every.push_back(t.text);
  const std::string scored = fts_any(every);
  auto whole = [&] { return fts_top(db, req, "memories_fts", ranker_args(0, ordered), scored, req.limit); };
  if (ordered.size() == 1) return whole();

  // 1. A first bound θ: the best rows containing one of the leading terms E (the fewest whose
  //    rows can fill `limit`), scored over every term.
  std::size_t e = 0;
  std::int64_t e_rows = 0;
  while (e < ordered.size() && e_rows < req.limit) e_rows += ordered[e++].df;
  if (e == ordered.size()) return whole();
  const std::vector<std::string> rare(every.begin(), every.begin() + static_cast<std::ptrdiff_t>(e));
  std::vector<Ranked> rows = fts_top(db, req, "memories_fts", ranker_args(e, ordered),
                                     "(" + fts_any(rare) + ") AND (" + scored + ")", req.limit);
  double theta = req.threshold;
  if (rows.size() >= static_cast<std::size_t>(req.limit)) theta = std::max(theta, rows.back().score);
  double rest = 0;
  for (std::size_t i = e; i < ordered.size(); ++i) rest += ordered[i].ub;
  if (rest < theta) {  // a row lacking every E term cannot reach θ
    plan(SearchPlan::kRarePrefix);
    return rows;
  }

  // 2. Every row of the exact top-`limit` scores at least θ, so it contains one of the
  //    minimal term sets whose bounds reach θ. Rank only the rows containing such a set
  //    (`("a" AND "b") OR ("c" AND "d") …`): with common terms these are the rows sharing
  //    several query words, not every row sharing one.
  std::vector<std::vector<std::size_t>> sets;
  constexpr std::size_t kMaxSets = 64;
  if (!covering_sets(ordered, theta, kMaxSets, sets)) {
    // Too many combinations (a long query): rank every row with a rarest-first prefix whose
    // remaining bounds stay below θ — still exact, only less selective.
    while (e < ordered.size() && rest >= theta) rest -= ordered[e++].ub;
    if (e == ordered.size()) return whole();
    plan(SearchPlan::kRarePrefix);
    const std::vector<std::string> head(every.begin(), every.begin() + static_cast<std::ptrdiff_t>(e));
    return fts_top(db, req, "memories_fts", ranker_args(e, ordered),
                   "(" + fts_any(head) + ") AND (" + scored + ")", req.limit);
  }
  plan(SearchPlan::kCoveringSets);
  if (sets.empty()) return {};  // no row can reach θ (the threshold)
  std::string filter;
  std::size_t filter_phrases = 0;
  for (const std::vector<std::size_t>& set : sets) {
    filter += filter.empty() ? "(" : " OR (";
    for (std::size_t k = 0; k < set.size(); ++k) filter += (k ? " AND " : "") + fts_quote(every[set[k]]);
    filter += ")";
    filter_phrases += set.size();
  }
  return fts_top(db, req, "memories_fts", ranker_args(filter_phrases, ordered),
                 "(" + filter + ") AND (" + scored + ")", req.limit);
}

void run_like(SQLite::Database& db, const SearchRequest& req, int limit,
              std::map<std::int64_t, Scored>& out) {
  const std::vector<std::string>& terms = req.query.cjk_short;
  std::string any;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    any += (i ? " OR " : "") + std::string("m.text LIKE ?") + std::to_string(i + 2) + " ESCAPE '\\'";
  }
  const int first_filter = static_cast<int>(terms.size()) + 2;
  SQLite::Statement q(db, "SELECT m.seq, m.id, m.text FROM memories AS m WHERE m.cjk = 1 AND "
                          "m.valid_until IS NULL AND m.superseded_by IS NULL AND (" +
                              any + ")" + filter_sql(req, first_filter) + " ORDER BY m.seq LIMIT ?1");
  q.bind(1, limit);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    q.bind(static_cast<int>(i) + 2, "%" + escape_like(terms[i]) + "%");
  }
  bind_filters(q, req, first_filter);
  struct Row {
    std::int64_t seq;
    std::string id;
    std::vector<std::size_t> tf;
  };
  std::vector<Row> rows;
  std::vector<std::size_t> df(terms.size(), 0);
  while (q.executeStep()) {
    Row r{q.getColumn(0).getInt64(), q.getColumn(1).getString(), {}};
    const std::string text = q.getColumn(2).getString();
    for (std::size_t t = 0; t < terms.size(); ++t) {
      r.tf.push_back(base::count_occurrences(text, terms[t]));
      if (r.tf.back() > 0) ++df[t];
    }
    rows.push_back(std::move(r));
  }
  if (rows.empty()) return;
  const double n = double(db.execAndGet("SELECT count(*) FROM memories WHERE cjk = 1 AND "
                                        "valid_until IS NULL AND superseded_by IS NULL")
                              .getInt64());
  for (const Row& r : rows) {
    double score = 0;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      if (r.tf[t] == 0) continue;
      const double idf = std::log(1.0 + (n - double(df[t]) + 0.5) / (double(df[t]) + 0.5));
      const double f = double(r.tf[t]);
      score += idf * (f * (kBm25K1 + 1.0)) / (f + kBm25K1);
    }
    Scored& s = out[r.seq];
    s.id = r.id;
    s.score += score;
  }
}

void merge(const std::vector<Ranked>& rows, std::map<std::int64_t, Scored>& out) {
  for (const Ranked& r : rows) {
    Scored& s = out[r.seq];
    s.id = r.id;
    s.score += r.score;
  }
}

}  // namespace

Result<std::vector<Hit>> MemStore::search(const SearchRequest& req) {
  if (req.limit < 1 || req.limit > kMaxLimit) {
    return Status::InvalidArgument(codes::kInvalidArguments,
                                   "limit must be 1-" + std::to_string(kMaxLimit));
  }
  if (req.query.empty()) return std::vector<Hit>{};
  const int sources = int(!req.query.terms.empty()) + int(!req.query.cjk_grams.empty()) +
                      int(!req.query.cjk_short.empty());
  return internal::with_store("recall", path_, [&]() -> Result<std::vector<Hit>> {
    internal::Transaction tx(*db_, internal::Transaction::Kind::kRead);
    std::vector<Ranked> ranked;
    if (sources == 1 && !req.query.terms.empty()) {
      ranked = ranked_words(*db_, req, req.exhaustive);
    } else {
      std::map<std::int64_t, Scored> merged;
      const int k = sources == 1 ? req.limit : kMergeCap;
      if (!req.query.terms.empty()) {
        merge(fts_top(*db_, req, "memories_fts", "0, 1.0, 1.0", fts_any(req.query.terms), k), merged);
      }
      if (!req.query.cjk_grams.empty()) {
        merge(fts_top(*db_, req, "memories_tri", "0, 1.0", fts_any(req.query.cjk_grams), k), merged);
      }
      if (!req.query.cjk_short.empty()) run_like(*db_, req, k, merged);
      for (const auto& [seq, s] : merged) ranked.push_back({seq, s.id, s.score});
      std::sort(ranked.begin(), ranked.end(), better);
    }
    std::vector<Hit> hits;
    SQLite::Statement row(*db_, std::string("SELECT ") + internal::kMemoryColumns +
                                    " FROM memories WHERE seq = ?1");
    for (const Ranked& r : ranked) {
      if (r.score < req.threshold || hits.size() >= static_cast<std::size_t>(req.limit)) break;
      row.bind(1, r.seq);
      if (row.executeStep()) hits.push_back(Hit{internal::read_memory(row), r.score});
      row.reset();
    }
    return hits;
  });
}

}  // namespace caveman::mem
