#include "compress/toolschema/catalog_shrink.h"

#include <optional>
#include <string>
#include <utility>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "caveman/toolschema.h"
#include "compress/toolschema/catalog_profile.h"
#include "compress/toolschema/catalog_shape.h"
#include "compress/toolschema/schema_shrink.h"
#include "compress/toolschema/tool_costs.h"
#include "json/json.h"

namespace caveman::toolschema {
namespace {

std::string dialect_of(const Catalog& catalog) {
  std::string dialect;
  for (const ToolRef& t : catalog.tools) {
    if (dialect.empty()) {
      dialect = t.dialect;
    } else if (dialect != t.dialect) {
      return "mixed";
    }
  }
  return dialect;
}

// RFC 8259 JSON in UTF-8: strings with invalid UTF-8 are refused rather than copied through.
std::optional<json::Value> parse_utf8_json(std::string_view input) {
  if (!base::is_valid_utf8(input)) return std::nullopt;
  return json::parse(input);
}

// Compact JSON of `doc`, ending in a newline when the input did.
std::string write_like_input(const json::Value& doc, std::string_view input) {
  std::string out = json::to_compact(doc);
  if (!input.empty() && input.back() == '\n') out.push_back('\n');
  return out;
}

}  // namespace

CatalogShrink shrink_catalog(std::string_view input) {
  CatalogShrink out;
  std::optional<json::Value> doc = parse_utf8_json(input);
  if (!doc) {
    out.note = std::string(codes::kInvalidCatalog) + ": input is not valid JSON";
    return out;
  }
  json::Value original = *doc;
  Catalog before = find_catalog(original);
  Catalog after = find_catalog(*doc);
  if (after.shape == CatalogShape::kNone) {
    out.note = std::string(codes::kInvalidCatalog) + ": no tool with a non-empty name";
    return out;
  }
  out.shape = std::string(shape_name(after.shape));
  out.dialect = dialect_of(after);

  ShrinkContext context;
  for (const ToolRef& tool : after.tools) shrink_tool(tool, context);

  std::string why;
  if (!profile_preserved(profile_catalog(before), profile_catalog(after), &why)) {
    out.note = std::string(codes::kInternalError) + ": shrinking would lose " + why;  // a bug guard
    return out;
  }
  for (std::size_t i = 0; i < after.tools.size(); ++i) {
    ShrunkTool tool{after.tools[i].name, json::to_compact(*before.tools[i].envelope),
                    json::to_compact(*after.tools[i].envelope), {}, {}};
    list_tool_costs(*before.tools[i].envelope, tool);
    out.tools.push_back(std::move(tool));
  }
  out.output = write_like_input(*doc, input);
  out.shrunk = true;
  return out;
}

std::optional<std::string> shrink_bare_schema(std::string_view input) {
  std::optional<json::Value> doc = parse_utf8_json(input);
  if (!doc || !doc->is_object()) return std::nullopt;
  ToolProfile before{"", profile_schema(*doc)};
  ShrinkContext context;
  shrink_schema(*doc, {}, /*strict=*/false, context);
  if (!profile_preserved({before}, {ToolProfile{"", profile_schema(*doc)}}, nullptr)) {
    return std::nullopt;
  }
  return write_like_input(*doc, input);
}

}  // namespace caveman::toolschema
