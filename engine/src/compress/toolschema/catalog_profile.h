// The selection profile of a catalog: what a model needs to pick a tool and build a valid
// call. Per tool: its name, every parameter path ("fields[].type"), every `type` name, every
// `enum`/`const` value and every `required` entry, each keyed by parameter path. Shrinking
// must keep all of it (it may add `null` to an enum when an `anyOf` with null collapses).
// Pure functions; thread-safe.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_PROFILE_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_PROFILE_H_

#include <string>
#include <vector>

#include "compress/toolschema/catalog_shape.h"

namespace caveman::toolschema {

struct ToolProfile {
  std::string name;
  std::vector<std::string> entries;  // sorted, unique: "param:…", "type:…", "enum:…", "required:…"
};

// The sorted, unique entries of one input schema.
std::vector<std::string> profile_schema(const json::Value& schema);

std::vector<ToolProfile> profile_catalog(const Catalog& catalog);

// True when `after` names the same tools in the same order and every entry of each `before`
// profile is in the matching `after` profile. On false, `why` names the first loss.
bool profile_preserved(const std::vector<ToolProfile>& before,
                       const std::vector<ToolProfile>& after, std::string* why);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_PROFILE_H_
