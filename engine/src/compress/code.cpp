// `code` compressor (docs/spec/compressors.md#code, tree-sitter variant): keeps imports,
// signatures, types, class members and comments, and replaces the outermost function/method bodies
// with `{ /* caveman: body elided */ }` (Python: `...`, after any docstring). Languages:
// Go, Python, JavaScript, TypeScript, TSX, C, C++. Declaration-only sources (a .d.ts, a
// header) have no bodies; there long `/** */` doc comments are cut to their first
// sentence instead. A query keeps the bodies it matches best. Fails (pass-through) when no
// grammar parses the input without errors, when nothing is elidable, or when the output does
// not re-parse cleanly.
#include <memory>
#include <vector>

#include "compress/code/elide.h"
#include "compress/code/parse.h"
#include "compress/code/sniff.h"
#include "compress/compressors.h"
#include "text/bm25.h"

namespace caveman::compress {
namespace {

// Above this size only the best-guess grammar is tried: a failing parse of a large input
// costs seconds, and sniffing is reliable on real files of that size.
constexpr std::size_t kSingleGuessBytes = 1u << 20;

// With a query, the bodies it names best stay (up to kQueryBodies): the function an agent just
// grepped for is the one it opened the file to read.
constexpr int kQueryBodies = 3;

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
  std::vector<bool> keep(edits.size(), false);
  text::keep_query_relevant(bodies, query, keep, kQueryBodies);
  std::vector<code::Edit> out;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (!keep[i]) out.push_back(std::move(edits[i]));
  }
  return out;
}

std::optional<CompressorOutput> compress_parsed(code::Language lang, const code::CleanParse& parsed,
                                                std::string_view input, std::string_view query) {
  TSNode root = ts_tree_root_node(parsed.tree.get());
  code::BodyScan scan = code::elide_bodies(lang, root, input);
  std::vector<code::Edit> edits = keep_relevant_bodies(std::move(scan.edits), input, query);
  if (scan.bodies == 0) edits = code::trim_doc_comments(lang, root, input);
  if (edits.empty()) return std::nullopt;
  std::string out = code::apply_edits(input, edits);
  if (!code::parse_clean(lang, out)) return std::nullopt;  // never emit broken code
  return output_of(std::move(out), "code");
}

std::optional<CompressorOutput> compress_code(std::string_view input, std::string_view query) {
  if (input.empty() || input.size() > code::kMaxParseBytes) return std::nullopt;
  std::vector<code::Language> candidates = code::candidate_languages(input);
  if (input.size() > kSingleGuessBytes && candidates.size() > 1) candidates.resize(1);
  for (code::Language lang : candidates) {
    std::unique_ptr<code::CleanParse> parsed = code::parse_clean(lang, input);
    if (!parsed) continue;  // a syntax error under this grammar: try the next guess
    // The first grammar that parses cleanly decides; a second one would see the same code.
    return compress_parsed(lang, *parsed, input, query);
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<Compressor> make_code_compressor() {
  return make_compressor("code", compress_code);
}

}  // namespace caveman::compress
