// Detection over the real corpus (issue 21): every MANIFEST file is detected as its kind, at
// least 97% of them, and a Read limited to the first 300 lines of an HTML document is still
// HTML.
#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "support/corpus.h"
#include "support/corpus_skip.h"

namespace caveman {
namespace {

std::string first_lines(const std::string& s, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < n && at != std::string::npos; ++i) {
    at = s.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? s : s.substr(0, at);
}

TEST(DetectCorpusTest, AtLeast97PercentOfTheCorpusIsDetectedAsItsKind) {
  std::vector<corpus::CorpusFile> files = corpus::corpus_manifest();
  if (files.empty()) CAVEMAN_CORPUS_MISSING() << "corpus not found at " << corpus::corpus_dir();
  std::size_t right = 0;
  for (const corpus::CorpusFile& f : files) {
    std::string kind = detect(corpus::read_file(f.path));
    if (kind == f.kind) ++right;
    else ADD_FAILURE() << f.name << ": detected " << kind << ", manifest says " << f.kind;
  }
  EXPECT_GE(right * 100, files.size() * 97) << right << " of " << files.size();
}

TEST(DetectCorpusTest, TheFirst300LinesOfAnHtmlDocumentAreHtml) {
  std::size_t seen = 0;
  for (const corpus::CorpusFile& f : corpus::corpus_manifest()) {
    if (f.kind != "html") continue;
    ++seen;
    EXPECT_EQ(detect(first_lines(corpus::read_file(f.path), 300)), "html") << f.name;
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not found at " << corpus::corpus_dir();
}

}  // namespace
}  // namespace caveman
