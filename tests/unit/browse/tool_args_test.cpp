#include "tool_args.h"

#include <gtest/gtest.h>

namespace caveman::browse {
namespace {

template <typename R>
std::string code_of(const R& r) {
  return r.ok() ? "ok" : r.status().error_code();
}

TEST(ToolArgsTest, Snapshot) {
  Result<SnapshotRequest> empty = parse_snapshot_args(Json::object());
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->has_url);
  EXPECT_EQ(empty->wait_ms, 0);

  Result<SnapshotRequest> full =
      parse_snapshot_args(Json{{"url", "https://a.test/"}, {"wait", 1500}, {"query", "Save order"}});
  ASSERT_TRUE(full.ok());
  EXPECT_TRUE(full->has_url);
  EXPECT_EQ(full->url, "https://a.test/");
  EXPECT_EQ(full->wait_ms, 1500);
  EXPECT_EQ(full->query, "Save order");
  EXPECT_EQ(parse_snapshot_args(Json{{"url", nullptr}, {"wait", 30000}})->wait_ms, 30000);

  EXPECT_EQ(code_of(parse_snapshot_args(Json{{"url", "file:///etc/passwd"}})), "cave_browser_url_denied");
  EXPECT_EQ(code_of(parse_snapshot_args(Json{{"url", "example.com"}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_snapshot_args(Json{{"url", 7}})), "cave_invalid_arguments");
  for (Json w : {Json(-1), Json(30001), Json(1.5), Json("100"), Json(true)}) {
    EXPECT_EQ(code_of(parse_snapshot_args(Json{{"wait", w}})), "cave_invalid_arguments") << w.dump();
  }
  EXPECT_EQ(code_of(parse_snapshot_args(Json{{"query", std::string(kMaxQueryBytes + 1, 'q')}})),
            "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_snapshot_args(Json{{"query", std::string(kMaxQueryBytes, 'q')}})), "ok");
  EXPECT_EQ(code_of(parse_snapshot_args(Json::array())), "cave_invalid_arguments");
}

TEST(ToolArgsTest, Act) {
  EXPECT_EQ(code_of(parse_act_args(Json::object())), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "hover"}, {"uid", "u1"}})), "cave_unknown_action");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "click"}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "type"}, {"uid", "u1"}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "select"}, {"uid", "u1"}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "click"}, {"uid", 5}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "type"}, {"uid", "u1"}, {"text", std::string(kMaxTextBytes + 1, 't')}})),
            "cave_invalid_arguments");

  Result<ActRequest> wait = parse_act_args(Json{{"action", "wait"}});
  ASSERT_TRUE(wait.ok());
  Result<ActRequest> type = parse_act_args(Json{{"action", "type"}, {"uid", " [u2x] "}, {"text", "a@b.c"}, {"extra", 1}});
  ASSERT_TRUE(type.ok());
  EXPECT_EQ(type->uid, "u2x");  // copied with brackets and spaces: still found
  EXPECT_EQ(type->text, "a@b.c");
  Result<ActRequest> select = parse_act_args(Json{{"action", "select"}, {"uid", "u4"}, {"text", "Pro"}});
  ASSERT_TRUE(select.ok());  // text stands in for option
  EXPECT_TRUE(parse_act_args(Json{{"action", "type"}, {"uid", "u1"}, {"text", ""}}).ok());  // clears
}

TEST(ToolArgsTest, ActNavigateWaitTextAndFull) {
  Result<ActRequest> nav = parse_act_args(Json{{"action", "navigate"}, {"url", "https://a.test/"}});
  ASSERT_TRUE(nav.ok());
  EXPECT_EQ(nav->url, "https://a.test/");
  EXPECT_FALSE(nav->full);
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "navigate"}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "navigate"}, {"url", "file:///etc/passwd"}})), "cave_browser_url_denied");
  Result<ActRequest> wait = parse_act_args(Json{{"action", "wait"}, {"text", "Done"}, {"full", true}});
  ASSERT_TRUE(wait.ok());
  EXPECT_EQ(wait->text, "Done");
  EXPECT_TRUE(wait->full);
  EXPECT_EQ(code_of(parse_act_args(Json{{"action", "wait"}, {"full", "yes"}})), "cave_invalid_arguments");
}

TEST(ToolArgsTest, SnapshotFileIsAPlainNameOrTrue) {
  Result<SnapshotRequest> none = parse_snapshot_args(Json{{"file", false}});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->to_file);
  Result<SnapshotRequest> generated = parse_snapshot_args(Json{{"file", true}});
  ASSERT_TRUE(generated.ok());
  EXPECT_TRUE(generated->to_file);
  EXPECT_EQ(generated->file_name, "");
  Result<SnapshotRequest> named = parse_snapshot_args(Json{{"file", "orders-page_2.txt"}});
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->file_name, "orders-page_2.txt");
  for (const Json& bad : {Json("../x"), Json("/tmp/x"), Json(".x"), Json(""), Json("a b"), Json(std::string(129, 'a')), Json(3)}) {
    EXPECT_EQ(code_of(parse_snapshot_args(Json{{"file", bad}})), "cave_invalid_arguments") << bad.dump();
  }
}

TEST(ToolArgsTest, EvalAndRecover) {
  EXPECT_EQ(code_of(parse_eval_args(Json::object())), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_eval_args(Json{{"expression", "  "}})), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_eval_args(Json{{"expression", std::string(kMaxTextBytes + 1, '1')}})),
            "cave_invalid_arguments");
  EXPECT_EQ(parse_eval_args(Json{{"expression", "1+1"}})->expression, "1+1");

  EXPECT_EQ(code_of(parse_recover_args(Json::object())), "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_recover_args(Json{{"recovery_handle", std::string(kMaxHandleBytes + 1, 'c')}})),
            "cave_invalid_arguments");
  EXPECT_EQ(code_of(parse_recover_args(Json{{"recovery_handle", "<< >>"}})), "cave_invalid_arguments");
  Result<RecoverRequest> r = parse_recover_args(Json{{"recovery_handle", " <<ccr:ccr_0123>> "}, {"query", "Save"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->handle, "ccr_0123");
  EXPECT_EQ(r->query, "Save");
}

}  // namespace
}  // namespace caveman::browse
