// MemStore: idempotent remember, version chains, forget relinking, old/corrupt/foreign files,
// permissions, export/import.
#include "store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "mem_test_util.h"

namespace caveman::mem {
namespace {

using testing::StepClock;
using testing::text_only;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = testing::open_store(dir_.file("mem.db"), &clock_); }

  Memory remember(const std::string& text) {
    auto r = store_->remember(text_only(text));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->memory : Memory{};
  }
  Memory supersede(const std::string& id, const std::string& text) {
    auto r = store_->supersede(id, text_only(text));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r.value() : Memory{};
  }
  std::vector<std::string> history_ids(const std::string& id) {
    auto h = store_->history(id);
    EXPECT_TRUE(h.ok()) << h.status().ToString();
    std::vector<std::string> ids;
    if (h.ok()) {
      for (const Memory& m : h.value()) ids.push_back(m.id);
    }
    return ids;
  }
  // Raw SQL on the same file through a second connection (simulates an old or damaged store).
  void sql(const std::string& statement) {
    SQLite::Database db(dir_.file("mem.db"), SQLite::OPEN_READWRITE);
    db.exec(statement);
  }

  ::caveman::testing::TempDir dir_;
  StepClock clock_;
  std::unique_ptr<MemStore> store_;
};

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST_F(StoreTest, RememberIsIdempotentAndKeepsTheFirstCreatedAt) {
  auto first = store_->remember(text_only("deploy with argo"));
  ASSERT_OK(first);
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->memory.id, memory_id("deploy with argo"));
  EXPECT_EQ(first->memory.created_at, "2026-01-01T00:00:00.000001Z");
  EXPECT_EQ(first->memory.valid_from, first->memory.created_at);
  auto again = store_->remember(text_only("deploy with argo"));
  ASSERT_OK(again);
  EXPECT_FALSE(again->created);
  EXPECT_EQ(again->memory.created_at, first->memory.created_at);
  EXPECT_EQ(store_->stats()->versions, 1);
}

TEST_F(StoreTest, RememberingAnOldVersionIsRefused) {
  Memory a = remember("port 8080");
  supersede(a.id, "port 8081");
  auto r = store_->remember(text_only("port 8080"));
  EXPECT_EQ(r.status().error_code(), "cave_memory_superseded");
}

TEST_F(StoreTest, SupersedeLinksBothWaysAndExpiresTheOldVersion) {
  Memory a = remember("node 18");
  Memory b = supersede(a.id, "node 20");
  EXPECT_EQ(b.supersedes, a.id);
  auto old = store_->get(a.id);
  ASSERT_OK(old);
  ASSERT_TRUE(old->has_value());
  EXPECT_EQ((*old)->superseded_by, b.id);
  EXPECT_EQ((*old)->valid_until, b.created_at);
  EXPECT_FALSE((*old)->current());
  EXPECT_TRUE(b.current());
}

TEST_F(StoreTest, SupersedeRefusesNonCurrentUnknownIdenticalAndExistingTexts) {
  Memory a = remember("v1");
  Memory b = supersede(a.id, "v2");
  EXPECT_EQ(store_->supersede(a.id, text_only("v3")).status().error_code(),
            "cave_memory_not_current");
  EXPECT_EQ(store_->supersede("mem_0000000000000000", text_only("v3")).status().code(), Code::kNotFound);
  EXPECT_EQ(store_->supersede(b.id, text_only("v2")).status().error_code(),
            "cave_invalid_arguments");
  remember("other fact");
  EXPECT_EQ(store_->supersede(b.id, text_only("other fact")).status().error_code(),
            "cave_memory_exists");
  EXPECT_EQ(store_->supersede(b.id, text_only("v1")).status().error_code(), "cave_memory_exists");
  EXPECT_EQ(store_->supersede("not-an-id", text_only("x")).status().error_code(),
            "cave_invalid_arguments");
  EXPECT_EQ(history_ids(b.id), (std::vector<std::string>{a.id, b.id}));  // nothing changed
}

