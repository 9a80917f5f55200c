#include "compress/json/json_select.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "compress/common/go_float.h"
#include "compress/common/redundancy.h"
#include "json/json.h"
#include "text/bm25.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMinAnomalySamples = 4;
constexpr std::size_t kMinChangePointSamples = 8;
constexpr std::size_t kMinSegment = 4;
constexpr int kMaxSplits = 8;
constexpr double kMadToSigma = 0.6745;

using Series = std::vector<std::pair<std::size_t, double>>;  // (unit index, value)

// A JSON number's text is within Go's float grammar, so the engine's decimal reader parses it
// (libc++ before 20 has no floating-point std::from_chars, see
// docs/STATUS.md#clang--libc-the-macos-proxy). Overflow is rejected; underflow reads as 0.
bool number_value(const json::Value& v, double* out) {
  std::optional<double> d = parse_go_float(v.text);
  if (!d || !std::isfinite(*d)) return false;
  *out = *d;
  return true;
}

using NumericPaths = std::map<std::string, Series>;  // sorted by path: deterministic

// Numeric leaves by dotted object path (arrays are not descended); the root itself is "".
// Only a path's first occurrence in a unit counts (duplicate keys).
void collect_numeric(const json::Value& v, std::string& path, bool root, std::size_t unit,
                     NumericPaths& out) {
  if (v.is_number()) {
    Series& s = out[path];
    if (!s.empty() && s.back().first == unit) return;
    double d;
    if (number_value(v, &d)) s.emplace_back(unit, d);
    return;
  }
  if (!v.is_object()) return;
  for (const json::Member& m : v.members) {
    std::size_t len = path.size();
    if (!root) path.push_back('.');
    path += m.key;
    collect_numeric(m.value, path, false, unit, out);
    path.resize(len);
  }
}

NumericPaths numeric_paths(const JsonUnits& units) {
  NumericPaths paths;
  std::string path;
  for (std::size_t i = 0; i < units.values.size(); ++i) {
    collect_numeric(*units.values[i], path, true, i, paths);
  }
  return paths;
}

double median_of(std::vector<double> v) {
  std::size_t n = v.size();
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (n % 2) return *mid;
  return (*std::max_element(v.begin(), mid) + *mid) / 2;
}

double mean_of(const std::vector<double>& v, std::size_t a, std::size_t b) {
  double s = 0;
  for (std::size_t i = a; i < b; ++i) s += v[i];
  return s / static_cast<double>(b - a);
}

double mad_of(const std::vector<double>& v, double med) {
  std::vector<double> dev;
  dev.reserve(v.size());
  for (double x : v) dev.push_back(std::fabs(x - med));
  return median_of(std::move(dev));
}

