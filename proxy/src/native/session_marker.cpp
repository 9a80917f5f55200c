#include "native/session_marker.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

namespace caveman::proxy::native {
namespace {

constexpr std::string_view kPrefix = "[[caveman-session-v1 sid=";
constexpr std::string_view kHex = "0123456789abcdef";

Status key_io(const std::string& what) {
  return Status::Io("cave_session_key_unavailable", what + ": " + std::strerror(errno));
}

bool sid_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

std::optional<std::string> base64url_decode(std::string_view s) {
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '-'             ? 62
            : c == '_'             ? 63
                                   : -1;
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

// Matches one marker at `pos` (which starts with kPrefix). The quote is either `"` or the
// JSON-escaped `\"`, used consistently. Returns the marker length, or 0.
std::size_t match_marker(std::string_view body, std::size_t pos, std::string_view* sid,
                         std::string_view* sig) {
  std::size_t i = pos + kPrefix.size();
  std::string_view quote = body.substr(i, 2) == "\\\"" ? "\\\"" : "\"";
  if (body.substr(i, quote.size()) != quote) return 0;
  i += quote.size();
  std::size_t sid_start = i;
  while (i < body.size() && sid_char(body[i]) && i - sid_start <= kMaxSidChars) ++i;
  std::size_t sid_len = i - sid_start;
  if (sid_len == 0 || sid_len > kMaxSidChars) return 0;
  if (body.substr(i, quote.size()) != quote) return 0;
  i += quote.size();
  std::string sig_open = " sig=" + std::string(quote);
  if (body.substr(i, sig_open.size()) != sig_open) return 0;
  i += sig_open.size();
  std::size_t sig_start = i;
  while (i < body.size() && i - sig_start < 64 && kHex.find(body[i]) != std::string_view::npos) ++i;
  if (i - sig_start != 64) return 0;
  std::string close = std::string(quote) + "]]";
  if (body.substr(i, close.size()) != close) return 0;
  *sid = body.substr(sid_start, sid_len);
  *sig = body.substr(sig_start, 64);
  return i + close.size() - pos;
}

}  // namespace

Result<std::string> load_or_create_key(const std::string& home) {
  std::string dir = home + "/runtime";
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return key_io("mkdir " + dir);
  std::string path = dir + "/session.key";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    unsigned char key[kSessionKeyBytes];
    if (RAND_bytes(key, sizeof key) != 1) {
      ::close(fd);
      ::unlink(path.c_str());
      return Status::Internal("cave_session_key_unavailable", "no random bytes");
    }
    bool ok = ::write(fd, key, sizeof key) == static_cast<ssize_t>(sizeof key);
    ok = ::fsync(fd) == 0 && ok;
    ::close(fd);
    if (!ok) {
      ::unlink(path.c_str());
      return key_io("write " + path);
    }
    return std::string(reinterpret_cast<const char*>(key), sizeof key);
  }
  if (errno != EEXIST) return key_io("create " + path);
  fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return key_io("open " + path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Corrupt("cave_session_key_invalid", path + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) ::fchmod(fd, 0600);
  char buf[kSessionKeyBytes + 1];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  // A key still being written by a concurrent creator reads short; callers retry later.
  if (n != static_cast<ssize_t>(kSessionKeyBytes)) {
    return Status::Corrupt("cave_session_key_invalid", path + " does not hold a 32-byte key");
  }
  return std::string(buf, kSessionKeyBytes);
}

std::string base64url_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(acc >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63];
  return out;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len);
  std::string hex;
  hex.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    hex += kHex[mac[i] >> 4];
    hex += kHex[mac[i] & 15];
  }
  return hex;
}

Result<std::string> make_marker(std::string_view key, std::string_view session_id) {
  std::string sid = base64url_encode(session_id);
  if (sid.empty() || sid.size() > kMaxSidChars) {
    return Status::InvalidArgument("cave_native_bad_request", "session id too long for a marker");
  }
  return "[[caveman-session-v1 sid=\"" + sid + "\" sig=\"" + hmac_sha256_hex(key, sid) + "\"]]";
}

MarkerScan strip_session_markers(std::string_view body, std::string_view key) {
  MarkerScan scan;
  std::set<std::string, std::less<>> sids;
  std::size_t copied = 0;
  std::size_t pos = body.find(kPrefix);
  if (pos == std::string_view::npos) return scan;
  while (pos != std::string_view::npos) {
    std::string_view sid;
    std::string_view sig;
    std::size_t len = match_marker(body, pos, &sid, &sig);
    if (len == 0) {
      pos = body.find(kPrefix, pos + 1);
      continue;
    }
    std::string expected = hmac_sha256_hex(key, sid);
    bool ok = !key.empty() && CRYPTO_memcmp(expected.data(), sig.data(), 64) == 0;
    if (!ok) {
      ++scan.invalid;
      pos = body.find(kPrefix, pos + len);
      continue;
    }
    ++scan.valid;
    sids.insert(std::string(sid));
    scan.body.append(body.substr(copied, pos - copied));
    copied = pos + len;
    pos = body.find(kPrefix, copied);
  }
  if (scan.valid > 0) {
    scan.body.append(body.substr(copied));
  } else {
    scan.body.clear();
  }
  scan.ambiguous = sids.size() > 1;
  if (sids.size() == 1 && scan.invalid == 0) {
    std::optional<std::string> id = base64url_decode(*sids.begin());
    if (id) scan.session_id = std::move(*id);
  }
  return scan;
}

}  // namespace caveman::proxy::native
