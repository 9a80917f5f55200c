#include "native/masking.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <vector>

#include "caveman/base/split.h"
#include "caveman/base/text.h"
#include "caveman/tool_source.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kHeadLines = 15;
constexpr std::size_t kTailLines = 10;
constexpr std::size_t kMaxPreviewLine = 240;

bool contains_any(std::string_view haystack, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(), [&](std::string_view n) {
    return haystack.find(n) != std::string_view::npos;
  });
}

std::string command_of(const ToolArgs& args) {
  for (std::string_view key : {"command", "cmd"}) {
    for (const auto& [k, v] : args) {
      if (k == key) return base::ascii_lower(v);
    }
  }
  return {};
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void append_preview_line(std::string_view line, std::string& out) {
  std::string_view cut = utf8_prefix(line, kMaxPreviewLine);
  out.append(cut);
  if (cut.size() < line.size()) out += " …";
  out += '\n';
}

// In-place compression is allowed for these detected types under policy safe
// (docs/native.md#behaviours).
bool safe_in_place(std::string_view type) {
  return type == "json" || type == "tabular" || type == "log";
}

std::string decision_id_for(const MaskInput& in, std::string_view content_hash) {
  std::string seed = std::string(in.session_id) + '\0' + std::string(in.tool_name) + '\0' +
                     std::string(content_hash) + '\0' + std::string(policy_name(in.policy));
  return "dec_" + ccr::sha256_hex(seed).substr(0, 24);
}

}  // namespace

ToolArgs tool_args_of(std::string_view input_json) {
  ToolArgs args;
  if (input_json.empty()) return args;
  Json in = Json::parse(input_json, nullptr, false);
  if (in.is_discarded() || !in.is_object()) return args;
  for (const auto& [key, value] : in.items()) {
    if (value.is_string()) args.emplace_back(key, value.get<std::string>());
  }
  return args;
}

std::string_view object_kind_for(std::string_view tool_name, const ToolArgs& args) {
  std::string tool = base::ascii_lower(tool_name);
  if (tool == "read" || tool == "view" || tool == "notebookread" || tool == "read_file") {
    return "FileObservation";
  }
  if (tool == "grep" || tool == "glob" || tool == "search" || tool == "websearch" || tool == "ls") {
    return "SearchResult";
  }
  if (tool == "webfetch") return "DocumentationExcerpt";
  if (contains_any(tool, {"snapshot", "browser"})) return "BrowserSnapshot";
  std::string cmd = command_of(args);
  if (!cmd.empty()) {
    if (contains_any(cmd, {"pytest", "go test", "npm test", "npm run test", "yarn test", "ctest",
                           "jest", "vitest", "cargo test", "make test", "unittest", "gtest"})) {
      return "TestResult";
    }
    if (contains_any(cmd, {"make", "cmake --build", "ninja", "cargo build", "go build",
                           "npm run build", "tsc", "gcc ", "g++ ", "clang", "mvn ", "gradle"})) {
      return "BuildResult";
    }
    if (contains_any(cmd, {"git diff", "git show", "diff -"})) return "DiffSnapshot";
    if (contains_any(cmd, {"grep ", "rg ", "ag ", "find "})) return "SearchResult";
    if (contains_any(cmd, {"cat ", "head ", "tail ", "less "})) return "FileObservation";
  }
  return "CommandResult";
}

