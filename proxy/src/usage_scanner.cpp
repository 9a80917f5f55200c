#include "usage_scanner.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "caveman/base/split.h"
#include "caveman/base/text.h"
#include "json_spans.h"

namespace caveman::proxy {
namespace {

struct Scan {
  Usage usage;
  bool malformed = false;
  bool anthropic_final_output = false;  // a message_delta reported output_tokens
  bool gemini_finished = false;         // a finishReason or a block reason was seen
};

// Reads a non-negative integer counter; a present but bad value marks the scan malformed.
std::optional<std::int64_t> counter(const JsonDoc& doc, NodeId obj, std::string_view key, Scan* scan) {
  NodeId id = doc.get(obj, key);
  if (id == kNoNode || doc.is(id, JsonKind::kNull)) return std::nullopt;
  if (!doc.is(id, JsonKind::kNumber)) {
    scan->malformed = true;
    return std::nullopt;
  }
  const std::string& literal = doc.node(id).text;
  bool integral = literal.find_first_of(".eE") == std::string::npos;
  if (integral) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
    if (ec == std::errc() && end == literal.data() + literal.size()) {
      if (v < 0) scan->malformed = true;
      return v < 0 ? std::nullopt : std::optional<std::int64_t>(v);
    }
  }
  // Fractions, exponents and integers beyond int64: whole non-negative values only.
  double d = std::strtod(literal.c_str(), nullptr);
  if (d < 0 || std::floor(d) != d || d >= 9.2e18) {
    scan->malformed = true;
    return std::nullopt;
  }
  return static_cast<std::int64_t>(d);
}

std::optional<std::int64_t> sum(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  if (!a && !b) return std::nullopt;
  return a.value_or(0) + b.value_or(0);
}

void merge_max(std::optional<std::int64_t>* into, std::optional<std::int64_t> v) {
  if (v && (!*into || **into < *v)) *into = v;
}

// Folds one usage object (any provider's shape) into the scan with the max rule.
void fold_usage(const JsonDoc& doc, NodeId u, Scan* scan) {
  if (!doc.is(u, JsonKind::kObject)) return;
  auto count = [&](NodeId obj, std::string_view key) { return counter(doc, obj, key, scan); };
  Usage& out = scan->usage;
  std::optional<std::int64_t> input = count(u, "input_tokens");
  if (!input) input = count(u, "prompt_tokens");
  if (!input) input = sum(count(u, "promptTokenCount"), count(u, "toolUsePromptTokenCount"));
  std::optional<std::int64_t> output = count(u, "output_tokens");
  if (!output) output = count(u, "completion_tokens");
  if (!output) output = sum(count(u, "candidatesTokenCount"), count(u, "thoughtsTokenCount"));

  std::optional<std::int64_t> cache_read = count(u, "cache_read_input_tokens");
  if (!cache_read) cache_read = count(u, "cached_input_tokens");
  if (!cache_read) cache_read = count(u, "cachedContentTokenCount");
  std::optional<std::int64_t> cache_write = count(u, "cache_creation_input_tokens");
  std::optional<std::int64_t> cache_write_1h =
      count(doc.get(u, "cache_creation"), "ephemeral_1h_input_tokens");
  std::optional<std::int64_t> reasoning = count(u, "reasoning_tokens");
  if (!reasoning) reasoning = count(u, "thoughtsTokenCount");
  for (const char* details : {"input_tokens_details", "prompt_tokens_details"}) {
    NodeId d = doc.get(u, details);
    if (d == kNoNode) continue;
    if (!cache_read) cache_read = count(d, "cached_tokens");
    if (!cache_write) cache_write = count(d, "cache_write_tokens");
  }
  for (const char* details : {"output_tokens_details", "completion_tokens_details"}) {
    NodeId d = doc.get(u, details);
    if (d == kNoNode) continue;
    if (!reasoning) reasoning = count(d, "reasoning_tokens");
    if (!reasoning) reasoning = count(d, "thinking_tokens");
  }
  merge_max(&out.input, input);
  merge_max(&out.output, output);
  merge_max(&out.cache_read, cache_read);
  merge_max(&out.cache_write, cache_write);
  merge_max(&out.cache_write_1h, cache_write_1h);
  merge_max(&out.reasoning, reasoning);
}

void fold_event(const JsonDoc& doc, NodeId ev, Scan* scan) {
  if (doc.is(ev, JsonKind::kArray)) {
    for (NodeId e : doc.node(ev).items) fold_event(doc, e, scan);
    return;
  }
  if (!doc.is(ev, JsonKind::kObject)) return;
  fold_usage(doc, doc.get(ev, "usage"), scan);
  fold_usage(doc, doc.get(ev, "usageMetadata"), scan);
  fold_usage(doc, doc.get(doc.get(ev, "message"), "usage"), scan);
  NodeId response = doc.get(ev, "response");
  fold_usage(doc, doc.get(response, "usage"), scan);
  fold_usage(doc, doc.get(response, "usageMetadata"), scan);
  if (doc.get_string(ev, "type") == "message_delta" && doc.get(doc.get(ev, "usage"), "output_tokens") != kNoNode) {
    scan->anthropic_final_output = true;
  }
  NodeId cands = doc.get(ev, "candidates");
  if (doc.is(cands, JsonKind::kArray)) {
    for (NodeId c : doc.node(cands).items) {
      if (doc.is(doc.get(c, "finishReason"), JsonKind::kString)) scan->gemini_finished = true;
    }
  }
  if (doc.get(doc.get(ev, "promptFeedback"), "blockReason") != kNoNode) scan->gemini_finished = true;
}

void scan_lines(std::string_view body, Scan* scan) {
  for (std::string_view line : base::split_lines(body)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == ':' || line.substr(0, 6) == "event:") continue;
    if (line.substr(0, 5) == "data:") {
      line.remove_prefix(5);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    }
    if (line == "[DONE]" || line.empty()) continue;
    if (std::optional<JsonDoc> ev = JsonDoc::parse(line)) fold_event(*ev, ev->root(), scan);
  }
}

