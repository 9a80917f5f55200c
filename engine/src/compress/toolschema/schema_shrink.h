// Model-facing shrinking of one tool and its JSON Schema.
//
// What the model needs to call a tool stays exactly: tool and parameter names, `type`,
// `enum`, `const`, `required`, `default`, `$ref`/`$defs`, numeric and length bounds,
// `pattern`, `format`, `items`, combinators, and description sentences that state
// constraints. What only clients or documentation use goes: `$schema`, `title`,
// `examples`/`example`, `$comment`, `additionalProperties: false` (kept under OpenAI
// `strict: true`, which requires it), no-op keywords (`additionalProperties: true`/`{}`,
// empty `properties`/`required`, JavaScript's ±(2^53−1) integer bounds), and at tool level
// `title`, `annotations`, `outputSchema`, `execution`, `icons` and `_meta`. Shorter idioms:
// `anyOf`/`oneOf` of a typed schema and `{"type":"null"}` becomes a type list (its enum gains
// `null`). Descriptions are condensed (description.h); a parameter description that only
// echoes its names, or repeats one already stated earlier in the catalog, is dropped — the
// first statement of a shared parameter definition stands for all (catalog-wide hoisting).
// `$ref` is never resolved, so reference cycles cannot loop. Not thread-safe per context.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_SCHEMA_SHRINK_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_SCHEMA_SHRINK_H_

#include <set>
#include <string>
#include <string_view>

#include "compress/toolschema/catalog_shape.h"
#include "json/json.h"

namespace caveman::toolschema {

// Catalog-wide state: descriptions already stated (for hoisting).
struct ShrinkContext {
  std::set<std::string, std::less<>> stated;
};

// Documentation-only schema keywords: `$schema`, `title`, `examples`, `example`, `$comment`.
bool is_doc_keyword(std::string_view key);
// Tool members only clients read: `title`, `annotations`, `outputSchema`, `output_schema`,
// `execution`, `icons`, `_meta`.
bool is_client_only_tool_member(std::string_view key);

// Shrinks `schema` in place. `tool_name` feeds the echo check; `strict` keeps
// `additionalProperties: false`.
void shrink_schema(json::Value& schema, std::string_view tool_name, bool strict,
                   ShrinkContext& context);

// Shrinks a tool envelope in place (its description, schema and client-only members).
void shrink_tool(const ToolRef& tool, ShrinkContext& context);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_SCHEMA_SHRINK_H_
