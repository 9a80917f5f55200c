// `code` compressor (docs/spec/compressors.md#code, tree-sitter variant): keeps imports,
// signatures, types, class members and comments, and replaces the lines of the outermost
// function/method bodies with one marker line that states them (code/language.h; Python: after
// any docstring). Languages:
// Go, Python, JavaScript, TypeScript, TSX, C, C++. Declaration-only sources (a .d.ts, a
// header) have no bodies; there long `/** */` doc comments are cut to their first
// sentence instead. A query keeps the bodies it matches best and those of the functions they
// call. A slice that no grammar parses cleanly (a Read with an offset) has only its complete
// functions' bodies elided. Fails (pass-through) when nothing is elidable, when a clean input's
// output does not re-parse cleanly, or when a slice is mostly errors.
#include <algorithm>
#include <memory>
#include <vector>

#include "compress/code/elide.h"
#include "compress/code/parse.h"
#include "compress/code/sniff.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "text/bm25.h"
#include "text/lines.h"

namespace caveman::compress {
namespace {

// Above this size only the best-guess grammar is tried: a failing parse of a large input
// costs seconds, and sniffing is reliable on real files of that size.
constexpr std::size_t kSingleGuessBytes = 1u << 20;
// A slice (no clean parse) is compressed only when its top-level stretches with errors — the
// cut edges — are at most this share of its bytes.
constexpr double kMaxSliceErrorShare = 0.3;

// With a query, these bodies stay: the functions it names (an agent that grepped for a
// function opened the file to read it), then the bodies it matches best (up to kQueryBodies
// in all)…
constexpr std::size_t kQueryBodies = 3;
constexpr std::size_t kMinNamedLength = 3;
// …and the functions those call, breadth first from the named ones (up to kCalleeBodies): a
// reader of a function needs what its helpers do to follow it.
constexpr std::size_t kCalleeBodies = 4;

// The identifiers of `text` in order of first appearance; with `calls_only`, only those
// followed by `(` (the names a body calls).
std::vector<std::string_view> identifiers(std::string_view text, bool calls_only) {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < text.size();) {
    if (!code::is_identifier_char(text[i]) || (i > 0 && code::is_identifier_char(text[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && code::is_identifier_char(text[end])) ++end;
    std::size_t after = end;
    while (after < text.size() && text[after] == ' ') ++after;
    std::string_view name = text.substr(i, end - i);
    if ((!calls_only || (after < text.size() && text[after] == '(')) &&
        std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
    i = end;
  }
  return names;
}

// The edits (bodies) to keep, in the order they were chosen.
class BodyChoice {
 public:
  BodyChoice(const std::vector<code::Edit>& edits, std::string_view input)
      : edits_(edits), input_(input), keep_(edits.size(), false) {}

  // Every body whose function the query names, in file order. Names shorter than
  // kMinNamedLength are left to BM25: the task's prose is full of words like "a" and "to".
  void named_in(std::string_view query) {
    std::vector<std::string_view> words = identifiers(query, false);
    for (std::size_t i = 0; i < edits_.size() && order_.size() < kQueryBodies; ++i) {
      if (edits_[i].name.size() >= kMinNamedLength &&
          std::find(words.begin(), words.end(), edits_[i].name) != words.end()) {
        take(i);
      }
    }
  }

  // The best BM25 matches, while fewer than kQueryBodies are kept.
  void best_matches(const std::vector<std::string_view>& bodies, std::string_view query) {
    std::size_t room = kQueryBodies > order_.size() ? kQueryBodies - order_.size() : 0;
    for (std::size_t i : text::query_relevant(bodies, query, keep_, static_cast<int>(room)))
      take(i);
  }

  // The functions the kept bodies call, breadth first.
  void callees() {
    std::size_t added = 0;
    for (std::size_t k = 0; k < order_.size() && added < kCalleeBodies; ++k) {
      const code::Edit& e = edits_[order_[k]];
      for (std::string_view name : identifiers(input_.substr(e.start, e.end - e.start), true)) {
        for (std::size_t j = 0; j < edits_.size() && added < kCalleeBodies; ++j) {
          if (keep_[j] || edits_[j].name != name) continue;
          take(j);
          ++added;
        }
      }
    }
  }

  bool kept(std::size_t i) const { return keep_[i]; }

 private:
  void take(std::size_t i) {
    keep_[i] = true;
    order_.push_back(i);
  }

  const std::vector<code::Edit>& edits_;
  std::string_view input_;
  std::vector<bool> keep_;
  std::vector<std::size_t> order_;
};

std::vector<code::Edit> keep_relevant_bodies(std::vector<code::Edit> edits, std::string_view input,
                                             std::string_view query) {
  if (query.empty() || edits.empty()) return edits;
  std::vector<std::string_view> bodies;
  bodies.reserve(edits.size());
  for (const code::Edit& e : edits) {
    // From the start of the line the body opens on: the signature names the function.
    std::size_t line = input.rfind('\n', e.start);
    line = line == std::string_view::npos ? 0 : line + 1;
    bodies.push_back(input.substr(line, e.end - line));
  }
  BodyChoice choice(edits, input);
  choice.named_in(query);
  choice.best_matches(bodies, query);
  choice.callees();
  std::vector<code::Edit> out;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (!choice.kept(i)) out.push_back(std::move(edits[i]));
  }
  return out;
}

// Needle-safe (selector.h): an edit whose marker states the lines it hides (a body that owns
// its lines) may hide any line — the view says which lines it lacks. Any other edit rewrites
// the lines from the one it starts on to the one it ends on without saying which, so it is
// made only when none of them is a line an answer may depend on (a rare line, a failure signal).
std::vector<code::Edit> keep_needles(std::vector<code::Edit> edits, std::string_view input) {
  if (edits.empty()) return edits;
  std::vector<std::string_view> lines = text::split_all(input);
  std::vector<bool> needles = needle_lines(lines);
  std::vector<std::size_t> starts;
  starts.reserve(lines.size());
  std::size_t at = 0;
  for (std::string_view l : lines) {
    starts.push_back(at);
    at += l.size() + 1;
  }
  auto line_of = [&](std::size_t byte) {
    return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), byte) -
                                    starts.begin()) -
           1;
  };
  std::erase_if(edits, [&](const code::Edit& e) {
    if (e.states_lines) return false;
    for (std::size_t l = line_of(e.start), last = line_of(e.end); l <= last && l < lines.size();
         ++l) {
      if (needles[l]) return true;
    }
    return false;
  });
  return edits;
}

std::optional<CompressorOutput> compress_parsed(code::Language lang, const code::CleanParse& parsed,
                                                std::string_view input, std::string_view query,
                                                bool needle_safe) {
  TSNode root = ts_tree_root_node(parsed.tree.get());
  code::BodyScan scan = code::elide_bodies(lang, root, input);
  std::vector<code::Edit> edits = keep_relevant_bodies(std::move(scan.edits), input, query);
  if (scan.bodies == 0) edits = code::trim_doc_comments(lang, root, input);
  if (needle_safe) edits = keep_needles(std::move(edits), input);
  if (edits.empty()) return std::nullopt;
  std::string out = code::apply_edits(input, edits);
  if (!code::parse_clean(lang, out)) return std::nullopt;  // never emit broken code
  return output_of(std::move(out), "code");
}

// A Read with an offset or a limit starts and ends inside a construct, so no grammar parses
// it cleanly. The whole functions between the cut edges still parse without error: only
// their bodies are elided, every other byte (the broken edges too) stays as it was, so the
// output is exactly as well-formed as the input. Taken only when the erroneous top-level
// stretches are a small part of the text (kMaxSliceErrorShare).
std::optional<CompressorOutput> compress_slice(code::Language lang, std::string_view input,
                                               std::string_view query, bool needle_safe) {
  code::TreePtr tree = code::parse_raw(lang, input);
  if (!tree) return std::nullopt;
  TSNode root = ts_tree_root_node(tree.get());
  std::size_t broken = 0;
  for (std::uint32_t i = 0; i < ts_node_child_count(root); ++i) {
    TSNode child = ts_node_child(root, i);
    if (ts_node_has_error(child)) broken += ts_node_end_byte(child) - ts_node_start_byte(child);
  }
  if (static_cast<double>(broken) > kMaxSliceErrorShare * static_cast<double>(input.size())) {
    return std::nullopt;
  }
  code::BodyScan scan = code::elide_bodies(lang, root, input);
  std::vector<code::Edit> edits = keep_relevant_bodies(std::move(scan.edits), input, query);
  if (needle_safe) edits = keep_needles(std::move(edits), input);
  if (edits.empty()) return std::nullopt;
  return output_of(code::apply_edits(input, edits), "code");
}

std::optional<CompressorOutput> compress_code(std::string_view input, std::string_view query,
                                              bool needle_safe) {
  if (input.empty() || input.size() > code::kMaxParseBytes) return std::nullopt;
  std::vector<code::Language> candidates = code::candidate_languages(input);
  if (input.size() > kSingleGuessBytes && candidates.size() > 1) candidates.resize(1);
  for (code::Language lang : candidates) {
    std::unique_ptr<code::CleanParse> parsed = code::parse_clean(lang, input);
    if (!parsed) continue;  // a syntax error under this grammar: try the next guess
    // The first grammar that parses cleanly decides; a second one would see the same code.
    return compress_parsed(lang, *parsed, input, query, needle_safe);
  }
  if (candidates.empty()) return std::nullopt;
  return compress_slice(candidates.front(), input, query, needle_safe);
}

}  // namespace

std::unique_ptr<Compressor> make_code_compressor(bool needle_safe) {
  return make_compressor("code", [needle_safe](std::string_view input, std::string_view query) {
    return compress_code(input, query, needle_safe);
  });
}

}  // namespace caveman::compress
