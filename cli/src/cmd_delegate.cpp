// Verbs served by another Caveman binary (docs/spec/processes.md#delegated-verbs): the CLI only
// finds the binary and runs it in the foreground with the caller's stdio, so pipes stay byte-exact.
#include <spdlog/spdlog.h>

#include <ostream>

#include "caveman/base/codes.h"
#include "context.h"

namespace caveman::cli {

int cmd_delegate(Context& ctx, std::string_view binary, const Args& prefix, const Args& args) {
  BinaryLocation where = ctx.locate(binary);
  if (!where.found()) {
    const BinarySpec* spec = find_binary_spec(binary);
    ctx.log->error(
        "caveman: {}: {} not found (set {}, put it on PATH, or run `caveman install`); this verb "
        "is unavailable until then",
        codes::kBinaryMissing, binary, spec->env_var);
    return kExitError;
  }
  Args argv{where.path};
  argv.insert(argv.end(), prefix.begin(), prefix.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return run_forwarded(ctx, argv, "caveman");
}

int run_forwarded(Context& ctx, const Args& argv, std::string_view who) {
  ctx.out->flush();
  auto rc = run_foreground(argv, ctx.env);
  if (!rc.ok()) {
    ctx.log->error("{}: {}", who, rc.status().ToString());
    return kExitError;
  }
  return *rc;
}

}  // namespace caveman::cli
