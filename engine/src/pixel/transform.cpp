// The pixel request transform (docs/pixel.md#transform): render the big text
// blocks of the latest live user message, gate each on the token estimate, store the whole
// original request, then publish. Every failure returns the original body untouched.
#include <cctype>

#include "caveman/base/text.h"
#include "caveman/ccr.h"
#include "caveman/pixel.h"
#include "json/json.h"
#include "pixel/transform_blocks.h"

namespace caveman::pixel {
namespace {

constexpr int kMaxPagesPerTextBlock = 64;

std::string note_for(int images, int layers, const std::string& handle) {
  std::string n = "[caveman pixel: the " + std::to_string(images) + " image" + (images == 1 ? "" : "s") +
                  " above hold this block's text, in order, left to right and top to bottom; "
                  "\xE2\x86\xB5 marks a line break";
  if (layers == 2) {
    n += "; each page has two text layers: read the dark/red/blue layer first, then the "
         "magenta/green/orange layer set between its lines";
  }
  n += "; exact original: <<ccr:" + handle + ">>]";
  return n;
}

bool chat_shaped(const json::Value& doc) {
  if (doc.find("max_completion_tokens") != nullptr) return true;
  if (const json::Value* m = doc.find("model"); m != nullptr && m->is_string()) {
    std::string_view id = m->text;
    if (std::size_t slash = id.rfind('/'); slash != std::string_view::npos) id.remove_prefix(slash + 1);
    if (base::istarts_with_ascii(id, "gpt") ||
        (id.size() > 1 && (id[0] == 'o' || id[0] == 'O') && std::isdigit(static_cast<unsigned char>(id[1])))) {
      return true;
    }
    if (base::istarts_with_ascii(id, "claude")) return false;
  }
  const json::Value* messages = doc.find("messages");
  if (messages == nullptr || !messages->is_array()) return false;
  for (const json::Value& m : messages->items) {
    if (!m.is_object()) continue;
    if (m.find("tool_calls") != nullptr) return true;
    if (const json::Value* role = m.find("role"); role != nullptr && role->is_string() &&
        (role->text == "system" || role->text == "developer" || role->text == "tool")) {
      return true;
    }
    if (const json::Value* c = m.find("content"); c != nullptr && c->is_array()) {
      for (const json::Value& p : c->items) {
        if (const json::Value* t = p.is_object() ? p.find("type") : nullptr;
            t != nullptr && t->is_string() && t->text == "image_url") {
          return true;
        }
      }
    }
  }
  return false;
}

TransformOutput pass(std::string_view body, TransformInfo info) {
  return TransformOutput{std::string(body), std::move(info)};
}

}  // namespace

std::string_view wire_format_name(WireFormat format) {
  switch (format) {
    case WireFormat::kAnthropic: return "anthropic";
    case WireFormat::kOpenAiChat: return "openai-chat";
    case WireFormat::kOpenAiResponses: return "openai-responses";
    case WireFormat::kGemini: return "gemini";
  }
  return "anthropic";
}

std::optional<WireFormat> sniff_wire_format(std::string_view body) {
  std::optional<json::Value> doc = json::parse(body);
  if (!doc || !doc->is_object()) return std::nullopt;
  if (doc->find("input") != nullptr) return WireFormat::kOpenAiResponses;
  if (doc->find("contents") != nullptr) return WireFormat::kGemini;
  if (doc->find("messages") != nullptr) return chat_shaped(*doc) ? WireFormat::kOpenAiChat : WireFormat::kAnthropic;
  return std::nullopt;
}

TransformOutput transform_request(std::string_view body, WireFormat format, const TransformOptions& options,
                                  ccr::Store* store) {
  TransformInfo info;
  info.format = std::string(wire_format_name(format));
  std::optional<json::Value> doc = json::parse(body);
  if (!doc || !doc->is_object()) {
    info.reason = "parse_error: request body is not a JSON object";
    return pass(body, std::move(info));
  }
  std::string model = options.model;
  if (model.empty()) {
    if (const json::Value* m = doc->find("model"); m != nullptr && m->is_string()) model = m->text;
  }
  Reader reader = reader_for(model, options.density);
  info.density = std::string(density_name(reader.density));

  Extraction ex = extract_blocks(*doc, format);
  info.passthrough_reasons = ex.skipped;
  info.history_reason = ex.user_index <= 0 ? "no_history" : (options.collapse_history ? "not_implemented" : "disabled");
  if (!ex.reason.empty()) {
    info.reason = ex.reason;
    return pass(body, std::move(info));
  }

  std::string handle = ccr::handle_for(body);
  std::int64_t largest = 0, largest_min = options.min_chars, candidate_chars = 0;
  std::int64_t candidate_text_tokens = 0, candidate_image_tokens = 0;
  int rendered_blocks = 0;
  for (Block& b : ex.blocks) {
    std::int64_t chars = utf16_length(b.text);
    info.orig_chars += chars;
    if (b.kind == BlockKind::kReminder) {
      info.static_chars += chars;
    } else {
      info.dynamic_chars += chars;
      ++info.dynamic_block_count;
    }
    std::int64_t minimum = b.kind == BlockKind::kText ? options.min_chars : options.min_tool_chars;
    if (chars > largest) {
      largest = chars;
      largest_min = minimum;
    }
    if (chars < minimum) {
      ++info.kept_sharp_blocks;
      info.compressed_chars += chars;
      continue;
    }
    candidate_chars += chars;
    RenderOptions ro;
    ro.density = reader.density;
    ro.tier = reader.tier;
    ro.reflow = options.reflow;
    ro.max_pages = b.kind == BlockKind::kToolResult ? options.max_images_per_tool_result + 1 : kMaxPagesPerTextBlock;
    Result<RenderResult> r = render(b.text, ro);
    if (!r.ok()) {
      TransformInfo failed;
      failed.reason = "render_error";
      failed.format = info.format;
      return pass(body, std::move(failed));
    }
    std::int64_t text_tokens = text_tokens_estimate(b.text);
    std::int64_t img_tokens = 0;
    for (const Page& p : r->pages) img_tokens += image_tokens(p.width, p.height, reader.tier);
    candidate_text_tokens += text_tokens;
    candidate_image_tokens += img_tokens;
    if (r->pages.empty()) {
      info.passthrough_reasons.emplace_back("render_empty");
      ++info.kept_sharp_blocks;
      info.compressed_chars += chars;
      continue;
    }
    if (b.kind == BlockKind::kToolResult &&
        static_cast<int>(r->pages.size()) > options.max_images_per_tool_result) {
      info.passthrough_reasons.emplace_back("too_many_images (>" + std::to_string(options.max_images_per_tool_result) + ")");
      ++info.kept_sharp_blocks;
      info.compressed_chars += chars;
      continue;
    }
    if (r->omitted_chars > 0) {
      info.passthrough_reasons.emplace_back("page_cap (" + std::to_string(r->omitted_chars) + " chars over)");
      ++info.kept_sharp_blocks;
      info.compressed_chars += chars;
      continue;
    }
    if (!profitable(img_tokens, text_tokens, options.prior_warm_tokens)) {
      info.passthrough_reasons.emplace_back("not_profitable (" + std::to_string(img_tokens) + " >= " +
                                            std::to_string(text_tokens) + ")");
      ++info.kept_sharp_blocks;
      info.compressed_chars += chars;
      continue;
    }
    int layers = 1;
    for (const Page& p : r->pages) {
      b.replacement.push_back(image_part(format, p.png));
      info.image_bytes += static_cast<std::int64_t>(p.png.size());
      info.image_pixels += static_cast<std::int64_t>(p.width) * p.height;
      info.dropped_chars += p.dropped_chars;
      layers = std::max(layers, p.layers);
    }
    std::string note = note_for(static_cast<int>(r->pages.size()), layers, handle);
    info.compressed_chars += utf16_length(note);
    b.replacement.push_back(text_part(format, std::move(note)));
    int images = static_cast<int>(r->pages.size());
    info.image_count += images;
    if (b.kind == BlockKind::kReminder) info.reminder_imgs += images;
    if (b.kind == BlockKind::kToolResult) info.tool_result_imgs += images;
    info.text_tokens_estimate += text_tokens;
    info.image_tokens_estimate += img_tokens;
    ++rendered_blocks;
  }
  if (candidate_chars == 0) {
    info.reason = "below_min_chars (" + std::to_string(largest) + " < " + std::to_string(largest_min) + ")";
    return pass(body, std::move(info));
  }
  if (rendered_blocks == 0) {
    bool all_empty = !info.passthrough_reasons.empty() && info.passthrough_reasons.back() == "render_empty";
    info.reason = all_empty ? "render_empty" : "not_profitable (slab=" + std::to_string(candidate_chars) + " chars)";
    // Estimates of a refused rewrite stay in the report for the caller's diagnostics.
    info.text_tokens_estimate = candidate_text_tokens;
    info.image_tokens_estimate = candidate_image_tokens;
    return pass(body, std::move(info));
  }

  apply_blocks(ex.blocks);
  std::string out = json::to_compact(*doc);
  if (!json::is_valid(out)) {
    TransformInfo failed;
    failed.reason = "finalize_error";
    failed.format = info.format;
    return pass(body, std::move(failed));
  }
  if (store != nullptr) {
    ccr::Record record;
    record.content_type = "request";
    record.compressor = "pixel-render";
    record.tokens_before = info.text_tokens_estimate;
    record.tokens_after = info.image_tokens_estimate;
    record.original = std::string(body);
    Result<std::string> put = store->put(record);
    if (!put.ok()) {
      TransformInfo failed;
      failed.reason = "finalize_error";
      failed.format = info.format;
      failed.passthrough_reasons.push_back(put.status().error_code());
      return pass(body, std::move(failed));
    }
    info.recoverable = true;
    info.recovery_handle = put.value();
  }
  info.compressed = true;
  info.reason = "applied";
  return TransformOutput{std::move(out), std::move(info)};
}

}  // namespace caveman::pixel
