#include "snapshot.h"

#include <gtest/gtest.h>

namespace caveman::browse {
namespace {

TEST(SnapshotTest, UidsDecodeToBackendNodeIds) {
  EXPECT_EQ(decode_uid("u2x"), 105);
  EXPECT_EQ(decode_uid("u2x_2"), 105);
  EXPECT_EQ(decode_uid("u1"), 1);
  EXPECT_EQ(decode_uid("uzz"), 36 * 35 + 35);
  for (const char* bad : {"", "u", "x2x", "u2X", "u2x_", "u2x_a", "u0", "u-1", "u1234567890123"}) {
    EXPECT_FALSE(decode_uid(bad).has_value()) << bad;
  }
}

TEST(SnapshotTest, UidMapComesFromTheOutlineWithFramesFromMetadata) {
  std::string view =
      "page \"Shop\"\n  [u16] button \"Save\"\n  text \"[u99] not a uid line\"\n    [u1e] link \"Docs\"\n"
      "  [u1e_2] link \"Docs again\"";
  std::string meta = R"({"uids":{"u16":{"backendDOMNodeId":42,"nodeId":"5"},)"
                     R"("u1e":{"backendDOMNodeId":50,"frameId":"F1","nodeId":"13"},)"
                     R"("u77":{"backendDOMNodeId":259,"nodeId":"9"}}})";
  UidMap m = uids_from_view(view, meta);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m["u16"].backend_node_id, 42);
  EXPECT_EQ(m["u16"].frame_id, "");
  EXPECT_EQ(m["u1e"].backend_node_id, 50);
  EXPECT_EQ(m["u1e"].frame_id, "F1");
  EXPECT_EQ(m["u1e_2"].backend_node_id, 50);
  EXPECT_FALSE(m.contains("u77"));  // in metadata (an older view) but not shown: not actionable
  EXPECT_EQ(uids_from_view(view, "not json").size(), 3u);
}

TEST(SnapshotTest, TokensAfterCountsWhatTheAgentReads) {
  const tokens::Counter& c = tokens::default_counter();
  for (std::string view : {std::string("page \"Checkout\"\n  [u3] textbox \"Email\""), std::string(5000, 'x') + "\n  y"}) {
    Json p = snapshot_payload(view, "ccr_0123456789abcdef0123456789abcdef", 100000, c);
    Json agent = agent_view(p);
    EXPECT_EQ(p["tokens_after"].get<std::int64_t>(), static_cast<std::int64_t>(c.count(dump_compact(agent))));
    EXPECT_EQ(p["view_tokens"].get<std::int64_t>(), static_cast<std::int64_t>(c.count(view)));
    EXPECT_EQ(p["basis"], "inferred");
    auto keys = [](const Json& j) {
      std::vector<std::string> k;
      for (auto it = j.begin(); it != j.end(); ++it) k.push_back(it.key());
      return k;
    };
    EXPECT_EQ(keys(p), (std::vector<std::string>{"uids", "recovery_handle", "tokens_before", "view_tokens",
                                                 "tokens_after", "ratio", "basis"}));
    // The counters stay out of what the agent reads.
    EXPECT_EQ(keys(agent), (std::vector<std::string>{"uids", "recovery_handle"}));
    EXPECT_EQ(agent["uids"], view);
  }
  Json with = snapshot_payload("page\n  x", "ccr_x", 1000, c, Json{{"dialogs", Json::array({Json{{"type", "alert"}}})}});
  EXPECT_TRUE(with.contains("dialogs"));
  EXPECT_TRUE(agent_view(with).contains("dialogs"));  // the agent must learn a dialog was answered
  EXPECT_EQ(with["tokens_after"].get<std::int64_t>(), static_cast<std::int64_t>(c.count(dump_compact(agent_view(with)))));
  double ratio = with["ratio"].get<double>();
  EXPECT_DOUBLE_EQ(ratio, std::round((1000.0 - with["tokens_after"].get<double>()) / 1000.0 * 10000) / 10000);
}

TEST(SnapshotTest, AnEmptyDocumentHasNoHandleInTheAgentView) {
  Json p = snapshot_payload("page \"\"", "ccr_0123456789abcdef0123456789abcdef", 300, tokens::default_counter());
  EXPECT_EQ(p["recovery_handle"], "ccr_0123456789abcdef0123456789abcdef");  // still in the full payload
  EXPECT_FALSE(agent_view(p).contains("recovery_handle"));
}

}  // namespace
}  // namespace caveman::browse
