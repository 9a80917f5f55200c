// The config compressor (docs/spec/compressors.md#config): YAML, TOML, INI and flat key = value
// files. Keeps the first 3 and last 2 lines, problem lines, YAML top-level keys, query-relevant
// lines and every line the redundancy gate calls novel, then adds context (YAML ancestors
// and the first children of kept parents; a TOML line's section header and a kept header's
// first lines). Each elided run becomes `# … N config lines elided (caveman) …`. YAML output
// must still parse, or the input passes through.
#include <string>
#include <vector>

#include "compress/common/elide_lines.h"
#include "compress/common/keep_policy.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/config/config_parse.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

constexpr KeepPolicy kConfigKeep{.min_units = 14, .head = 3, .tail = 2, .query_limit = 16};
constexpr std::size_t kChildLines = 8;
constexpr std::string_view kConfigMarkerWhat = "config lines";

bool has_problem_word(std::string_view line) {
  return text::contains_word_ci(line, {"error", "fail", "failed", "fatal", "panic", "exception",
                                       "warning", "security", "secret", "token", "password",
                                       "denied", "rejected", "rollback"});
}

bool is_active(ConfigLine k) {
  return k == ConfigLine::kSection || k == ConfigLine::kAssignment ||
         k == ConfigLine::kYamlKey || k == ConfigLine::kListItem ||
         k == ConfigLine::kProse || k == ConfigLine::kBlockContent;
}

// A YAML line that can own more-indented lines: a key with no inline value, a block scalar
// header (`run: |`, beyond the original so kept script lines keep their key), or a list item.
bool is_yaml_parent(std::string_view line, const ConfigLineInfo& info) {
  if (info.kind == ConfigLine::kBlockContent) return false;
  if (info.block_header) return true;
  std::string_view t = text::trim_ascii(line);
  if (t.substr(0, 2) == "- " || t == "-") return true;
  if (info.kind != ConfigLine::kYamlKey) return false;
  // Drop a trailing comment before looking for the final ':'.
  std::size_t hash = t.find(" #");
  if (hash != std::string_view::npos) t = text::trim_ascii(t.substr(0, hash));
  return !t.empty() && t.back() == ':';
}

void expand_yaml(const std::vector<std::string_view>& lines,
                 const std::vector<ConfigLineInfo>& info, std::vector<bool>& keep) {
  const std::size_t n = lines.size();
  std::vector<int> indent(n);
  for (std::size_t i = 0; i < n; ++i) indent[i] = yaml_indent(lines[i]);
  auto significant = [&](std::size_t i) {
    return info[i].kind != ConfigLine::kBlank && info[i].kind != ConfigLine::kComment;
  };
  // Ancestors: the stack of open parents (indent strictly increasing) above each line.
  std::vector<bool> with_ancestors = keep;
  std::vector<std::size_t> stack;
  for (std::size_t i = 0; i < n; ++i) {
    if (!significant(i)) continue;
    while (!stack.empty() && indent[stack.back()] >= indent[i]) stack.pop_back();
    if (keep[i]) {
      for (std::size_t p : stack) with_ancestors[p] = true;
    }
    if (is_yaml_parent(lines[i], info[i])) stack.push_back(i);
  }
  // Children: the first lines below every kept parent.
  std::vector<bool> out = with_ancestors;
  for (std::size_t i = 0; i < n; ++i) {
    if (!with_ancestors[i] || !significant(i) || !is_yaml_parent(lines[i], info[i])) continue;
    std::size_t added = 0;
    for (std::size_t j = i + 1; j < n && added < kChildLines; ++j) {
      if (info[j].kind == ConfigLine::kBlank) continue;
      if (indent[j] <= indent[i]) {
        if (info[j].kind == ConfigLine::kComment) continue;
        break;
      }
      out[j] = true;
      ++added;
    }
  }
  keep = std::move(out);
}

void expand_toml(const std::vector<ConfigLineInfo>& info, std::vector<bool>& keep) {
  const std::size_t n = info.size();
  std::vector<bool> out = keep;
  std::size_t header = n;  // none yet
  for (std::size_t i = 0; i < n; ++i) {
    if (info[i].kind == ConfigLine::kSection) {
      header = i;
      continue;
    }
    if (keep[i] && header < n) out[header] = true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!out[i] || info[i].kind != ConfigLine::kSection) continue;
    std::size_t added = 0;
    for (std::size_t j = i + 1; j < n && added < kChildLines; ++j) {
      if (info[j].kind == ConfigLine::kSection) break;
      if (info[j].kind == ConfigLine::kBlank) continue;
      out[j] = true;
      ++added;
    }
  }
  keep = std::move(out);
}

