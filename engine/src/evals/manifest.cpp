#include "evals/manifest.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <optional>

#include "caveman/base/codes.h"

namespace caveman::evals {
namespace {

Status invalid(const std::string& what) {
  return Status::InvalidArgument(codes::kInvalidManifest, what);
}

// A plain (unquoted) scalar that reads as a JSON literal keeps that type, so schemas and
// numeric options written in YAML mean what they say; quoted scalars stay strings.
json::Value scalar(const YAML::Node& n) {
  const std::string& s = n.Scalar();
  if (n.Tag() == "?") {
    if (s == "true" || s == "false") return json::Value::from_bool(s == "true");
    if (s == "null" || s == "~") return json::Value::null();
    if (!s.empty() && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))) {
      std::optional<json::Value> v = json::parse(s);
      if (v && v->is_number()) return *v;
    }
  }
  return json::Value::string(s);
}

json::Value to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence: {
      json::Value a = json::Value::array();
      for (const YAML::Node& e : n) a.items.push_back(to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      json::Value o = json::Value::object();
      for (const auto& kv : n) o.add(kv.first.as<std::string>(), to_json(kv.second));
      return o;
    }
    case YAML::NodeType::Scalar:
      return scalar(n);
    default:
      return json::Value::null();
  }
}

// A scalar field as text; empty when absent or null. Throws (caught by the caller) when
// the node is a sequence or map.
std::string text(const YAML::Node& parent, const char* key) {
  YAML::Node n = parent[key];
  if (!n || n.IsNull()) return "";
  if (!n.IsScalar()) throw YAML::Exception(n.Mark(), std::string(key) + " must be a scalar");
  return n.Scalar();
}

std::optional<double> number(const YAML::Node& parent, const char* key) {
  std::string s = text(parent, key);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') {
    throw YAML::Exception(parent[key].Mark(), std::string(key) + " must be a number");
  }
  return v;
}

GraderSpec grader(const YAML::Node& n) {
  if (!n.IsMap()) throw YAML::Exception(n.Mark(), "a grader must be a map");
  GraderSpec g;
  g.type = text(n, "type");
  g.min = number(n, "min");
  g.max = number(n, "max");
  g.value = text(n, "value");
  g.reference = text(n, "reference");
  if (YAML::Node o = n["options"]; o && !o.IsNull()) {
    if (!o.IsMap()) throw YAML::Exception(o.Mark(), "options must be a map");
    g.options = to_json(o);
  }
  return g;
}

FixtureSpec fixture(const YAML::Node& n) {
  if (!n.IsMap()) throw YAML::Exception(n.Mark(), "a fixture must be a map");
  FixtureSpec f;
  f.name = text(n, "name");
  f.file = text(n, "file");
  f.type = text(n, "type");
  f.mode = text(n, "mode");
  f.query = text(n, "query");
  f.page = text(n, "page") == "true";
  if (YAML::Node p = n["probes"]; p && !p.IsNull()) {
    if (!p.IsSequence()) throw YAML::Exception(p.Mark(), "probes must be a list");
    for (const YAML::Node& e : p) {
      if (!e.IsMap()) throw YAML::Exception(e.Mark(), "a probe must be a map");
      f.probes.push_back(ProbeSpec{text(e, "dimension"), text(e, "value")});
    }
  }
  if (YAML::Node g = n["graders"]; g && !g.IsNull()) {
    if (!g.IsSequence()) throw YAML::Exception(g.Mark(), "graders must be a list");
    for (const YAML::Node& e : g) f.graders.push_back(grader(e));
  }
  return f;
}

}  // namespace

Result<Manifest> parse_manifest(std::string_view yaml) {
  Manifest m;
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    if (!root.IsMap()) return invalid("the manifest must be a map with a fixtures list");
    YAML::Node list = root["fixtures"];
    if (!list || !list.IsSequence() || list.size() == 0) {
      return invalid("the manifest has no fixtures");
    }
    for (const YAML::Node& n : list) m.fixtures.push_back(fixture(n));
  } catch (const YAML::Exception& e) {
    return invalid(e.what());
  }
  for (std::size_t i = 0; i < m.fixtures.size(); ++i) {
    if (m.fixtures[i].name.empty() || m.fixtures[i].file.empty()) {
      return invalid("fixture " + std::to_string(i) + " needs a name and a file");
    }
  }
  return m;
}

}  // namespace caveman::evals
