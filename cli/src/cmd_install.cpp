// `caveman install [--from DIR]`: copies the built binaries into $CAVEMAN_HOME/bin (default
// ~/.caveman/bin) — each through a temp file in the same directory, chmod 0755, then an atomic
// rename, so a running binary is never half-overwritten.
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>

#include "caveman/base/codes.h"
#include "context.h"
#include "flags.h"
#include "install.h"

namespace caveman::cli {

Status install_file(const std::string& source, const std::string& target_dir,
                    const std::string& name) {
  std::string target = target_dir + "/" + name;
  std::random_device rd;
  std::string part = target + "." + std::to_string(::getpid()) + "." + std::to_string(rd()) + ".part";
  int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return Status::Io(codes::kInstallFailed, source + ": " + std::strerror(errno));
  int out = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (out < 0) {
    int e = errno;
    ::close(in);
    return Status::Io(codes::kInstallFailed, part + ": " + std::strerror(e));
  }
  char buf[1 << 16];
  Status result = Status::Ok();
  while (true) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result = Status::Io(codes::kInstallFailed, source + ": " + std::strerror(errno));
      break;
    }
    if (n == 0) break;
    for (ssize_t off = 0; off < n;) {
      ssize_t w = ::write(out, buf + off, static_cast<std::size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        result = Status::Io(codes::kInstallFailed, part + ": " + std::strerror(errno));
        break;
      }
      off += w;
    }
    if (!result.ok()) break;
  }
  ::close(in);
  if (result.ok() && ::fchmod(out, 0755) != 0) {
    result = Status::Io(codes::kInstallFailed, part + ": chmod: " + std::strerror(errno));
  }
  if (result.ok() && ::fsync(out) != 0) {
    result = Status::Io(codes::kInstallFailed, part + ": fsync: " + std::strerror(errno));
  }
  ::close(out);
  if (result.ok() && ::rename(part.c_str(), target.c_str()) != 0) {
    result = Status::Io(codes::kInstallFailed, target + ": " + std::strerror(errno));
  }
  if (!result.ok()) ::unlink(part.c_str());
  return result;
}

int cmd_install(Context& ctx, const Args& args) {
  CLI::App app{"Copy the Caveman binaries into $CAVEMAN_HOME/bin (0755, atomic rename).", "install"};
  std::string from = ctx.self_dir;
  app.add_option("--from", from, "directory holding the built binaries (default: caveman's own)");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  std::string home = caveman_home(ctx.env);
  if (home.empty()) {
    ctx.log->error("caveman install: {}: neither CAVEMAN_HOME nor HOME is set", codes::kNoHome);
    return kExitError;
  }
  std::string bin_dir = home + "/bin";
  std::error_code ec;
  std::filesystem::create_directories(bin_dir, ec);
  if (ec || ::chmod(home.c_str(), 0700) != 0 || ::chmod(bin_dir.c_str(), 0700) != 0) {
    ctx.log->error("caveman install: {}: cannot create {}: {}", codes::kHomeNotWritable, bin_dir,
                   ec ? ec.message() : std::strerror(errno));
    return kExitError;
  }
  std::vector<std::string> names{"caveman"};
  for (const auto& s : binary_specs()) names.emplace_back(s.name);
  int installed = 0;
  int failed = 0;
  for (const auto& name : names) {
    std::string source = from + "/" + name;
    if (!is_executable_file(source)) {
      ctx.log->info("caveman install: skipped {} (not built in {})", name, from);
      continue;
    }
    if (std::filesystem::equivalent(source, bin_dir + "/" + name, ec)) {
      ++installed;  // installing from the install directory itself is a no-op
      continue;
    }
    if (Status s = install_file(source, bin_dir, name); !s.ok()) {
      ctx.log->error("caveman install: {}", s.ToString());
      ++failed;
      continue;
    }
    *ctx.out << "installed " << bin_dir << "/" << name << "\n";
    ++installed;
  }
  if (installed == 0) {
    ctx.log->error("caveman install: nothing to install from {}", from);
    return kExitError;
  }
  return failed == 0 ? kExitOk : kExitError;
}

}  // namespace caveman::cli