TEST_F(StoreTest, SupersedeInheritsProjectAndTagsUnlessGiven) {
  auto a = store_->remember(NewMemory{"x1", std::string("web"), std::vector<std::string>{"ci"}});
  ASSERT_OK(a);
  auto b = store_->supersede(a->memory.id, text_only("x2"));
  ASSERT_OK(b);
  EXPECT_EQ(b->project, "web");
  EXPECT_EQ(b->tags, std::vector<std::string>{"ci"});
  auto c = store_->supersede(b->id, NewMemory{"x3", std::string("api"), std::vector<std::string>{}});
  ASSERT_OK(c);
  EXPECT_EQ(c->project, "api");
  EXPECT_TRUE(c->tags.empty());
}

TEST_F(StoreTest, HistoryIsOldestFirstFromAnyVersion) {
  Memory a = remember("a"), b = supersede(a.id, "b"), c = supersede(b.id, "c");
  const std::vector<std::string> chain{a.id, b.id, c.id};
  EXPECT_EQ(history_ids(a.id), chain);
  EXPECT_EQ(history_ids(b.id), chain);
  EXPECT_EQ(history_ids(c.id), chain);
  EXPECT_EQ(store_->history("mem_ffffffffffffffff").status().error_code(), "cave_unknown_memory");
}

TEST_F(StoreTest, ForgetInTheMiddleRelinksNeighbours) {
  Memory a = remember("a"), b = supersede(a.id, "b"), c = supersede(b.id, "c");
  auto gone = store_->forget(b.id);
  ASSERT_OK(gone);
  ASSERT_TRUE(gone->has_value());
  EXPECT_EQ((*gone)->text, "b");
  EXPECT_EQ(history_ids(a.id), (std::vector<std::string>{a.id, c.id}));
  auto old = store_->get(a.id);
  EXPECT_TRUE((*old)->valid_until.has_value());  // still expired
}

TEST_F(StoreTest, ForgettingTheCurrentVersionDoesNotReviveTheOldOne) {
  Memory a = remember("timeout is 30s"), b = supersede(a.id, "timeout is 60s");
  ASSERT_OK(store_->forget(b.id));
  auto old = store_->get(a.id);
  ASSERT_TRUE(old->has_value());
  EXPECT_FALSE((*old)->current());
  EXPECT_FALSE((*old)->superseded_by.has_value());
  EXPECT_EQ(history_ids(a.id), std::vector<std::string>{a.id});
  auto p = parse_query("timeout");
  auto hits = store_->search(SearchRequest{p.value(), std::nullopt, {}, 5, 0.0});
  ASSERT_OK(hits);
  EXPECT_TRUE(hits->empty());
  EXPECT_EQ(store_->stats()->expired, 1);
}

TEST_F(StoreTest, ForgetUnknownIsFalseNotAnError) {
  auto r = store_->forget("mem_0123456789abcdef");
  ASSERT_OK(r);
  EXPECT_FALSE(r->has_value());
}

TEST_F(StoreTest, CyclicChainInAnOldDatabaseIsReportedNotWalkedForever) {
  Memory a = remember("cycle a"), b = remember("cycle b");
  sql("UPDATE memories SET superseded_by = '" + b.id + "', supersedes = '" + b.id +
      "', valid_until = '2026-01-01T00:00:00Z' WHERE id = '" + a.id + "'");
  sql("UPDATE memories SET superseded_by = '" + a.id + "', supersedes = '" + a.id +
      "', valid_until = '2026-01-01T00:00:00Z' WHERE id = '" + b.id + "'");
  auto h = store_->history(a.id);
  EXPECT_EQ(h.status().code(), Code::kCorrupt);
  EXPECT_EQ(h.status().error_code(), "cave_mem_chain_corrupt");
  EXPECT_EQ(store_->supersede(a.id, text_only("c")).status().error_code(),
            "cave_memory_not_current");
  auto f = store_->forget(a.id);  // terminates and never self-links b
  ASSERT_OK(f);
  auto rest = store_->get(b.id);
  EXPECT_FALSE((*rest)->supersedes.has_value());
  EXPECT_FALSE((*rest)->superseded_by.has_value());
}

