// MemStore::search: FTS5 ranking over current versions, filters, CJK, hostile queries.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "fts_rank.h"
#include "mem_test_util.h"
#include "store.h"

namespace caveman::mem {
namespace {

using testing::StepClock;
using testing::text_only;

class SearchTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = testing::open_store(":memory:", &clock_); }

  std::string add(const std::string& text, std::optional<std::string> project = std::nullopt,
                  std::vector<std::string> tags = {}) {
    auto r = store_->remember(NewMemory{text, std::move(project), std::move(tags)});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->memory.id : "";
  }

  Result<std::vector<Hit>> search(const std::string& q, std::optional<std::string> project = std::nullopt,
                                  std::vector<std::string> tags = {}, int limit = 5, double threshold = 0.1) {
    auto p = parse_query(q);
    if (!p.ok()) return p.status();
    return store_->search(SearchRequest{std::move(p).value(), std::move(project), std::move(tags), limit, threshold});
  }

  std::vector<std::string> ids(const std::string& q, std::optional<std::string> project = std::nullopt,
                               std::vector<std::string> tags = {}) {
    auto r = search(q, std::move(project), std::move(tags));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    std::vector<std::string> out;
    if (r.ok()) {
      for (const Hit& h : r.value()) out.push_back(h.memory.id);
    }
    return out;
  }

  StepClock clock_;
  std::unique_ptr<MemStore> store_;
};

TEST_F(SearchTest, HostileQueriesReturnNormally) {
  add("NOT a drill: the deploy key rotates monthly");
  add("use \"double quotes\" in the yaml: it matters");
  for (const std::string& q :
       {"NOT", "*", "\"", ":", "NEAR(", "NEAR(deploy key, 2)", "deploy NOT key", "text:deploy",
        "\"unbalanced", "deploy*", "^deploy", "(deploy OR key) AND", "col:* NEAR(\"", "'; DROP TABLE memories; --",
        "%_%", "\\", "{text tags}: key", "+deploy -key", "\x01\x02", "AND OR NOT", "key\"\"\"\""}) {
    auto r = search(q);
    EXPECT_TRUE(r.ok()) << q << ": " << r.status().ToString();
  }
  EXPECT_EQ(ids("NOT drill").size(), 1u);  // NOT is a word here, not an operator
  EXPECT_EQ(ids("deploy NOT key").size(), 1u);
  EXPECT_EQ(ids("quotes yaml").size(), 1u);
  EXPECT_EQ(store_->stats()->current, 2);  // the SQL-looking query changed nothing
}

TEST_F(SearchTest, OnlyCurrentVersionsAreRecalled) {
  std::string a = add("the staging cluster is eks-old");
  auto b = store_->supersede(a, text_only("the staging cluster is eks-new"));
  ASSERT_OK(b);
  EXPECT_EQ(ids("staging cluster"), std::vector<std::string>{b->id});
  EXPECT_TRUE(ids("old").empty());
  EXPECT_EQ(ids("new"), std::vector<std::string>{b->id});
  ASSERT_OK(store_->forget(b->id));
  EXPECT_TRUE(ids("staging cluster").empty());
}

TEST_F(SearchTest, ProjectAndTagFiltersWithEscapedLikePatterns) {
  std::string web = add("run the tests with vitest", std::string("web"), {"a_b"});
  std::string api = add("run the tests with go test", std::string("api"), {"axb"});
  add("run the tests with pytest");
  EXPECT_EQ(ids("run tests", std::string("web")), std::vector<std::string>{web});
  EXPECT_EQ(ids("run tests", std::string("api")), std::vector<std::string>{api});
  EXPECT_EQ(ids("run tests", std::nullopt, {"a_b"}), std::vector<std::string>{web});  // _ is literal
  EXPECT_EQ(ids("run tests", std::nullopt, {"axb"}), std::vector<std::string>{api});
  EXPECT_TRUE(ids("run tests", std::nullopt, {"a%"}).empty());
  EXPECT_TRUE(ids("run tests", std::string("web"), {"axb"}).empty());
  EXPECT_EQ(ids("run tests").size(), 3u);
}

