#include "transform.h"

#include <algorithm>

#include "caveman/tokens.h"
#include "caveman/tool_source.h"

namespace caveman::proxy {
namespace {

constexpr std::string_view kMarkerOpen = "<<ccr:";
constexpr std::string_view kMarkerClose = ">>";
constexpr std::string_view kStubNote =
    "an earlier result, already answered; the handle below returns it";

// A fetched page may be read as page text, the same bytes from a file may not, and a file's
// name steers detection (docs/spec/detect.md#hints): their views differ, so do their keys.
std::string cache_scope(const Candidate& c) {
  if (c.fetched_page) return std::string(kPageScope);
  std::string scope(kUnlockedScope);
  if (std::string_view family = source_family(c.source_path); !family.empty()) {
    scope += ':';
    scope += family;
  }
  return scope;
}

// What a lapse would let re-compaction take off: answered results still over
// kRecompactStubTokens as sent, at about 4 bytes a token, less their stubs.
std::int64_t compactable_tokens(const LiveZone& zone, const JsonDoc& doc,
                                const std::vector<Splice>& splices) {
  constexpr std::size_t kBytesPerToken = 4;
  constexpr std::int64_t kStubTokens = 80;
  std::int64_t total = 0;
  for (const Candidate& c : zone.candidates) {
    if (c.live || !c.tool_result || !c.answered) continue;
    const JsonNode& node = doc.node(c.node);
    std::string_view sent = node.text;
    auto spliced = std::find_if(splices.begin(), splices.end(),
                                [&](const Splice& s) { return s.begin == node.begin; });
    if (spliced != splices.end()) sent = spliced->bytes;
    auto tokens = static_cast<std::int64_t>(sent.size() / kBytesPerToken);
    if (tokens <= kRecompactStubTokens || sent.find(kStubNote) != std::string_view::npos) continue;
    total += tokens - kStubTokens;
  }
  return total;
}

}  // namespace

std::string handle_from_replacement(std::string_view replacement) {
  if (replacement.size() < kMarkerOpen.size() + kMarkerClose.size() ||
      replacement.substr(replacement.size() - kMarkerClose.size()) != kMarkerClose) {
    return {};
  }
  std::size_t open = replacement.rfind(kMarkerOpen);
  if (open == std::string_view::npos) return {};
  std::size_t start = open + kMarkerOpen.size();
  return std::string(replacement.substr(start, replacement.size() - kMarkerClose.size() - start));
}

bool prompt_cached(Endpoint endpoint, std::string_view body) {
  return endpoint != Endpoint::kMessages ||
         body.find("\"cache_control\"") != std::string_view::npos;
}

CompressKnobs knobs_for_request(std::int64_t budget_tokens, std::int64_t min_saving_tokens,
                                std::size_t request_bytes, bool cached) {
  constexpr std::size_t kBytesPerToken = 4;
  return CompressKnobs{budget_tokens, min_saving_tokens,
                       static_cast<std::int64_t>(request_bytes / kBytesPerToken), cached};
}

Options block_options(const CompressKnobs& knobs, const std::string& query) {
  Options options;
  options.mode = "compress";
  options.query = query;
  options.external_recovery = true;  // the proxy stores the block itself
  options.budget_tokens = knobs.budget_tokens;
  options.min_lossy_saving_tokens = knobs.min_saving_tokens;
  options.context_tokens = knobs.context_tokens;
  options.context_cached = knobs.context_cached;
  return options;
}

std::string join_handles(const std::vector<std::string>& handles) {
  std::string out;
  std::size_t skip = handles.size() > kMaxDisclosedHandles ? handles.size() - kMaxDisclosedHandles : 0;
  if (skip > 0) out = "+" + std::to_string(skip);
  for (std::size_t i = skip; i < handles.size(); ++i) {
    if (!out.empty()) out += ',';
    out += handles[i];
  }
  return out;
}

std::optional<std::string> frozen_stub(std::string_view original) {
  std::size_t lines = static_cast<std::size_t>(std::count(original.begin(), original.end(), '\n'));
  if (!original.empty() && original.back() != '\n') ++lines;
  std::string head;
  std::size_t shown = 0;
  std::size_t at = 0;
  while (shown < kStubHeadLines && at < original.size()) {
    std::size_t end = original.find('\n', at);
    std::size_t next = end == std::string_view::npos ? original.size() : end + 1;
    if (next - at > kStubHeadLineBytes) break;  // a cut line would misquote it
    head.append(original.substr(at, next - at));
    at = next;
    ++shown;
  }
  if (shown >= lines) return std::nullopt;  // else the head ends with a newline
  return head + "… lines " + std::to_string(shown + 1) + "–" + std::to_string(lines) +
         " elided (caveman): " + std::string(kStubNote) + " …\n";
}

// Re-compaction's knobs: the tighter budget, and no weighing of retrieves against the prompt
// (an answered result is rarely asked for again, and this prompt is written anyway).
CompressKnobs Transformer::recompact_knobs() const {
  CompressKnobs knobs = knobs_;
  if (knobs.budget_tokens == 0 || knobs.budget_tokens > kRecompactBudgetTokens)
    knobs.budget_tokens = kRecompactBudgetTokens;
  knobs.context_tokens = 0;
  return knobs;
}

// Re-compaction of a block compressed before: its original's re-compacted view, under the same
// handle, when that saves a quarter of what was sent; remembered in place.
std::optional<std::string> Transformer::tighten(const std::string& original,
                                                const std::string& sent, const std::string& key,
                                                const std::string& query, const Candidate& c,
                                                TransformOutcome* out) const {
  std::string handle = handle_from_replacement(sent);
  if (handle.empty()) return std::nullopt;
  Options options = block_options(recompact_knobs(), query);
  options.page_text = c.fetched_page;
  options.source_path = c.source_path;
  std::string replacement = recompacted(original, options, c.answered).output;
  if (replacement == original) return std::nullopt;
  if (replacement.empty() || replacement.back() != '\n') replacement += '\n';
  replacement += kMarkerOpen;
  replacement += handle;
  replacement += kMarkerClose;
  const tokens::Counter& counter = tokens::default_counter();
  auto was = static_cast<std::int64_t>(counter.count(sent));
  auto now = static_cast<std::int64_t>(counter.count(replacement));
  if (now * 4 > was * 3) return std::nullopt;
  if (Status s = cache_->replace(key, handle, replacement); !s.ok()) {
    out->error = s.ToString();
    return std::nullopt;
  }
  ++out->recompacted_blocks;
  out->recompact_saved_tokens += was - now;
  return replacement;
}

// A frozen result's view after a lapse: the engine's at kRecompactBudgetTokens, or, for an
// answered one, the stub when that still costs more than kRecompactStubTokens (the prompt
// re-reads it on every later turn; one retrieve, should it be needed, costs less).
CompressResult Transformer::recompacted(const std::string& original, const Options& options,
                                        bool answered) const {
  CompressResult r = engine_->compress(original, options);
  if (!answered || r.tokens_after <= kRecompactStubTokens) return r;
  std::optional<std::string> stub = frozen_stub(original);
  if (!stub) return r;
  r.output = std::move(*stub);
  r.tokens_after = static_cast<std::int64_t>(tokens::default_counter().count(r.output));
  r.method = "frozen-stub";
  r.ratio = r.tokens_before > 0 ? static_cast<double>(r.tokens_before - r.tokens_after) /
                                      static_cast<double>(r.tokens_before)
                                : 0.0;
  return r;
}

TransformOutcome Transformer::transform(std::string_view body, const JsonDoc& doc,
                                        const LiveZone& zone) const {
  TransformOutcome out;
  std::vector<Splice> splices;
  auto note_handle = [&](const std::string& handle) {
    if (handle.empty()) return;
    if (std::find(out.handles.begin(), out.handles.end(), handle) == out.handles.end()) {
      out.handles.push_back(handle);
    }
  };

  bool marked = body.find(kMarkerOpen) != std::string_view::npos;
  for (const Candidate& c : zone.candidates) {
    const JsonNode& node = doc.node(c.node);
    const std::string& original = node.text;
    std::string key = prefix_cache_key(cache_scope(c), original);
    if (std::optional<std::string> hit = cache_->lookup(key)) {
      if (!c.live && knobs_.recompact && c.tool_result) {
        if (std::optional<std::string> tighter = tighten(original, *hit, key, zone.query, c, &out))
          hit = tighter;
      }
      splices.push_back(Splice{node.begin, node.end, json_quote(*hit)});
      std::string handle = handle_from_replacement(*hit);
      // The client sends its own bytes: a marker re-substituted here is in the prompt too.
      marked = marked || !handle.empty();
      note_handle(handle);
      ++out.reused_blocks;
      continue;
    }
    // Frozen blocks are only ever re-substituted, unless the cache lapsed (re-compaction).
    bool recompact = !c.live && knobs_.recompact && c.tool_result;
    if ((!c.live && !recompact) || knobs_.reuse_only) continue;

    Options options = block_options(recompact ? recompact_knobs() : knobs_, zone.query);
    options.page_text = c.fetched_page;
    options.source_path = c.source_path;
    CompressResult r = recompact ? recompacted(original, options, c.answered)
                                 : engine_->compress(original, options);
    if (r.passed_through() || r.tokens_before - r.tokens_after <= kMarkerTokens) continue;
    if (!knobs_.context_cached && !marked &&
        r.tokens_before - r.tokens_after < kUncachedFirstMarkerTokens) {
      continue;
    }

    ccr::Record record;
    record.content_type = "block";
    record.compressor = "proxy-content";
    record.tokens_before = r.tokens_before;
    record.tokens_after = r.tokens_after;
    record.original = original;
    Result<std::string> handle = store_->put(record);
    if (!handle.ok()) {
      out.error = handle.status().ToString();
      continue;
    }
    std::string replacement = std::move(r.output);
    if (replacement.empty() || replacement.back() != '\n') replacement += '\n';
    replacement += kMarkerOpen;
    replacement += *handle;
    replacement += kMarkerClose;
    Result<std::string> stored = cache_->remember(key, *handle, replacement);
    if (!stored.ok()) {
      out.error = stored.status().ToString();
      continue;
    }
    splices.push_back(Splice{node.begin, node.end, json_quote(*stored)});
    note_handle(handle_from_replacement(*stored));
    marked = true;
    if (*stored == replacement) {
      out.tokens_before += r.tokens_before;
      out.tokens_after += r.tokens_after;
      ++out.compressed_blocks;
      if (recompact) {
        ++out.recompacted_blocks;
        out.recompact_saved_tokens += r.tokens_before - r.tokens_after;
      }
    } else {
      ++out.reused_blocks;  // another request remembered this block first
    }
  }
  out.compactable_tokens = compactable_tokens(zone, doc, splices);
  if (splices.empty()) return out;

  std::string rewritten = apply_splices(body, std::move(splices));
  if (rewritten == body || !JsonDoc::parse(rewritten)) {
    return TransformOutcome{};  // fail open: forward the client's bytes
  }
  out.body = std::move(rewritten);
  out.changed = true;
  return out;
}

}  // namespace caveman::proxy
