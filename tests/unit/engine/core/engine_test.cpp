// The compress pipeline (docs/spec/pipeline.md#order): every pass-through condition, the
// fail-closed paths, handle derivation, wrappers and simulate().
#include "caveman/engine.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <stdexcept>

namespace caveman {
namespace {

// A minimal in-memory blob store; put() can be told to fail.
class MapStore final : public ccr::Store {
 public:
  Status fail_with;  // non-ok → put() returns it

  Result<std::string> put(const ccr::Record& r) override {
    if (!fail_with.ok()) return fail_with;
    std::string h = ccr::handle_for(r.original);
    blobs_[h] = r;
    return h;
  }
  Result<std::string> get(std::string_view handle) override {
    auto it = blobs_.find(std::string(handle));
    if (it == blobs_.end()) return Status::NotFound("cave_unknown_handle", "not found");
    return it->second.original;
  }
  Result<std::string> get_metadata(std::string_view handle) override {
    auto it = blobs_.find(std::string(handle));
    if (it == blobs_.end()) return Status::NotFound("cave_unknown_handle", "not found");
    return it->second.metadata;
  }
  Result<ccr::TypedObject> put_object(ccr::TypedObject) override { return unsupported(); }
  Result<ccr::TypedObject> get_object(std::string_view) override { return unsupported(); }
  Status set_object_currentness(std::string_view, std::string_view) override { return unsupported(); }
  Status set_object_lifecycle(std::string_view, std::string_view) override { return unsupported(); }
  Result<std::vector<ccr::TypedObject>> list_session_objects(std::string_view, int) override {
    return unsupported();
  }
  Result<std::optional<ccr::TypedObject>> find_task_decision(std::string_view) override {
    return unsupported();
  }
  Result<ccr::StoreStats> stats() override { return ccr::StoreStats{}; }

  const std::map<std::string, ccr::Record>& blobs() const { return blobs_; }

 private:
  static Status unsupported() { return Status::Unavailable("cave_test", "unsupported"); }
  std::map<std::string, ccr::Record> blobs_;
};

// A scripted compressor for type "fake".
class FakeCompressor final : public Compressor {
 public:
  enum class Mode { kHalve, kDecline, kSame, kGrow, kThrow };
  FakeCompressor(Mode mode, SafetyClass safety = SafetyClass::kS4) : mode_(mode), safety_(safety) {}
  std::string_view type() const override { return "fake"; }
  SafetyClass safety_class() const override { return safety_; }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    last_input = std::string(input);
    last_query = std::string(query);
    switch (mode_) {
      case Mode::kHalve: return CompressorOutput{std::string(input.substr(0, input.size() / 2)), "", {}, "meta"};
      case Mode::kDecline: return std::nullopt;
      case Mode::kSame: return CompressorOutput{std::string(input), "", {}, ""};
      case Mode::kGrow: return CompressorOutput{std::string(input) + std::string(input), "", {}, ""};
      case Mode::kThrow: throw std::runtime_error("library exploded");
    }
    return std::nullopt;
  }
  mutable std::string last_input, last_query;

 private:
  Mode mode_;
  SafetyClass safety_;
};

struct Fixture {
  std::shared_ptr<MapStore> store = std::make_shared<MapStore>();
  FakeCompressor* fake = nullptr;
  std::unique_ptr<Engine> engine;

  explicit Fixture(FakeCompressor::Mode mode, SafetyClass safety = SafetyClass::kS4,
                   bool with_store = true) {
    Registry r;
    auto c = std::make_unique<FakeCompressor>(mode, safety);
    fake = c.get();
    r.add(std::move(c));
    engine = std::make_unique<Engine>(with_store ? store : nullptr, tokens::default_counter(),
                                      std::move(r));
  }
};

const std::string kInput =
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
    "sigma tau upsilon phi chi psi omega";

Options compress_fake() {
  Options o;
  o.mode = "compress";
  o.type = "fake";
  return o;
}

void expect_pass_through(const CompressResult& r, const std::string& input) {
  EXPECT_EQ(r.output, input);
  EXPECT_TRUE(r.passed_through());
  EXPECT_EQ(r.ratio, 0.0);
  EXPECT_EQ(r.tokens_after, r.tokens_before);
  EXPECT_FALSE(r.lossless_to_model.has_value());
  EXPECT_EQ(r.basis, "inferred");
}

TEST(EnginePipelineTest, CompressesStoresAndReportsHandle) {
  Fixture f(FakeCompressor::Mode::kHalve);
  CompressResult r = f.engine->compress(kInput, compress_fake());
  EXPECT_EQ(r.output, kInput.substr(0, kInput.size() / 2));
  EXPECT_EQ(r.recovery_handle, ccr::handle_for(kInput));
  EXPECT_EQ(r.recovery_handle.size(), 36u);
  EXPECT_EQ(r.method, "fake");                 // defaulted to the compressor type
  EXPECT_EQ(r.lossless_to_model, false);       // S4 default
  EXPECT_EQ(r.content_type, "fake");
  EXPECT_LT(r.tokens_after, r.tokens_before);
  EXPECT_DOUBLE_EQ(r.ratio, double(r.tokens_before - r.tokens_after) / r.tokens_before);
  ASSERT_EQ(f.store->blobs().size(), 1u);
  const ccr::Record& rec = f.store->blobs().begin()->second;
  EXPECT_EQ(rec.original, kInput);
  EXPECT_EQ(rec.metadata, "meta");
  EXPECT_EQ(rec.compressor, "fake");
  auto back = f.engine->retrieve(r.recovery_handle);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), kInput);
}