TEST_F(SearchTest, ASingleMemoryIsRecallable) {
  // FTS5's own bm25() gives a term present in every row an idf of ~0; cavemem_bm25 does not.
  std::string only = add("the api listens on port 8081");
  auto r = search("port");
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].memory.id, only);
  EXPECT_GE((*r)[0].score, 0.1);
}

TEST_F(SearchTest, ScoresOrderHitsAndThresholdAndLimitCut) {
  std::string strong = add("redis redis cache: redis is only a cache");
  std::string weak = add("the cache layer has a redis fallback and many other unrelated words in it");
  for (int i = 0; i < 10; ++i) add("filler memory number " + std::to_string(i) + " about nothing");
  auto r = search("redis cache");
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].memory.id, strong);
  EXPECT_EQ((*r)[1].memory.id, weak);
  EXPECT_GT((*r)[0].score, (*r)[1].score);
  auto one = search("redis cache", std::nullopt, {}, 1);
  EXPECT_EQ(one->size(), 1u);
  auto high = search("redis cache", std::nullopt, {}, 5, (*r)[0].score + 0.001);
  EXPECT_TRUE(high->empty());
  EXPECT_FALSE(search("redis", std::nullopt, {}, 0).ok());
  EXPECT_FALSE(search("redis", std::nullopt, {}, kMaxLimit + 1).ok());
}

TEST_F(SearchTest, EqualScoresBreakTiesById) {
  std::string x = add("alpha beta gamma");
  std::string y = add("gamma beta alpha");
  auto r = search("alpha");
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_DOUBLE_EQ((*r)[0].score, (*r)[1].score);
  EXPECT_LT((*r)[0].memory.id, (*r)[1].memory.id);
  EXPECT_TRUE((x < y ? x : y) == (*r)[0].memory.id);
}

TEST_F(SearchTest, DiacriticsAndEnglishStemsMatch) {
  std::string id = add("Café service runs migrations nightly");
  EXPECT_EQ(ids("cafe"), std::vector<std::string>{id});
  EXPECT_EQ(ids("migration"), std::vector<std::string>{id});
  EXPECT_EQ(ids("running"), std::vector<std::string>{id});
}

TEST_F(SearchTest, TagsAreSearchableText) {
  std::string id = add("ask before force pushing", std::nullopt, {"git-safety"});
  EXPECT_EQ(ids("safety"), std::vector<std::string>{id});
}

TEST_F(SearchTest, CjkByTrigramsAndShortTermsByLike) {
  std::string mig = add("billing-api 的数据库迁移必须先在预发布环境执行");
  std::string fe = add("前端部署流程：合并到 main 分支后自动发布");
  std::string cache = add("Redis 缓存集群只用于临时数据");
  add("completely unrelated english memory");
  EXPECT_EQ(ids("数据库迁移"), std::vector<std::string>{mig});
  EXPECT_EQ(ids("迁移数据库"), std::vector<std::string>{mig});  // shared trigram 数据库
  EXPECT_EQ(ids("前端"), std::vector<std::string>{fe});          // 2 characters: LIKE
  EXPECT_EQ(ids("缓存"), std::vector<std::string>{cache});
  auto mixed = ids("redis 缓存 数据");
  ASSERT_FALSE(mixed.empty());
  EXPECT_EQ(mixed[0], cache);
  EXPECT_TRUE(ids("火车站").empty());
  std::string mig2 = add("数据库连接池大小为二十");
  EXPECT_EQ(ids("数据库迁移")[0], mig);  // more shared trigrams rank first
  (void)mig2;
}

TEST_F(SearchTest, CjkFiltersApplyToTheLikePath) {
  std::string a = add("前端测试规范", std::string("web"));
  add("前端部署规范", std::string("ops"));
  EXPECT_EQ(ids("前端", std::string("web")), std::vector<std::string>{a});
}

TEST_F(SearchTest, StopwordOnlyQueryHasNoHits) {
  add("this is what it was");
  EXPECT_TRUE(ids("what is this").empty());
}

}  // namespace
}  // namespace caveman::mem

