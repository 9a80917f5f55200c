// Blob side of the SQLite store: handles, idempotent put, upsert rules, retrieval fallbacks,
// the byte budget and stats (docs/spec/ccr.md: schema, put, budget, stats).
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "support/test_support.h"

namespace caveman::ccr {
namespace {

using ::caveman::testing::TempDir;

std::unique_ptr<Store> open_or_die(const std::string& path,
                                   std::int64_t max_bytes = kDefaultMaxBytes) {
  OpenOptions options;
  options.max_bytes = max_bytes;
  Result<std::unique_ptr<Store>> store = open_store(path, options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

Record make_record(std::string original, std::string content_type = "json",
                   std::int64_t before = 100, std::int64_t after = 10, std::string metadata = "") {
  return Record{content_type, content_type,        before,
                after,        std::move(original), std::move(metadata)};
}

// Reads one column of one recoveries row straight from the file.
std::string row_field(const std::string& db_path, const std::string& handle,
                      const std::string& column) {
  SQLite::Database db(db_path, SQLite::OPEN_READONLY);
  SQLite::Statement q(db, "SELECT " + column + " FROM recoveries WHERE handle = ?");
  q.bind(1, handle);
  if (!q.executeStep()) return "<missing>";
  return q.getColumn(0).isNull() ? "<null>" : q.getColumn(0).getString();
}

TEST(CcrHandle, IsCcrPlusFirst32HexOfSha256) {  // E7
  EXPECT_EQ(handle_for(""), "ccr_e3b0c44298fc1c149afbf4c8996fb924");
  EXPECT_EQ(handle_for("abc"), "ccr_ba7816bf8f01cfea414140de5dae2223");
  EXPECT_EQ(handle_for("abc").size(), 36u);
  EXPECT_EQ(handle_for("abc"), handle_for(std::string("abc")));
  EXPECT_NE(handle_for("abc"), handle_for("abd"));
}

TEST(SqliteStore, PutReturnsTheHandleOfTheOriginalAndGetReturnsExactBytes) {
  auto store = open_or_die(std::string(kMemoryPath));
  ASSERT_NE(store, nullptr);
  // sizeof - 1: the literal holds an embedded NUL, so strlen would stop early.
  static constexpr char kBytes[] = "binary\0bytes \xff\xfe and text";
  std::string original(kBytes, sizeof kBytes - 1);
  Result<std::string> h = store->put(make_record(original));
  ASSERT_OK(h.status());
  EXPECT_EQ(h.value(), handle_for(original));
  Result<std::string> got = store->get(h.value());
  ASSERT_OK(got.status());
  EXPECT_EQ(got.value(), original);
}

TEST(SqliteStore, EmptyOriginalIsStoredAsEmptyBytes) {
  auto store = open_or_die(std::string(kMemoryPath));
  Result<std::string> h = store->put(make_record(""));
  ASSERT_OK(h.status());
  Result<std::string> got = store->get(h.value());
  ASSERT_OK(got.status());
  EXPECT_EQ(got.value(), "");
}

TEST(SqliteStore, UnknownHandleIsNotFoundWithCaveCode) {
  auto store = open_or_die(std::string(kMemoryPath));
  Result<std::string> got = store->get("ccr_00000000000000000000000000000000");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kNotFound);
  EXPECT_EQ(got.status().error_code(), "cave_unknown_handle");
  EXPECT_EQ(got.status().message(), "ccr: recovery handle not found");
  EXPECT_EQ(store->get_metadata("ccr_nope").status().code(), Code::kNotFound);
  EXPECT_EQ(store->get("ccr_obj_nope").status().code(), Code::kNotFound);
}

TEST(SqliteStore, IdenticalPutIsIdempotentAndDoesNotRewrite) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  auto store = open_or_die(path);
  Record r = make_record("payload one", "json", 100, 10, "meta");
  Result<std::string> h1 = store->put(r);
  ASSERT_OK(h1.status());
  const std::string created = row_field(path, h1.value(), "created_at");
  Result<std::string> h2 = store->put(r);
  ASSERT_OK(h2.status());
  EXPECT_EQ(h1.value(), h2.value());
  EXPECT_EQ(row_field(path, h1.value(), "created_at"), created);  // no write happened
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  EXPECT_EQ(s->totals.count, 1);
}

TEST(SqliteStore, NonIdenticalRePutRefreshesCreatedAtAndReplacesCounts) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  auto store = open_or_die(path);
  Result<std::string> h = store->put(make_record("same bytes", "json", 100, 10));
  ASSERT_OK(h.status());
  const std::string created = row_field(path, h.value(), "created_at");
  ASSERT_OK(store->put(make_record("same bytes", "log", 50, 5)).status());
  EXPECT_NE(row_field(path, h.value(), "created_at"), created);
  EXPECT_EQ(row_field(path, h.value(), "content_type"), "log");
  EXPECT_EQ(row_field(path, h.value(), "compressor"), "log");
  EXPECT_EQ(row_field(path, h.value(), "tokens_before"), "50");
  EXPECT_EQ(row_field(path, h.value(), "tokens_after"), "5");
}

TEST(SqliteStore, RePutWithoutTokenCountsKeepsTypeCompressorAndCounts) {
  auto store = open_or_die(std::string(kMemoryPath));
  ASSERT_OK(store->put(make_record("same bytes", "json", 100, 10)).status());
  ASSERT_OK(store->put(Record{"text", "text", 0, 0, "same bytes", ""}).status());
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  ASSERT_EQ(s->by_content_type.size(), 1u);
  EXPECT_EQ(s->by_content_type.begin()->first, "json");
  EXPECT_EQ(s->totals.tokens_before, 100);
  EXPECT_EQ(s->totals.tokens_after, 10);
}

TEST(SqliteStore, RePutWithZeroCountsOverAZeroRowTakesTheNewType) {
  auto store = open_or_die(std::string(kMemoryPath));
  ASSERT_OK(store->put(Record{"json", "json", 0, 0, "x", ""}).status());
  ASSERT_OK(store->put(Record{"text", "text", 0, 0, "x", ""}).status());
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  ASSERT_EQ(s->by_content_type.count("text"), 1u);
}

TEST(SqliteStore, MetadataIsKeptOnceNonEmpty) {
  auto store = open_or_die(std::string(kMemoryPath));
  Result<std::string> h = store->put(make_record("a11y tree", "a11y", 100, 10, "first"));
  ASSERT_OK(h.status());
  ASSERT_OK(store->put(make_record("a11y tree", "a11y", 90, 9, "second")).status());
  Result<std::string> meta = store->get_metadata(h.value());
  ASSERT_OK(meta.status());
  EXPECT_EQ(meta.value(), "first");
}

TEST(SqliteStore, EmptyMetadataIsFilledByALaterPut) {
  auto store = open_or_die(std::string(kMemoryPath));
  Result<std::string> h = store->put(make_record("a11y tree", "a11y", 100, 10, ""));
  ASSERT_OK(h.status());
  Result<std::string> none = store->get_metadata(h.value());
  ASSERT_OK(none.status());
  EXPECT_EQ(none.value(), "");
  ASSERT_OK(store->put(make_record("a11y tree", "a11y", 100, 10, "later")).status());
  EXPECT_EQ(store->get_metadata(h.value()).value(), "later");
}

TEST(SqliteStore, GetFallsBackToTypedObjects) {
  auto store = open_or_die(std::string(kMemoryPath));
  TypedObject o;
  o.type = "CommandResult";
  o.session_id = "s1";
  o.data = "object bytes";
  Result<TypedObject> put = store->put_object(o);
  ASSERT_OK(put.status());
  Result<std::string> got = store->get(put->object_id);
  ASSERT_OK(got.status());
  EXPECT_EQ(got.value(), "object bytes");
  Result<std::string> meta = store->get_metadata(put->object_id);
  ASSERT_OK(meta.status());
  EXPECT_EQ(meta.value(), "");

  TypedObject named = o;
  named.object_id = "my-object";  // not ccr_obj_-prefixed: found after the blob lookup misses
  named.data = "named bytes";
  ASSERT_OK(store->put_object(named).status());
  EXPECT_EQ(store->get("my-object").value(), "named bytes");
}

TEST(SqliteStore, ZeroLengthObjectDataIsASuccessfulEmptyResult) {
  auto store = open_or_die(std::string(kMemoryPath));
  TypedObject o;
  o.type = "TestResult";
  o.session_id = "s1";
  Result<TypedObject> put = store->put_object(o);
  ASSERT_OK(put.status());
  Result<std::string> got = store->get(put->object_id);
  ASSERT_OK(got.status());
  EXPECT_EQ(got.value(), "");
}

TEST(SqliteStore, BudgetRefusesAPutThatWouldExceedIt) {
  TempDir dir;
  auto store = open_or_die(dir.file("ccr.db"), 1 << 20);
  ASSERT_OK(store->put(make_record(std::string(600000, 'a'))).status());
  const std::string too_much(500000, 'b');
  Result<std::string> h = store->put(make_record(too_much));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), Code::kResourceExhausted);
  EXPECT_EQ(h.status().error_code(), "cave_ccr_budget_exceeded");
  EXPECT_EQ(h.status().message(), "ccr: storage budget exceeded");
  // Never a handle without bytes: the refused original is not retrievable.
  EXPECT_EQ(store->get(handle_for(too_much)).status().code(), Code::kNotFound);
  ASSERT_OK(store->put(make_record(std::string(300000, 'c'))).status());
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  EXPECT_EQ(s->storage_bytes, 900000);
  EXPECT_EQ(s->max_storage_bytes, 1 << 20);
  EXPECT_FALSE(s->storage_full);
}

