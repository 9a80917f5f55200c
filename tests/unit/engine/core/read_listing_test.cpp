// Issue 27: a file shown through an agent's Read tool (a line-number gutter around its lines)
// compresses like the file itself. Two sources of listings:
//  - tests/testdata/read_listing: the exact tool results the real Claude Code 2.1.197 sent for
//    Read (captured by capture.mjs there), and
//  - every corpus file ($CAVEMAN_CORPUS_DIR, else ../shared/corpus) rendered in each gutter
//    style agents produce, whole and as a 300-line limited read.
// Each listing must unwrap to the file's text and rewrap to itself byte for byte, be detected
// as the bare text is and as the file's MANIFEST kind (limited JSON reads are no JSON
// document: exempt), save at
// least 0.9 × the bare text's saving − 0.02, and its handle must retrieve the exact listing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "core/wrappers.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"

namespace caveman::core {
namespace {

constexpr int kLimitedReadLines = 300;

// The file's lines as Read numbers them: split on '\n'; a file ending in a newline has a last,
// empty element (Claude Code shows it as a numbered empty line).
std::vector<std::string> file_lines(const std::string& file) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = file.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(file.substr(start, nl - start));
  }
  lines.push_back(file.substr(start));
  return lines;
}

struct Style {
  const char* name;
  const char* separator;
  bool claude_code;  // unpadded, lines joined by '\n', the empty last element numbered
  int pad;           // right-align numbers to this width; -1 = to the widest number's width
};

constexpr Style kClaudeCode{"claude-code", "\t", true, 0};
const Style kStyles[] = {kClaudeCode,
                         {"cat-n", "\t", false, 6},
                         {"arrow", "\xE2\x86\x92", false, 6},
                         {"pipe", " | ", false, -1},
                         {"colon", ": ", false, 0}};

// Lines [first, first + count) of `lines` (1-based) rendered in `style`. Other tools end each
// line in '\n' (the file's last line only when the file had one) and number no empty element.
std::string render(const std::vector<std::string>& lines, const Style& style, std::size_t first,
                   std::size_t count) {
  std::size_t n = lines.size();
  if (!style.claude_code && lines.back().empty()) --n;
  std::size_t end = std::min(n + 1, first + count);
  std::size_t width = style.pad >= 0 ? static_cast<std::size_t>(style.pad)
                                     : std::to_string(end - 1).size();
  std::string out;
  for (std::size_t i = first; i < end; ++i) {
    if (style.claude_code && i > first) out += '\n';
    std::string num = std::to_string(i);
    if (num.size() < width) out.append(width - num.size(), ' ');
    out += num + style.separator + lines[i - 1];
    bool had_newline = i < lines.size();
    if (!style.claude_code && had_newline) out += '\n';
  }
  return out;
}

// The text a listing of lines [first, first + count) shows, with the newline after each.
std::string bare(const std::vector<std::string>& lines, std::size_t first, std::size_t count) {
  std::string out;
  for (std::size_t i = first; i < first + count && i <= lines.size(); ++i) {
    if (i > first) out += '\n';
    out += lines[i - 1];
  }
  return out;
}

class ReadListingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(":memory:");
    ASSERT_TRUE(store.ok());
    engine_ = new Engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  }
  static void TearDownTestSuite() {
    delete engine_;
    engine_ = nullptr;
  }

  static CompressResult compress(const std::string& input) {
    Options o;
    o.mode = "compress";
    o.file_read_lossy = true;  // the listing contract under lossy views (edit-safe: below)
    return engine_->compress(input, o);
  }

  struct Bare {
    std::string kind;
    double ratio;
  };
  // The bare text's kind and saving, memoized: every style compares with the same one.
  static const Bare& bare_result(const std::string& text) {
    static std::map<std::string, Bare> memo;
    auto it = memo.find(text);
    if (it != memo.end()) return it->second;
    CompressResult r = compress(text);
    return memo[text] = Bare{r.content_type, r.ratio};
  }

  // The issue 27 property for one listing of `text`: the same kind as the bare text (and the
  // MANIFEST `kind` when given), at least 0.9 × its saving − 0.02, the exact listing behind
  // the handle.
  static void expect_compresses_like(const std::string& listing, const std::string& text,
                                     const std::string& kind, const std::string& what) {
    Unwrapped u = unwrap_input(listing);
    ASSERT_FALSE(u.layers.empty()) << what;
    EXPECT_EQ(u.body, unwrap_input(text).body) << what;
    EXPECT_EQ(rewrap(u.body, u.layers), listing) << what;
    CompressResult r = compress(listing);
    const Bare& bare = bare_result(text);
    EXPECT_EQ(r.content_type, bare.kind) << what;
    if (!kind.empty()) EXPECT_EQ(r.content_type, kind) << what;
    double floor = 0.9 * bare.ratio - 0.02;
    EXPECT_GE(r.ratio, floor) << what << ": listing " << r.ratio << ", bare " << bare.ratio;
    if (!r.recovery_handle.empty()) {
      Result<std::string> back = engine_->retrieve(r.recovery_handle);
      ASSERT_TRUE(back.ok()) << what;
      EXPECT_EQ(back.value(), listing) << what;
    }
  }

  // Every corpus file in `style`, whole and (Claude Code's Read only) its first 300 lines.
  static void check_corpus(const Style& style) {
    std::vector<corpus::CorpusFile> files = corpus::corpus_manifest();
    if (files.empty()) CAVEMAN_CORPUS_MISSING() << "corpus not found at " << corpus::corpus_dir();
    for (const corpus::CorpusFile& f : files) {
      std::string file = corpus::read_file(f.path);
      std::vector<std::string> lines = file_lines(file);
      std::string what = f.name + " as " + style.name;
      expect_compresses_like(render(lines, style, 1, lines.size()), file, f.kind, what);
      if (!style.claude_code || lines.size() <= kLimitedReadLines) continue;
      // A limited read of JSON is no JSON document: its kind is free, its saving is not.
      std::string limited = render(lines, style, 1, kLimitedReadLines);
      expect_compresses_like(limited, bare(lines, 1, kLimitedReadLines),
                             f.kind == "json" ? "" : f.kind, what + ", first 300 lines");
    }
  }

  static Engine* engine_;
};

