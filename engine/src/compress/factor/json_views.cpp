// The json compressor's view choice (docs/formats.md, "JSON tables"): the inner compressor's
// elided JSON, that output with its tables factored, the input with its digests elided
// (json_digests.h), or the whole input as a lossless table view — whichever costs fewest
// o200k tokens, a lossless view winning within 10%, and, in a prompt the caller knows, unless
// the lossy view's saving over it pays for the retrieves it may cause (lossy_view_pays). A
// view never grows a payload: a candidate is only kept when it is smaller than the input.
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/factor/decorator.h"
#include "compress/factor/json_digests.h"
#include "compress/factor/json_table.h"
#include "text/lines.h"

namespace caveman::compress {
namespace {

struct Candidate {
  CompressorOutput out;
  std::size_t tokens = 0;
};

// `out` with its token count, its bytes replaced by their table view when that is cheaper
// (a view of elided text, so then not lossless).
Candidate tabled(CompressorOutput out, const tokens::Counter& counter) {
  Candidate c{std::move(out), 0};
  c.tokens = counter.count(c.out.bytes);
  if (std::optional<std::string> v = factor::json_table_view(c.out.bytes, counter)) {
    std::size_t n = counter.count(*v);
    if (n < c.tokens) {
      c.out.bytes = std::move(*v);
      c.out.method += "+table";
      c.out.lossless_to_model = false;
      c.tokens = n;
    }
  }
  return c;
}

// Needles not found as a line of the view are searched for in the whole squashed view; past
// 1 MiB of input that search runs at most this many times, keeping the check linear.
constexpr std::size_t kLinearCheckBytes = 1u << 20;
constexpr std::size_t kMaxNeedleSearches = 256;

std::string squashed(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') out.push_back(c);
  }
  return out;
}

// Needle-safe (selector.h): a lossy JSON view states no count and no selector for what it
// leaves out, so it is used only when every line of the input an answer may depend on (a rare
// line, a failure signal) is still in it, whitespace aside. Most needles are lines of the view
// as they stand, found by hash; the rest (a line the view re-wrapped) by search.
bool keeps_needles(std::string_view input, std::string_view view) {
  std::vector<std::string_view> lines = text::split_all(input);
  std::vector<bool> needles = needle_lines(lines);
  std::unordered_set<std::string> view_lines;
  for (std::string_view l : text::split_all(view)) view_lines.insert(squashed(l));
  const std::string v = squashed(view);
  const std::size_t max_searches =
      input.size() > kLinearCheckBytes ? kMaxNeedleSearches : lines.size();
  std::size_t searches = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!needles[i]) continue;
    std::string needle = squashed(lines[i]);
    if (view_lines.contains(needle)) continue;
    if (++searches > max_searches || v.find(needle) == std::string::npos) return false;
  }
  return true;
}

// The cheapest lossy view: the inner compressor's elision, or the input without its digests.
std::optional<Candidate> cheapest_lossy(const Compressor& inner, const tokens::Counter& counter,
                                        std::string_view input, const Request& request) {
  std::optional<Candidate> best;
  if (std::optional<CompressorOutput> out = inner.compress_with(input, request)) {
    if (out->method.empty()) out->method = std::string(inner.type());
    if (keeps_needles(input, out->bytes)) best = tabled(std::move(*out), counter);
  }
  if (std::optional<std::string> cut = factor::elide_digests(input)) {
    if (keeps_needles(input, *cut)) {
      Candidate c = tabled(CompressorOutput{std::move(*cut), "digests", false, ""}, counter);
      if (!best || c.tokens < best->tokens) best = std::move(c);
    }
  }
  return best;
}

std::optional<CompressorOutput> choose_json_view(const Compressor& inner,
                                                 const tokens::Counter& counter,
                                                 std::string_view input, const Request& request) {
  // The input's count is taken only when a comparison needs it: when the elided output is
  // cheaper by far, the whole-input view loses without it (a large payload's costliest count).
  std::optional<std::size_t> input_count;
  auto input_tokens = [&] {
    if (!input_count) input_count = counter.count(input);
    return *input_count;
  };
  std::optional<Candidate> lossy = cheapest_lossy(inner, counter, input, request);
  std::size_t lossy_tokens = lossy ? lossy->tokens : input_tokens();
  if (std::optional<std::string> whole = factor::json_table_view(input, counter)) {
    std::size_t n = counter.count(*whole);
    bool lossy_pays =
        lossy &&
        (request.context_tokens <= 0 ||
         lossy_view_pays(static_cast<std::int64_t>(n) - static_cast<std::int64_t>(lossy_tokens),
                         static_cast<std::int64_t>(lossy_tokens), request.context_tokens,
                         request.context_cached));
    if ((!lossy_pays ||
         static_cast<double>(n) <= factor::kLosslessSlack * static_cast<double>(lossy_tokens)) &&
        n < input_tokens()) {
      return factor::lossless_view(std::move(*whole), "table");
    }
  }
  if (!lossy) return std::nullopt;
  return std::move(lossy->out);
}

}  // namespace

std::unique_ptr<Compressor> make_json_views(std::unique_ptr<Compressor> inner,
                                            const tokens::Counter& counter) {
  return factor::make_view_layer(std::move(inner), counter, choose_json_view);
}

}  // namespace caveman::compress