TEST(SqliteStore, BudgetCountsMetadataAndTypedObjects) {
  auto store = open_or_die(std::string(kMemoryPath), 1 << 20);
  ASSERT_OK(store->put(make_record(std::string(1000, 'a'), "a11y", 10, 1, std::string(500, 'm')))
                .status());
  TypedObject o;
  o.type = "FileObservation";
  o.session_id = "s";
  o.data = std::string(2000, 'd');
  o.dependencies = {"x"};
  ASSERT_OK(store->put_object(o).status());
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  EXPECT_EQ(s->storage_bytes, 1000 + 500 + 2000 + static_cast<std::int64_t>(sizeof("[\"x\"]") - 1));

  TypedObject big = o;
  big.data = std::string(1 << 20, 'z');
  Result<TypedObject> refused = store->put_object(big);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().error_code(), "cave_ccr_budget_exceeded");
}

TEST(SqliteStore, ReplacingARowCountsOnlyTheDifference) {
  auto store = open_or_die(std::string(kMemoryPath), 1 << 20);
  ASSERT_OK(store->put(make_record(std::string(700000, 'a'), "json", 100, 10)).status());
  // Same bytes, new counts: the row is replaced, so the budget sees 700000, not 1400000.
  ASSERT_OK(store->put(make_record(std::string(700000, 'a'), "json", 200, 20)).status());
  EXPECT_EQ(store->stats()->storage_bytes, 700000);
}