TEST(EnginePipelineTest, RecordModeAndUnknownModesPassThrough) {
  Fixture f(FakeCompressor::Mode::kHalve);
  for (const char* mode : {"", "record", "Compress", "compress ", "bogus"}) {
    Options o = compress_fake();
    o.mode = mode;
    expect_pass_through(f.engine->compress(kInput, o), kInput);
  }
  EXPECT_TRUE(f.store->blobs().empty());
}

TEST(EnginePipelineTest, NoCompressorForTypePassesThrough) {
  Fixture f(FakeCompressor::Mode::kHalve);
  Options o = compress_fake();
  o.type = "unknown-type";
  CompressResult r = f.engine->compress(kInput, o);
  expect_pass_through(r, kInput);
  EXPECT_EQ(r.content_type, "unknown-type");
}

TEST(EnginePipelineTest, UnknownSafetyClassFailsClosed) {
  Fixture f(FakeCompressor::Mode::kHalve, SafetyClass::kUnknown);
  expect_pass_through(f.engine->compress(kInput, compress_fake()), kInput);
  EXPECT_TRUE(f.fake->last_input.empty());  // never ran
}

TEST(EnginePipelineTest, NoStoreMeansNoLossyCompression) {
  Fixture f(FakeCompressor::Mode::kHalve, SafetyClass::kS4, /*with_store=*/false);
  expect_pass_through(f.engine->compress(kInput, compress_fake()), kInput);
}

TEST(EnginePipelineTest, ExternalRecoveryRunsWithoutStoreAndIssuesNoHandle) {
  Fixture f(FakeCompressor::Mode::kHalve, SafetyClass::kS4, /*with_store=*/false);
  Options o = compress_fake();
  o.external_recovery = true;
  CompressResult r = f.engine->compress(kInput, o);
  EXPECT_NE(r.output, kInput);
  EXPECT_TRUE(r.recovery_handle.empty());
  EXPECT_FALSE(r.passed_through());  // has a method and a ratio
}

TEST(EnginePipelineTest, CompressorDeclineSameOrGrowPassesThrough) {
  for (auto mode : {FakeCompressor::Mode::kDecline, FakeCompressor::Mode::kSame,
                    FakeCompressor::Mode::kGrow}) {
    Fixture f(mode);
    expect_pass_through(f.engine->compress(kInput, compress_fake()), kInput);
    EXPECT_TRUE(f.store->blobs().empty());
  }
}

TEST(EnginePipelineTest, ThrowingCompressorPassesThrough) {
  Fixture f(FakeCompressor::Mode::kThrow);
  expect_pass_through(f.engine->compress(kInput, compress_fake()), kInput);
}

TEST(EnginePipelineTest, StoreFailureReturnsOriginalWithError) {
  Fixture f(FakeCompressor::Mode::kHalve);
  f.store->fail_with = Status::ResourceExhausted("cave_ccr_budget_exceeded", "full");
  CompressResult r = f.engine->compress(kInput, compress_fake());
  expect_pass_through(r, kInput);
  EXPECT_EQ(r.error, "cave_ccr_budget_exceeded");
  f.store->fail_with = Status::Io("cave_ccr_unavailable", "disk");
  r = f.engine->compress(kInput, compress_fake());
  expect_pass_through(r, kInput);
  EXPECT_EQ(r.error, "cave_ccr_unavailable");
  EXPECT_NE(r.report_json().find("\"error\":\"cave_ccr_unavailable\""), std::string::npos);
}

TEST(EnginePipelineTest, QueryIsPassedToTheCompressor) {
  Fixture f(FakeCompressor::Mode::kHalve);
  Options o = compress_fake();
  o.query = "why did it fail";
  (void)f.engine->compress(kInput, o);
  EXPECT_EQ(f.fake->last_query, "why did it fail");
}

