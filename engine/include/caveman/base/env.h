// caveman/base/env.h — the environment as a seam (docs/base.md).
//
// Code that reads environment variables takes an EnvLookup, so tests pass a map instead of
// mutating the process environment. An empty value counts as unset everywhere. Both lookups
// are safe from any thread (process_env() reads getenv, which is safe while nobody setenv's).
#ifndef CAVEMAN_BASE_ENV_H_
#define CAVEMAN_BASE_ENV_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace caveman::base {

// The value of a variable, or nullopt when it is unset or empty.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

// This process's environment.
EnvLookup process_env();

// A fixed environment (tests, and callers that pass a child's environment).
EnvLookup map_env(std::map<std::string, std::string> values);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_ENV_H_
