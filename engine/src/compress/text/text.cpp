// The text compressor (docs/spec/compressors.md#text): prose, Markdown, man pages and anything else
// Detect could not type. Keeps the first and last sections, headings, fenced code blocks
// whole, sections with attention words, query-relevant sections and every section the
// redundancy gate calls novel; each elided run becomes `… N sections elided (caveman) …`.
// Kept sections and the gaps between adjacent kept sections are copied byte for byte.
#include <string>
#include <vector>

#include "compress/common/elide_lines.h"
#include "compress/common/keep_policy.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/text/text_sections.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

// At least 3 sections between the kept ends, or there is nothing to elide.
constexpr KeepPolicy kTextKeep{.min_units = 7, .head = 2, .tail = 2, .query_limit = 12};
constexpr std::size_t kMinTrimmedBytes = 1600;
constexpr std::string_view kTextMarkerWhat = "sections";

bool has_attention_word(std::string_view s) {
  return text::contains_word_ci(s, {"error", "warning", "important", "note", "action",
                                    "followup", "security", "summary", "conclusion", "decision",
                                    "recommendation"});
}

std::optional<CompressorOutput> compress_text(std::string_view input, std::string_view query) {
  // Our own output is final: a second pass would re-run the gate with different seeds and
  // could elide more, so compressing twice would not be idempotent.
  if (has_count_marker(input, kTextMarkerWhat)) return std::nullopt;
  if (!text::is_valid_utf8(input)) return std::nullopt;
  if (text::trim_space(input).size() < kMinTrimmedBytes) return std::nullopt;
  const std::string body = strip_html_noise(input, count_marker(1, kTextMarkerWhat));
  const std::string_view s = body;
  Sections split = split_sections(s);
  const std::vector<Section>& secs = split.sections;
  const std::size_t n = secs.size();
  if (n < kTextKeep.min_units) return std::nullopt;

  std::vector<std::string_view> docs;
  docs.reserve(n);
  for (const Section& sec : secs) {
    docs.push_back(text::trim_ascii(s.substr(sec.begin, sec.end - sec.begin)));
  }
  std::vector<bool> keep(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    keep[i] = kTextKeep.at_ends(i, n) || is_heading(docs[i]) || has_attention_word(docs[i]) ||
              has_count_marker(docs[i], kTextMarkerWhat);  // <script> markers
  }
  // Needle-safe (selector.h): a section holding a line an answer may depend on — a rare line,
  // a failure signal — is never elided, since a section marker cannot state its lines.
  {
    std::vector<std::string_view> all = text::split_all(s);
    std::vector<bool> needles = needle_lines(all);
    std::size_t offset = 0, sec = 0;
    for (std::size_t li = 0; li < all.size(); ++li) {
      const std::size_t line_end = offset + all[li].size();
      while (sec < n && secs[sec].end <= offset) ++sec;
      for (std::size_t k = sec; needles[li] && k < n && secs[k].begin <= line_end; ++k) {
        if (secs[k].end > offset) keep[k] = true;
      }
      offset = line_end + 1;
    }
  }
  keep_relevant_and_novel(docs, query, kTextKeep, keep);

  const bool crlf = s.find("\r\n") != std::string_view::npos && text::split_lines(s).crlf_majority;
  const std::string_view nl = crlf ? "\r\n" : "\n";
  // Separator around a marker: a blank line where the original had one, else a newline.
  auto separator = [&](std::size_t from, std::size_t to) {
    std::string_view gap = s.substr(from, to - from);
    std::size_t first = gap.find('\n');
    bool blank_line =
        first != std::string_view::npos && gap.find('\n', first + 1) != std::string_view::npos;
    return blank_line ? std::string(nl) + std::string(nl) : std::string(nl);
  };

  std::string out;
  out.reserve(s.size());
  out.append(s.substr(0, secs[0].begin));
  std::size_t elided_runs = 0;
  bool prev_kept = false;  // the last item written was section i-1 itself
  for (std::size_t i = 0; i < n;) {
    if (keep[i]) {
      if (prev_kept) out.append(s.substr(secs[i - 1].end, secs[i].begin - secs[i - 1].end));
      out.append(s.substr(secs[i].begin, secs[i].end - secs[i].begin));
      prev_kept = true;
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && !keep[j]) ++j;
    std::string marker = count_marker(j - i, kTextMarkerWhat);
    std::size_t run_bytes = secs[j - 1].end - secs[i].begin;
    if (run_bytes <= marker.size()) {
      // Not worth a marker: emit the run as it was.
      for (std::size_t k = i; k < j; ++k) {
        if (k > 0 && (prev_kept || k > i)) {
          out.append(s.substr(secs[k - 1].end, secs[k].begin - secs[k - 1].end));
        }
        out.append(s.substr(secs[k].begin, secs[k].end - secs[k].begin));
      }
      prev_kept = true;
      i = j;
      continue;
    }
    if (i > 0) out += separator(secs[i - 1].end, secs[i].begin);
    out += marker;
    if (j < n) out += separator(secs[j - 1].end, secs[j].begin);
    ++elided_runs;
    prev_kept = false;
    i = j;
  }
  out.append(s.substr(secs[n - 1].end));
  if (elided_runs == 0) return std::nullopt;
  return output_of(std::move(out));
}

}  // namespace

std::unique_ptr<Compressor> make_text_compressor() {
  return make_compressor("text", compress_text);
}

}  // namespace caveman::compress