TEST_F(StoreTest, DanglingAndOneSidedLinksAreReported) {
  Memory a = remember("d1");
  sql("UPDATE memories SET supersedes = 'mem_0000000000000001' WHERE id = '" + a.id + "'");
  EXPECT_EQ(store_->history(a.id).status().error_code(), "cave_mem_chain_corrupt");
  Memory b = remember("d2"), c = remember("d3");
  sql("UPDATE memories SET superseded_by = '" + c.id + "' WHERE id = '" + b.id + "'");
  EXPECT_EQ(store_->history(b.id).status().error_code(), "cave_mem_chain_corrupt");
}

TEST_F(StoreTest, StatsCountCurrentVersionsAndProjects) {
  ASSERT_OK(store_->remember(NewMemory{"p1", std::string("a"), std::nullopt}));
  ASSERT_OK(store_->remember(NewMemory{"p2", std::string("b"), std::nullopt}));
  Memory x = remember("x");
  supersede(x.id, "y");
  auto s = store_->stats();
  ASSERT_OK(s);
  EXPECT_EQ(s->current, 3);
  EXPECT_EQ(s->versions, 4);
  EXPECT_EQ(s->superseded, 1);
  EXPECT_EQ(s->projects, 2);
  EXPECT_EQ(s->schema_version, kSchemaVersion);
  EXPECT_GT(s->db_bytes, 0);
}

