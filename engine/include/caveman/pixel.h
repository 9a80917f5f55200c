// caveman/pixel.h — pixel mode: long text rendered to dense PNG pages for vision models
// (docs/pixel.md). S4 lossy, never chosen by Detect: only the proxy's
// `mode: pixel` and `caveman-engine pixel` use it, and a request is only rewritten when the
// image-token estimate beats the text-token estimate and the whole original request is stored
// in CCR first (any failure → the caller forwards the original bytes).
//
// Functions are pure (transform_request writes only to the store it is given) and thread-safe
// (the glyph atlas is read-only data embedded at build time); output is deterministic (same
// input and options → same PNG bytes). Expected failures
// are Status values (codes::kInvalidArguments, codes::kPixelRenderError); request problems are
// reported as data (TransformInfo.Reason), never as errors; nothing throws.
#ifndef CAVEMAN_PIXEL_H_
#define CAVEMAN_PIXEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::ccr {
class Store;
}

namespace caveman::pixel {

// ---- Density profiles and canvases --------------------------------------------------------

enum class Density { kConservative, kBalanced, kMax };
enum class Tier { kStandard, kHiRes };

struct Profile {
  int advance;  // px between character origins (glyph cells are 5×8; balanced overlaps them)
  int pitch;    // px between line origins
  bool zebra;   // 3-colour alternation so overlapping neighbours stay apart
  int layers;   // 1, or 2 (max: two text layers in disjoint colour channels)
};

// conservative 5/8 mono 1 layer; balanced 4/6 zebra 1 layer; max = balanced + 2 layers.
Profile profile_for(Density density);
std::string_view density_name(Density density);
// Exact names only ("conservative", "balanced", "max"); nullopt otherwise.
std::optional<Density> parse_density(std::string_view name);
// CAVE_PIXEL_DENSITY semantics: unset → balanced; falsey (0 false no off none) or unknown →
// conservative. `value` is nullopt when the variable is unset.
Density density_from_env(std::optional<std::string_view> value);

struct Canvas {
  int width;
  int height;
  int max_tokens;  // patch-token cap of the tier
};
inline constexpr int kPadding = 4;
inline constexpr Canvas kStandardCanvas{1568, 728, 1568};
inline constexpr Canvas kHiResCanvas{2576, 1456, 4784};
Canvas canvas_for(Tier tier);

// Columns × rows that fit one page of `tier` with `profile` (a 5×8 glyph must fit whole).
int columns_for(const Profile& profile, Tier tier);
int rows_for(const Profile& profile, Tier tier);
// Characters one standard page holds: conservative 28 080, balanced 46 291, max 92 582.
std::int64_t chars_per_page(Density density, Tier tier = Tier::kStandard);

// ---- Token estimates and the profitability gate -------------------------------------------

inline constexpr double kImageTokenMargin = 1.10;
inline constexpr double kDefaultCharsPerToken = 4.0;
// ⌈w/28⌉·⌈h/28⌉ after scaling the long edge down to the tier's canvas long edge, capped at
// the tier's max, ×1.10, rounded up.
std::int64_t image_tokens(int width, int height, Tier tier = Tier::kStandard);
// UTF-16 code units of `text` (invalid UTF-8 bytes count 1 each).
std::int64_t utf16_length(std::string_view text);
// ⌈UTF-16 length / chars_per_token⌉.
std::int64_t text_tokens_estimate(std::string_view text, double chars_per_token = kDefaultCharsPerToken);

// Single turn: image (+ burn) < text (+ burn), burn = prior_warm_tokens × (1.25 − 0.10)
// (rewriting a cached prefix costs a cache write instead of a cache read).
bool profitable(std::int64_t image_tokens, std::int64_t text_tokens, std::int64_t prior_warm_tokens = 0);
// Amortized over `turns` (≥ 1) turns: the image is written to the cache once (×1.25) and read
// back turns−1 times (×0.10) while the text would be read from cache every turn:
// img·(1.25 + 0.10·(turns−1)) < text·0.10·turns. turns < 1 counts as 1.
bool profitable_amortized(std::int64_t image_tokens, std::int64_t text_tokens, int turns);

// ---- Models ---------------------------------------------------------------------------------

// CAVE_PIXEL_MODELS: unset/blank → {"claude-fable-5","gpt-5.6"}; falsey → {}; else the
// comma list (trimmed, blanks dropped).
std::vector<std::string> allowlist_from_env(std::optional<std::string_view> value);
// docs/pixel.md#models-and-environment matching: `[...]` tags removed; candidates = the id, every
// suffix after a '.' or '/', each also without an '@…' suffix; a candidate matches a base when
// equal to it or starting with base + '-'. Case-insensitive. An empty allowlist matches nothing.
bool model_allowed(std::string_view model, const std::vector<std::string>& allowlist);

struct Reader {
  Density density;  // what the model gets (non-capable readers: conservative)
  Tier tier;
};
// Density-capable readers: hi-res tier for claude-fable-5, claude-mythos-5, claude-sonnet-5*
// and claude-opus-4-8 or later; gpt-5.6 gets `requested` on the standard canvas; everyone
// else conservative/standard.
Reader reader_for(std::string_view model, Density requested);

// ---- Rendering --------------------------------------------------------------------------------

// Joins lines with '↵' after trimming trailing whitespace, collapses runs of ≥ 4 newlines to
// 3 (so at most two blank lines survive as "↵↵↵"), expands TABs to the next multiple of 4,
// and drops '\r' before '\n'.
std::string reflow(std::string_view text);

struct RenderOptions {
  Density density = Density::kBalanced;
  Tier tier = Tier::kStandard;
  int cols = 0;          // 0 → as many as fit; clamped to what fits
  int multicol = 1;      // > 1: that many side-by-side columns per page (forces conservative)
  bool reflow = true;
  int max_pages = 64;    // cap (a 10 MB text stops here; the rest is reported as omitted)
};

struct Page {
  std::string png;
  int width = 0;
  int height = 0;
  int layers = 1;
  std::int64_t chars_rendered = 0;  // code points placed on the page (after reflow)
  std::int64_t dropped_chars = 0;   // rendered as the replacement glyph (no atlas glyph / invalid UTF-8)
};

struct RenderResult {
  std::vector<Page> pages;
  Density density = Density::kBalanced;
  std::int64_t chars_total = 0;    // code points after reflow
  std::int64_t omitted_chars = 0;  // beyond max_pages
};

// Renders `text` into pages. The last page is cropped to the rows (and the width) it uses.
// Empty text → zero pages. Errors: kInvalidArgument (codes::kInvalidArguments) for cols < 0,
// multicol < 1 or max_pages < 1; kInternal (codes::kPixelRenderError) if PNG encoding fails.
Result<RenderResult> render(std::string_view text, const RenderOptions& options);

// ---- Request transforms ------------------------------------------------------------------

enum class WireFormat { kAnthropic, kOpenAiChat, kOpenAiResponses, kGemini };
std::string_view wire_format_name(WireFormat format);
// `input` → OpenAI Responses, `contents` → Gemini, `messages` → Anthropic unless the body
// shows OpenAI Chat shapes (a system/developer/tool role, `tool_calls`, an `image_url` part,
// `max_completion_tokens`, or a gpt-/o<digit> model), then OpenAI Chat. nullopt otherwise
// (also for a body that is not a JSON object).
std::optional<WireFormat> sniff_wire_format(std::string_view body);

struct TransformOptions {
  std::string model;              // overrides the body's model when non-empty
  Density density = Density::kBalanced;  // requested level (reader_for() may lower it)
  std::int64_t min_chars = 2000;
  std::int64_t min_tool_chars = 6000;
  int max_images_per_tool_result = 10;
  bool reflow = true;
  bool collapse_history = true;
  std::int64_t prior_warm_tokens = 0;
};

// Serialized with the Go field names of docs/pixel.md#transform-info (one compact JSON object).
struct TransformInfo {
  bool compressed = false;
  std::string reason;
  std::int64_t orig_chars = 0;
  std::int64_t compressed_chars = 0;
  int image_count = 0;
  std::int64_t image_bytes = 0;
  std::int64_t image_pixels = 0;
  std::int64_t text_tokens_estimate = 0;
  std::int64_t image_tokens_estimate = 0;
  std::int64_t static_chars = 0;
  std::int64_t dynamic_chars = 0;
  int dynamic_block_count = 0;
  int reminder_imgs = 0;
  int tool_result_imgs = 0;
  std::int64_t dropped_chars = 0;
  std::vector<std::string> passthrough_reasons;
  int kept_sharp_blocks = 0;
  int truncated_tool_results = 0;
  std::int64_t omitted_chars = 0;
  int collapsed_turns = 0;
  std::int64_t collapsed_chars = 0;
  int collapsed_images = 0;
  std::string history_reason;
  bool recoverable = false;
  std::string recovery_handle;  // "RecoveryHandle", only when stored
  std::string density;          // "Density": the level used
  std::string format;           // "Format": the wire format

  std::string to_json() const;
};

struct TransformOutput {
  std::string body;  // the rewritten request; equals the input when !info.compressed
  TransformInfo info;
};

// Rewrites the latest live user message of `body`: text blocks of ≥ min_chars and tool
// results of ≥ min_tool_chars become PNG image blocks (+ one short text note naming the
// recovery handle), when the estimate says it pays. With a non-null `store` the WHOLE
// original body is stored (content_type "request", compressor "pixel-render") before the
// rewrite is returned; a store failure → not compressed, reason `finalize_error`. With a null
// store (simulate) nothing is written and Recoverable is false.
// Never an error for request content: every problem is a not-compressed info with the original
// body. The allowlist is NOT checked here (the proxy checks it).
TransformOutput transform_request(std::string_view body, WireFormat format,
                                  const TransformOptions& options, ccr::Store* store);

}  // namespace caveman::pixel

#endif  // CAVEMAN_PIXEL_H_
