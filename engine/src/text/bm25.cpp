#include "text/bm25.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "text/unicode.h"
#include "text/utf8.h"
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
  if (w.size() > 5) return false;  // the longest stop-word is 5 bytes
  return std::find(kStopWords.begin(), kStopWords.end(), w) != kStopWords.end();
}

// Calls fn(term) for every kept term of `text` (lowercased, ≥ 2 bytes, not a stop-word).
// `buf` is reused between terms so scanning large documents does not allocate per term.
template <typename Fn>
void for_each_term(std::string_view text, std::string& buf, Fn&& fn) {
  buf.clear();
  auto flush = [&] {
    if (buf.size() >= 2 && !is_stop_word(buf)) fn(std::string_view(buf));
    buf.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {  // ASCII fast path
      if ((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '_') {
        buf.push_back(static_cast<char>(b));
      } else if (b >= 'A' && b <= 'Z') {
        buf.push_back(static_cast<char>(b + 32));
      } else if (!buf.empty()) {
        flush();
      }
      ++i;
      continue;
    }
    Decoded d = decode_utf8(text, i);
    i += d.len;
    if (d.valid && (is_letter(d.cp) || is_decimal_digit(d.cp))) {
      append_utf8(buf, to_lower(d.cp));
    } else if (!buf.empty()) {
      flush();
    }
  }
  if (!buf.empty()) flush();
}

}  // namespace

std::vector<std::string> bm25_terms(std::string_view text) {
  std::vector<std::string> terms;
  std::string buf;
  for_each_term(text, buf, [&](std::string_view t) { terms.emplace_back(t); });
  return terms;
}

std::vector<double> bm25_scores(const std::vector<std::string_view>& docs,
                                std::string_view query) {
  std::vector<double> scores(docs.size(), 0.0);
  if (docs.empty()) return scores;
  // Query terms are a set; each gets a slot for its per-document frequency.
  std::vector<std::string> q = bm25_terms(query);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  if (q.empty()) return scores;
  std::unordered_map<std::string_view, std::size_t> slot;
  for (std::size_t k = 0; k < q.size(); ++k) slot.emplace(q[k], k);

  // tf[i * nq + k]: frequency of query term k in doc i (only query terms are counted).
  const std::size_t nq = q.size();
  std::vector<std::uint32_t> tf(docs.size() * nq, 0);
  std::vector<std::size_t> len(docs.size(), 0);
  std::vector<std::size_t> df(nq, 0);
  std::size_t total = 0;
  std::string buf;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    std::uint32_t* row = tf.data() + i * nq;
    for_each_term(docs[i], buf, [&](std::string_view t) {
      ++len[i];
      auto it = slot.find(t);
      if (it != slot.end() && row[it->second]++ == 0) ++df[it->second];
    });
    total += len[i];
  }
  double n = static_cast<double>(docs.size());
  double avgdl = total == 0 ? 1.0 : static_cast<double>(total) / n;
  std::vector<double> idf(nq);
  for (std::size_t k = 0; k < nq; ++k) {
    double d = static_cast<double>(df[k]);
    idf[k] = std::log(1.0 + (n - d + 0.5) / (d + 0.5));
  }
  for (std::size_t i = 0; i < docs.size(); ++i) {
    double s = 0;
    const std::uint32_t* row = tf.data() + i * nq;
    double norm_len = kK1 * (1.0 - kB + kB * static_cast<double>(len[i]) / avgdl);
    // Sum in sorted-term order: deterministic floating-point results.
    for (std::size_t k = 0; k < nq; ++k) {
      if (row[k] == 0) continue;
      double f = row[k];
      s += idf[k] * f * (kK1 + 1.0) / (f + norm_len);
    }
    scores[i] = s;
  }
  return scores;
}

std::vector<std::size_t> query_relevant(const std::vector<std::string_view>& docs,
                                        std::string_view query, const std::vector<bool>& keep,
                                        int limit, double threshold) {
  std::vector<std::size_t> candidates;
  if (query.empty() || limit <= 0) return candidates;
  std::vector<double> scores = bm25_scores(docs, query);
  double best = 0;
  for (double s : scores) best = std::max(best, s);
  if (best <= 0) return candidates;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (!keep[i] && scores[i] / best >= threshold) candidates.push_back(i);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  if (candidates.size() > static_cast<std::size_t>(limit))
    candidates.resize(static_cast<std::size_t>(limit));
  return candidates;
}

void keep_query_relevant(const std::vector<std::string_view>& docs, std::string_view query,
                         std::vector<bool>& keep, int limit, double threshold) {
  for (std::size_t i : query_relevant(docs, query, keep, limit, threshold)) keep[i] = true;
}

}  // namespace caveman::text