Usage finish(Provider provider, bool stream, Scan scan) {
  Usage u = std::move(scan.usage);
  if (stream && provider == Provider::kAnthropic && !scan.anthropic_final_output) u.output.reset();
  if (stream && provider == Provider::kGemini && !scan.gemini_finished) u.output.reset();
  if (scan.malformed) {
    u.basis = "provider_malformed";
    u.cache_status = "unknown";
    return u;
  }
  if (u.input && u.output) {
    u.basis = "provider_complete";
  } else if (u.input || u.output) {
    u.basis = "provider_partial";
  }
  if (u.cache_read.value_or(0) > 0) {
    u.cache_status = "hit";
  } else if (u.cache_write.value_or(0) > 0) {
    u.cache_status = "write";
  } else if (u.cache_read || u.cache_write) {
    u.cache_status = "miss";
  }
  return u;
}

// gzip / zlib inflate with an output cap; nullopt on a corrupt stream.
std::optional<std::string> inflate_capped(std::string_view in, std::size_t cap) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return std::nullopt;  // auto-detect gzip/zlib
  std::string out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK && out.size() < cap) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      inflateEnd(&zs);
      return std::nullopt;
    }
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_BUF_ERROR) break;
  }
  inflateEnd(&zs);
  if (out.size() > cap) out.resize(cap);
  return out;
}

}  // namespace

void UsageCapture::feed(std::string_view bytes) {
  total_ += bytes.size();
  if (head_.size() < head_limit_) {
    std::size_t take = std::min(bytes.size(), head_limit_ - head_.size());
    head_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
  }
  if (bytes.empty()) return;
  tail_.append(bytes);
  if (tail_.size() > 2 * tail_limit_) {
    std::size_t drop = tail_.size() - tail_limit_;
    tail_.erase(0, drop);
    dropped_ += drop;
  }
}

std::string UsageCapture::text() const {
  std::string tail = tail_;
  if (tail.size() > tail_limit_) tail.erase(0, tail.size() - tail_limit_);
  if (!truncated() && tail_.size() <= tail_limit_) return head_ + tail;
  // Bytes were dropped between head and tail: resume at the tail's first full line.
  std::size_t nl = tail.find('\n');
  std::string out = head_;
  out += '\n';
  if (nl != std::string::npos) out.append(tail, nl + 1, std::string::npos);
  return out;
}

Usage parse_usage(Provider provider, bool stream, std::string_view body) {
  Scan scan;
  std::size_t first = body.find_first_not_of(" \t\r\n");
  bool whole = false;
  if (first != std::string_view::npos && (body[first] == '{' || body[first] == '[')) {
    if (std::optional<JsonDoc> doc = JsonDoc::parse(body)) {
      fold_event(*doc, doc->root(), &scan);
      whole = true;
      // A non-streamed Anthropic message carries its final usage; a Gemini JSON array
      // (stream without alt=sse) is judged by its chunks.
      if (provider == Provider::kAnthropic) scan.anthropic_final_output = true;
    }
  }
  if (!whole) scan_lines(body, &scan);
  return finish(provider, stream, std::move(scan));
}

Usage scan_usage(Provider provider, bool stream, std::string_view content_encoding,
                 const UsageCapture& capture) {
  std::string enc = base::ascii_lower(content_encoding);
  while (!enc.empty() && enc.back() == ' ') enc.pop_back();
  std::string body = capture.text();
  if (!enc.empty() && enc != "identity") {
    if (enc.find(',') != std::string::npos || (enc != "gzip" && enc != "x-gzip" && enc != "deflate")) {
      Usage u;
      u.note = "unsupported_content_encoding/" + enc;
      return u;
    }
    if (capture.truncated()) {
      Usage u;
      u.note = "encoded_response_too_large";
      return u;
    }
    std::optional<std::string> plain = inflate_capped(body, kUsageHeadBytes + kUsageTailBytes);
    if (!plain) {
      Usage u;
      u.note = "undecodable_content_encoding/" + enc;
      return u;
    }
    body = std::move(*plain);
  }
  Usage u = parse_usage(provider, stream, body);
  if (capture.truncated() && !(u.input && u.output)) {
    Usage none;
    none.note = "usage_not_proven_in_truncated_capture";
    return none;
  }
  return u;
}

}  // namespace caveman::proxy
