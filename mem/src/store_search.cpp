// MemStore::search — ranked recall over current memories.
//
// Up to three sources, each filtered by project/tags inside SQL:
//   words       → memories_fts MATCH "w1" OR "w2" …, scored by cavemem_bm25 (text and tags);
//   CJK ≥ 3     → memories_tri MATCH of the query's trigrams, scored the same way;
//   CJK 1–2     → LIKE '%…%' ESCAPE '\' over current CJK rows (trigrams cannot match them),
//                 scored in process with the same BM25 saturation and no length norm.
// A memory's score is the sum over sources. With a single source SQL does the ordering and
// the limit; with several, each returns at most kMergeCap rows and the merge happens here.
#include <algorithm>
#include <cmath>
#include <map>

#include "fts_rank.h"
#include "store_internal.h"

namespace caveman::mem {
namespace {

constexpr int kMergeCap = 5000;

struct Scored {
  std::string id;
  double score = 0;
};

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

void run_fts(SQLite::Database& db, const SearchRequest& req, const char* table, const char* weights,
             const std::string& match, int limit, std::map<std::int64_t, Scored>& out) {
  const std::string sql = std::string("SELECT m.seq, m.id, s.score FROM (SELECT rowid AS r, cavemem_bm25(") +
                          table + ", " + weights + ") AS score FROM " + table + " WHERE " + table +
                          " MATCH ?1) AS s JOIN memories AS m ON m.seq = s.r WHERE 1" +
                          filter_sql(req, 3) + " ORDER BY s.score DESC, m.id ASC LIMIT ?2";
  SQLite::Statement q(db, sql);
  q.bind(1, match);
  q.bind(2, limit);
  bind_filters(q, req, 3);
  while (q.executeStep()) {
    Scored& s = out[q.getColumn(0).getInt64()];
    s.id = q.getColumn(1).getString();
    s.score += q.getColumn(2).getDouble();
  }
}

std::size_t count_occurrences(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
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
      r.tf.push_back(count_occurrences(text, terms[t]));
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

}  // namespace

Result<std::vector<Hit>> MemStore::search(const SearchRequest& req) {
  if (req.limit < 1 || req.limit > kMaxLimit) {
    return Status::InvalidArgument("cave_invalid_arguments",
                                   "limit must be 1-" + std::to_string(kMaxLimit));
  }
  if (req.query.empty()) return std::vector<Hit>{};
  const int sources = int(!req.query.terms.empty()) + int(!req.query.cjk_grams.empty()) +
                      int(!req.query.cjk_short.empty());
  const int per_source = sources == 1 ? req.limit : kMergeCap;
  return internal::with_store("recall", path_, [&]() -> Result<std::vector<Hit>> {
    internal::Transaction tx(*db_, internal::Transaction::Kind::kRead);
    std::map<std::int64_t, Scored> merged;
    if (!req.query.terms.empty()) {
      run_fts(*db_, req, "memories_fts", "1.0, 1.0", fts_any(req.query.terms), per_source, merged);
    }
    if (!req.query.cjk_grams.empty()) {
      run_fts(*db_, req, "memories_tri", "1.0", fts_any(req.query.cjk_grams), per_source, merged);
    }
    if (!req.query.cjk_short.empty()) run_like(*db_, req, per_source, merged);

    std::vector<std::pair<std::int64_t, Scored>> ranked(merged.begin(), merged.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      if (a.second.score != b.second.score) return a.second.score > b.second.score;
      return a.second.id < b.second.id;
    });
    std::vector<Hit> hits;
    SQLite::Statement row(*db_, std::string("SELECT ") + internal::kMemoryColumns +
                                    " FROM memories WHERE seq = ?1");
    for (const auto& [seq, scored] : ranked) {
      if (scored.score < req.threshold || hits.size() >= static_cast<std::size_t>(req.limit)) break;
      row.bind(1, seq);
      if (row.executeStep()) hits.push_back(Hit{internal::read_memory(row), scored.score});
      row.reset();
    }
    return hits;
  });
}

}  // namespace caveman::mem
