// TransformInfo → one compact JSON object with the Go field names of docs/pixel.md#transform-info.
#include "caveman/pixel.h"
#include "json/json.h"

namespace caveman::pixel {
namespace {

void field(std::string& out, std::string_view key) {
  if (out.size() > 1) out.push_back(',');
  json::write_string(key, out);
  out.push_back(':');
}

void num(std::string& out, std::string_view key, std::int64_t v) {
  field(out, key);
  out += std::to_string(v);
}

void boolean(std::string& out, std::string_view key, bool v) {
  field(out, key);
  out += v ? "true" : "false";
}

void str(std::string& out, std::string_view key, std::string_view v) {
  field(out, key);
  json::write_string(v, out);
}

}  // namespace

std::string TransformInfo::to_json() const {
  std::string out = "{";
  boolean(out, "Compressed", compressed);
  str(out, "Reason", reason);
  num(out, "OrigChars", orig_chars);
  num(out, "CompressedChars", compressed_chars);
  num(out, "ImageCount", image_count);
  num(out, "ImageBytes", image_bytes);
  num(out, "ImagePixels", image_pixels);
  num(out, "TextTokensEstimate", text_tokens_estimate);
  num(out, "ImageTokensEstimate", image_tokens_estimate);
  num(out, "StaticChars", static_chars);
  num(out, "DynamicChars", dynamic_chars);
  num(out, "DynamicBlockCount", dynamic_block_count);
  num(out, "ReminderImgs", reminder_imgs);
  num(out, "ToolResultImgs", tool_result_imgs);
  num(out, "DroppedChars", dropped_chars);
  field(out, "PassthroughReasons");
  out.push_back('[');
  for (std::size_t i = 0; i < passthrough_reasons.size(); ++i) {
    if (i > 0) out.push_back(',');
    json::write_string(passthrough_reasons[i], out);
  }
  out.push_back(']');
  num(out, "KeptSharpBlocks", kept_sharp_blocks);
  num(out, "TruncatedToolResults", truncated_tool_results);
  num(out, "OmittedChars", omitted_chars);
  num(out, "CollapsedTurns", collapsed_turns);
  num(out, "CollapsedChars", collapsed_chars);
  num(out, "CollapsedImages", collapsed_images);
  str(out, "HistoryReason", history_reason);
  boolean(out, "Recoverable", recoverable);
  if (!recovery_handle.empty()) str(out, "RecoveryHandle", recovery_handle);
  if (!density.empty()) str(out, "Density", density);
  if (!format.empty()) str(out, "Format", format);
  out.push_back('}');
  return out;
}

}  // namespace caveman::pixel
