#include "compress/toolschema/schema_shrink.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "compress/toolschema/description.h"

namespace caveman::toolschema {
namespace {

template <std::size_t N>
bool is_one_of(std::string_view key, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), key) != names.end();
}

// Documentation-only schema keywords.
constexpr std::array<std::string_view, 5> kDocKeywords = {"$schema", "title", "examples",
                                                          "example", "$comment"};
// Keywords whose value is a map from user-chosen names to schemas.
constexpr std::array<std::string_view, 5> kNameMaps = {"properties", "patternProperties", "$defs",
                                                       "definitions", "dependentSchemas"};
// Keywords whose value is a schema or an array of schemas.
constexpr std::array<std::string_view, 15> kSubschemas = {
    "items", "prefixItems", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
    "propertyNames", "contains", "not", "if", "then", "else", "allOf", "anyOf", "oneOf",
    "additionalProperties"};
// Tool members only clients read.
constexpr std::array<std::string_view, 7> kClientOnly = {
    "title", "annotations", "outputSchema", "output_schema", "execution", "icons", "_meta"};

// Removes every member named `key`.
void erase_member(json::Value& obj, std::string_view key) {
  std::erase_if(obj.members, [&](const json::Member& m) { return m.key == key; });
}

// JavaScript's Number.MAX_SAFE_INTEGER bounds that zod's .int() writes: no real limit.
bool is_safe_integer_bound(std::string_view key, const json::Value& v) {
  if (!v.is_number()) return false;
  if (key == "maximum" || key == "exclusiveMaximum") return v.text == "9007199254740991";
  if (key == "minimum" || key == "exclusiveMinimum") return v.text == "-9007199254740991";
  return false;
}

bool is_null_schema(const json::Value& v) {
  return v.is_object() && v.members.size() == 1 && v.members[0].key == "type" &&
         v.members[0].value.is_string() && v.members[0].value.text == "null";
}

// `{"type":T}` or `{"type":T,"enum":[…]}` with T a single type name other than "null".
bool is_simple_typed(const json::Value& v) {
  if (!v.is_object() || v.members.empty() || v.members.size() > 2) return false;
  const json::Value* type = v.find("type");
  if (type == nullptr || !type->is_string() || type->text == "null") return false;
  if (v.members.size() == 2) {
    const json::Value* e = v.find("enum");
    if (e == nullptr || !e->is_array()) return false;
  }
  return true;
}

// anyOf/oneOf [X, {"type":"null"}] → "type":[T,"null"] (+ "enum":[…, null]) in place.
void merge_nullable(json::Value& schema) {
  if (schema.find("type") != nullptr || schema.find("enum") != nullptr) return;
  for (std::size_t i = 0; i < schema.members.size(); ++i) {
    json::Member& m = schema.members[i];
    if ((m.key != "anyOf" && m.key != "oneOf") || !m.value.is_array() ||
        m.value.items.size() != 2) {
      continue;
    }
    std::vector<json::Value>& alts = m.value.items;
    std::size_t typed = is_null_schema(alts[1]) ? 0 : (is_null_schema(alts[0]) ? 1 : 2);
    if (typed == 2 || !is_simple_typed(alts[typed])) continue;
    json::Value base = std::move(alts[typed]);
    json::Value types = json::Value::array();
    types.items.push_back(std::move(*base.find("type")));
    types.items.push_back(json::Value::string("null"));
    std::vector<json::Member> replacement;
    replacement.push_back(json::Member{"type", std::move(types)});
    if (json::Value* e = base.find("enum")) {
      json::Value values = std::move(*e);
      bool has_null = std::any_of(values.items.begin(), values.items.end(),
                                  [](const json::Value& x) { return x.is_null(); });
      if (!has_null) values.items.push_back(json::Value::null());
      replacement.push_back(json::Member{"enum", std::move(values)});
    }
    schema.members.erase(schema.members.begin() + static_cast<std::ptrdiff_t>(i));
    schema.members.insert(schema.members.begin() + static_cast<std::ptrdiff_t>(i),
                          std::make_move_iterator(replacement.begin()),
                          std::make_move_iterator(replacement.end()));
    return;
  }
}

class SchemaShrinker {
 public:
  SchemaShrinker(std::string_view tool_name, bool strict, ShrinkContext& context)
      : tool_name_(tool_name), strict_(strict), context_(context) {}

