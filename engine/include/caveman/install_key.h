// Per-install secret keys under the Caveman home ($CAVEMAN_HOME, else ~/.caveman) and the
// HMAC-SHA256 / base64url helpers that sign with them. Used by the proxy's native session
// markers and by the MCP servers' Multi Round-Trip request state.
//
// Keys are 32 random bytes at <home>/runtime/<name> (runtime/ 0700, file 0600, created with
// O_EXCL so two processes never write different keys). Everything but load_or_create_key()
// is a pure function; failures are Status values.
#ifndef CAVEMAN_INSTALL_KEY_H_
#define CAVEMAN_INSTALL_KEY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman {

inline constexpr std::size_t kInstallKeyBytes = 32;

// $CAVEMAN_HOME, else $HOME/.caveman, else ./.caveman (never fails; nothing is created).
std::string caveman_home_from_env();

// Reads <home>/runtime/<file_name>, creating it (and runtime/, 0700) when missing.
// Errors: kIo (codes::kSessionKeyUnavailable) for unreadable/unwritable paths,
// kCorrupt (codes::kSessionKeyInvalid) for a key of the wrong size or a non-regular file.
Result<std::string> load_or_create_key(const std::string& home,
                                       std::string_view file_name = "session.key");

// RFC 4648 §5 alphabet, no padding. decode: nullopt on any character outside the alphabet.
std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

// Lowercase hex HMAC-SHA256(key, data).
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
// Equal sizes and bytes, in time independent of where they differ (signature checks).
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace caveman

#endif  // CAVEMAN_INSTALL_KEY_H_
