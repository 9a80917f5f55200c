#include "support/corpus.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace caveman::corpus {
namespace {

std::string without_whitespace(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out.push_back(c);
  }
  return out;
}

std::string strip_ansi(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7e)) ++j;
      i = j;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

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

std::string corpus_dir() {
  if (const char* d = std::getenv("CAVEMAN_CORPUS_DIR"); d != nullptr && *d) return d;
  return CAVEMAN_DEFAULT_CORPUS_DIR;
}

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

bool keeps(const std::string& kind, const std::string& output, const std::string& needle) {
  if (kind == "json") {
    return without_whitespace(output).find(without_whitespace(needle)) != std::string::npos;
  }
  if (kind == "terminal") return strip_ansi(output).find(needle) != std::string::npos;
  return output.find(needle) != std::string::npos;
}

}  // namespace caveman::corpus
