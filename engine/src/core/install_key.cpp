#include "caveman/install_key.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman {
namespace {

constexpr std::string_view kHex = "0123456789abcdef";

Status key_io(const std::string& what) {
  return Status::Io(codes::kSessionKeyUnavailable, what + ": " + std::strerror(errno));
}

Result<std::string> create_key(int fd, const std::string& path) {
  unsigned char key[kInstallKeyBytes];
  if (RAND_bytes(key, sizeof key) != 1) {
    ::close(fd);
    ::unlink(path.c_str());
    return Status::Internal(codes::kSessionKeyUnavailable, "no random bytes");
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

Result<std::string> read_key(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return key_io("open " + path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::Corrupt(codes::kSessionKeyInvalid, path + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) ::fchmod(fd, 0600);
  char buf[kInstallKeyBytes + 1];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  // A key still being written by a concurrent creator reads short; callers retry later.
  if (n != static_cast<ssize_t>(kInstallKeyBytes)) {
    return Status::Corrupt(codes::kSessionKeyInvalid, path + " does not hold a 32-byte key");
  }
  return std::string(buf, kInstallKeyBytes);
}

}  // namespace

std::string caveman_home_from_env() {
  return base::caveman_home(base::process_env()).value_or("./.caveman");
}

Result<std::string> load_or_create_key(const std::string& home, std::string_view file_name) {
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) return key_io("mkdir " + home);
  std::string dir = home + "/runtime";
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return key_io("mkdir " + dir);
  std::string path = dir + "/" + std::string(file_name);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) return create_key(fd, path);
  if (errno != EEXIST) return key_io("create " + path);
  return read_key(path);
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

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
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

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace caveman