namespace caveman::mem {
namespace {

// A fixed-seed generator for the stores and queries of the pruning tests.
struct Lcg {
  std::uint64_t s;
  std::uint64_t operator()() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return s >> 33;
  }
};

// The pruned search must return exactly the exhaustive ranking: ids, order and scores.
// `hits` (optional) receives the exhaustive hit count.
void expect_pruned_equals_exhaustive(MemStore& store, const SearchRequest& fast,
                                     const std::string& label, std::size_t* hits = nullptr) {
  SearchRequest full = fast;
  full.exhaustive = true;
  full.trace = nullptr;
  auto a = store.search(fast);
  auto b = store.search(full);
  ASSERT_OK(a);
  ASSERT_OK(b);
  if (hits != nullptr) *hits = b->size();
  ASSERT_EQ(a->size(), b->size()) << label;
  for (std::size_t i = 0; i < a->size(); ++i) {
    EXPECT_EQ((*a)[i].memory.id, (*b)[i].memory.id) << label << " #" << i;
    EXPECT_DOUBLE_EQ((*a)[i].score, (*b)[i].score) << label;
  }
}

// Rarest-first pruning must give exactly the exhaustive ranking (ids, order and scores).
TEST(SearchPruningTest, PrunedResultsEqualExhaustiveRanking) {
  StepClock clock;
  auto store = testing::open_store(":memory:", &clock);
  Lcg next{12345};
  std::vector<std::string> vocab;
  for (int i = 0; i < 400; ++i) vocab.push_back("w" + std::to_string(i));
  auto word = [&] {  // skewed: low indexes are common
    const double u = double(next() % 1000000) / 1e6;
    return vocab[static_cast<std::size_t>(u * u * u * double(vocab.size()))];
  };
  std::vector<std::string> texts;
  for (int d = 0; d < 1500; ++d) {
    std::string t;
    const int len = 5 + static_cast<int>(next() % 30);
    for (int i = 0; i < len; ++i) t += word() + " ";
    t += "doc" + std::to_string(d);
    ASSERT_OK(store->remember(text_only(t)));
    texts.push_back(t);
  }
  int pruned_runs = 0;
  for (int qi = 0; qi < 150; ++qi) {
    std::string q;
    const int n = 2 + static_cast<int>(next() % 4);
    for (int i = 0; i < n; ++i) q += (next() % 2 ? word() : vocab[next() % vocab.size()]) + " ";
    for (int limit : {1, 5, 20}) {
      SearchRequest fast{parse_query(q).value(), std::nullopt, {}, limit, 0.1};
      expect_pruned_equals_exhaustive(*store, fast, q + " limit " + std::to_string(limit));
      ++pruned_runs;
    }
  }
  EXPECT_EQ(pruned_runs, 450);
}

}  // namespace
}  // namespace caveman::mem

