// The eval manifest (docs/spec/ranking.md#manifest): a YAML document with a `fixtures:` list. Each
// fixture names a file, an optional forced type, a mode, a query, retention probes and graders.
// Parsing goes through yaml-cpp; its exceptions stop here and become Status values.
#ifndef CAVEMAN_EVALS_MANIFEST_H_
#define CAVEMAN_EVALS_MANIFEST_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "json/json.h"

namespace caveman::evals {

struct GraderSpec {
  std::string type;
  std::optional<double> min;
  std::optional<double> max;
  std::string value;
  std::string reference;
  // `options` map as JSON: sequences become arrays, maps objects (keys in written order),
  // plain scalars that read as true/false/null/a number keep that type, others are strings.
  json::Value options = json::Value::object();
};

struct ProbeSpec {
  std::string dimension;
  std::string value;
};

struct FixtureSpec {
  std::string name;
  std::string file;
  std::string type;  // forced registry key; empty = detect
  std::string mode;  // "record" = never transform; anything else = compress
  std::string query;
  bool page = false;  // a page fetched from the web: HTML may become page text (Options::page_text)
  std::vector<ProbeSpec> probes;
  std::vector<GraderSpec> graders;
};

struct Manifest {
  std::vector<FixtureSpec> fixtures;
};

// Errors: kInvalidArgument (codes::kInvalidManifest) for YAML syntax errors, a missing or empty
// `fixtures` list, a fixture without `name` or `file`, or a field of the wrong shape.
Result<Manifest> parse_manifest(std::string_view yaml);

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_MANIFEST_H_
