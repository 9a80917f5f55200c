// Bounded newline-delimited reading from a file descriptor. A line longer than the cap is
// not buffered: it is drained to its newline and reported as oversized, so one hostile line
// can neither exhaust memory nor desynchronise the stream.
#ifndef CAVEMAN_MCP_FRAMEWORK_LINE_READER_H_
#define CAVEMAN_MCP_FRAMEWORK_LINE_READER_H_

#include <cstddef>
#include <string>

namespace caveman::mcp {

class LineReader {
 public:
  enum class Status { kLine, kOversized, kEof };

  LineReader(int fd, std::size_t max_line_bytes) : fd_(fd), max_(max_line_bytes) {}

  // Next line without its '\n' (a final unterminated line is returned too).
  Status next(std::string* line);

 private:
  bool fill();

  int fd_;
  std::size_t max_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
};

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_LINE_READER_H_
