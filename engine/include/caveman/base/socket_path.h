// caveman/base/socket_path.h — Unix socket paths kept under the kernel's limit (docs/base.md).
//
// bind() and connect() take an AF_UNIX path of at most 107 bytes (sun_path less its NUL); a
// longer one fails, and Chromium aborts on it. Every socket path Caveman builds, or lets a child
// build under a directory Caveman chooses, is checked here before it is used. Thread-safe;
// make_socket_temp_dir() touches the filesystem (mkdtemp), the rest is pure. Failures are
// Status values carrying the caller's error code (caveman/base/codes.h).
#ifndef CAVEMAN_BASE_SOCKET_PATH_H_
#define CAVEMAN_BASE_SOCKET_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "caveman/base/env.h"
#include "caveman/status.h"

struct sockaddr_un;

namespace caveman::base {

// The longest path an AF_UNIX socket can have (sizeof sockaddr_un::sun_path - 1).
inline constexpr std::size_t kMaxSocketPathBytes = 107;

// Where make_socket_temp_dir() goes when $TMPDIR is too long: short on every Unix.
inline constexpr std::string_view kShortTempRoot = "/tmp";

// Ok when `path` is 1..kMaxSocketPathBytes bytes. Else kInvalidArgument with `code` and the
// message "<what> <path> is <n> bytes, over the 107-byte limit of a Unix socket path".
Status check_socket_path(std::string_view path, std::string_view code, std::string_view what);

// check_socket_path(), then `addr` = {AF_UNIX, path NUL-terminated, the rest zero}. `addr` is
// left untouched on failure.
Status fill_socket_address(std::string_view path, sockaddr_un* addr, std::string_view code,
                           std::string_view what);

// A private temp directory for a child that makes Unix sockets below it, `socket_suffix` being
// the longest path the child appends to it (Chromium: "/org.chromium.Chromium.XXXXXX/
// SingletonSocket"): the mkdtemp template `<root>/<name>XXXXXX`, where root is $TMPDIR (when
// absolute; trailing slashes dropped) if `<root>/<name>XXXXXX<socket_suffix>` fits in
// kMaxSocketPathBytes, else `fallback_root` if that fits. When neither fits: kInvalidArgument
// with `code`, naming that longest path under the last root tried and its length.
Result<std::string> socket_temp_template(const EnvLookup& env, std::string_view name,
                                         std::string_view socket_suffix, std::string_view code,
                                         std::string_view what,
                                         std::string_view fallback_root = kShortTempRoot);

// socket_temp_template(), created by mkdtemp: mode 0700, a fresh name, so never shared between
// two callers; the caller removes it. kIo with `io_code` when mkdtemp fails.
Result<std::string> make_socket_temp_dir(const EnvLookup& env, std::string_view name,
                                         std::string_view socket_suffix, std::string_view code,
                                         std::string_view io_code, std::string_view what,
                                         std::string_view fallback_root = kShortTempRoot);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_SOCKET_PATH_H_
