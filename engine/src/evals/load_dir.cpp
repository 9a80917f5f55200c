// load_dir(): a fixtures directory on disk → Suite, refusing any fixture path that is not a
// clean relative path or that resolves (through symlinks) outside the directory.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "caveman/base/codes.h"
#include "caveman/evals.h"
#include "evals/manifest.h"

namespace caveman::evals {
namespace {

namespace fs = std::filesystem;

bool is_clean_relative(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.find('\\') != std::string_view::npos ||
      p.find('\0') != std::string_view::npos) {
    return false;
  }
  std::size_t pos = 0;
  while (pos <= p.size()) {
    std::size_t next = p.find('/', pos);
    if (next == std::string_view::npos) next = p.size();
    std::string_view part = p.substr(pos, next - pos);
    if (part.empty() || part == "." || part == "..") return false;
    pos = next + 1;
  }
  return true;
}

bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *r != *q) return false;
  }
  return q != p.end();
}

Result<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Status::Io(codes::kIoError, "cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::Io(codes::kIoError, "cannot read " + p.string());
  return ss.str();
}

// The canonical path of `rel` under `root`, which must stay inside root and be a regular file.
Result<fs::path> resolve_inside(const fs::path& root, const std::string& rel) {
  if (!is_clean_relative(rel)) {
    return Status::InvalidArgument(codes::kInvalidFixturePath,
                                   "fixture path must be a clean relative path: " + rel);
  }
  std::error_code ec;
  fs::path p = fs::canonical(root / rel, ec);
  if (ec) return Status::NotFound(codes::kFixtureNotFound, "no fixture file " + rel);
  if (!inside(root, p)) {
    return Status::InvalidArgument(codes::kInvalidFixturePath,
                                   "fixture path escapes the fixtures directory: " + rel);
  }
  if (!fs::is_regular_file(p, ec)) {
    return Status::InvalidArgument(codes::kInvalidFixturePath, "not a regular file: " + rel);
  }
  return p;
}

}  // namespace

Result<Suite> load_dir(const std::string& dir) {
  std::error_code ec;
  fs::path root = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(root, ec)) {
    return Status::NotFound(codes::kFixtureNotFound, "no fixtures directory " + dir);
  }
  CAVEMAN_ASSIGN_OR_RETURN(fs::path manifest_path, resolve_inside(root, kManifestName));
  Suite suite;
  CAVEMAN_ASSIGN_OR_RETURN(suite.manifest, read_file(manifest_path));
  CAVEMAN_ASSIGN_OR_RETURN(Manifest manifest, parse_manifest(suite.manifest));
  for (const FixtureSpec& f : manifest.fixtures) {
    if (suite.files.count(f.file)) continue;
    CAVEMAN_ASSIGN_OR_RETURN(fs::path p, resolve_inside(root, f.file));
    CAVEMAN_ASSIGN_OR_RETURN(suite.files[f.file], read_file(p));
  }
  return suite;
}

}  // namespace caveman::evals
