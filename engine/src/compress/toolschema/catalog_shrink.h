// The catalog-level steps of tool-catalog shrinking behind caveman/toolschema.h, and the bare
// JSON Schema case that only the engine's `toolschema` compressor accepts.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHRINK_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHRINK_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::toolschema {

// `input` shrunk as one JSON Schema object (no tool around it; no parameter name for the
// echo check), compact with the input's final newline; nullopt when `input` is not a JSON
// object or the selection profile would not survive.
std::optional<std::string> shrink_bare_schema(std::string_view input);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHRINK_H_
