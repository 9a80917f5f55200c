// Integrity digests in JSON (docs/formats.md, "Digests"): a lockfile's "integrity" values and
// Go module hashes are tens of tokens each, unique, and never what a task asks about.
// A view may write each as its algorithm and an ellipsis ("sha512-…"); the view is lossy,
// so the handle keeps the values and the caller weighs it like any other elision.
#ifndef CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_
#define CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// A JSON string's content that is an integrity digest: Subresource Integrity ("sha512-" +
// base64, npm's and yarn's lockfiles) or a Go module hash ("h1:" + base64). Hex digests and
// "sha256:" ids stay: a commit or an image digest names something a task may ask for.
// Returns the kept prefix ("sha512-"), nullopt for anything else.
std::optional<std::string_view> digest_prefix(std::string_view s);

// `json` with every string value (never a key) that is a digest written as its prefix and
// "…"; nullopt when `json` is not one JSON document or fewer than kMinDigests values are
// digests (too little to be worth a lossy view). The text stays valid JSON in its layout.
inline constexpr std::size_t kMinDigests = 8;
std::optional<std::string> elide_digests(std::string_view json);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_
