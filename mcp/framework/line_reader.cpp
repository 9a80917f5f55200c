#include "line_reader.h"

#include <cerrno>
#include <unistd.h>

namespace caveman::mcp {

bool LineReader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {  // compact: drop consumed bytes
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    eof_ = true;
    return false;
  }
}

LineReader::Status LineReader::next(std::string* line) {
  bool oversized = false;
  std::size_t scanned = 0;  // bytes after pos_ already known to hold no '\n'
  while (true) {
    std::size_t nl = buf_.find('\n', pos_ + scanned);
    if (nl != std::string::npos) {
      std::size_t len = nl - pos_;
      if (oversized || len > max_) {
        pos_ = nl + 1;
        return Status::kOversized;
      }
      line->assign(buf_, pos_, len);
      pos_ = nl + 1;
      return Status::kLine;
    }
    if (buf_.size() - pos_ > max_) {
      // Too long: stop buffering, keep draining until the newline.
      oversized = true;
      buf_.clear();
      pos_ = 0;
    }
    scanned = buf_.size() - pos_;
    if (!fill()) {
      if (oversized) return Status::kOversized;
      if (pos_ < buf_.size()) {
        line->assign(buf_, pos_, std::string::npos);
        pos_ = buf_.size();
        return Status::kLine;
      }
      return Status::kEof;
    }
  }
}

}  // namespace caveman::mcp