namespace caveman::mem {
namespace {

// Queries made only of common words: the rarest word alone cannot bound the rest, so recall
// ranks only the rows holding a set of query words whose bounds reach the provisional k-th
// score (covering sets). The result must still be exactly the exhaustive ranking.
TEST(SearchPruningTest, CoveringSetsOfCommonWordsEqualExhaustiveRanking) {
  StepClock clock;
  auto store = testing::open_store(":memory:", &clock);
  Lcg next{987654321};
  const std::vector<std::string> common = {"alpha", "bravo", "charlie", "delta", "echo",
                                           "foxtrot", "golf", "hotel", "india", "juliet"};
  for (int d = 0; d < 800; ++d) {
    std::string t;
    for (const std::string& w : common) {
      const std::uint64_t roll = next() % 100;
      if (roll < 35) t += w + " ";
      if (roll < 5) t += w + " ";  // some repeats, so term frequencies differ
    }
    t += "filler" + std::to_string(next() % 50) + " doc" + std::to_string(d);
    auto added = store->remember(text_only(t));
    ASSERT_OK(added);
    // Superseded and forgotten rows leave the index (delete markers): the vocabulary counts
    // behind the bounds and the document frequencies must not see them.
    if (d % 7 == 0) ASSERT_OK(store->supersede(added->memory.id, text_only(t + " echo echo revised")));
    if (d % 11 == 0) ASSERT_OK(store->forget(added->memory.id));
  }
  int covering = 0;
  for (int qi = 0; qi < 60; ++qi) {
    std::string q;
    const int n = 3 + static_cast<int>(next() % 4);
    for (int i = 0; i < n; ++i) q += common[next() % common.size()] + " ";
    for (int limit : {1, 5, 20}) {
      SearchTrace trace;
      SearchRequest fast{parse_query(q).value(), std::nullopt, {}, limit, 0.1};
      fast.trace = &trace;
      expect_pruned_equals_exhaustive(*store, fast, q + " limit " + std::to_string(limit));
      covering += trace.plan == SearchPlan::kCoveringSets;
    }
  }
  EXPECT_GT(covering, 60);  // most of the 180 searches take the covering-set plan
}

// With project and tag filters the covering-set plan runs through the joined query and must
// agree with the exhaustive ranking too.
TEST(SearchPruningTest, CoveringSetsWithFiltersEqualExhaustiveRanking) {
  StepClock clock;
  auto store = testing::open_store(":memory:", &clock);
  Lcg next{4242};
  const std::vector<std::string> common = {"cache", "queue", "retry", "deploy", "schema", "lint"};
  for (int d = 0; d < 500; ++d) {
    std::string t;
    for (const std::string& w : common) {
      if (next() % 100 < 40) t += w + " ";
    }
    t += "note" + std::to_string(d);
    const std::optional<std::string> project = next() % 2 ? std::optional<std::string>("web") : std::nullopt;
    std::vector<std::string> tags;
    if (next() % 3 == 0) tags.push_back("ops");
    ASSERT_OK(store->remember(NewMemory{t, project, tags}));
  }
  for (int qi = 0; qi < 30; ++qi) {
    std::string q;
    for (int i = 0; i < 4; ++i) q += common[next() % common.size()] + " ";
    SearchRequest fast{parse_query(q).value(), std::string("web"), {}, 5, 0.1};
    if (qi % 2) fast.tags = {"ops"};
    expect_pruned_equals_exhaustive(*store, fast, q);
  }
}

}  // namespace
}  // namespace caveman::mem

namespace caveman::mem {
namespace {

// Recall looks query words up in the fts5vocab view by the token the index holds, so the
// query tokenizer must be memories_fts's own: stems, folded diacritics, split words.
TEST(FtsQueryTokensTest, MatchesTheIndexTokenizer) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  std::vector<std::vector<std::string>> tokens;
  ASSERT_TRUE(fts_query_tokens(db, {"Migrations", "café", "deploying", "foo.bar", "x"}, tokens));
  sqlite3_close(db);
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0], std::vector<std::string>{"migrat"});
  EXPECT_EQ(tokens[1], std::vector<std::string>{"cafe"});
  EXPECT_EQ(tokens[2], std::vector<std::string>{"deploi"});
  EXPECT_EQ(tokens[3], (std::vector<std::string>{"foo", "bar"}));
  EXPECT_EQ(tokens[4], std::vector<std::string>{"x"});
}

// Stemmed and accented query words take the vocabulary path; the pruned ranking must still
// equal the exhaustive one, and a word that matches nothing must not disturb it.
TEST(SearchPruningTest, StemmedWordsEqualExhaustiveRanking) {
  StepClock clock;
  auto store = testing::open_store(":memory:", &clock);
  const std::vector<std::string> words = {"migrations", "migrating", "café", "cafe", "deploys",
                                          "deploying", "runner", "running", "tests", "testing"};
  Lcg next{77};
  for (int d = 0; d < 400; ++d) {
    std::string t;
    for (const std::string& w : words) {
      if (next() % 100 < 30) t += w + " ";
    }
    ASSERT_OK(store->remember(text_only(t + "entry" + std::to_string(d))));
  }
  for (const char* q : {"migration cafés deploy", "Running tests café", "deployed migrate runner zzzz",
                        "testing tests tested café cafe"}) {
    SearchRequest fast{parse_query(q).value(), std::nullopt, {}, 5, 0.1};
    std::size_t hits = 0;
    expect_pruned_equals_exhaustive(*store, fast, q, &hits);
    EXPECT_GT(hits, 0u) << q;
  }
}

}  // namespace
}  // namespace caveman::mem
