#include "support/test_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace caveman::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/caveman-test-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) std::abort();
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << data;
}

std::string corpus_dir() { return CAVEMAN_CORPUS_DIR; }

std::vector<CorpusFile> corpus_manifest() {
  std::vector<CorpusFile> out;
  std::istringstream in(read_file(corpus_dir() + "/MANIFEST.tsv"));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cols;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      if (i == line.size() || line[i] == '\t') {
        cols.push_back(line.substr(start, i - start));
        start = i + 1;
      }
    }
    if (cols.size() < 6) continue;
    CorpusFile f;
    f.path = corpus_dir() + "/" + cols[0];
    f.name = cols[0].substr(cols[0].find('/') + 1);
    f.kind = cols[1];
    f.language = cols[2];
    const std::string sep = " ;; ";
    std::size_t p = 0;
    while (true) {
      std::size_t q = cols[5].find(sep, p);
      f.must_keep.push_back(cols[5].substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + sep.size();
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace caveman::testing
