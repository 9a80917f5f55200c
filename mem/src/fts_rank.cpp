#include "fts_rank.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace caveman::mem {
namespace {

// Per-query constants, cached on the FTS5 context (computed on the first row only).
struct QueryStats {
  double avgdl = 1;
  std::vector<double> idf;   // per phrase
  std::vector<double> freq;  // scratch: weighted hits per phrase in the current row
  std::vector<std::pair<int, int>> positions;  // scratch: (column, offset) of those hits
  std::vector<double> best;  // min-heap of the `keep` best exact scores so far
};

void free_stats(void* p) { delete static_cast<QueryStats*>(p); }

int count_row(const Fts5ExtensionApi*, Fts5Context*, void* user) {
  ++*static_cast<sqlite3_int64*>(user);
  return SQLITE_OK;
}

// `given` (may be null) holds the document frequency of each scored phrase, skip onwards,
// when the caller already counted them; otherwise each is counted with xQueryPhrase.
QueryStats* query_stats(const Fts5ExtensionApi* api, Fts5Context* fts, int skip,
                        sqlite3_value** given, int* rc) {
  if (auto* cached = static_cast<QueryStats*>(api->xGetAuxdata(fts, 0))) return cached;
  sqlite3_int64 rows = 0, tokens = 0;
  if ((*rc = api->xRowCount(fts, &rows)) != SQLITE_OK) return nullptr;
  if ((*rc = api->xColumnTotalSize(fts, -1, &tokens)) != SQLITE_OK) return nullptr;
  auto* stats = new (std::nothrow) QueryStats;
  if (stats == nullptr) {
    *rc = SQLITE_NOMEM;
    return nullptr;
  }
  const int phrases = api->xPhraseCount(fts);
  stats->avgdl = rows > 0 && tokens > 0 ? double(tokens) / double(rows) : 1.0;
  try {
    stats->idf.assign(static_cast<std::size_t>(phrases), 0.0);
    stats->freq.assign(static_cast<std::size_t>(phrases), 0.0);
  } catch (const std::bad_alloc&) {
    delete stats;
    *rc = SQLITE_NOMEM;
    return nullptr;
  }
  for (int p = skip; p < phrases; ++p) {  // skipped phrases are never scored
    sqlite3_int64 df = 0;
    if (given != nullptr) {
      df = sqlite3_value_int64(given[p - skip]);
    } else if ((*rc = api->xQueryPhrase(fts, p, &df, count_row)) != SQLITE_OK) {
      delete stats;
      return nullptr;
    }
    const double n = double(rows), d = double(df);
    stats->idf[static_cast<std::size_t>(p)] = std::log(1.0 + (n - d + 0.5) / (d + 0.5));
  }
  if ((*rc = api->xSetAuxdata(fts, stats, free_stats)) != SQLITE_OK) return nullptr;  // freed
  return stats;
}

void rank_row(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int n_args,
              sqlite3_value** args) {
  int rc = SQLITE_OK;
  // Arguments: keep, skip, one weight per column, then optionally one df per scored phrase.
  const int keep = n_args > 0 ? sqlite3_value_int(args[0]) : 0;
  const int skip = n_args > 1 ? sqlite3_value_int(args[1]) : 0;
  args += 1;  // from here on args[0] is skip and args[1 + c] the weight of column c
  n_args = n_args > 0 ? n_args - 1 : 0;
  const int columns = api->xColumnCount(fts);
  const int scored = api->xPhraseCount(fts) - skip;
  sqlite3_value** given = scored > 0 && n_args == 1 + columns + scored ? args + 1 + columns : nullptr;
  QueryStats* stats = query_stats(api, fts, skip, given, &rc);
  if (stats == nullptr) {
    sqlite3_result_error_code(ctx, rc == SQLITE_OK ? SQLITE_ERROR : rc);
    return;
  }
  std::fill(stats->freq.begin(), stats->freq.end(), 0.0);
  stats->positions.clear();
  // Only the scored phrases' positions are decoded (xInstCount would decode the filter
  // group's too, which recall's pruned queries make several times larger).
  const int phrases = static_cast<int>(stats->freq.size());
  for (int p = skip; p < phrases; ++p) {
    Fts5PhraseIter it;
    int column = 0, offset = 0;
    if ((rc = api->xPhraseFirst(fts, p, &it, &column, &offset)) != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    for (; column >= 0; api->xPhraseNext(fts, &it, &column, &offset)) {
      stats->freq[static_cast<std::size_t>(p)] +=
          column < columns && column + 1 < n_args ? sqlite3_value_double(args[column + 1]) : 1.0;
      if (keep > 0) stats->positions.emplace_back(column, offset);
    }
  }
  auto score_at = [stats](double length) {
    const double norm = kBm25K1 * (1.0 - kBm25B + kBm25B * length / stats->avgdl);
    double score = 0;
    for (std::size_t p = 0; p < stats->freq.size(); ++p) {
      const double f = stats->freq[p];
      if (f > 0) score += stats->idf[p] * (f * (kBm25K1 + 1.0)) / (f + norm);
    }
    return score;
  };
  std::vector<double>& best = stats->best;
  if (keep > 0 && best.size() >= static_cast<std::size_t>(keep)) {
    // The row is at least as long as its distinct matched positions, and a shorter row
    // scores higher: if even that bound is below the keep-th best score so far, the row
    // cannot reach the caller's LIMIT keep, so its length is never looked up (a docsize
    // read per row) and the bound is returned in place of the score.
    std::sort(stats->positions.begin(), stats->positions.end());
    const auto distinct = std::unique(stats->positions.begin(), stats->positions.end()) -
                          stats->positions.begin();
    const double bound = score_at(double(distinct));
    if (bound < best.front()) {
      sqlite3_result_double(ctx, bound);
      return;
    }
  }
  int length = 0;
  if ((rc = api->xColumnSize(fts, -1, &length)) != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  const double score = score_at(double(length));
  if (keep > 0) {
    best.push_back(score);
    std::push_heap(best.begin(), best.end(), std::greater<>());
    if (best.size() > static_cast<std::size_t>(keep)) {
      std::pop_heap(best.begin(), best.end(), std::greater<>());
      best.pop_back();
    }
  }
  sqlite3_result_double(ctx, score);
}

// SQLite calls this from C: no exception may leave it.
void cavemem_bm25(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int n_args,
                  sqlite3_value** args) {
  try {
    rank_row(api, fts, ctx, n_args, args);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

fts5_api* fts5_api_of(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    (void)sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  return api;
}

int collect_token(void* ctx, int flags, const char* token, int size, int, int) {
  if ((flags & FTS5_TOKEN_COLOCATED) != 0) return SQLITE_OK;  // synonyms: none here
  try {
    static_cast<std::vector<std::string>*>(ctx)->emplace_back(token, static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

}  // namespace

bool fts_query_tokens(sqlite3* db, const std::vector<std::string>& texts,
                      std::vector<std::vector<std::string>>& out) {
  fts5_api* api = fts5_api_of(db);
  if (api == nullptr) return false;
  void* context = nullptr;
  fts5_tokenizer porter{};
  if (api->xFindTokenizer(api, "porter", &context, &porter) != SQLITE_OK) return false;
  const char* args[] = {"unicode61", "remove_diacritics", "2"};  // memories_fts's tokenize=
  Fts5Tokenizer* tokenizer = nullptr;
  if (porter.xCreate(context, args, 3, &tokenizer) != SQLITE_OK) return false;
  bool ok = true;
  out.assign(texts.size(), {});
  for (std::size_t i = 0; i < texts.size() && ok; ++i) {
    ok = porter.xTokenize(tokenizer, &out[i], FTS5_TOKENIZE_QUERY, texts[i].data(),
                          static_cast<int>(texts[i].size()), collect_token) == SQLITE_OK;
  }
  porter.xDelete(tokenizer);
  return ok;
}

int register_rank_function(sqlite3* db) {
  fts5_api* api = fts5_api_of(db);
  if (api == nullptr || api->iVersion < 2) return SQLITE_ERROR;
  return api->xCreateFunction(api, "cavemem_bm25", nullptr, cavemem_bm25, nullptr);
}

}  // namespace caveman::mem
