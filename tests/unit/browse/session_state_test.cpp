#include "session_state.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include "support/test_support.h"

namespace caveman::browse {
namespace {

TEST(SessionStateTest, RoundTripsAtomicallyWithPrivateMode) {
  caveman::testing::TempDir dir;
  std::string path = dir.file("browse-session.json");
  Result<SessionState> missing = load_state(path);
  ASSERT_TRUE(missing.ok());
  EXPECT_TRUE(missing->empty());

  SessionState s;
  s.endpoint = "http://127.0.0.1:9333";
  s.target_id = "T1";
  s.targets = {"T1"};
  s.owned = true;
  s.pid = 1234;
  s.browser_tmp = "/tmp/cvb-Ab12Cd";
  s.document = "F/L";
  s.last_handle = "ccr_ab";
  s.uids["u2x"] = UidTarget{105, ""};
  s.uids["u3"] = UidTarget{3, "FRAME"};
  ASSERT_TRUE(save_state(path, s).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  Result<SessionState> back = load_state(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->to_json(), s.to_json());
  EXPECT_EQ(back->uids["u3"].frame_id, "FRAME");
  EXPECT_TRUE(back->owned);
  EXPECT_EQ(back->browser_tmp, "/tmp/cvb-Ab12Cd");

  caveman::testing::write_file(path, "{not json");
  EXPECT_EQ(load_state(path).status().error_code(), "cave_browse_state_corrupt");
  remove_state(path);
  EXPECT_TRUE(load_state(path)->empty());
}

}  // namespace
}  // namespace caveman::browse
