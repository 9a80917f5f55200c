// Typed objects in the SQLite store: put/get, collisions, enum updates, session listing order
// and TaskDecision lookup (docs/spec/ccr.md#objects).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "caveman/ccr.h"
#include "support/test_support.h"

namespace caveman::ccr {
namespace {

class TypedObjectsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<Store>> s = open_store(std::string(kMemoryPath));
    ASSERT_OK(s.status());
    store_ = std::move(s).value();
  }

  static TypedObject object(std::string type, std::string session, std::string data,
                            std::string created_at = "") {
    TypedObject o;
    o.type = std::move(type);
    o.session_id = std::move(session);
    o.source = "test";
    o.data = std::move(data);
    o.created_at = std::move(created_at);
    return o;
  }

  std::vector<std::string> listed_ids(std::string_view session, int limit = 0) {
    Result<std::vector<TypedObject>> list = store_->list_session_objects(session, limit);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::vector<std::string> ids;
    if (list.ok()) {
      for (const TypedObject& o : list.value()) ids.push_back(o.object_id);
    }
    return ids;
  }

  std::unique_ptr<Store> store_;
};

TEST_F(TypedObjectsTest, PutReturnsTheStoredObjectAndGetReadsItBack) {
  TypedObject o = object("FileObservation", "s1", "file body", "2026-01-01T00:00:00+01:00");
  o.dependencies = {"ccr_obj_dep1", "ccr_obj_dep2"};
  o.transform_version = "code/v1";
  Result<TypedObject> put = store_->put_object(o);
  ASSERT_OK(put.status());
  EXPECT_EQ(put->created_at, "2025-12-31T23:00:00Z");
  Result<TypedObject> got = store_->get_object(put->object_id);
  ASSERT_OK(got.status());
  EXPECT_EQ(got->to_json(), put->to_json());
  EXPECT_EQ(got->dependencies, o.dependencies);
  EXPECT_EQ(got->transform_version, "code/v1");
}

