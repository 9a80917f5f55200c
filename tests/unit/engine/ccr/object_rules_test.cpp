// Typed-object validation, defaults and id derivation (docs/spec/ccr.md#objects), without SQLite.
#include "ccr/object_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "support/test_support.h"

namespace caveman::ccr {
namespace {

constexpr std::string_view kNow = "2026-01-02T03:04:05.5Z";

TypedObject minimal() {
  TypedObject o;
  o.type = "TaskDecision";
  o.session_id = "session-1";
  o.source = "agent";
  o.repository_state = "abc123";
  o.data = R"({"decision_id":"d1"})";
  return o;
}

void expect_invalid(const TypedObject& o, const std::string& fragment) {
  Result<TypedObject> r = normalize_object(o, kNow);
  ASSERT_FALSE(r.ok()) << fragment;
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().error_code(), "cave_invalid_object");
  EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
}

TEST(CcrObjectRules, FillsDefaults) {
  Result<TypedObject> r = normalize_object(minimal(), kNow);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->currentness, "current");
  EXPECT_EQ(r->lifecycle, "hot");
  EXPECT_EQ(r->created_at, kNow);
  EXPECT_EQ(r->content_hash, "sha256:" + sha256_hex(minimal().data));
  EXPECT_EQ(r->original_byte_length, static_cast<std::int64_t>(minimal().data.size()));
  EXPECT_EQ(r->stored_byte_length, static_cast<std::int64_t>(minimal().data.size()));
}

TEST(CcrObjectRules, DerivesTheIdFromTypeSessionSourceStateAndHash) {
  Result<TypedObject> r = normalize_object(minimal(), kNow);
  ASSERT_OK(r.status());
  const std::string key = std::string("TaskDecision") + '\0' + "session-1" + '\0' + "agent" + '\0' +
                          "abc123" + '\0' + "sha256:" + sha256_hex(minimal().data);
  EXPECT_EQ(r->object_id, "ccr_obj_" + sha256_hex(key).substr(0, 32));
  EXPECT_EQ(r->object_id.size(), 8u + 32u);

  TypedObject other_session = minimal();
  other_session.session_id = "session-2";
  EXPECT_NE(normalize_object(other_session, kNow)->object_id, r->object_id);
  TypedObject other_version = minimal();  // transform_version is not part of the id
  other_version.transform_version = "v2";
  EXPECT_EQ(normalize_object(other_version, kNow)->object_id, r->object_id);
}

TEST(CcrObjectRules, KeepsSuppliedValues) {
  TypedObject o = minimal();
  o.object_id = "ccr_obj_custom";
  o.currentness = "stale";
  o.lifecycle = "cold";
  o.created_at = "2026-03-04T05:06:07.120+01:00";
  o.content_hash = "sha256:" + sha256_hex(o.data);
  o.original_byte_length = 4096;
  o.stored_byte_length = 0;
  Result<TypedObject> r = normalize_object(o, kNow);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->object_id, "ccr_obj_custom");
  EXPECT_EQ(r->currentness, "stale");
  EXPECT_EQ(r->lifecycle, "cold");
  EXPECT_EQ(r->created_at, "2026-03-04T04:06:07.12Z");  // stored as UTC
  EXPECT_EQ(r->original_byte_length, 4096);
  EXPECT_EQ(r->stored_byte_length, 0);
}

TEST(CcrObjectRules, AcceptsAllThirteenKindsAndNothingElse) {
  EXPECT_EQ(std::size(kObjectTypes), 13u);
  for (std::string_view type : kObjectTypes) {
    TypedObject o = minimal();
    o.type = std::string(type);
    EXPECT_TRUE(normalize_object(o, kNow).ok()) << type;
  }
  TypedObject o = minimal();
  o.type = "taskdecision";
  expect_invalid(o, "unknown type");
  o.type = "";
  expect_invalid(o, "unknown type");
}

TEST(CcrObjectRules, RejectsInvalidFields) {
  TypedObject o = minimal();
  o.session_id = " \t\n";
  expect_invalid(o, "session_id is required");

  o = minimal();
  o.currentness = "fresh";
  expect_invalid(o, "currentness");
  o = minimal();
  o.lifecycle = "frozen";
  expect_invalid(o, "lifecycle");
  o = minimal();
  o.content_hash = "sha256:" + std::string(64, '0');
  expect_invalid(o, "does not match");
  o = minimal();
  o.original_byte_length = -2;
  expect_invalid(o, "negative");
  o = minimal();
  o.stored_byte_length = -5;
  expect_invalid(o, "negative");
  o = minimal();
  o.created_at = "yesterday";
  expect_invalid(o, "RFC 3339");
  o = minimal();
  o.object_id = "ccr_0123456789abcdef0123456789abcdef";  // would shadow a blob handle
  expect_invalid(o, "blob handle");
  o = minimal();
  o.object_id = "   ";
  expect_invalid(o, "blank");
}

TEST(CcrObjectRules, EnumsHaveTheDocumentedValues) {
  for (const char* v : {"current", "stale", "archived"}) EXPECT_TRUE(is_currentness(v)) << v;
  for (const char* v : {"hot", "warm", "cold", "archived"}) EXPECT_TRUE(is_lifecycle(v)) << v;
  EXPECT_FALSE(is_currentness("hot"));
  EXPECT_FALSE(is_lifecycle("stale"));
}

TEST(CcrObjectRules, DependenciesRoundTripThroughJson) {
  const std::vector<std::string> deps = {"ccr_obj_a", "quote\"d", "line\nbreak"};
  const std::string json = dependencies_to_json(deps);
  EXPECT_EQ(json, R"(["ccr_obj_a","quote\"d","line\nbreak"])");
  Result<std::vector<std::string>> back = dependencies_from_json(json);
  ASSERT_OK(back.status());
  EXPECT_EQ(back.value(), deps);
  EXPECT_EQ(dependencies_to_json({}), "[]");
  EXPECT_TRUE(dependencies_from_json("null")->empty());
  EXPECT_EQ(dependencies_from_json("{}").status().code(), Code::kCorrupt);
  EXPECT_EQ(dependencies_from_json("[1]").status().code(), Code::kCorrupt);
}

TEST(CcrTypedObjectJson, UsesTheDocumentedFieldOrder) {
  Result<TypedObject> r = normalize_object(minimal(), kNow);
  ASSERT_OK(r.status());
  r->dependencies = {"ccr_obj_x"};
  EXPECT_EQ(r->to_json(),
            "{\"object_id\":\"" + r->object_id +
                "\",\"type\":\"TaskDecision\",\"content_hash\":\"" + r->content_hash +
                "\",\"source\":\"agent\",\"created_at\":\"2026-01-02T03:04:05.5Z\","
                "\"repository_state\":\"abc123\",\"session_id\":\"session-1\","
                "\"transform_version\":\"\",\"currentness\":\"current\",\"lifecycle\":\"hot\","
                "\"dependencies\":[\"ccr_obj_x\"],\"original_byte_length\":20,"
                "\"stored_byte_length\":20,\"data\":\"{\\\"decision_id\\\":\\\"d1\\\"}\"}");
}

TEST(CcrTypedObjectJson, ReplacesInvalidUtf8InData) {
  TypedObject o = minimal();
  o.data = "ok \xff end";
  const std::string json = normalize_object(o, kNow)->to_json();
  EXPECT_NE(json.find("\"data\":\"ok \xEF\xBF\xBD end\""), std::string::npos) << json;
}

}  // namespace
}  // namespace caveman::ccr