TEST(SqliteStore, IdenticalPutIsAcceptedEvenWhenTheStoreIsFull) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  Record r = make_record(std::string(600000, 'a'));
  {
    auto store = open_or_die(path, 1 << 20);
    ASSERT_OK(store->put(r).status());
  }
  auto store = open_or_die(path, 512 * 1024);  // now over budget
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  EXPECT_TRUE(s->storage_full);
  Result<std::string> again = store->put(r);
  ASSERT_OK(again.status());
  EXPECT_EQ(again.value(), handle_for(r.original));
  EXPECT_EQ(store->put(make_record("tiny")).status().code(), Code::kResourceExhausted);
}

TEST(SqliteStore, SqliteFullMapsToBudgetExceededAndTheStoreStaysUsable) {
  TempDir dir;
  // 16 pages: the accounting allows 50 000 bytes, the page limit does not.
  auto store = open_or_die(dir.file("ccr.db"), 16 * 4096);
  const std::string big(50000, 'q');
  Result<std::string> h = store->put(make_record(big));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), Code::kResourceExhausted);
  EXPECT_EQ(h.status().error_code(), "cave_ccr_budget_exceeded");
  EXPECT_EQ(store->get(handle_for(big)).status().code(), Code::kNotFound);
  Result<std::string> small = store->put(make_record("small"));
  ASSERT_OK(small.status());
  EXPECT_EQ(store->get(small.value()).value(), "small");
  EXPECT_EQ(store->stats()->storage_bytes, 5);  // the failed write left the counter alone
}

