// Opaque digests in JSON (docs/formats.md, "Digests"): a lockfile's "integrity" values and
// other checksums are tens of tokens each, unique, and almost never what a task asks about.
// A view may write each as its algorithm and an ellipsis ("sha512-…"); the view is lossy,
// so the handle keeps the values and the caller weighs it like any other elision.
#ifndef CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_
#define CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// A JSON string's content that is a digest: Subresource Integrity ("sha512-" + base64), a
// prefixed checksum ("sha256:" / "h1:" + base64 or hex) or bare hex of 64+ digits (sha256
// and longer; a 40-digit git hash names a commit and stays). Returns the kept prefix
// ("sha512-", "" for bare hex), nullopt for anything else.
std::optional<std::string_view> digest_prefix(std::string_view s);

// `json` with every string value (never a key) that is a digest written as its prefix and
// "…"; nullopt when fewer than kMinDigests values are digests (too little to be worth a
// lossy view). The text stays valid JSON in its own layout.
inline constexpr std::size_t kMinDigests = 8;
std::optional<std::string> elide_digests(std::string_view json);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_JSON_DIGESTS_H_
