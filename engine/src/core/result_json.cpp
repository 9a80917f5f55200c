#include "caveman/engine.h"
#include "json/json.h"

namespace caveman {

std::string CompressResult::report_json() const {
  json::Value v = json::Value::object();
  v.add("content_type", json::Value::string(content_type));
  v.add("tokens_before", json::Value::number(std::to_string(tokens_before)));
  v.add("tokens_after", json::Value::number(std::to_string(tokens_after)));
  v.add("token_count_basis", json::Value::string(token_count_basis));
  v.add("ratio", json::Value::number(json::format_float(ratio)));
  v.add("basis", json::Value::string(basis));
  if (!recovery_handle.empty()) v.add("recovery_handle", json::Value::string(recovery_handle));
  if (!method.empty()) v.add("method", json::Value::string(method));
  if (lossless_to_model) v.add("lossless_to_model", json::Value::from_bool(*lossless_to_model));
  if (!error.empty()) v.add("error", json::Value::string(error));
  return json::to_compact(v);
}

std::string SimResult::to_json() const {
  json::Value v = json::Value::object();
  v.add("content_type", json::Value::string(content_type));
  if (!compressor.empty()) v.add("compressor", json::Value::string(compressor));
  if (!safety_class.empty()) v.add("safety_class", json::Value::string(safety_class));
  v.add("tokens_before", json::Value::number(std::to_string(tokens_before)));
  v.add("tokens_after", json::Value::number(std::to_string(tokens_after)));
  v.add("tokens_saved", json::Value::number(std::to_string(tokens_before - tokens_after)));
  v.add("token_count_basis", json::Value::string(token_count_basis));
  v.add("ratio", json::Value::number(json::format_float(ratio)));
  v.add("lossy", json::Value::from_bool(lossless_to_model.has_value() && !*lossless_to_model));
  v.add("requires_ccr", json::Value::from_bool(requires_ccr));
  v.add("recoverable", json::Value::from_bool(recoverable));
  if (!method.empty()) v.add("method", json::Value::string(method));
  if (lossless_to_model) v.add("lossless_to_model", json::Value::from_bool(*lossless_to_model));
  v.add("basis", json::Value::string(std::string(kBasisInferred)));
  return json::to_compact(v);
}

}  // namespace caveman
