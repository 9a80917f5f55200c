#include "output_shrink.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>
#include <vector>

#include "caveman/base/split.h"
#include "caveman/base/text.h"
#include "caveman/engine.h"
#include "output_lines.h"

namespace caveman::shrink {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

bool is_binary(std::string_view s) {
  return s.find('\0') != std::string_view::npos || !base::is_valid_utf8(s);
}

// The prefix that is compressed: at most `window` bytes, ending at a line end when possible.
std::size_t window_end(std::string_view full, std::size_t window) {
  if (full.size() <= window) return full.size();
  std::size_t nl = full.rfind('\n', window - 1);
  if (nl != std::string_view::npos) return nl + 1;
  std::size_t cut = window;
  while (cut > 0 && (static_cast<unsigned char>(full[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

// What lies beyond the window: a marker, its first error lines and its last lines. Scans the
// overflow once without holding its lines (it can be tens of megabytes).
std::string overflow_view(std::string_view overflow, std::size_t window) {
  std::string out = std::string(kEllipsis) + " caveman-shrink: " + std::to_string(overflow.size()) +
                    " more bytes after the first " + std::to_string(window) +
                    " are not shown here; they are in the stored original " +
                    std::string(kEllipsis) + "\n";
  if (is_binary(overflow)) return out;
  std::vector<std::pair<std::size_t, std::string>> errors;
  std::deque<std::pair<std::size_t, std::string>> tail;
  std::size_t more_errors = 0;
  std::size_t total = 0;
  for (std::string_view raw : base::split_lines(overflow)) {
    std::string line = clean_line(raw);
    if (is_error_line(line)) {
      if (errors.size() < kOverflowErrorLines) {
        errors.emplace_back(total, line);
      } else {
        ++more_errors;
      }
    }
    tail.emplace_back(total, std::move(line));
    if (tail.size() > kTailLines) tail.pop_front();
    ++total;
  }
  // Merge the two ascending lists; an error line inside the tail is shown once.
  std::vector<std::pair<std::size_t, std::string>> kept;
  kept.reserve(errors.size() + tail.size());
  auto e = errors.begin();
  auto t = tail.begin();
  while (e != errors.end() || t != tail.end()) {
    bool take_error = t == tail.end() || (e != errors.end() && e->first <= t->first);
    auto& next = take_error ? *e++ : *t++;
    if (kept.empty() || kept.back().first < next.first) kept.push_back(std::move(next));
  }
  out += sparse_lines_view(kept, total);
  if (more_errors > 0) {
    out += std::string(kEllipsis) + " " + std::to_string(more_errors) +
           " more error lines are in the stored original " + std::string(kEllipsis) + "\n";
  }
  return out;
}

std::string percent_fewer(std::int64_t before, std::int64_t after) {
  if (before <= 0) return "0%";
  double pct = 100.0 * static_cast<double>(before - after) / static_cast<double>(before);
  return std::to_string(static_cast<long long>(std::floor(pct))) + "%";
}

}  // namespace

std::string describe_exit(const RunResult& run) {
  std::string out = "exit " + std::to_string(run.exit_code);
  if (run.stopped) {
    out += " (stopped by caveman-shrink after " + std::to_string(run.output.size()) +
           " bytes of output)";
  } else if (run.signal != 0) {
    out += " (killed by " + signal_name(run.signal) + ")";
  }
  return out;
}

OutputShrink shrink_output(const RunResult& run, std::size_t window_bytes, ccr::Store* store,
                           std::string_view store_error, const tokens::Counter& counter) {
  OutputShrink result;
  std::string_view full = run.output;
  std::size_t end = window_end(full, window_bytes);
  std::string_view window = full.substr(0, end);
  std::string_view overflow = full.substr(end);
  bool failed = run.exit_code != 0;

  std::string body;
  if (is_binary(window)) {
    result.content_type = "binary";
    body = "[caveman-shrink: binary output, " + std::to_string(full.size()) +
           " bytes, not shown]\n";
  } else {
    Options options;
    options.mode = "compress";
    options.external_recovery = true;  // the full capture is stored below, not the window
    Engine engine(nullptr, counter);
    CompressResult compressed = engine.compress(window, options);
    result.content_type = compressed.content_type;
    body = std::move(compressed.output);
    if (failed) {
      CleanLines lines(window);
      std::vector<std::size_t> evidence = failure_evidence(lines.lines());
      if (!shows_lines(body, lines.lines(), evidence)) {
        body = keep_lines_view(lines.lines(), evidence, kHeadLines);
        result.failure_guard = true;
      }
    }
    if (!body.empty() && body.back() != '\n') body.push_back('\n');
    if (!overflow.empty()) body += overflow_view(overflow, end);
  }

  result.tokens_before = static_cast<std::int64_t>(counter.count(full));
  result.tokens_after = static_cast<std::int64_t>(counter.count(body));
  std::string exit_text = describe_exit(run);
  auto in_full = [&](std::string reason) {
    result.text = std::string(full);
    if (!result.text.empty() && result.text.back() != '\n') result.text.push_back('\n');
    result.text += "[caveman-shrink] " + exit_text + " \xC2\xB7 " +
                   std::to_string(result.tokens_before) + " tokens, " + reason + "\n";
    result.tokens_after = result.tokens_before;
    return result;
  };
  bool binary = result.content_type == "binary";
  bool same = body == full || (full.size() + 1 == body.size() && body.starts_with(full));
  if (same || (!binary && result.tokens_after >= result.tokens_before)) {
    return in_full("shown in full");
  }
  if (store == nullptr) {
    return in_full("shown in full (recovery store unavailable: " + std::string(store_error) + ")");
  }
  ccr::Record record;
  record.content_type = result.content_type;
  record.compressor = "caveman-shrink";
  record.tokens_before = result.tokens_before;
  record.tokens_after = result.tokens_after;
  record.original = std::string(full);
  Result<std::string> handle = store->put(record);
  if (!handle.ok()) {
    return in_full("shown in full (recovery store: " + handle.status().ToString() + ")");
  }
  result.handle = handle.value();
  std::string counts = binary ? "binary output, " + std::to_string(full.size()) + " bytes"
                              : std::to_string(result.tokens_before) + " \xE2\x86\x92 " +
                                    std::to_string(result.tokens_after) + " tokens (" +
                                    percent_fewer(result.tokens_before, result.tokens_after) +
                                    " fewer, inferred)";
  result.text = body + "[caveman-shrink] " + exit_text + " \xC2\xB7 " + counts +
                " \xC2\xB7 full output: caveman-shrink recover " + result.handle + "\n";
  return result;
}

}  // namespace caveman::shrink
