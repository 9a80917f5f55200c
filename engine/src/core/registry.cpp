#include <algorithm>

#include "caveman/ccr.h"
#include "caveman/compressor.h"
#include "compress/compressors.h"
#include "core/detect_rules.h"
#include "json/json.h"

namespace caveman {
namespace {

// `text` is what detection answers when no rule proves a type, so its lossy compressor runs
// only on what line shapes prove to be prose (Markdown, or lines of words that are at least
// half the text); anything else gets the lossless views (docs/spec/detect.md#text).
class ProvenText final : public Compressor {
 public:
  explicit ProvenText(const tokens::Counter& counter)
      : prose_(compress::make_factored(compress::make_text_compressor(), counter,
                                       compress::FactorViews{.prose = true})),
        lossless_(compress::make_lossless_factored("text", counter,
                                                   compress::FactorViews{.prose = true})) {}
  std::string_view type() const override { return "text"; }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_with(input, Request{query, 0});
  }
  std::optional<CompressorOutput> compress_with(std::string_view input,
                                                const Request& request) const override {
    core::LineStats st = core::line_stats(input);
    bool prose = core::markdown_document(st) || core::markdown_prose(st) ||
                 (st.prose_lines >= 3 && st.prose_lines * 2 >= st.non_comment);
    return (prose ? prose_ : lossless_)->compress_with(input, request);
  }

 private:
  std::unique_ptr<Compressor> prose_;
  std::unique_ptr<Compressor> lossless_;
};

// HTML becomes page text only when it is a page the agent fetched (Request::page_text); an
// HTML file read or printed by a command is markup the agent may edit, so it gets lossless
// views (docs/engine.md).
class PageOrMarkup final : public Compressor {
 public:
  explicit PageOrMarkup(const tokens::Counter& counter)
      : page_(compress::make_html_compressor()),
        markup_(compress::make_lossless_factored("html", counter)) {}
  std::string_view type() const override { return "html"; }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_with(input, Request{query, 0});
  }
  std::optional<CompressorOutput> compress_with(std::string_view input,
                                                const Request& request) const override {
    return (request.page_text ? page_ : markup_)->compress_with(input, request);
  }

 private:
  std::unique_ptr<Compressor> page_;
  std::unique_ptr<Compressor> markup_;
};

}  // namespace

void Registry::add(std::unique_ptr<Compressor> compressor) {
  std::string key(compressor->type());
  by_type_[key] = std::move(compressor);
}

const Compressor* Registry::find(std::string_view type) const {
  auto it = by_type_.find(type);
  return it == by_type_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Registry::types() const {
  std::vector<std::string> out;
  for (const auto& [key, _] : by_type_) out.push_back(key);
  return out;
}

Registry Registry::default_registry(const tokens::Counter& counter, bool toon_best_of) {
  Registry r;
  r.add(compress::make_json_views(toon_best_of ? compress::make_best_of_json_compressor(counter)
                                                : compress::make_json_compressor(),
                                   counter));
  r.add(compress::make_factored(compress::make_log_compressor(), counter));
  r.add(compress::make_code_compressor());
  r.add(compress::make_diff_compressor(counter));
  r.add(compress::make_factored(compress::make_search_result_compressor(), counter,
                                 compress::FactorViews{.grep = true}));
  r.add(std::make_unique<ProvenText>(counter));
  r.add(std::make_unique<PageOrMarkup>(counter));
  // Types whose every line is a fact get lossless views only (docs/engine.md).
  r.add(compress::make_lossless_factored("xml", counter));
  r.add(compress::make_lossless_factored("diagnostics", counter));
  r.add(compress::make_lossless_factored("records", counter));
  r.add(compress::make_tabular_views(
      compress::make_factored(compress::make_tabular_compressor(), counter), counter));
  r.add(compress::make_factored(compress::make_config_compressor(), counter,
                                 compress::FactorViews{.sections = true}));
  r.add(compress::make_toolschema_compressor());
  r.add(compress::make_toolschema_annotations_compressor());
  r.add(compress::make_toon_compressor());
  r.add(compress::make_a11y_compressor(counter));
  r.add(compress::make_repetition_compressor());
  r.add(compress::make_factored(compress::make_terminal_compressor(), counter));
  return r;
}

namespace {

json::Value str(std::string_view s) { return json::Value::string(std::string(s)); }

json::Value string_array(std::initializer_list<std::string_view> items) {
  json::Value a = json::Value::array();
  for (auto s : items) a.items.push_back(str(s));
  return a;
}

json::Value segment_kinds(std::string_view type) {
  if (type == "toolschema") return string_array({"tool_schema"});
  if (type == "a11y") return string_array({"artifact", "tool_result"});
  if (type == "repetition") return string_array({"history", "tool_result"});
  return string_array({"artifact", "history", "skill", "tool_result"});
}

}  // namespace

std::string Registry::capability_manifest_json() {
  // The manifest names the default registry's types; the counter is irrelevant here.
  static constexpr std::string_view kTypes[] = {
      "a11y",       "code",    "config",     "diagnostics",   "diff",    "html",     "json",
      "log",        "records", "repetition", "search-result", "tabular", "terminal", "text",
      "toolschema", "toon",    "xml"};
  json::Value caps = json::Value::array();
  for (std::string_view type : kTypes) {
    std::string id = "caveman.engine." + std::string(type) + ".v1";
    json::Value c = json::Value::object();
    c.add("transform_id", str(id));
    c.add("implementation_version", str("1"));
    c.add("safety_classes", string_array({"S4"}));
    c.add("deterministic", json::Value::from_bool(true));
    c.add("recovery", str("exact_ccr"));
    c.add("eligible_segment_kinds", segment_kinds(type));
    c.add("requires_eval", json::Value::from_bool(true));
    c.add("not_smaller_fallback", str("original"));
    json::Value prov = json::Value::object();
    prov.add("kind", str("native"));
    prov.add("source_manifest_sha256", json::Value::null());
    c.add("provenance", std::move(prov));
    c.add("conformance_digest",
          str(ccr::sha256_hex("caveman.engine." + std::string(type) + ":v1")));
    caps.items.push_back(std::move(c));
  }
  std::string caps_json = json::to_compact(caps);
  json::Value env = json::Value::object();
  env.add("schema_version", json::Value::number("1"));
  env.add("registry_sha256", str(ccr::sha256_hex(caps_json)));
  env.add("capabilities", std::move(caps));
  return json::to_compact(env);
}

}  // namespace caveman