void flag_outliers(const Series& s, std::vector<bool>& keep) {
  if (s.size() < kMinAnomalySamples) return;
  std::vector<double> v;
  v.reserve(s.size());
  for (const auto& p : s) v.push_back(p.second);
  double centre = median_of(v);
  double scale = mad_of(v, centre);
  if (scale == 0) {
    double mean = mean_of(v, 0, v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    centre = mean;
    scale = std::sqrt(ss / static_cast<double>(v.size() - 1)) / kMadToSigma;
  }
  if (!(scale > 0)) return;
  for (const auto& [unit, x] : s) {
    if (std::fabs(kMadToSigma * (x - centre) / scale) >= kJsonAnomalyZ) keep[unit] = true;
  }
}

double sample_variance(const std::vector<double>& v) {
  double mean = mean_of(v, 0, v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return ss / static_cast<double>(v.size() - 1);
}

bool arithmetic_progression(const std::vector<double>& v) {
  double d = v[1] - v[0];
  for (std::size_t i = 2; i < v.size(); ++i) {
    if (std::fabs((v[i] - v[i - 1]) - d) > 1e-9) return false;
  }
  return true;
}

// Robust scale of v[a, b): 1.4826 × MAD.
double robust_scale(const std::vector<double>& v, std::size_t a, std::size_t b) {
  std::vector<double> seg(v.begin() + static_cast<std::ptrdiff_t>(a),
                          v.begin() + static_cast<std::ptrdiff_t>(b));
  double med = median_of(seg);
  return mad_of(seg, med) / kMadToSigma;
}

}  // namespace

bool json_doc_has_error_word(std::string_view doc) {
  // Same matching as text::contains_word_in_identifiers_ci over the error words of
  // docs/spec/compressors.md#json, but dispatched on the first letter: every element's doc is
  // scanned, so this is hot.
  static constexpr std::string_view kByLetter[26][3] = {/*a*/ {"abort"},
                                                        {},
                                                        /*c*/ {"critical", "crash"},
                                                        /*d*/ {"denied"},
                                                        /*e*/ {"errors", "error", "exception"},
                                                        /*f*/ {"failed", "failure", "fatal"},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        /*p*/ {"panic"},
                                                        {},
                                                        /*r*/ {"rejected"},
                                                        {},
                                                        /*t*/ {"timeout"},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {},
                                                        {}};
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto alpha = [&](char c) { return upper(c) || lower(c); };
  const std::size_t n = doc.size();
  for (std::size_t i = 0; i < n; ++i) {
    char c = doc[i];
    if (!alpha(c)) continue;
    if (i > 0 && alpha(doc[i - 1]) && !(lower(doc[i - 1]) && upper(c))) continue;
    char first = static_cast<char>(c | 0x20);
    for (std::string_view w : kByLetter[first - 'a']) {
      if (w.empty() || i + w.size() > n) continue;
      bool match = true;
      for (std::size_t k = 1; k < w.size() && match; ++k) {
        char x = doc[i + k];
        match = (upper(x) ? static_cast<char>(x | 0x20) : x) == w[k];
      }
      if (!match) continue;
      std::size_t end = i + w.size();
      if (end >= n) return true;
      char next = doc[end];
      if (!alpha(next) ? !(next >= '0' && next <= '9') : upper(next) && lower(doc[end - 1])) {
        return true;
      }
    }
  }
  return false;
}

namespace {

void anomalies(const JsonUnits& units, const NumericPaths& paths, std::vector<bool>& keep) {
  for (const auto& [p, series] : paths) flag_outliers(series, keep);
  Series lengths;
  lengths.reserve(units.docs.size());
  for (std::size_t i = 0; i < units.docs.size(); ++i) {
    lengths.emplace_back(i, static_cast<double>(units.docs[i].size()));
  }
  flag_outliers(lengths, keep);
}

void change_points(const JsonUnits& units, const NumericPaths& paths, std::vector<bool>& keep) {
  const std::size_t n = units.values.size();
  if (n < kMinChangePointSamples) return;
  std::vector<double> y;
  double best_var = -1;
  for (const auto& [p, series] : paths) {  // sorted: ties keep the first path
    if (series.size() != n) continue;
    std::vector<double> v;
    v.reserve(n);
    for (const auto& e : series) v.push_back(e.second);
    double var = sample_variance(v);
    if (var > best_var) {
      best_var = var;
      y = std::move(v);
    }
  }
  if (y.empty()) {
    for (const std::string& d : units.docs) y.push_back(static_cast<double>(d.size()));
  }
  if (arithmetic_progression(y)) return;

  std::vector<std::pair<std::size_t, std::size_t>> segments = {{0, n}};
  int accepted = 0;
  while (accepted < kMaxSplits && !segments.empty()) {
    std::size_t pick = 0;
    for (std::size_t s = 1; s < segments.size(); ++s) {
      auto len = [&](std::size_t k) { return segments[k].second - segments[k].first; };
      if (len(s) > len(pick)) pick = s;
    }
    auto [a, b] = segments[pick];
    segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(pick));
    if (b - a < kMinSegment) break;  // the longest is too short: so is every other
    double mean = mean_of(y, a, b);
    double cum = 0, best = -1;
    std::size_t k_best = a;
    for (std::size_t k = a; k + 1 < b; ++k) {
      cum += y[k] - mean;
      if (std::fabs(cum) > best) {
        best = std::fabs(cum);
        k_best = k;
      }
    }
    double left = mean_of(y, a, k_best + 1), right = mean_of(y, k_best + 1, b);
    double scale_left = robust_scale(y, a, k_best + 1);
    double scale_right = robust_scale(y, k_best + 1, b);
    bool split = (scale_left == 0 && scale_right == 0 && left != right) ||
                 std::fabs(left - right) > 2 * robust_scale(y, a, b);
    if (!split) continue;
    keep[k_best] = true;
    keep[k_best + 1] = true;
    segments.emplace_back(a, k_best + 1);
    segments.emplace_back(k_best + 1, b);
    ++accepted;
  }
}

}  // namespace

void mark_json_anomalies(const JsonUnits& units, std::vector<bool>& keep) {
  anomalies(units, numeric_paths(units), keep);
}

void mark_json_change_points(const JsonUnits& units, std::vector<bool>& keep) {
  change_points(units, numeric_paths(units), keep);
}

std::vector<bool> select_json_units(const JsonUnits& units, std::string_view query) {
  const std::size_t n = units.docs.size();
  std::vector<bool> keep(n, false);
  for (std::size_t i = 0; i < n && i < kJsonKeepHead; ++i) keep[i] = true;
  for (std::size_t i = n > kJsonKeepTail ? n - kJsonKeepTail : 0; i < n; ++i) keep[i] = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep[i] && json_doc_has_error_word(units.docs[i])) keep[i] = true;
  }
  NumericPaths paths = numeric_paths(units);
  anomalies(units, paths, keep);
  change_points(units, paths, keep);

  std::vector<std::string_view> docs(units.docs.begin(), units.docs.end());
  if (!query.empty()) {
    auto kept = static_cast<int>(std::count(keep.begin(), keep.end(), true));
    if (kept < kJsonQueryCap) text::keep_query_relevant(docs, query, keep, kJsonQueryCap - kept);
  }
  keep_non_redundant(docs, keep);
  return keep;
}

}  // namespace caveman::compress
