#include "text/bm25.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "text/words.h"

namespace caveman::text {
namespace {

constexpr double kK1 = 1.5;
constexpr double kB = 0.75;

constexpr std::array<std::string_view, 29> kStopWords = {
    "a",  "an", "and",  "are", "as",  "at",   "be",   "by",    "for",   "from",
    "how", "in", "is",  "it",  "of",  "on",   "or",   "that",  "the",   "this",
    "to", "was", "what", "when", "where", "which", "who", "why", "with"};

bool is_stop_word(std::string_view w) {
  return std::find(kStopWords.begin(), kStopWords.end(), w) != kStopWords.end();
}

}  // namespace

std::vector<std::string> bm25_terms(std::string_view text) {
  std::vector<std::string> terms = word_tokens_lower(text);
  std::erase_if(terms, [](const std::string& t) { return t.size() < 2 || is_stop_word(t); });
  return terms;
}

std::vector<double> bm25_scores(const std::vector<std::string_view>& docs,
                                std::string_view query) {
  std::vector<double> scores(docs.size(), 0.0);
  if (docs.empty()) return scores;
  std::vector<std::string> q = bm25_terms(query);
  std::set<std::string, std::less<>> query_terms(q.begin(), q.end());
  if (query_terms.empty()) return scores;

  // Term frequencies restricted to query terms; doc length counts every kept term.
  std::vector<std::map<std::string_view, int>> tf(docs.size());
  std::vector<std::size_t> len(docs.size(), 0);
  std::map<std::string_view, int> df;
  std::size_t total = 0;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    std::vector<std::string> terms = bm25_terms(docs[i]);
    len[i] = terms.size();
    total += terms.size();
    for (const std::string& t : terms) {
      auto it = query_terms.find(t);
      if (it == query_terms.end()) continue;
      if (tf[i][*it]++ == 0) ++df[*it];
    }
  }
  double n = static_cast<double>(docs.size());
  double avgdl = total == 0 ? 1.0 : static_cast<double>(total) / n;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    double s = 0;
    for (const auto& [term, f] : tf[i]) {
      double d = df[term];
      double idf = std::log(1.0 + (n - d + 0.5) / (d + 0.5));
      double norm = f + kK1 * (1.0 - kB + kB * static_cast<double>(len[i]) / avgdl);
      s += idf * f * (kK1 + 1.0) / norm;
    }
    scores[i] = s;
  }
  return scores;
}

void keep_query_relevant(const std::vector<std::string_view>& docs, std::string_view query,
                         std::vector<bool>& keep, int limit, double threshold) {
  if (query.empty() || limit <= 0) return;
  std::vector<double> scores = bm25_scores(docs, query);
  double best = 0;
  for (double s : scores) best = std::max(best, s);
  if (best <= 0) return;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (!keep[i] && scores[i] / best >= threshold) candidates.push_back(i);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  for (std::size_t k = 0; k < candidates.size() && k < static_cast<std::size_t>(limit); ++k) {
    keep[candidates[k]] = true;
  }
}

}  // namespace caveman::text