std::string pointer_stub(std::string_view tool_name, std::string_view kind,
                         std::string_view object_id, std::string_view output) {
  std::vector<std::string_view> lines = base::split_lines(output);
  std::string out = "[caveman] The " + std::string(tool_name.empty() ? "tool" : tool_name) +
                    " output (" + with_commas(output.size()) + " bytes, " +
                    with_commas(lines.size()) + " lines) is stored as ccr://" +
                    std::string(object_id) + " (" + std::string(kind) + ").\n";
  out += "Read it exactly with caveman_retrieve {\"recovery_handle\":\"ccr://" +
         std::string(object_id) +
         "\"} (add \"query\" for only the matching part) or `caveman-engine retrieve ccr://" +
         std::string(object_id) + "`.\n";
  if (lines.size() <= kHeadLines + kTailLines) {
    out += "Lines:\n";
    for (std::string_view l : lines) append_preview_line(l, out);
    return out;
  }
  out += "First " + std::to_string(kHeadLines) + " lines:\n";
  for (std::size_t i = 0; i < kHeadLines; ++i) append_preview_line(lines[i], out);
  out += "… " + with_commas(lines.size() - kHeadLines - kTailLines) + " lines not shown …\n";
  out += "Last " + std::to_string(kTailLines) + " lines:\n";
  for (std::size_t i = lines.size() - kTailLines; i < lines.size(); ++i) {
    append_preview_line(lines[i], out);
  }
  return out;
}

Result<MaskOutcome> mask_tool_output(const Engine& engine, ccr::Store& store, const MaskInput& in) {
  MaskOutcome m;
  std::string content_hash = "sha256:" + ccr::sha256_hex(in.output);
  m.decision_id = decision_id_for(in, content_hash);
  ToolArgs args = tool_args_of(in.tool_input_json);  // parsed once: the hint and the kind
  std::string source_path = tool_source_path(in.tool_name, args);  // a detection hint
  m.content_type = detect(in.output, source_path);
  m.tokens_before = -1;

  if (safe_in_place(m.content_type) || in.policy == PolicyMode::kMax) {
    Options options;
    options.mode = "compress";
    options.source_path = std::move(source_path);
    CompressResult r = engine.compress(in.output, options);
    m.tokens_before = r.tokens_before;  // counted once: BPE over megabytes is the slow part
    if (!r.passed_through() && !r.recovery_handle.empty()) {
      m.replaced = true;
      m.method = r.method;
      m.recovery_ref = r.recovery_handle;
      m.replacement = std::move(r.output);
      if (!m.replacement.empty() && m.replacement.back() != '\n') m.replacement += '\n';
      m.replacement +=
          "[caveman] " + m.content_type + " output compressed (" +
          with_commas(static_cast<std::uint64_t>(r.tokens_before)) + " → " +
          with_commas(static_cast<std::uint64_t>(r.tokens_after)) +
          " tokens, inferred); exact original: caveman_retrieve {\"recovery_handle\":\"" +
          r.recovery_handle + "\"}\n";
      m.tokens_after = static_cast<std::int64_t>(engine.counter().count(m.replacement));
      m.reason = "over threshold; " + m.content_type + " compressed in place";
      return m;
    }
    // Not smaller or no store: fall through to the typed object.
  }

  if (m.tokens_before < 0)
    m.tokens_before = static_cast<std::int64_t>(engine.counter().count(in.output));
  std::string_view kind = object_kind_for(in.tool_name, args);
  ccr::TypedObject o;
  o.type = std::string(kind);
  o.source = "tool:" + std::string(in.tool_name);
  o.session_id = std::string(in.session_id);
  o.repository_state = std::string(in.repository_state);
  o.transform_version = std::string(kTransformVersion);
  o.content_hash = content_hash;
  o.data = std::string(in.output);
  CAVEMAN_ASSIGN_OR_RETURN(ccr::TypedObject stored, store.put_object(std::move(o)));
  m.replaced = true;
  m.object_id = stored.object_id;
  m.recovery_ref = "ccr://" + stored.object_id;
  m.method = "ccr-pointer";
  m.replacement = pointer_stub(in.tool_name, kind, stored.object_id, in.output);
  m.tokens_after = static_cast<std::int64_t>(engine.counter().count(m.replacement));
  m.reason = "over threshold; " + m.content_type + " output stored as " + std::string(kind);
  return m;
}

}  // namespace caveman::proxy::native
