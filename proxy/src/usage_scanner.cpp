#include "usage_scanner.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace caveman::proxy {
namespace {

using Json = nlohmann::json;

struct Scan {
  Usage usage;
  bool malformed = false;
  bool anthropic_final_output = false;  // a message_delta reported output_tokens
  bool gemini_finished = false;         // a finishReason or a block reason was seen
};

// Reads a non-negative integer counter; a present but bad value marks the scan malformed.
std::optional<std::int64_t> counter(const Json& obj, const char* key, Scan* scan) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (it->is_number_unsigned()) return static_cast<std::int64_t>(it->get<std::uint64_t>());
  if (it->is_number_integer()) {
    std::int64_t v = it->get<std::int64_t>();
    if (v < 0) scan->malformed = true;
    return v < 0 ? std::nullopt : std::optional<std::int64_t>(v);
  }
  if (it->is_number_float()) {
    double d = it->get<double>();
    if (d < 0 || std::floor(d) != d) {
      scan->malformed = true;
      return std::nullopt;
    }
    return static_cast<std::int64_t>(d);
  }
  scan->malformed = true;
  return std::nullopt;
}

std::optional<std::int64_t> sum(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  if (!a && !b) return std::nullopt;
  return a.value_or(0) + b.value_or(0);
}

void merge_max(std::optional<std::int64_t>* into, std::optional<std::int64_t> v) {
  if (v && (!*into || **into < *v)) *into = v;
}

const Json* member(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Folds one usage object (any provider's shape) into the scan with the max rule.
void fold_usage(const Json& u, Scan* scan) {
  if (!u.is_object()) return;
  Usage& out = scan->usage;
  std::optional<std::int64_t> input = counter(u, "input_tokens", scan);
  if (!input) input = counter(u, "prompt_tokens", scan);
  if (!input) input = sum(counter(u, "promptTokenCount", scan), counter(u, "toolUsePromptTokenCount", scan));
  std::optional<std::int64_t> output = counter(u, "output_tokens", scan);
  if (!output) output = counter(u, "completion_tokens", scan);
  if (!output) output = sum(counter(u, "candidatesTokenCount", scan), counter(u, "thoughtsTokenCount", scan));

  std::optional<std::int64_t> cache_read = counter(u, "cache_read_input_tokens", scan);
  if (!cache_read) cache_read = counter(u, "cached_input_tokens", scan);
  if (!cache_read) cache_read = counter(u, "cachedContentTokenCount", scan);
  std::optional<std::int64_t> cache_write = counter(u, "cache_creation_input_tokens", scan);
  std::optional<std::int64_t> reasoning = counter(u, "reasoning_tokens", scan);
  if (!reasoning) reasoning = counter(u, "thoughtsTokenCount", scan);
  for (const char* details : {"input_tokens_details", "prompt_tokens_details"}) {
    if (const Json* d = member(u, details)) {
      if (!cache_read) cache_read = counter(*d, "cached_tokens", scan);
      if (!cache_write) cache_write = counter(*d, "cache_write_tokens", scan);
    }
  }
  for (const char* details : {"output_tokens_details", "completion_tokens_details"}) {
    if (const Json* d = member(u, details)) {
      if (!reasoning) reasoning = counter(*d, "reasoning_tokens", scan);
      if (!reasoning) reasoning = counter(*d, "thinking_tokens", scan);
    }
  }
  merge_max(&out.input, input);
  merge_max(&out.output, output);
  merge_max(&out.cache_read, cache_read);
  merge_max(&out.cache_write, cache_write);
  merge_max(&out.reasoning, reasoning);
}

void fold_event(const Json& ev, Scan* scan) {
  if (ev.is_array()) {
    for (const Json& e : ev) fold_event(e, scan);
    return;
  }
  if (!ev.is_object()) return;
  if (const Json* u = member(ev, "usage")) fold_usage(*u, scan);
  if (const Json* u = member(ev, "usageMetadata")) fold_usage(*u, scan);
  if (const Json* m = member(ev, "message")) {
    if (const Json* u = member(*m, "usage")) fold_usage(*u, scan);
  }
  if (const Json* r = member(ev, "response")) {
    if (const Json* u = member(*r, "usage")) fold_usage(*u, scan);
    if (const Json* u = member(*r, "usageMetadata")) fold_usage(*u, scan);
  }
  if (const Json* t = member(ev, "type"); t && t->is_string() && *t == "message_delta") {
    if (const Json* u = member(ev, "usage"); u && member(*u, "output_tokens")) {
      scan->anthropic_final_output = true;
    }
  }
  if (const Json* cands = member(ev, "candidates"); cands && cands->is_array()) {
    for (const Json& c : *cands) {
      if (const Json* f = member(c, "finishReason"); f && f->is_string()) scan->gemini_finished = true;
    }
  }
  if (const Json* pf = member(ev, "promptFeedback"); pf && member(*pf, "blockReason")) {
    scan->gemini_finished = true;
  }
}

void scan_lines(std::string_view body, Scan* scan) {
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t nl = body.find('\n', at);
    if (nl == std::string_view::npos) nl = body.size();
    std::string_view line = body.substr(at, nl - at);
    at = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == ':' || line.substr(0, 6) == "event:") continue;
    if (line.substr(0, 5) == "data:") {
      line.remove_prefix(5);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    }
    if (line == "[DONE]" || line.empty()) continue;
    Json ev = Json::parse(line, nullptr, false);
    if (!ev.is_discarded()) fold_event(ev, scan);
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

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
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
    Json doc = Json::parse(body, nullptr, false);
    if (!doc.is_discarded()) {
      fold_event(doc, &scan);
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
  std::string enc = lower(content_encoding);
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
