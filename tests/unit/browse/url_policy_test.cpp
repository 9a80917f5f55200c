#include "url_policy.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::browse {
namespace {

std::string code(std::string_view url) { return check_url(url).error_code(); }

TEST(UrlPolicyTest, AllowsWebPagesBlankAndHtmlDataUrls) {
  for (const char* ok : {"http://example.com", "https://example.com/a?b=c#d", "HTTP://127.0.0.1:8080/",
                         "http://user:pw@host:1/x", "https://[::1]:9/", "about:blank", "ABOUT:BLANK",
                         "data:text/html,<p>hi there</p>", "data:text/html;charset=utf-8,%3Cb%3E",
                         "DATA:TEXT/HTML,x"}) {
    EXPECT_TRUE(check_url(ok).ok()) << ok << ": " << check_url(ok).ToString();
  }
}

TEST(UrlPolicyTest, DeniesOtherSchemes) {
  for (const char* denied : {"file:///etc/passwd", "javascript:alert(1)", "JaVaScRiPt:alert(1)",
                             "chrome://settings", "chrome-extension://abc/x.html", "view-source:http://a",
                             "about:config", "data:image/svg+xml,<svg/>", "data:text/plain,hi", "ftp://a/b",
                             "blob:http://a/1", "ws://127.0.0.1:1/", "devtools://devtools/x"}) {
    EXPECT_EQ(code(denied), "cave_browser_url_denied") << denied;
  }
}

TEST(UrlPolicyTest, RefusesTextThatIsNotAUrl) {
  for (const char* bad : {"", "example.com", "/relative", " http://a.com", "http://", "https:///path",
                          "http://a.com/x y", "java\tscript:alert(1)", "http://a.com/\nx", "1http://a"}) {
    EXPECT_EQ(code(bad), "cave_invalid_arguments") << bad;
  }
  std::string huge = "data:text/html," + std::string(kMaxUrlBytes, 'a');
  EXPECT_EQ(code(huge), "cave_invalid_arguments");
  EXPECT_TRUE(check_url(huge.substr(0, kMaxUrlBytes)).ok());
}

TEST(UrlPolicyTest, Scheme) {
  EXPECT_EQ(url_scheme("HTTPS://x"), "https");
  EXPECT_EQ(url_scheme("no-colon"), "");
  EXPECT_EQ(url_scheme("9p:x"), "");
}

}  // namespace
}  // namespace caveman::browse
