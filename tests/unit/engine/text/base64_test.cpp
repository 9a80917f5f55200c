// caveman::base64_encode / base64_decode (RFC 4648 §10 test vectors, strict decoding).
#include "caveman/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
  const char* plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char* coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(base64_encode(plain[i]), coded[i]);
    EXPECT_EQ(base64_decode(coded[i]).value_or("?"), plain[i]);
  }
}

TEST(Base64Test, EveryByteRoundTrips) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  EXPECT_EQ(base64_decode(base64_encode(all)).value_or("?"), all);
}

TEST(Base64Test, RejectsNonCanonicalText) {
  EXPECT_FALSE(base64_decode("Zg="));      // length not a multiple of 4
  EXPECT_FALSE(base64_decode("Z!=="));     // outside the alphabet
  EXPECT_FALSE(base64_decode("Zg==Zg==")); // padding before the end
}

}  // namespace
}  // namespace caveman
