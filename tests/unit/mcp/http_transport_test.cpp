// The Origin check of caveman-mcp --http uses the one loopback definition (docs/base.md);
// before, it accepted only the literal hosts 127.0.0.1, localhost and [::1].
#include "http_transport.h"

#include <gtest/gtest.h>

namespace caveman::mcp {
namespace {

TEST(LoopbackOrigin, AcceptsEveryLoopbackHostWithOrWithoutPort) {
  for (const char* o : {"http://127.0.0.1", "http://127.0.0.1:3000", "https://localhost",
                        "http://LOCALHOST:80", "http://127.0.0.2:8080", "http://[::1]:6274"}) {
    EXPECT_TRUE(is_loopback_origin(o)) << o;
  }
}

TEST(LoopbackOrigin, RefusesForeignOrMalformedOrigins) {
  for (const char* o : {"http://evil.example", "http://127.999.0.1", "http://localhost.evil.com",
                        "http://127.0.0.1.evil.com", "file://localhost", "null", "http://[::1",
                        "http://127.0.0.1@evil.com", "ws://localhost"}) {
    EXPECT_FALSE(is_loopback_origin(o)) << o;
  }
}

}  // namespace
}  // namespace caveman::mcp
