#include "caveman/base/log.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "caveman/base/codes.h"
#include "caveman/base/env.h"
#include "caveman/base/exit_code.h"

namespace caveman::base {
namespace {

// $CAVEMAN_LOG_LEVEL, info when unset. spdlog reads a name it does not know as `off`; a typo
// must not silence a command's errors, so only `off` itself is off.
spdlog::level::level_enum level_from(const EnvLookup& env) {
  std::optional<std::string> level = env(kLogLevelEnv);
  if (!level) return spdlog::level::info;
  spdlog::level::level_enum parsed = spdlog::level::from_str(*level);
  return parsed == spdlog::level::off && *level != "off" ? spdlog::level::info : parsed;
}

}  // namespace

void init_logging(std::string_view tool) {
  // Not registered by name, so a second call (tests, a tool calling another's run()) is fine.
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>(std::string(tool), std::move(sink));
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ " + std::string(tool) + " %l: %v",
                      spdlog::pattern_time_type::utc);
  spdlog::set_default_logger(std::move(logger));
  spdlog::set_level(level_from(process_env()));
}

std::shared_ptr<spdlog::logger> stream_logger(std::ostream& err, const EnvLookup& env) {
  // Thread-safe sink: a command's worker threads may log too.
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err);
  auto logger = std::make_shared<spdlog::logger>("command", std::move(sink));
  logger->set_pattern("%v");
  logger->set_level(level_from(env));
  return logger;
}

int guarded_main(std::string_view tool, const std::function<int()>& body) {
  init_logging(tool);
  try {
    return body();
  } catch (const std::exception& e) {
    spdlog::critical("{}: {}", codes::kInternalError, e.what());
  } catch (...) {
    spdlog::critical("{}: unknown exception", codes::kInternalError);
  }
  return kExitError;
}

}  // namespace caveman::base