// Content indentation of the block scalar holding line `i`: that of its first non-blank
// content line.
std::size_t block_indent(const std::vector<std::string_view>& lines,
                         const std::vector<ConfigLineInfo>& info, std::size_t i) {
  std::size_t first = i;
  for (std::size_t j = i; j-- > 0;) {
    if (info[j].kind == ConfigLine::kBlank) continue;
    if (info[j].kind != ConfigLine::kBlockContent) break;
    first = j;
  }
  std::string_view l = lines[first];
  std::size_t k = 0;
  while (k < l.size() && (l[k] == ' ' || l[k] == '\t')) ++k;
  return k;
}

// The marker for the `run` lines from `first`, a comment. Inside a YAML block scalar it must
// sit at the block's indentation, or it would end the scalar; elsewhere a comment may start in
// column 0. The run is inside a block when its first non-blank line, or the first non-blank
// line after it, is block content.
std::string run_marker(const std::vector<std::string_view>& lines,
                       const std::vector<ConfigLineInfo>& info, bool yaml, std::size_t first,
                       std::size_t run, std::string_view selector) {
  std::string marker = "# " + selector_marker(run, kConfigMarkerWhat, selector);
  if (!yaml) return marker;
  const std::size_t n = lines.size();
  auto first_non_blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      if (info[i].kind != ConfigLine::kBlank) return i;
    }
    return to;
  };
  std::size_t inside = first_non_blank(first, first + run);
  if (inside == first + run || info[inside].kind != ConfigLine::kBlockContent) {
    inside = first_non_blank(first + run, n);
  }
  if (inside < n && info[inside].kind == ConfigLine::kBlockContent) {
    marker.insert(0, block_indent(lines, info, inside), ' ');
  }
  return marker;
}

std::optional<CompressorOutput> compress_config(std::string_view input, std::string_view query) {
  if (has_count_marker(input, kConfigMarkerWhat)) return std::nullopt;
  std::optional<ConfigShape> shape = classify_config(input);
  if (!shape) return std::nullopt;
  const bool yaml = shape->kind == ConfigKind::kYaml;
  text::Lines split = text::split_lines(input);
  const std::vector<std::string_view>& lines = split.lines;
  const std::size_t n = lines.size();
  if (n < kConfigKeep.min_units) return std::nullopt;
  std::vector<ConfigLineInfo> info = classify_config_lines(lines);

  std::size_t comments = 0, active = 0;
  for (const ConfigLineInfo& li : info) {
    comments += li.kind == ConfigLine::kComment;
    active += is_active(li.kind);
  }
  // Beyond the original: in a commented template (more comment lines than settings, as in
  // postgresql.conf or a documented values.yaml) the effective settings are the signal,
  // so every one of them is kept and only commentary is elided.
  const bool template_like = comments > active;

  std::vector<bool> keep(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view l = lines[i];
    std::string_view t = text::trim_ascii(l);
    bool k = kConfigKeep.at_ends(i, n) || has_problem_word(l);
    if (yaml && info[i].kind == ConfigLine::kYamlKey && yaml_indent(l) == 0) k = true;
    if (yaml && (t == "---" || t == "...")) k = true;  // document boundaries
    if (template_like && is_active(info[i].kind)) k = true;
    keep[i] = k;
  }
  keep_relevant_and_novel(lines, query, kConfigKeep, keep);
  if (yaml) {
    expand_yaml(lines, info, keep);
  } else {
    expand_toml(info, keep);
  }

  ElidedLines out = elide_runs(lines, keep, split.trailing_newline, split.crlf_majority,
                               [&](std::size_t first, std::size_t run, std::string_view selector) {
                                 return run_marker(lines, info, yaml, first, run, selector);
                               });
  if (out.markers == 0 || out.text.size() >= input.size()) return std::nullopt;
  if (yaml && !yaml_parses(out.text)) return std::nullopt;
  return output_of(std::move(out.text));
}

}  // namespace

std::unique_ptr<Compressor> make_config_compressor() {
  return make_compressor("config", compress_config);
}

}  // namespace caveman::compress
