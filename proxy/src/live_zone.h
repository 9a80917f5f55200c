// Live-zone extraction per provider wire format (docs/proxy.md#compress-mode).
//
// The "live zone" is the part of a request the model has not seen before: the latest user
// turn and the current tool results. Only JSON string values there that are at least
// `min_bytes` long become compression candidates. The same kinds of blocks earlier in the
// conversation are returned as frozen candidates: they are never compressed anew, only
// re-substituted from the prefix cache so earlier turns are re-sent byte-identically. A
// tool result that answers a `caveman_retrieve` call is never a candidate. Never: system
// prompts, tool catalogs, assistant/model turns, images, thinking blocks. Pure functions.
#ifndef CAVEMAN_PROXY_LIVE_ZONE_H_
#define CAVEMAN_PROXY_LIVE_ZONE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json_spans.h"
#include "routes.h"

namespace caveman::proxy {

struct Candidate {
  NodeId node = kNoNode;  // a JSON string node of the body
  bool live = false;
  bool tool_result = false;  // a tool output (else user text)
  bool fetched_page = false;  // the output of a web-fetch tool (is_fetch_tool_name)
  std::string source_path;    // the file the producing call names (caveman/tool_source.h)
  // Before the latest message with human text: an earlier task's result, already answered
  // (Anthropic Messages; elsewhere never set).
  bool answered = false;
};

struct LiveZone {
  std::vector<Candidate> candidates;  // in body order
  std::string query;                  // latest human user text (never a tool result)
  bool declares_retrieve_tool = false;  // the request already has a caveman_retrieve tool
  bool stream = false;                  // "stream": true (or a Gemini stream route)
  std::string model;
};

// "caveman_retrieve" or any "<server>__caveman_retrieve".
bool is_retrieve_tool_name(std::string_view name);

// A tool that fetches a web page (Claude Code's WebFetch, web_fetch of Codex, Gemini CLI and
// Qwen Code, opencode's webfetch, an MCP server's fetch): its HTML may be read as page text.
bool is_fetch_tool_name(std::string_view name);

// Request facts every mode needs (model, stream) without candidate extraction.
LiveZone inspect_request(Endpoint endpoint, const JsonDoc& doc);

// Full extraction for compress mode. Endpoints without a live zone (count_tokens,
// embeddings, other) yield no candidates.
LiveZone extract_live_zone(Endpoint endpoint, const JsonDoc& doc, std::size_t min_bytes);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_LIVE_ZONE_H_
