// snapshot.h — the agent-visible browser_snapshot result and the uid → DOM node map.
//
// A snapshot is Chrome's raw AX JSON compressed by the engine's forced `a11y` compressor
// (its exact original kept in the CCR store). The full payload (docs/browse.md#tools, sent as
// structuredContent and printed by the CLI's --json) is `{"uids":<outline>,"recovery_handle",
// "tokens_before","view_tokens","tokens_after","ratio","basis"}` (+ "dialogs" when a
// JavaScript dialog was answered). What the agent reads — the tool's text content — is the
// agent view: the same object without the five counters, since they cost ~27 tokens per call
// and tell the agent nothing it acts on; on tiny pages they alone would make the result larger
// than Playwright's. tokens_after counts exactly that text. An outline of the root alone (an
// empty document) carries no recovery_handle in the agent view.
// uids are `u` + base-36 backendDOMNodeId (`_2`, `_3`… for repeats of one node), so the map
// is rebuilt from the outline itself; the recovery metadata adds frame ids when present
// (the store keeps the first metadata written for an original, so it may predate this view).
// Pure functions; thread-safe.
#ifndef CAVEMAN_BROWSE_SNAPSHOT_H_
#define CAVEMAN_BROWSE_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "caveman/tokens.h"

namespace caveman::browse {

using Json = nlohmann::ordered_json;

struct UidTarget {
  std::int64_t backend_node_id = 0;
  std::string frame_id;
};
using UidMap = std::map<std::string, UidTarget>;

// backendDOMNodeId encoded in a uid ("u2x" → 105, "u2x_2" → 105); nullopt when malformed.
std::optional<std::int64_t> decode_uid(std::string_view uid);

// The uids shown in an outline (`[uid] role …` lines), with frame ids from `metadata`
// ({"uids":{uid:{backendDOMNodeId,frameId?,nodeId?}}}, may be empty or unrelated).
UidMap uids_from_view(std::string_view view, std::string_view metadata);

// The full payload described above; `extras` members (e.g. "dialogs") are appended.
Json snapshot_payload(std::string_view view, std::string_view handle, std::int64_t tokens_before,
                      const tokens::Counter& counter, const Json& extras = Json::object());

// The agent view of a full payload (see above).
Json agent_view(const Json& payload);

// Compact serialization used for every payload (never throws on invalid UTF-8).
std::string dump_compact(const Json& j);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_SNAPSHOT_H_
