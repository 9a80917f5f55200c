#include <openssl/evp.h>

#include "caveman/ccr.h"

namespace caveman::ccr {

std::string sha256_hex(std::string_view data) {
  // Fetched once: EVP_sha256() makes OpenSSL 3 look the algorithm up on every digest.
  static EVP_MD* const kSha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, kSha256 != nullptr ? kSha256 : EVP_sha256(),
             nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

std::string handle_for(std::string_view original) {
  return "ccr_" + sha256_hex(original).substr(0, 32);
}

}  // namespace caveman::ccr
