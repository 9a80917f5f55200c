// What every caveman verb receives: the caller's environment (a copy, so tests pass their
// own), the output streams, the logger of its diagnostics and where the running binary lives.
// Verbs return exit codes (base/exit_code.h): kExitOk, kExitError (runtime failure),
// kExitUsage, kExitNotFound (agent binary missing), otherwise the exit code of the child they
// ran.
#ifndef CAVEMAN_CLI_CONTEXT_H_
#define CAVEMAN_CLI_CONTEXT_H_

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "binaries.h"
#include "caveman/base/exit_code.h"
#include "caveman/base/log.h"
#include "process.h"

namespace caveman::cli {

using base::kExitError;
using base::kExitNotFound;
using base::kExitOk;
using base::kExitUsage;

struct Context {
  Environment env;
  std::ostream* out;
  std::ostream* err;
  std::string self_dir;  // directory of the caveman binary ("" when unknown)
  // Warnings, errors and notes, written as they are to *err (base::stream_logger()).
  std::shared_ptr<spdlog::logger> log;

  BinaryLocation locate(std::string_view name) const {
    return locate_binary(*find_binary_spec(name), env, self_dir);
  }
};

using Args = std::vector<std::string>;

// The verbs (one file each). `args` excludes the verb itself.
int cmd_start(Context& ctx, const Args& args);
int cmd_install(Context& ctx, const Args& args);
int cmd_wrap(Context& ctx, const Args& args);  // args[0] = agent (after wrap flags)
int cmd_mcp(Context& ctx, const Args& args);   // `tools mcp install|uninstall …`
int cmd_status(Context& ctx, const Args& args);
int cmd_stats(Context& ctx, const Args& args);
int cmd_enable(Context& ctx, const Args& args);        // enable <agent> [--no-mcp] [--no-hooks]
int cmd_disable(Context& ctx, const Args& args);       // disable <agent>
int cmd_ensure_proxy(Context& ctx, const Args& args);  // hidden: what enabled agents run
int cmd_verify(Context& ctx, const Args& args);
int cmd_doctor(Context& ctx, const Args& args);  // doctor <agent>; no agent = status
int cmd_config(Context& ctx, const Args& args);  // config path|get|set
// `caveman <agent>` for an agent `caveman enable` set up: ensure the proxy, launch as is.
bool agent_enabled(const Context& ctx, const std::string& agent);
int run_enabled_agent(Context& ctx, const std::string& agent, const Args& user_args);
// Runs `<binary> <prefix…> <args…>` in the foreground and returns its exit code.
int cmd_delegate(Context& ctx, std::string_view binary, const Args& prefix, const Args& args);
// Runs argv in the foreground with the caller's stdio (stdout flushed first); the child's exit
// code, or 1 after "<who>: <error>" on stderr when it cannot be run.
int run_forwarded(Context& ctx, const Args& argv, std::string_view who);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_CONTEXT_H_