  // `param` is the property name when `v` is a property's schema (or inside one).
  void shrink(json::Value& v, std::string_view param) {
    if (v.is_array()) {
      for (json::Value& item : v.items) shrink(item, param);
      return;
    }
    if (!v.is_object()) return;
    merge_nullable(v);
    std::vector<json::Member> kept;
    kept.reserve(v.members.size());
    for (json::Member& m : v.members) {
      if (drop_member(m)) continue;
      if (is_one_of(m.key, kNameMaps) && m.value.is_object()) {
        bool is_properties = m.key == "properties";
        for (json::Member& child : m.value.members) {
          shrink(child.value, is_properties ? std::string_view(child.key) : std::string_view());
        }
        if (is_properties && m.value.members.empty()) continue;
      } else if (is_one_of(m.key, kSubschemas)) {
        shrink(m.value, param);
      }
      kept.push_back(std::move(m));
    }
    v.members = std::move(kept);
    if (json::Value* d = v.find("description"); d != nullptr && d->is_string()) {
      std::string text = describe(d->text, param, v.find("default") != nullptr);
      if (text.empty()) {
        erase_member(v, "description");
      } else {
        d->text = std::move(text);
      }
    }
  }

 private:
  bool drop_member(const json::Member& m) const {
    if (is_doc_keyword(m.key)) return true;
    if (is_safe_integer_bound(m.key, m.value)) return true;
    if (m.key == "additionalProperties") {
      if (m.value.is_bool()) return m.value.boolean || !strict_;
      return m.value.is_object() && m.value.members.empty();
    }
    if (m.key == "required") return m.value.is_array() && m.value.items.empty();
    return false;
  }

  std::string describe(std::string_view text, std::string_view param, bool has_default) {
    DescriptionOptions options;
    options.lead_cap = kParamLeadCap;
    options.has_default = has_default;
    std::string out = condense_description(text, options);
    if (out.empty() || param.empty()) return out;
    bool constraint = states_constraint(out);
    if (!constraint && echoes_names(out, {param, tool_name_})) return {};
    // Hoisting: a description stated earlier in the catalog is not repeated; a constraint is
    // repeated unless the same parameter stated it. A compound parameter name (`pageId`,
    // `includeSnapshot`, `file_path`) names one concept across a server's tools, so its first
    // plain description stands for all of them; one-word names (`type`, `name`) are too
    // generic for that.
    std::string text_key = constraint ? std::string(param) + '\n' + out : out;
    bool new_text = context_.stated.insert(text_key).second;
    bool new_name = true;
    if (!constraint && name_words(param).size() >= 2) {
      new_name = context_.stated.insert("\x01" + std::string(param)).second;
    }
    if (!new_text || !new_name) return {};
    return out;
  }

  std::string_view tool_name_;
  bool strict_;
  ShrinkContext& context_;
};

}  // namespace

bool is_doc_keyword(std::string_view key) { return is_one_of(key, kDocKeywords); }

bool is_client_only_tool_member(std::string_view key) { return is_one_of(key, kClientOnly); }

void shrink_schema(json::Value& schema, std::string_view tool_name, bool strict,
                   ShrinkContext& context) {
  SchemaShrinker(tool_name, strict, context).shrink(schema, {});
}

void shrink_tool(const ToolRef& tool, ShrinkContext& context) {
  json::Value& envelope = *tool.envelope;
  json::Value& holder = tool.function != nullptr ? *tool.function : envelope;
  const json::Value* strict_flag = holder.find("strict");
  if (strict_flag == nullptr) strict_flag = envelope.find("strict");
  bool strict = strict_flag != nullptr && strict_flag->is_bool() && strict_flag->boolean;

  for (json::Value* obj : {&envelope, &holder}) {
    std::erase_if(obj->members,
                  [](const json::Member& m) { return is_client_only_tool_member(m.key); });
    if (obj == &holder && &holder == &envelope) break;
  }
  if (json::Value* d = holder.find("description"); d != nullptr && d->is_string()) {
    std::string text = condense_description(d->text, DescriptionOptions{kToolLeadCap, false});
    if (text.empty()) {
      erase_member(holder, "description");
    } else {
      d->text = std::move(text);
    }
  }
  if (json::Value* schema = input_schema_of(tool)) {
    shrink_schema(*schema, tool.name, strict, context);
  }
}

}  // namespace caveman::toolschema