TEST_F(TypedObjectsTest, InvalidObjectsAreRejectedBeforeTouchingTheStore) {
  Result<TypedObject> r = store_->put_object(object("Nonsense", "s1", "x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_invalid_object");
  r = store_->put_object(object("TestResult", "", "x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
}

TEST_F(TypedObjectsTest, RePutOfTheSameObjectIsAcceptedAndKeepsTheStoredRow) {
  TypedObject o = object("BuildResult", "s1", "ok", "2026-01-01T00:00:00Z");
  ASSERT_OK(store_->put_object(o).status());
  TypedObject again = o;
  again.lifecycle = "cold";  // mutable fields are not compared
  again.created_at = "2027-01-01T00:00:00Z";
  Result<TypedObject> r = store_->put_object(again);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->lifecycle, "hot");
  EXPECT_EQ(r->created_at, "2026-01-01T00:00:00Z");
}

TEST_F(TypedObjectsTest, SameIdWithDifferentImmutableFieldsIsACollision) {
  TypedObject o = object("BuildResult", "s1", "ok");
  o.object_id = "ccr_obj_fixed";
  ASSERT_OK(store_->put_object(o).status());
  TypedObject other_data = o;
  other_data.data = "different";
  Result<TypedObject> r = store_->put_object(other_data);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kCorrupt);
  EXPECT_EQ(r.status().error_code(), "cave_object_id_collision");
  EXPECT_EQ(r.status().message(), "ccr: typed object id collision");
  EXPECT_EQ(store_->get("ccr_obj_fixed").value(), "ok");

  // A derived id collides when a field outside the id (transform_version, deps, lengths)
  // differs.
  TypedObject derived = object("BuildResult", "s2", "ok");
  ASSERT_OK(store_->put_object(derived).status());
  for (int field = 0; field < 3; ++field) {
    TypedObject changed = derived;
    if (field == 0) changed.transform_version = "v2";
    if (field == 1) changed.dependencies = {"ccr_obj_x"};
    if (field == 2) changed.original_byte_length = 99;
    EXPECT_EQ(store_->put_object(changed).status().error_code(), "cave_object_id_collision")
        << field;
  }
}

TEST_F(TypedObjectsTest, CurrentnessAndLifecycleAreValidatedAndUpdated) {
  Result<TypedObject> put = store_->put_object(object("TaskContract", "s1", "contract"));
  ASSERT_OK(put.status());
  ASSERT_OK(store_->set_object_currentness(put->object_id, "stale"));
  ASSERT_OK(store_->set_object_lifecycle(put->object_id, "archived"));
  Result<TypedObject> got = store_->get_object(put->object_id);
  ASSERT_OK(got.status());
  EXPECT_EQ(got->currentness, "stale");
  EXPECT_EQ(got->lifecycle, "archived");

  EXPECT_EQ(store_->set_object_currentness(put->object_id, "hot").code(), Code::kInvalidArgument);
  EXPECT_EQ(store_->set_object_lifecycle(put->object_id, "stale").code(), Code::kInvalidArgument);
  EXPECT_EQ(store_->set_object_currentness("ccr_obj_missing", "stale").code(), Code::kNotFound);
  EXPECT_EQ(store_->set_object_lifecycle("ccr_obj_missing", "warm").code(), Code::kNotFound);
  EXPECT_EQ(store_->get_object("ccr_obj_missing").status().code(), Code::kNotFound);
}

TEST_F(TypedObjectsTest, ListIsNewestFirstWithSubSecondPrecisionThenIdDescending) {
  auto put = [&](std::string id, std::string created, std::string session = "s1") {
    TypedObject o = object("CommandResult", std::move(session), "data " + id, std::move(created));
    o.object_id = std::move(id);
    ASSERT_OK(store_->put_object(o).status());
  };
  put("ccr_obj_a", "2026-01-01T00:00:05Z");
  put("ccr_obj_b", "2026-01-01T00:00:05.5Z");
  put("ccr_obj_c", "2026-01-01T00:00:05.12Z");
  put("ccr_obj_d", "2026-01-01T00:00:04.999999999Z");
  put("ccr_obj_e", "2026-01-01T00:00:05.5Z");     // same instant as b: id breaks the tie
  put("ccr_obj_f", "2026-01-01T01:00:05+01:00");  // = 00:00:05Z, same as a
  put("ccr_obj_other", "2030-01-01T00:00:00Z", "s2");
  EXPECT_EQ(listed_ids("s1"), (std::vector<std::string>{"ccr_obj_e", "ccr_obj_b", "ccr_obj_c",
                                                        "ccr_obj_f", "ccr_obj_a", "ccr_obj_d"}));
  EXPECT_EQ(listed_ids("s1", 2), (std::vector<std::string>{"ccr_obj_e", "ccr_obj_b"}));
  EXPECT_EQ(listed_ids("s2"), (std::vector<std::string>{"ccr_obj_other"}));
  EXPECT_TRUE(listed_ids("nobody").empty());
  EXPECT_EQ(store_->list_session_objects(" ", 10).status().code(), Code::kInvalidArgument);
}

TEST_F(TypedObjectsTest, ListLimitDefaultsToOneHundred) {
  for (int i = 0; i < 105; ++i) {
    ASSERT_OK(
        store_->put_object(object("SearchResult", "many", "hit " + std::to_string(i))).status());
  }
  EXPECT_EQ(listed_ids("many", 0).size(), 100u);
  EXPECT_EQ(listed_ids("many", -3).size(), 100u);
  EXPECT_EQ(listed_ids("many", 20000).size(), 105u);
}

TEST_F(TypedObjectsTest, FindTaskDecisionReturnsTheNewestMatchingDecision) {
  TypedObject old_d =
      object("TaskDecision", "s1", R"({"decision_id":"d1","v":1})", "2026-01-01T00:00:00Z");
  TypedObject new_d =
      object("TaskDecision", "s2", R"({"decision_id":"d1","v":2})", "2026-01-01T00:00:00.25Z");
  TypedObject other =
      object("TaskDecision", "s1", R"({"decision_id":"d2"})", "2026-06-01T00:00:00Z");
  TypedObject not_decision =
      object("ExecutionState", "s1", R"({"decision_id":"d1"})", "2027-01-01T00:00:00Z");
  TypedObject broken = object("TaskDecision", "s1", "{not json", "2027-01-01T00:00:00Z");
  TypedObject nested =
      object("TaskDecision", "s1", R"({"x":{"decision_id":"d1"}})", "2027-01-01T00:00:00Z");
  for (const TypedObject* o : {&old_d, &new_d, &other, &not_decision, &broken, &nested}) {
    ASSERT_OK(store_->put_object(*o).status());
  }
  Result<std::optional<TypedObject>> found = store_->find_task_decision("d1");
  ASSERT_OK(found.status());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->data, new_d.data);
  Result<std::optional<TypedObject>> none = store_->find_task_decision("d9");
  ASSERT_OK(none.status());
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace caveman::ccr
