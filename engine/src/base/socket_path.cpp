#include "caveman/base/socket_path.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace caveman::base {

static_assert(kMaxSocketPathBytes == sizeof(sockaddr_un::sun_path) - 1,
              "kMaxSocketPathBytes is sun_path less its NUL");

Status check_socket_path(std::string_view path, std::string_view code, std::string_view what) {
  if (!path.empty() && path.size() <= kMaxSocketPathBytes) return Status::Ok();
  return Status::InvalidArgument(code, std::string(what) + " " + std::string(path) + " is " +
                                           std::to_string(path.size()) + " bytes, over the " +
                                           std::to_string(kMaxSocketPathBytes) +
                                           "-byte limit of a Unix socket path");
}

Status fill_socket_address(std::string_view path, sockaddr_un* addr, std::string_view code,
                           std::string_view what) {
  CAVEMAN_RETURN_IF_ERROR(check_socket_path(path, code, what));
  std::memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  std::memcpy(addr->sun_path, path.data(), path.size());
  return Status::Ok();
}

Result<std::string> socket_temp_template(const EnvLookup& env, std::string_view name,
                                         std::string_view socket_suffix, std::string_view code,
                                         std::string_view what, std::string_view fallback_root) {
  std::vector<std::string> roots;
  if (std::optional<std::string> tmp = env("TMPDIR"); tmp && tmp->front() == '/') {
    while (!tmp->empty() && tmp->back() == '/') tmp->pop_back();  // "/" becomes ""
    roots.push_back(*tmp);
  }
  roots.emplace_back(fallback_root);
  std::string shortest;  // the longest socket path under the shortest root, for the error
  for (const std::string& root : roots) {
    std::string dir = root + "/" + std::string(name) + "XXXXXX";
    std::string longest = dir + std::string(socket_suffix);
    if (check_socket_path(longest, code, what).ok()) return dir;
    if (shortest.empty() || longest.size() < shortest.size()) shortest = longest;
  }
  Status refused = check_socket_path(shortest, code, what);
  return Status::InvalidArgument(
      code, refused.message() + (roots.size() > 1 ? " (under $TMPDIR and under " : " (under ") +
                std::string(fallback_root) + "); set TMPDIR to a shorter directory");
}

Result<std::string> make_socket_temp_dir(const EnvLookup& env, std::string_view name,
                                         std::string_view socket_suffix, std::string_view code,
                                         std::string_view io_code, std::string_view what,
                                         std::string_view fallback_root) {
  CAVEMAN_ASSIGN_OR_RETURN(
      std::string dir, socket_temp_template(env, name, socket_suffix, code, what, fallback_root));
  if (::mkdtemp(dir.data()) == nullptr) {
    return Status::Io(io_code, "cannot create " + dir + ": " + std::strerror(errno));
  }
  return dir;
}

}  // namespace caveman::base
