#include "cdp_message.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"

namespace caveman::browse {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_ws(std::string_view s, std::size_t i) {
  while (i < s.size() && is_ws(s[i])) ++i;
  return i;
}

// End of the string starting with the quote at `i` (one past the closing quote).
std::optional<std::size_t> string_end(std::string_view s, std::size_t i) {
  for (std::size_t k = i + 1; k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;
    } else if (s[k] == '"') {
      return k + 1;
    }
  }
  return std::nullopt;
}

bool is_literal_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

Status protocol_error(std::string message) {
  return Status::Corrupt(codes::kBrowserProtocol, std::move(message));
}

}  // namespace

Status NulFramer::feed(std::string_view bytes) {
  if (start_ > 0 && start_ == buf_.size()) {
    buf_.clear();
    start_ = scan_ = 0;
  }
  buf_.append(bytes);
  if (pending_bytes() > max_ && std::memchr(buf_.data() + scan_, '\0', buf_.size() - scan_) == nullptr) {
    return Status::ResourceExhausted(
        codes::kBrowserUnavailable,
        "a DevTools message exceeded " + std::to_string(max_ >> 20) + " MiB");
  }
  return Status::Ok();
}

std::optional<std::string> NulFramer::next() {
  const void* hit = std::memchr(buf_.data() + scan_, '\0', buf_.size() - scan_);
  if (hit == nullptr) {
    scan_ = buf_.size();
    return std::nullopt;
  }
  std::size_t end = static_cast<std::size_t>(static_cast<const char*>(hit) - buf_.data());
  std::string msg = buf_.substr(start_, end - start_);
  start_ = scan_ = end + 1;
  // Compact once the consumed prefix dominates, so a long session does not keep every byte.
  if (start_ > (1u << 20) && start_ * 2 > buf_.size()) {
    buf_.erase(0, start_);
    scan_ -= start_;
    start_ = 0;
  }
  return msg;
}

std::optional<std::size_t> json_value_length(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return std::nullopt;
  char c = s[pos];
  if (c == '"') {
    std::optional<std::size_t> end = string_end(s, pos);
    if (!end) return std::nullopt;
    return *end - pos;
  }
  if (c == '{' || c == '[') {
    std::string closers;
    for (std::size_t k = pos; k < s.size(); ++k) {
      char ch = s[k];
      if (ch == '"') {
        std::optional<std::size_t> end = string_end(s, k);
        if (!end) return std::nullopt;
        k = *end - 1;
      } else if (ch == '{') {
        closers.push_back('}');
      } else if (ch == '[') {
        closers.push_back(']');
      } else if (ch == '}' || ch == ']') {
        if (closers.empty() || closers.back() != ch) return std::nullopt;
        closers.pop_back();
        if (closers.empty()) return k + 1 - pos;
      }
    }
    return std::nullopt;
  }
  std::size_t k = pos;
  while (k < s.size() && is_literal_char(s[k])) ++k;
  if (k == pos) return std::nullopt;
  return k - pos;
}

Result<CdpMessage> parse_cdp_message(std::string raw) {
  CdpMessage m;
  m.raw = std::move(raw);
  std::string_view s = m.raw;
  std::size_t i = skip_ws(s, 0);
  if (i >= s.size() || s[i] != '{') return protocol_error("DevTools message is not a JSON object");
  i = skip_ws(s, i + 1);
  if (i < s.size() && s[i] == '}') return m;
  while (true) {
    if (i >= s.size() || s[i] != '"') return protocol_error("malformed DevTools message key");
    std::optional<std::size_t> key_end = string_end(s, i);
    if (!key_end) return protocol_error("unterminated DevTools message key");
    std::string_view key = s.substr(i + 1, *key_end - i - 2);
    i = skip_ws(s, *key_end);
    if (i >= s.size() || s[i] != ':') return protocol_error("malformed DevTools message member");
    i = skip_ws(s, i + 1);
    std::optional<std::size_t> len = json_value_length(s, i);
    if (!len) return protocol_error("malformed DevTools message value");
    std::string_view value = s.substr(i, *len);
    if (key == "result") {
      m.result_pos = i;
      m.result_len = *len;
    } else if (key == "params") {
      m.params_pos = i;
      m.params_len = *len;
    } else if (key == "id" || key == "method" || key == "sessionId" || key == "error") {
      auto j = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) return protocol_error("malformed DevTools \"" + std::string(key) + "\"");
      if (key == "id") {
        if (!j.is_number_integer()) return protocol_error("DevTools \"id\" is not an integer");
        m.id = j.get<std::int64_t>();
      } else if (key == "error") {
        m.is_error = true;
        if (j.is_object()) {
          if (auto c = j.find("code"); c != j.end() && c->is_number_integer()) {
            m.error_code = c->get<std::int64_t>();
          }
          if (auto t = j.find("message"); t != j.end() && t->is_string()) {
            m.error_message = t->get<std::string>();
          }
          if (auto d = j.find("data"); d != j.end() && d->is_string()) {
            m.error_message += " (" + d->get<std::string>() + ")";
          }
        }
      } else if (!j.is_string()) {
        return protocol_error("DevTools \"" + std::string(key) + "\" is not a string");
      } else if (key == "method") {
        m.method = j.get<std::string>();
      } else {
        m.session_id = j.get<std::string>();
      }
    }
    i = skip_ws(s, i + *len);
    if (i < s.size() && s[i] == ',') {
      i = skip_ws(s, i + 1);
      continue;
    }
    if (i < s.size() && s[i] == '}') break;
    return protocol_error("malformed DevTools message object");
  }
  return m;
}

}  // namespace caveman::browse
