#include <gtest/gtest.h>

#include <string>

#include "caveman/ccr.h"
#include "caveman/pixel.h"
#include "json/json.h"
#include "png_reader.h"
#include "support/fault_store.h"
#include "support/test_support.h"

namespace caveman::pixel {
namespace {

std::string prose(std::size_t chars) {
  std::string s;
  for (int i = 0; s.size() < chars; ++i) {
    s += "Sentence " + std::to_string(i) + " of the long context block talks about caves.\n";
  }
  s.resize(chars);
  return s;
}

std::string q(const std::string& s) { return json::quote(s); }

TransformOptions opts(const std::string& model) {
  TransformOptions o;
  o.model = model;
  return o;
}

// Decodes a base64 payload (test helper; the transform's encoder is checked through it).
std::string unbase64(std::string_view in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::string out;
  int bits = 0, acc = 0;
  for (char c : in) {
    int v = val(c);
    if (v < 0) continue;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

TEST(PixelTransform, AnthropicLongTextBecomesImagesAndTheShortQuestionStays) {
  std::string body = R"({"model":"claude-fable-5","max_tokens":100,"messages":[{"role":"user","content":[)"
                     R"({"type":"text","text":)" + q(prose(9000)) + R"(},{"type":"text","text":"What is in the caves?"}]}]})";
  auto store = ::caveman::testing::FaultStore::over_memory_store();
  TransformOutput t = transform_request(body, WireFormat::kAnthropic, TransformOptions{}, store.get());
  ASSERT_TRUE(t.info.compressed) << t.info.to_json();
  EXPECT_EQ(t.info.reason, "applied");
  EXPECT_EQ(t.info.density, "balanced");
  EXPECT_GE(t.info.image_count, 1);
  EXPECT_EQ(t.info.kept_sharp_blocks, 1);
  EXPECT_EQ(t.info.orig_chars, 9000 + 21);
  EXPECT_LT(t.info.image_tokens_estimate, t.info.text_tokens_estimate);
  EXPECT_EQ(t.info.text_tokens_estimate, 2250);
  EXPECT_TRUE(t.info.recoverable);
  EXPECT_EQ(t.info.recovery_handle, ccr::handle_for(body));
  // The whole original request is stored.
  Result<std::string> original = store->get(t.info.recovery_handle);
  ASSERT_OK(original);
  EXPECT_EQ(original.value(), body);

  std::optional<json::Value> doc = json::parse(t.body);
  ASSERT_TRUE(doc.has_value());
  const json::Value& content = *doc->find("messages")->items[0].find("content");
  ASSERT_EQ(content.items.size(), static_cast<std::size_t>(t.info.image_count) + 2);
  const json::Value& img = content.items[0];
  EXPECT_EQ(img.find("type")->text, "image");
  EXPECT_EQ(img.find("source")->find("media_type")->text, "image/png");
  std::optional<pngtest::DecodedPng> png = pngtest::decode_png(unbase64(img.find("source")->find("data")->text));
  ASSERT_TRUE(png.has_value());
  EXPECT_LE(png->width, kHiResCanvas.width);  // claude-fable-5 reads the hi-res tier
  const json::Value& note = content.items[static_cast<std::size_t>(t.info.image_count)];
  EXPECT_NE(note.find("text")->text.find("<<ccr:" + t.info.recovery_handle + ">>"), std::string::npos);
  EXPECT_EQ(content.items.back().find("text")->text, "What is in the caves?");
  EXPECT_EQ(doc->find("max_tokens")->text, "100");  // everything else stays
}

TEST(PixelTransform, ToolResultsNeedTheirOwnMinimum) {
  auto body_with = [](std::size_t n) {
    return R"({"model":"claude-fable-5","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":)" +
           q(prose(n)) + "}]}]}";
  };
  TransformOutput small = transform_request(body_with(4000), WireFormat::kAnthropic, TransformOptions{}, nullptr);
  EXPECT_FALSE(small.info.compressed);
  EXPECT_EQ(small.info.reason, "below_min_chars (4000 < 6000)");
  EXPECT_EQ(small.body, body_with(4000));
  TransformOutput big = transform_request(body_with(7000), WireFormat::kAnthropic, TransformOptions{}, nullptr);
  ASSERT_TRUE(big.info.compressed) << big.info.to_json();
  EXPECT_EQ(big.info.tool_result_imgs, big.info.image_count);
  EXPECT_FALSE(big.info.recoverable);  // no store: simulate
  std::optional<json::Value> doc = json::parse(big.body);
  const json::Value& tr = doc->find("messages")->items[0].find("content")->items[0];
  EXPECT_EQ(tr.find("tool_use_id")->text, "t1");
  EXPECT_EQ(tr.find("content")->items[0].find("type")->text, "image");
}

TEST(PixelTransform, SystemRemindersAreStaticAndNeedTheToolMinimum) {
  std::string reminder = "<system-reminder>\n" + prose(3000) + "\n</system-reminder>";
  std::string body = R"({"messages":[{"role":"user","content":[{"type":"text","text":)" + q(reminder) + "}]}]}";
  TransformOutput t = transform_request(body, WireFormat::kAnthropic, opts("claude-fable-5"), nullptr);
  EXPECT_FALSE(t.info.compressed);
  EXPECT_EQ(t.info.static_chars, static_cast<std::int64_t>(reminder.size()));
  EXPECT_EQ(t.info.dynamic_chars, 0);
  reminder = "<system-reminder>\n" + prose(8000) + "\n</system-reminder>";
  body = R"({"messages":[{"role":"user","content":[{"type":"text","text":)" + q(reminder) + "}]}]}";
  t = transform_request(body, WireFormat::kAnthropic, opts("claude-fable-5"), nullptr);
  ASSERT_TRUE(t.info.compressed);
  EXPECT_EQ(t.info.reminder_imgs, t.info.image_count);
}

TEST(PixelTransform, OpenAiChatStringContentBecomesImageParts) {
  std::string body = R"({"model":"gpt-5.6","messages":[{"role":"system","content":"be brief"},{"role":"user","content":)" +
                     q(prose(5000)) + "}]}";
  ASSERT_EQ(sniff_wire_format(body), WireFormat::kOpenAiChat);
  TransformOutput t = transform_request(body, WireFormat::kOpenAiChat, TransformOptions{}, nullptr);
  ASSERT_TRUE(t.info.compressed) << t.info.to_json();
  EXPECT_EQ(t.info.format, "openai-chat");
  std::optional<json::Value> doc = json::parse(t.body);
  const json::Value& msgs = *doc->find("messages");
  EXPECT_EQ(msgs.items[0].find("content")->text, "be brief");
  const json::Value& part = msgs.items[1].find("content")->items[0];
  EXPECT_EQ(part.find("type")->text, "image_url");
  EXPECT_EQ(part.find("image_url")->find("url")->text.rfind("data:image/png;base64,", 0), 0u);
}

TEST(PixelTransform, ResponsesInputStringAndFunctionCallOutput) {
  std::string body = R"({"model":"gpt-5.6","input":)" + q(prose(3000)) + "}";
  ASSERT_EQ(sniff_wire_format(body), WireFormat::kOpenAiResponses);
  TransformOutput t = transform_request(body, WireFormat::kOpenAiResponses, TransformOptions{}, nullptr);
  ASSERT_TRUE(t.info.compressed) << t.info.to_json();
  std::optional<json::Value> doc = json::parse(t.body);
  const json::Value& item = doc->find("input")->items[0];
  EXPECT_EQ(item.find("role")->text, "user");
  EXPECT_EQ(item.find("content")->items[0].find("type")->text, "input_image");

  body = R"({"model":"gpt-5.6","input":[{"role":"user","content":[{"type":"input_text","text":"run it"}]},)"
         R"({"type":"function_call","call_id":"c1","name":"sh","arguments":"{}"},)"
         R"({"type":"function_call_output","call_id":"c1","output":)" + q(prose(9000)) + "}]}";
  t = transform_request(body, WireFormat::kOpenAiResponses, TransformOptions{}, nullptr);
  ASSERT_TRUE(t.info.compressed) << t.info.to_json();
  EXPECT_EQ(t.info.tool_result_imgs, t.info.image_count);
  EXPECT_EQ(t.info.kept_sharp_blocks, 1);
  doc = json::parse(t.body);
  const json::Value& out = *doc->find("input")->items[2].find("output");
  ASSERT_TRUE(out.is_array());
  EXPECT_EQ(out.items[0].find("type")->text, "input_image");
}

TEST(PixelTransform, GeminiTextPartsBecomeInlineData) {
  std::string body = R"({"contents":[{"role":"user","parts":[{"text":)" + q(prose(4000)) + R"(},{"text":"Summarize."}]}]})";
  ASSERT_EQ(sniff_wire_format(body), WireFormat::kGemini);
  TransformOutput t = transform_request(body, WireFormat::kGemini, opts("gpt-5.6"), nullptr);
  ASSERT_TRUE(t.info.compressed) << t.info.to_json();
  EXPECT_EQ(t.info.reason, "applied");
  std::optional<json::Value> doc = json::parse(t.body);
  const json::Value& parts = *doc->find("contents")->items[0].find("parts");
  EXPECT_EQ(parts.items[0].find("inlineData")->find("mimeType")->text, "image/png");
  EXPECT_EQ(parts.items.back().find("text")->text, "Summarize.");
}

TEST(PixelTransform, ReasonsForNothingToDo) {
  EXPECT_EQ(transform_request("{", WireFormat::kAnthropic, {}, nullptr).info.reason.rfind("parse_error: ", 0), 0u);
  EXPECT_EQ(transform_request(R"({"messages":[]})", WireFormat::kAnthropic, {}, nullptr).info.reason, "no_messages");
  EXPECT_EQ(transform_request(R"({"x":1})", WireFormat::kGemini, {}, nullptr).info.reason, "no_messages");
  EXPECT_EQ(transform_request(R"({"messages":[{"role":"assistant","content":"hi"}]})", WireFormat::kAnthropic, {},
                              nullptr)
                .info.reason,
            "no_user_message");
  TransformOutput t = transform_request(R"({"messages":[{"role":"user","content":"short"}]})", WireFormat::kAnthropic,
                                        {}, nullptr);
  EXPECT_EQ(t.info.reason, "below_min_chars (5 < 2000)");
  EXPECT_EQ(t.info.history_reason, "no_history");
}

TEST(PixelTransform, UnprofitableBlocksStayText) {
  // Rewriting a message behind 10 000 warm cached tokens burns 11 500 tokens: never worth it
  // for a 3 000-character block (750 text tokens).
  std::string body = R"({"messages":[{"role":"user","content":)" + q(prose(3000)) + "}]}";
  TransformOptions o = opts("claude-3-5-sonnet");
  o.prior_warm_tokens = 10000;
  TransformOutput t = transform_request(body, WireFormat::kAnthropic, o, nullptr);
  EXPECT_FALSE(t.info.compressed);
  EXPECT_EQ(t.info.reason, "not_profitable (slab=3000 chars)");
  EXPECT_EQ(t.info.density, "conservative");
  EXPECT_EQ(t.info.text_tokens_estimate, 750);
  EXPECT_GT(t.info.image_tokens_estimate, 0);
  EXPECT_EQ(t.body, body);
  // Without the burn the same block pays.
  o.prior_warm_tokens = 0;
  EXPECT_TRUE(transform_request(body, WireFormat::kAnthropic, o, nullptr).info.compressed);
}

TEST(PixelTransform, NarrowNoReflowPagesAreCheapButCounted) {
  // 1 000 one-character lines without reflow: 12 conservative pages, each only 13 px wide, so
  // each costs 1 × 26 patches (29 tokens) and the 2 000 characters still pay.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "a\n";
  std::string body = R"({"messages":[{"role":"user","content":)" + q(text) + "}]}";
  TransformOptions o = opts("claude-3-5-sonnet");
  o.reflow = false;
  TransformOutput t = transform_request(body, WireFormat::kAnthropic, o, nullptr);
  ASSERT_TRUE(t.info.compressed);
  EXPECT_EQ(t.info.image_count, 12);
  EXPECT_EQ(t.info.image_tokens_estimate, 11 * 29 + 5);  // last page: 10 lines, 88 px → 1 × 4 patches → 5
}

TEST(PixelTransform, StoreFailureMeansByteIdenticalPassThrough) {
  std::string body = R"({"model":"gpt-5.6","messages":[{"role":"user","content":)" + q(prose(6000)) + "}]}";
  auto store = ::caveman::testing::FaultStore::over_memory_store();
  store->fail_writes(::caveman::testing::StoreFault::kBudgetExceeded);
  TransformOutput t = transform_request(body, WireFormat::kAnthropic, TransformOptions{}, store.get());
  EXPECT_FALSE(t.info.compressed);
  EXPECT_EQ(t.info.reason, "finalize_error");
  EXPECT_EQ(t.body, body);
  EXPECT_FALSE(t.info.recoverable);
}

TEST(PixelTransform, OutputIsDeterministic) {
  std::string body = R"({"model":"gpt-5.6","messages":[{"role":"user","content":)" + q(prose(12000)) + "}]}";
  TransformOutput a = transform_request(body, WireFormat::kAnthropic, TransformOptions{}, nullptr);
  TransformOutput b = transform_request(body, WireFormat::kAnthropic, TransformOptions{}, nullptr);
  EXPECT_EQ(a.body, b.body);
  EXPECT_EQ(a.info.to_json(), b.info.to_json());
}

TEST(PixelTransform, SniffFormats) {
  EXPECT_EQ(sniff_wire_format(R"({"model":"claude-fable-5","messages":[]})"), WireFormat::kAnthropic);
  EXPECT_EQ(sniff_wire_format(R"({"messages":[{"role":"user","content":"x"}]})"), WireFormat::kAnthropic);
  EXPECT_EQ(sniff_wire_format(R"({"model":"gpt-5.6","messages":[]})"), WireFormat::kOpenAiChat);
  EXPECT_EQ(sniff_wire_format(R"({"messages":[{"role":"tool","content":"x"}]})"), WireFormat::kOpenAiChat);
  EXPECT_EQ(sniff_wire_format(R"({"input":"x"})"), WireFormat::kOpenAiResponses);
  EXPECT_EQ(sniff_wire_format(R"({"contents":[]})"), WireFormat::kGemini);
  EXPECT_FALSE(sniff_wire_format(R"({"prompt":"x"})").has_value());
  EXPECT_FALSE(sniff_wire_format("[1]").has_value());
}

TEST(PixelTransform, InfoSerializesWithGoFieldNames) {
  TransformInfo info;
  info.reason = "no_messages";
  info.passthrough_reasons = {"a\"b"};
  std::string j = info.to_json();
  EXPECT_EQ(j.rfind(R"({"Compressed":false,"Reason":"no_messages","OrigChars":0,)", 0), 0u) << j;
  for (const char* key : {"CompressedChars", "ImageCount", "ImageBytes", "ImagePixels", "TextTokensEstimate",
                          "ImageTokensEstimate", "StaticChars", "DynamicChars", "DynamicBlockCount", "ReminderImgs",
                          "ToolResultImgs", "DroppedChars", "PassthroughReasons", "KeptSharpBlocks",
                          "TruncatedToolResults", "OmittedChars", "CollapsedTurns", "CollapsedChars",
                          "CollapsedImages", "HistoryReason", "Recoverable"}) {
    EXPECT_NE(j.find(std::string("\"") + key + "\":"), std::string::npos) << key;
  }
  EXPECT_NE(j.find(R"("PassthroughReasons":["a\"b"])"), std::string::npos);
  EXPECT_TRUE(json::is_valid(j));
}

}  // namespace
}  // namespace caveman::pixel
