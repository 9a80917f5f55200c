#include "evals/json_schema.h"

#include <cstdlib>
#include <optional>
#include <regex>

#include "text/utf8.h"

namespace caveman::evals {
namespace {

std::optional<double> as_number(const json::Value* v) {
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return std::strtod(v->text.c_str(), nullptr);
}

bool is_integer(const json::Value& v) {
  if (!v.is_number()) return false;
  double d = std::strtod(v.text.c_str(), nullptr);
  return d == static_cast<double>(static_cast<long long>(d));
}

bool has_type(const json::Value& v, std::string_view type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer") return is_integer(v);
  if (type == "boolean") return v.is_bool();
  if (type == "null") return v.is_null();
  return false;
}

std::string validate(const json::Value& v, const json::Value& s, const std::string& path) {
  if (!s.is_object()) return "";  // true/false schemas and junk: not in the subset
  if (const json::Value* t = s.find("type")) {
    bool ok = false;
    if (t->is_string()) ok = has_type(v, t->text);
    for (const json::Value& e : t->items) ok = ok || (e.is_string() && has_type(v, e.text));
    if (!ok) return path + ": wrong type";
  }
  if (const json::Value* e = s.find("enum"); e && e->is_array()) {
    bool ok = false;
    for (const json::Value& x : e->items) ok = ok || json_equal(v, x);
    if (!ok) return path + ": not one of the enum values";
  }
  if (const json::Value* c = s.find("const"); c && !json_equal(v, *c))
    return path + ": not the const value";
  if (v.is_string()) {
    auto len = static_cast<double>(text::rune_count(v.text));
    if (auto n = as_number(s.find("minLength")); n && len < *n)
      return path + ": shorter than minLength";
    if (auto n = as_number(s.find("maxLength")); n && len > *n)
      return path + ": longer than maxLength";
    if (const json::Value* p = s.find("pattern"); p && p->is_string()) {
      try {
        if (!std::regex_search(v.text, std::regex(p->text, std::regex::ECMAScript))) {
          return path + ": does not match pattern";
        }
      } catch (const std::regex_error&) {
        return path + ": invalid pattern in schema";
      }
    }
  }
  if (v.is_number()) {
    double x = std::strtod(v.text.c_str(), nullptr);
    if (auto n = as_number(s.find("minimum")); n && x < *n) return path + ": below minimum";
    if (auto n = as_number(s.find("maximum")); n && x > *n) return path + ": above maximum";
  }
  if (v.is_array()) {
    auto size = static_cast<double>(v.items.size());
    if (auto n = as_number(s.find("minItems")); n && size < *n)
      return path + ": fewer than minItems";
    if (auto n = as_number(s.find("maxItems")); n && size > *n)
      return path + ": more than maxItems";
    if (const json::Value* items = s.find("items"); items && items->is_object()) {
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        std::string e = validate(v.items[i], *items, path + "[" + std::to_string(i) + "]");
        if (!e.empty()) return e;
      }
    }
  }
  if (v.is_object()) {
    if (const json::Value* req = s.find("required"); req && req->is_array()) {
      for (const json::Value& k : req->items) {
        if (k.is_string() && v.find(k.text) == nullptr)
          return path + ": missing required " + k.text;
      }
    }
    const json::Value* props = s.find("properties");
    const json::Value* additional = s.find("additionalProperties");
    bool closed = additional != nullptr && additional->is_bool() && !additional->boolean;
    for (const json::Member& m : v.members) {
      const json::Value* sub =
          props != nullptr && props->is_object() ? props->find(m.key) : nullptr;
      if (sub != nullptr) {
        std::string e = validate(m.value, *sub, path + "." + m.key);
        if (!e.empty()) return e;
      } else if (closed) {
        return path + ": additional property " + m.key;
      }
    }
  }
  return "";
}

}  // namespace

bool json_equal(const json::Value& a, const json::Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case json::Kind::kNull:
      return true;
    case json::Kind::kBool:
      return a.boolean == b.boolean;
    case json::Kind::kString:
      return a.text == b.text;
    case json::Kind::kNumber: {
      if (a.text == b.text) return true;
      char* ea = nullptr;
      char* eb = nullptr;
      double x = std::strtod(a.text.c_str(), &ea), y = std::strtod(b.text.c_str(), &eb);
      return *ea == '\0' && *eb == '\0' && x == y;
    }
    case json::Kind::kArray:
      if (a.items.size() != b.items.size()) return false;
      for (std::size_t i = 0; i < a.items.size(); ++i) {
        if (!json_equal(a.items[i], b.items[i])) return false;
      }
      return true;
    case json::Kind::kObject:
      if (a.members.size() != b.members.size()) return false;
      for (const json::Member& m : a.members) {
        const json::Value* o = b.find(m.key);
        if (o == nullptr || !json_equal(m.value, *o)) return false;
      }
      return true;
  }
  return false;
}

std::string validate_json_schema(const json::Value& value, const json::Value& schema) {
  return validate(value, schema, "$");
}

}  // namespace caveman::evals
