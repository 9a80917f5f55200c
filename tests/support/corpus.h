// Access to ../shared/corpus (real tool outputs + MANIFEST.tsv), for tests and benchmarks.
#ifndef CAVEMAN_TESTS_SUPPORT_CORPUS_H_
#define CAVEMAN_TESTS_SUPPORT_CORPUS_H_

#include <string>
#include <vector>

namespace caveman::corpus {

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& data);

// $CAVEMAN_CORPUS_DIR, else ../shared/corpus beside the source tree.
std::string corpus_dir();

struct CorpusFile {
  std::string name;      // e.g. "json-package-lock.json"
  std::string kind;      // MANIFEST kind (for listing-* files: the kind under the gutter)
  std::string language;  // code files only, else "-"
  std::vector<std::string> must_keep;
  std::string path;      // absolute path
};
std::vector<CorpusFile> corpus_manifest();

// True when `output` keeps `needle` under the MANIFEST's rules: json is compared with all
// whitespace removed on both sides, terminal output after stripping ANSI sequences.
bool keeps(const std::string& kind, const std::string& output, const std::string& needle);

}  // namespace caveman::corpus

#endif  // CAVEMAN_TESTS_SUPPORT_CORPUS_H_
