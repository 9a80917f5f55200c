// Session markers: the key file, signing, and stripping from request bodies (raw and inside
// JSON strings), with invalid and ambiguous markers correlating nothing.
#include "native/session_marker.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using caveman::testing::TempDir;

const std::string kKey(32, 'k');

TEST(SessionMarker, KeyIsCreatedOnce0600AndReused) {
  TempDir home;
  Result<std::string> a = load_or_create_key(home.path());
  ASSERT_OK(a);
  EXPECT_EQ(a->size(), kSessionKeyBytes);
  struct stat st {};
  ASSERT_EQ(::stat(home.file("runtime/session.key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(home.file("runtime").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  Result<std::string> b = load_or_create_key(home.path());
  ASSERT_OK(b);
  EXPECT_EQ(*a, *b);
}

TEST(SessionMarker, ShortKeyFileIsRefused) {
  TempDir home;
  ASSERT_EQ(::mkdir(home.file("runtime").c_str(), 0700), 0);
  caveman::testing::write_file(home.file("runtime/session.key"), "short");
  Result<std::string> k = load_or_create_key(home.path());
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().error_code(), "cave_session_key_invalid");
}

TEST(SessionMarker, MarkerFormat) {
  Result<std::string> m = make_marker(kKey, "claude:s1");
  ASSERT_OK(m);
  std::string sid = base64url_encode("claude:s1");
  EXPECT_EQ(*m, "[[caveman-session-v1 sid=\"" + sid + "\" sig=\"" + hmac_sha256_hex(kKey, sid) + "\"]]");
  EXPECT_EQ(hmac_sha256_hex(kKey, sid).size(), 64u);
  EXPECT_FALSE(make_marker(kKey, std::string(400, 'x')).ok());  // sid would exceed 384 chars
}

TEST(SessionMarker, HmacMatchesRfc4231Vector) {
  // RFC 4231 test case 2.
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(SessionMarker, StripsValidMarkerFromRawText) {
  std::string marker = *make_marker(kKey, "claude:s1");
  MarkerScan scan = strip_session_markers("before " + marker + " after", kKey);
  EXPECT_EQ(scan.body, "before  after");
  EXPECT_EQ(scan.valid, 1);
  EXPECT_EQ(scan.session_id, "claude:s1");
}

TEST(SessionMarker, StripsFromJsonStringsAndKeepsJsonValid) {
  std::string marker = *make_marker(kKey, "claude:s2");
  nlohmann::json body = {{"model", "m"},
                         {"messages", {{{"role", "user"}, {"content", "hi\n" + marker + "\nthere"}}}}};
  std::string wire = body.dump();
  ASSERT_NE(wire.find("sid=\\\""), std::string::npos);  // quotes are escaped in the body
  MarkerScan scan = strip_session_markers(wire, kKey);
  EXPECT_EQ(scan.valid, 1);
  EXPECT_EQ(scan.session_id, "claude:s2");
  nlohmann::json back = nlohmann::json::parse(scan.body);
  EXPECT_EQ(back["messages"][0]["content"], "hi\n\nthere");
}

TEST(SessionMarker, InvalidSignatureIsKeptAndCorrelatesNothing) {
  std::string forged = *make_marker(std::string(32, 'x'), "claude:s1");
  MarkerScan scan = strip_session_markers("a " + forged, kKey);
  EXPECT_EQ(scan.body, "");  // nothing removed: the caller keeps its input
  EXPECT_EQ(scan.invalid, 1);
  EXPECT_EQ(scan.valid, 0);
  EXPECT_TRUE(scan.session_id.empty());
  // A valid marker next to a forged one is removed but correlates nothing.
  std::string good = *make_marker(kKey, "claude:s1");
  scan = strip_session_markers(good + forged, kKey);
  EXPECT_EQ(scan.body, forged);
  EXPECT_TRUE(scan.session_id.empty());
}

TEST(SessionMarker, TwoSessionsAreAmbiguous) {
  std::string a = *make_marker(kKey, "claude:a");
  std::string b = *make_marker(kKey, "claude:b");
  MarkerScan scan = strip_session_markers(a + "x" + b + a, kKey);
  EXPECT_EQ(scan.valid, 3);
  EXPECT_TRUE(scan.ambiguous);
  EXPECT_TRUE(scan.session_id.empty());
  EXPECT_EQ(scan.body, "x");
}

TEST(SessionMarker, MalformedMarkersAreLeftAlone) {
  for (std::string text : {std::string("[[caveman-session-v1 sid=\"\" sig=\"\"]]"),
                           std::string("[[caveman-session-v1 sid=\"abc\" sig=\"12\"]]"),
                           std::string("[[caveman-session-v1 sid=\"abc\\\" sig=\"") + std::string(64, 'a') + "\"]]",
                           std::string("[[caveman-session-v1 sid=")}) {
    MarkerScan scan = strip_session_markers(text, kKey);
    EXPECT_EQ(scan.body, "");
    EXPECT_EQ(scan.valid, 0);
  }
  EXPECT_EQ(strip_session_markers("no markers", kKey).valid, 0);
  // No key (the runtime is off): nothing validates.
  std::string good = *make_marker(kKey, "claude:s1");
  EXPECT_EQ(strip_session_markers(good, "").valid, 0);
}

}  // namespace
}  // namespace caveman::proxy::native
