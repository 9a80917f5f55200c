// What one tool spends before shrinking, for caveman-shrink lint: its descriptions (with the
// parameter each documents) and its client-only members. Pure; thread-safe.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_TOOL_COSTS_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_TOOL_COSTS_H_

#include "caveman/toolschema.h"
#include "json/json.h"

namespace caveman::toolschema {

// Fills `tool.descriptions` and `tool.client_only` from `envelope`, in document order: the
// envelope's members, then (OpenAI Chat) its `function`'s, descending into the input schema.
void list_tool_costs(const json::Value& envelope, ShrunkTool& tool);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_TOOL_COSTS_H_
