#include "scan_rank.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fts_rank.h"
#include "query.h"

namespace caveman::mem {

std::vector<std::string> scan_tokenize(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && !is_original_stopword(word)) out.push_back(word);
    word.clear();
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    const char32_t cp = next_code_point(text, i);
    if (classify(cp) == CharClass::kSeparator) {
      flush();
      continue;
    }
    if (cp >= 'A' && cp <= 'Z') {
      word += static_cast<char>(cp - 'A' + 'a');
    } else {
      word.append(text.substr(start, i - start));
    }
  }
  flush();
  return out;
}

std::vector<ScanHit> scan_rank(const std::vector<std::pair<std::string, std::string>>& docs,
                               std::string_view query, int limit, double threshold) {
  std::vector<std::string> terms = scan_tokenize(query);
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  std::vector<ScanHit> hits;
  if (terms.empty() || docs.empty()) return hits;

  // Per document: length and the frequency of each query term.
  std::vector<std::vector<double>> tf(docs.size(), std::vector<double>(terms.size(), 0));
  std::vector<double> length(docs.size(), 0), df(terms.size(), 0);
  double total = 0;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    for (const std::string& tok : scan_tokenize(docs[d].second)) {
      length[d] += 1;
      auto it = std::lower_bound(terms.begin(), terms.end(), tok);
      if (it != terms.end() && *it == tok) tf[d][static_cast<std::size_t>(it - terms.begin())] += 1;
    }
    total += length[d];
    for (std::size_t t = 0; t < terms.size(); ++t) df[t] += tf[d][t] > 0 ? 1 : 0;
  }
  const double n = double(docs.size());
  const double avgdl = total > 0 ? total / n : 1;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    double score = 0;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const double f = tf[d][t];
      if (f == 0) continue;
      const double idf = std::log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5));
      score += idf * f * (kBm25K1 + 1) / (f + kBm25K1 * (1 - kBm25B + kBm25B * length[d] / avgdl));
    }
    if (score >= threshold && score > 0) hits.push_back({docs[d].first, score});
  }
  std::sort(hits.begin(), hits.end(), [](const ScanHit& a, const ScanHit& b) {
    return a.score != b.score ? a.score > b.score : a.id < b.id;
  });
  if (hits.size() > static_cast<std::size_t>(limit)) hits.resize(static_cast<std::size_t>(limit));
  return hits;
}

Result<std::vector<ScanHit>> scan_recall(MemStore& store, std::string_view query, int limit,
                                         double threshold) {
  std::vector<std::pair<std::string, std::string>> docs;
  Status s = store.for_each(true, [&](const Memory& m) { docs.emplace_back(m.id, m.text); });
  if (!s.ok()) return s;
  return scan_rank(docs, query, limit, threshold);
}

}  // namespace caveman::mem
