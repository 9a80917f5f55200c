// Which elements of a long JSON array (or members of a long JSON map) to keep
// (docs/spec/compressors.md#json): head and tail, error-word units, statistical outliers,
// change-point seams, query relevance, then the redundancy gate. Pure and deterministic.
#ifndef CAVEMAN_COMPRESS_JSON_JSON_SELECT_H_
#define CAVEMAN_COMPRESS_JSON_JSON_SELECT_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::json {
struct Value;
}

namespace caveman::compress {

struct JsonUnits {
  std::vector<const json::Value*> values;  // the element (or member value) of each unit
  std::vector<std::string> docs;           // its compact text (member: "key":value)
};

inline constexpr std::size_t kJsonKeepHead = 3;
inline constexpr std::size_t kJsonKeepTail = 2;
inline constexpr int kJsonQueryCap = 50;
inline constexpr double kJsonAnomalyZ = 2.0;

// keep[i] for every unit.
std::vector<bool> select_json_units(const JsonUnits& units, std::string_view query);

// Error words (whole words or identifier components, keys included): such units are kept.
bool json_doc_has_error_word(std::string_view doc);

// Units flagged as outliers on some numeric leaf path or on doc length (MAD z-score ≥ 2).
void mark_json_anomalies(const JsonUnits& units, std::vector<bool>& keep);

// Change-point seams (CUSUM binary segmentation, ≤ 8 splits) on the most variable numeric
// path present in every unit, else on doc lengths.
void mark_json_change_points(const JsonUnits& units, std::vector<bool>& keep);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_JSON_JSON_SELECT_H_