TEST_F(StoreTest, NewFilesAre0600) {
  struct stat st {};
  ASSERT_EQ(::stat(dir_.file("mem.db").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  remember("wal sidecar");
  if (::stat(dir_.file("mem.db-wal").c_str(), &st) == 0) EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(StoreFileTest, SymlinkIsRefused) {
  ::caveman::testing::TempDir dir;
  ASSERT_EQ(::symlink(dir.file("target.db").c_str(), dir.file("mem.db").c_str()), 0);
  auto s = MemStore::open(dir.file("mem.db"));
  EXPECT_EQ(s.status().error_code(), "cave_mem_store_unsafe");
}

TEST(StoreFileTest, GarbageFileGivesAClearErrorAndIsNotModified) {
  ::caveman::testing::TempDir dir;
  std::string garbage;
  for (int i = 0; i < 8192; ++i) garbage += static_cast<char>((i * 131 + 7) % 251);
  ::caveman::testing::write_file(dir.file("mem.db"), garbage);
  auto s = MemStore::open(dir.file("mem.db"));
  EXPECT_EQ(s.status().code(), Code::kCorrupt);
  EXPECT_EQ(s.status().error_code(), "cave_mem_store_corrupt");
  EXPECT_NE(s.status().message().find(dir.file("mem.db")), std::string::npos);
  EXPECT_NE(s.status().message().find("left untouched"), std::string::npos);
  EXPECT_EQ(read_bytes(dir.file("mem.db")), garbage);
  struct stat st {};
  EXPECT_NE(::stat(dir.file("mem.db-wal").c_str(), &st), 0);
}

TEST(StoreFileTest, DamagedPagesSurfaceAsCorruptNotACrash) {
  ::caveman::testing::TempDir dir;
  StepClock clock;
  {
    auto store = testing::open_store(dir.file("mem.db"), &clock);
    for (int i = 0; i < 400; ++i) {
      ASSERT_OK(store->remember(text_only("memory number " + std::to_string(i) + " about deploys and tests " +
                                          std::string(200, 'x'))));
    }
  }
  {
    SQLite::Database db(dir.file("mem.db"), SQLite::OPEN_READWRITE);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  std::string bytes = read_bytes(dir.file("mem.db"));
  ASSERT_GT(bytes.size(), 16u * 4096u);
  for (std::size_t i = 4 * 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5);
  ::caveman::testing::write_file(dir.file("mem.db"), bytes);
  auto opened = MemStore::open(dir.file("mem.db"));
  std::vector<Status> seen;
  if (!opened.ok()) {
    seen.push_back(opened.status());
  } else {
    auto p = parse_query("deploys tests");
    seen.push_back(opened.value()->search(SearchRequest{p.value(), std::nullopt, {}, 5, 0.0}).status());
    seen.push_back(opened.value()->stats().status());
    seen.push_back(opened.value()->remember(text_only("after damage")).status());
  }
  bool corrupt = false;
  for (const Status& s : seen) corrupt = corrupt || s.error_code() == "cave_mem_store_corrupt";
  EXPECT_TRUE(corrupt);
}

TEST(StoreFileTest, ForeignMemoriesTableIsLeftUntouched) {
  ::caveman::testing::TempDir dir;
  {
    SQLite::Database db(dir.file("mem.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE memories(key TEXT, value TEXT); INSERT INTO memories VALUES ('k', 'v')");
  }
  const std::string before = read_bytes(dir.file("mem.db"));
  auto s = MemStore::open(dir.file("mem.db"));
  EXPECT_EQ(s.status().error_code(), "cave_mem_store_incompatible");
  SQLite::Database db(dir.file("mem.db"), SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("SELECT value FROM memories").getString(), "v");
  EXPECT_EQ(db.execAndGet("SELECT count(*) FROM sqlite_master").getInt(), 1);
}

TEST(StoreFileTest, NewerSchemaIsRefused) {
  ::caveman::testing::TempDir dir;
  {
    SQLite::Database db(dir.file("mem.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA user_version = 99");
  }
  EXPECT_EQ(MemStore::open(dir.file("mem.db")).status().error_code(), "cave_mem_store_newer");
}

TEST(StoreFileTest, OriginalSchemaIsMigratedWithEveryRowAndLink) {
  ::caveman::testing::TempDir dir;
  const std::string a = memory_id("old fact: deploy with jenkins");
  const std::string b = memory_id("new fact: deploy with github actions");
  const std::string c = memory_id("数据库迁移先在预发布环境执行");
  {
    SQLite::Database db(dir.file("mem.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(
        "CREATE TABLE memories(id TEXT PRIMARY KEY, text TEXT NOT NULL, created_at TEXT, "
        "valid_from TEXT, valid_until TEXT, supersedes TEXT, superseded_by TEXT)");
    db.exec("INSERT INTO memories VALUES ('" + a + "', 'old fact: deploy with jenkins', "
            "'2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z', NULL, '" + b + "')");
    db.exec("INSERT INTO memories VALUES ('" + b + "', 'new fact: deploy with github actions', "
            "'2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z', NULL, '" + a + "', NULL)");
    db.exec("INSERT INTO memories VALUES ('" + c + "', '数据库迁移先在预发布环境执行', "
            "'2025-07-01T00:00:00Z', '2025-07-01T00:00:00Z', NULL, NULL, NULL)");
  }
  StepClock clock;
  auto store = testing::open_store(dir.file("mem.db"), &clock);
  ASSERT_NE(store, nullptr);
  auto h = store->history(b);
  ASSERT_OK(h);
  ASSERT_EQ(h->size(), 2u);
  EXPECT_EQ((*h)[0].id, a);
  EXPECT_EQ((*h)[0].created_at, "2025-01-01T00:00:00Z");
  EXPECT_EQ((*h)[1].valid_from, "2025-06-01T00:00:00Z");
  auto hits = store->search(SearchRequest{parse_query("deploy").value(), std::nullopt, {}, 5, 0.0});
  ASSERT_OK(hits);
  ASSERT_EQ(hits->size(), 1u);  // the superseded version is not indexed
  EXPECT_EQ((*hits)[0].memory.id, b);
  auto cjk = store->search(SearchRequest{parse_query("数据库迁移").value(), std::nullopt, {}, 5, 0.0});
  ASSERT_OK(cjk);
  ASSERT_EQ(cjk->size(), 1u);
  EXPECT_EQ((*cjk)[0].memory.id, c);
  EXPECT_EQ(store->stats()->schema_version, kSchemaVersion);
  store.reset();
  auto again = testing::open_store(dir.file("mem.db"), &clock);  // idempotent reopen
  EXPECT_EQ(again->stats()->versions, 3);
}

TEST_F(StoreTest, ExportThenImportReproducesTheStoreExactly) {
  ASSERT_OK(store_->remember(NewMemory{"tagged", std::string("web"), std::vector<std::string>{"a", "b"}}));
  Memory a = remember("chain 1"), b = supersede(a.id, "chain 2");
  supersede(b.id, "chain 3");
  remember("数据库");
  std::vector<ImportRow> rows;
  std::vector<Memory> exported;
  ASSERT_OK(store_->for_each(false, [&](const Memory& m) { exported.push_back(m); }));
  int line = 0;
  for (const Memory& m : exported) rows.push_back(ImportRow{++line, m});
  ::caveman::testing::TempDir other;
  auto copy = testing::open_store(other.file("mem.db"), &clock_);
  auto summary = copy->import(rows);
  ASSERT_OK(summary);
  EXPECT_EQ(summary->imported, 5);
  std::vector<Memory> round;
  ASSERT_OK(copy->for_each(false, [&](const Memory& m) { round.push_back(m); }));
  ASSERT_EQ(round.size(), exported.size());
  for (std::size_t i = 0; i < round.size(); ++i) {
    EXPECT_EQ(round[i].id, exported[i].id);
    EXPECT_EQ(round[i].created_at, exported[i].created_at);
    EXPECT_EQ(round[i].valid_until, exported[i].valid_until);
    EXPECT_EQ(round[i].superseded_by, exported[i].superseded_by);
    EXPECT_EQ(round[i].tags, exported[i].tags);
  }
  auto again = copy->import(rows);  // everything already there
  ASSERT_OK(again);
  EXPECT_EQ(again->imported, 0);
  EXPECT_EQ(again->skipped, 5);
  auto hits = copy->search(SearchRequest{parse_query("chain").value(), std::nullopt, {}, 5, 0.0});
  ASSERT_EQ(hits->size(), 1u);
}

TEST_F(StoreTest, ImportIsAllOrNothingAndNamesTheLine) {
  Memory good;
  good.text = "good row";
  Memory wrong_id;
  wrong_id.text = "wrong id";
  wrong_id.id = "mem_0123456789abcdef";
  auto r = store_->import({ImportRow{1, good}, ImportRow{2, wrong_id}});
  EXPECT_EQ(r.status().error_code(), "cave_invalid_import");
  EXPECT_NE(r.status().message().find("line 2"), std::string::npos);

  Memory dangling;
  dangling.text = "points nowhere";
  dangling.supersedes = "mem_00000000000000aa";
  r = store_->import({ImportRow{1, good}, ImportRow{2, dangling}});
  EXPECT_EQ(r.status().error_code(), "cave_invalid_import");

  Memory x, y;
  x.text = "cycle x";
  y.text = "cycle y";
  x.supersedes = memory_id("cycle y");
  x.superseded_by = memory_id("cycle y");
  y.supersedes = memory_id("cycle x");
  y.superseded_by = memory_id("cycle x");
  x.valid_until = y.valid_until = "2026-01-01T00:00:00Z";
  r = store_->import({ImportRow{1, x}, ImportRow{2, y}});
  EXPECT_EQ(r.status().error_code(), "cave_invalid_import");
  EXPECT_NE(r.status().message().find("cyclic"), std::string::npos);

  Memory bad_time;
  bad_time.text = "bad time";
  bad_time.created_at = "yesterday";
  EXPECT_EQ(store_->import({ImportRow{7, bad_time}}).status().error_code(), "cave_invalid_import");
  EXPECT_EQ(store_->stats()->versions, 0);  // nothing from any failed import
}

}  // namespace
}  // namespace caveman::mem