Engine* ReadListingTest::engine_ = nullptr;

TEST_F(ReadListingTest, CorpusAsClaudeCodeReadCompressesLikeTheFile) { check_corpus(kStyles[0]); }
TEST_F(ReadListingTest, CorpusAsCatNCompressesLikeTheFile) { check_corpus(kStyles[1]); }
TEST_F(ReadListingTest, CorpusAsArrowListingCompressesLikeTheFile) { check_corpus(kStyles[2]); }
TEST_F(ReadListingTest, CorpusAsPipeListingCompressesLikeTheFile) { check_corpus(kStyles[3]); }
TEST_F(ReadListingTest, CorpusAsColonListingCompressesLikeTheFile) { check_corpus(kStyles[4]); }

struct Fixture {
  std::string name, file, kind;
  std::size_t offset = 0, limit = 0;
};

std::vector<Fixture> fixtures() {
  std::string dir = std::string(CAVEMAN_SOURCE_DIR) + "/tests/testdata/read_listing/";
  std::istringstream in(corpus::read_file(dir + "cases.tsv"));
  std::vector<Fixture> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream cols(line);
    Fixture f;
    cols >> f.name >> f.file >> f.kind >> f.offset >> f.limit;
    f.file = dir + f.file + ".file";
    f.name = dir + f.name + ".read";
    out.push_back(f);
  }
  return out;
}

std::string without_cr(std::string s) {
  std::erase(s, '\r');
  return s;
}

// The real tool results: our model of the format (render) is what Claude Code sends, each
// one round-trips exactly and compresses like the lines it shows.
TEST_F(ReadListingTest, CapturedClaudeCodeReadsRoundTripAndCompressLikeTheirFiles) {
  std::vector<Fixture> cases = fixtures();
  ASSERT_GE(cases.size(), 20u);
  for (const Fixture& c : cases) {
    std::string read = corpus::read_file(c.name);
    std::string file = corpus::read_file(c.file);
    if (file.empty()) {  // Read of an empty file is a warning, not a listing
      EXPECT_TRUE(unwrap_input(read).layers.empty()) << c.name;
      continue;
    }
    std::vector<std::string> lines = file_lines(without_cr(file));  // Read drops CRs
    std::size_t first = c.offset > 0 ? c.offset : 1;
    std::size_t count = c.limit > 0 ? c.limit : lines.size();
    EXPECT_EQ(read, render(lines, kClaudeCode, first, count)) << c.name;
    // The cut files are not always their corpus file's kind (150 lines of Go that are mostly
    // comments read as text): "like their files" is the bare text's kind and saving.
    expect_compresses_like(read, bare(lines, first, count), "", c.name);
  }
}

// A limited read of JSON is not a JSON document; it still loses its gutter cost at least.
// Its text is detected as JSON (a fragment): nothing of it is elided, so the saving is the
// gutter's (issue 36: only a type proven by its parser gets a lossy view).
TEST_F(ReadListingTest, ALimitedJsonReadIsCompressedNotPassedThrough) {
  for (const Fixture& c : fixtures()) {
    if (c.kind != "json" || c.limit == 0) continue;
    CompressResult r = compress(corpus::read_file(c.name));
    EXPECT_FALSE(r.passed_through()) << c.name;
    EXPECT_GT(r.ratio, 0.05) << c.name;
  }
}

}  // namespace
}  // namespace caveman::core
