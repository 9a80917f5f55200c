// caveman-proxy's request-body live-zone extraction and byte splicing (issue 13), for every
// provider wire format: never crashes; candidates are string nodes inside the body; with no
// compression the spliced body equals the input (no splices, or every candidate replaced by
// its own bytes); re-quoting every candidate's decoded text still yields valid JSON with the
// same decoded strings.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_util.h"
#include "json_spans.h"
#include "live_zone.h"

namespace {

constexpr caveman::proxy::Endpoint kEndpoints[] = {
    caveman::proxy::Endpoint::kMessages,        caveman::proxy::Endpoint::kCountTokens,
    caveman::proxy::Endpoint::kChatCompletions, caveman::proxy::Endpoint::kResponses,
    caveman::proxy::Endpoint::kEmbeddings,      caveman::proxy::Endpoint::kGenerateContent,
    caveman::proxy::Endpoint::kStreamGenerate,  caveman::proxy::Endpoint::kGeminiCountTokens,
    caveman::proxy::Endpoint::kOther};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace caveman::proxy;
  if (size < 1) return 0;
  const std::size_t min_bytes = data[0] & 0x1F;  // small, so short strings are candidates too
  std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  FUZZ_CHECK(apply_splices(body, {}) == body, "no splices changed the body");
  if (!doc) return 0;

  for (Endpoint endpoint : kEndpoints) {
    LiveZone facts = inspect_request(endpoint, *doc);
    LiveZone zone = extract_live_zone(endpoint, *doc, min_bytes);
    FUZZ_CHECK(zone.model == facts.model && zone.stream == facts.stream, "inspect and extract disagree");
    std::vector<Splice> same;
    std::vector<Splice> requoted;
    std::vector<NodeId> ids;
    for (const Candidate& c : zone.candidates) {
      FUZZ_CHECK(c.node < doc->size(), "candidate node out of range");
      const JsonNode& n = doc->node(c.node);
      FUZZ_CHECK(n.kind == JsonKind::kString, "candidate is not a string");
      FUZZ_CHECK(n.begin < n.end && n.end <= body.size(), "candidate span outside the body");
      FUZZ_CHECK(body[n.begin] == '"' && body[n.end - 1] == '"', "candidate span is not a literal");
      FUZZ_CHECK(n.text.size() >= min_bytes, "candidate shorter than min_bytes");
      same.push_back(Splice{n.begin, n.end, std::string(body.substr(n.begin, n.end - n.begin))});
      requoted.push_back(Splice{n.begin, n.end, json_quote(n.text)});
      ids.push_back(c.node);
    }
    FUZZ_CHECK(apply_splices(body, same) == body, "identity splice changed the body");
    const std::string out = apply_splices(body, requoted);
    std::optional<JsonDoc> again = JsonDoc::parse(out);
    FUZZ_CHECK(again.has_value(), "re-quoted candidates broke the JSON");
    LiveZone zone2 = extract_live_zone(endpoint, *again, min_bytes);
    FUZZ_CHECK(zone2.candidates.size() == zone.candidates.size(), "re-quoting changed the candidates");
    for (std::size_t i = 0; i < zone2.candidates.size(); ++i) {
      FUZZ_CHECK(again->node(zone2.candidates[i].node).text == doc->node(ids[i]).text,
                 "re-quoted candidate decodes differently");
    }
  }
  return 0;
}