TEST(SqliteStore, BudgetBelowSixteenPagesIsRefusedAtOpen) {
  OpenOptions options;
  options.max_bytes = 15 * 4096;
  Result<std::unique_ptr<Store>> store = open_store(std::string(kMemoryPath), options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(store.status().error_code(), "cave_invalid_config");
  options.max_bytes = 0;
  store = open_store(std::string(kMemoryPath), options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().message(), "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
}

TEST(SqliteStore, StatsGroupByContentTypeInNameOrder) {
  auto store = open_or_die(std::string(kMemoryPath));
  ASSERT_OK(store->put(make_record("l1", "log", 100, 50)).status());
  ASSERT_OK(store->put(make_record("j1", "json", 100, 20)).status());
  ASSERT_OK(store->put(make_record("j2", "json", 100, 30)).status());
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s.status());
  EXPECT_EQ(s->totals.count, 3);
  EXPECT_EQ(s->totals.tokens_before, 300);
  EXPECT_EQ(s->totals.tokens_after, 100);
  ASSERT_EQ(s->by_content_type.size(), 2u);
  EXPECT_EQ(s->by_content_type.begin()->first, "json");
  EXPECT_EQ(s->by_content_type.at("json").count, 2);
  EXPECT_DOUBLE_EQ(s->by_content_type.at("json").ratio(), 0.75);
  EXPECT_EQ(s->storage_bytes, 6);
  EXPECT_EQ(s->max_storage_bytes, kDefaultMaxBytes);
}

TEST(SqliteStore, OlderStoreWithoutMetadataColumnIsMigratedAndItsUsageSeeded) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  {
    // The layout of stores written before the metadata column existed.
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(
        "CREATE TABLE recoveries(handle TEXT PRIMARY KEY, created_at TEXT NOT NULL, "
        "content_type TEXT NOT NULL, compressor TEXT NOT NULL, tokens_before INTEGER NOT NULL, "
        "tokens_after INTEGER NOT NULL, original BLOB NOT NULL)");
    SQLite::Statement ins(db,
                          "INSERT INTO recoveries VALUES (?, '2025-01-01T00:00:00Z', "
                          "'log', 'log', 40, 4, ?)");
    ins.bind(1, handle_for("old original"));
    ins.bind(2, "old original", 12);
    ins.exec();
    ::chmod(path.c_str(), 0600);
  }
  auto store = open_or_die(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->get(handle_for("old original")).value(), "old original");
  Result<std::string> meta = store->get_metadata(handle_for("old original"));
  ASSERT_OK(meta);
  EXPECT_EQ(meta.value(), "");
  Result<StoreStats> s = store->stats();
  ASSERT_OK(s);
  EXPECT_EQ(s->totals.count, 1);
  EXPECT_EQ(s->storage_bytes, 12);  // seeded from the existing rows
  ASSERT_OK(store->put(make_record("new", "json", 10, 1, "m")));
  EXPECT_EQ(store->stats()->storage_bytes, 12 + 3 + 1);
}

TEST(StoreStatsJson, MatchesTheIndentedShape) {
  StoreStats s;
  s.totals = TypeStats{3, 300, 100};
  s.by_content_type["json"] = TypeStats{2, 200, 50};
  s.by_content_type["log"] = TypeStats{1, 100, 50};
  s.storage_bytes = 1234;
  s.max_storage_bytes = 65536;
  EXPECT_EQ(s.to_json(),
            "{\n"
            "  \"totals\": {\n"
            "    \"count\": 3,\n"
            "    \"tokens_before\": 300,\n"
            "    \"tokens_after\": 100,\n"
            "    \"ratio\": 0.6666666666666666\n"
            "  },\n"
            "  \"by_content_type\": {\n"
            "    \"json\": {\n"
            "      \"count\": 2,\n"
            "      \"tokens_before\": 200,\n"
            "      \"tokens_after\": 50,\n"
            "      \"ratio\": 0.75\n"
            "    },\n"
            "    \"log\": {\n"
            "      \"count\": 1,\n"
            "      \"tokens_before\": 100,\n"
            "      \"tokens_after\": 50,\n"
            "      \"ratio\": 0.5\n"
            "    }\n"
            "  },\n"
            "  \"basis\": \"inferred\",\n"
            "  \"storage_bytes\": 1234,\n"
            "  \"max_storage_bytes\": 65536\n"
            "}");
}

TEST(StoreStatsJson, EmptyStatsOmitStorageFieldsAndShowZeroRatio) {
  EXPECT_EQ(StoreStats{}.to_json(),
            "{\n"
            "  \"totals\": {\n"
            "    \"count\": 0,\n"
            "    \"tokens_before\": 0,\n"
            "    \"tokens_after\": 0,\n"
            "    \"ratio\": 0\n"
            "  },\n"
            "  \"by_content_type\": {},\n"
            "  \"basis\": \"inferred\"\n"
            "}");
}

TEST(StoreStatsJson, StorageFullIsShownWhenSet) {
  StoreStats s;
  s.storage_bytes = 10;
  s.max_storage_bytes = 10;
  s.storage_full = true;
  const std::string json = s.to_json();
  EXPECT_NE(json.find("\"storage_full\": true\n}"), std::string::npos) << json;
}

}  // namespace
}  // namespace caveman::ccr