TEST(EnginePipelineTest, GutterIsStrippedBeforeAndRestoredAfter) {
  Fixture f(FakeCompressor::Mode::kHalve);
  std::string listing;
  for (int i = 1; i <= 12; ++i) listing += "     " + std::to_string(i) + "\tline number " + std::to_string(i) + "\n";
  Options o = compress_fake();
  o.file_read_lossy = true;
  CompressResult r = f.engine->compress(listing, o);
  EXPECT_EQ(f.fake->last_input.substr(0, 14), "line number 1\n");  // compressor saw no gutter
  EXPECT_EQ(r.tokens_before, static_cast<std::int64_t>(tokens::default_counter().count(listing)));
  // The gutter comes back sparse: the first number, the rest counted on (SparseGutterTest).
  EXPECT_EQ(r.output.substr(0, 16), "1\tline number 1\n");
  EXPECT_EQ(r.recovery_handle, ccr::handle_for(listing));        // handle of the full input
}

// Issue 36: a file read is edit-safe by default. A compressor whose view changes lines (the
// fake halves the text, cutting a line in two) is declined; the view is the listing with its
// gutter thinned, every line the file's own.
TEST(EnginePipelineTest, FileReadIsEditSafeByDefault) {
  Fixture f(FakeCompressor::Mode::kHalve);
  std::string listing;
  for (int i = 1; i <= 12; ++i)
    listing += "     " + std::to_string(i) + "\tline number " + std::to_string(i) + "\n";
  CompressResult r = f.engine->compress(listing, compress_fake());
  EXPECT_EQ(f.fake->last_input.substr(0, 14), "line number 1\n");  // it ran, without the gutter
  EXPECT_EQ(r.method, "gutter");
  EXPECT_EQ(r.output.substr(0, 16), "1\tline number 1\n");
  for (int i = 1; i <= 12; ++i) {
    EXPECT_NE(r.output.find("line number " + std::to_string(i) + "\n"), std::string::npos) << i;
  }
  // A window of the file (a listing that does not start at line 1) is never given to it.
  Fixture w(FakeCompressor::Mode::kHalve);
  std::string window;
  for (int i = 40; i <= 52; ++i)
    window += "    " + std::to_string(i) + "\tline number " + std::to_string(i) + "\n";
  EXPECT_EQ(w.engine->compress(window, compress_fake()).method, "gutter");
  EXPECT_TRUE(w.fake->last_input.empty());
}

TEST(EnginePipelineTest, DeterministicAcrossEngines) {
  Fixture a(FakeCompressor::Mode::kHalve), b(FakeCompressor::Mode::kHalve);
  CompressResult ra = a.engine->compress(kInput, compress_fake());
  CompressResult rb = b.engine->compress(kInput, compress_fake());
  EXPECT_EQ(ra.output, rb.output);
  EXPECT_EQ(ra.recovery_handle, rb.recovery_handle);
  EXPECT_EQ(ra.report_json(), rb.report_json());
}

TEST(EnginePipelineTest, SimulateNeverWritesAndReportsRecoverability) {
  Fixture with(FakeCompressor::Mode::kHalve);
  SimResult s = with.engine->simulate(kInput, compress_fake());
  EXPECT_TRUE(with.store->blobs().empty());
  EXPECT_EQ(s.compressor, "fake");
  EXPECT_EQ(s.safety_class, "S4");
  EXPECT_TRUE(s.requires_ccr);
  EXPECT_TRUE(s.recoverable);
  EXPECT_LT(s.tokens_after, s.tokens_before);
  EXPECT_NE(s.to_json().find("\"lossy\":true"), std::string::npos);

  Fixture without(FakeCompressor::Mode::kHalve, SafetyClass::kS4, false);
  SimResult s2 = without.engine->simulate(kInput, compress_fake());
  EXPECT_LT(s2.tokens_after, s2.tokens_before);  // the no-store gate does not apply
  EXPECT_FALSE(s2.recoverable);

  SimResult pass = with.engine->simulate(kInput, Options{});  // record mode
  EXPECT_TRUE(pass.recoverable);
  EXPECT_EQ(pass.tokens_after, pass.tokens_before);
}

TEST(EnginePipelineTest, RetrieveWithoutStoreIsUnavailable) {
  Fixture f(FakeCompressor::Mode::kHalve, SafetyClass::kS4, false);
  auto r = f.engine->retrieve("ccr_0123");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_ccr_unavailable");
}

TEST(EnginePipelineTest, ReportJsonFieldOrder) {
  Fixture f(FakeCompressor::Mode::kHalve);
  std::string j = f.engine->compress(kInput, compress_fake()).report_json();
  std::size_t a = j.find("content_type"), b = j.find("tokens_before"), c = j.find("ratio"),
              d = j.find("recovery_handle"), e = j.find("method"), g = j.find("lossless_to_model");
  EXPECT_TRUE(a < b && b < c && c < d && d < e && e < g) << j;
}

}  // namespace
}  // namespace caveman
