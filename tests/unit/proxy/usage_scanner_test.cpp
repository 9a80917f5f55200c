#include "usage_scanner.h"

#include <gtest/gtest.h>
#include <zlib.h>

namespace caveman::proxy {
namespace {

TEST(ProxyUsage, AnthropicJsonAndStream) {
  Usage j = parse_usage(Provider::kAnthropic, false,
                        R"({"type":"message","usage":{"input_tokens":11,"output_tokens":7,"cache_creation_input_tokens":3,"cache_read_input_tokens":5}})");
  EXPECT_EQ(j.input, 11);
  EXPECT_EQ(j.output, 7);
  EXPECT_EQ(j.cache_write, 3);
  EXPECT_EQ(j.cache_read, 5);
  EXPECT_EQ(j.basis, "provider_complete");
  EXPECT_EQ(j.cache_status, "hit");

  std::string sse =
      "event: message_start\n"
      "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":11,\"output_tokens\":1,\"cache_creation_input_tokens\":3,\"cache_read_input_tokens\":0}}}\n\n"
      "event: ping\ndata: {\"type\":\"ping\"}\n\n"
      ": comment line\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":7}}\n\n"
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  Usage s = parse_usage(Provider::kAnthropic, true, sse);
  EXPECT_EQ(s.input, 11);
  EXPECT_EQ(s.output, 7);  // max rule over message_start (1) and message_delta (7)
  EXPECT_EQ(s.cache_write, 3);
  EXPECT_EQ(s.cache_status, "write");
  EXPECT_EQ(s.basis, "provider_complete");

  // Without the terminal message_delta the output count is not proven.
  std::string cut = sse.substr(0, sse.find("event: message_delta"));
  Usage c = parse_usage(Provider::kAnthropic, true, cut);
  EXPECT_EQ(c.input, 11);
  EXPECT_FALSE(c.output);
  EXPECT_EQ(c.basis, "provider_partial");
}

TEST(ProxyUsage, OpenAIChatJsonAndStreamWithUsage) {
  Usage j = parse_usage(Provider::kOpenAI, false,
                        R"({"object":"chat.completion","usage":{"prompt_tokens":13,"completion_tokens":6,"total_tokens":19,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2}}})");
  EXPECT_EQ(j.input, 13);
  EXPECT_EQ(j.output, 6);
  EXPECT_EQ(j.cache_read, 4);
  EXPECT_EQ(j.reasoning, 2);
  std::string sse =
      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":null}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":13,\"completion_tokens\":6,\"total_tokens\":19}}\n\n"
      "data: [DONE]\n\n";
  Usage s = parse_usage(Provider::kOpenAI, true, sse);
  EXPECT_EQ(s.input, 13);
  EXPECT_EQ(s.output, 6);
  EXPECT_EQ(s.basis, "provider_complete");
  EXPECT_EQ(s.cache_status, "unknown");  // no cache telemetry reported
  Usage none = parse_usage(Provider::kOpenAI, true, "data: {\"choices\":[]}\n\ndata: [DONE]\n\n");
  EXPECT_EQ(none.basis, "unavailable");
}

TEST(ProxyUsage, OpenAIResponsesJsonAndStream) {
  std::string resp =
      R"({"usage":{"input_tokens":17,"input_tokens_details":{"cached_tokens":0},"output_tokens":8,"output_tokens_details":{"reasoning_tokens":1}}})";
  Usage j = parse_usage(Provider::kOpenAI, false, resp);
  EXPECT_EQ(j.input, 17);
  EXPECT_EQ(j.output, 8);
  EXPECT_EQ(j.reasoning, 1);
  EXPECT_EQ(j.cache_status, "miss");
  std::string sse = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\n"
                    "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":" +
                    resp.substr(0, resp.size()) + "}\n\n";
  Usage s = parse_usage(Provider::kOpenAI, true, sse);
  EXPECT_EQ(s.input, 17);
  EXPECT_EQ(s.output, 8);
}

TEST(ProxyUsage, GeminiJsonSseAndArrayStreams) {
  Usage j = parse_usage(Provider::kGemini, false,
                        R"({"candidates":[{"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":21,"candidatesTokenCount":9,"thoughtsTokenCount":2,"toolUsePromptTokenCount":1,"cachedContentTokenCount":6,"totalTokenCount":33}})");
  EXPECT_EQ(j.input, 22);   // prompt + tool-use prompt
  EXPECT_EQ(j.output, 11);  // candidates + thoughts
  EXPECT_EQ(j.cache_read, 6);
  EXPECT_EQ(j.reasoning, 2);
  std::string sse = "data: {\"candidates\":[{\"content\":{}}]}\r\n\r\n"
                    "data: {\"candidates\":[{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":21,\"candidatesTokenCount\":9}}\r\n\r\n";
  Usage s = parse_usage(Provider::kGemini, true, sse);
  EXPECT_EQ(s.input, 21);
  EXPECT_EQ(s.output, 9);
  std::string array = "[{\"candidates\":[{}],\"usageMetadata\":{\"promptTokenCount\":21}}\r\n,"
                      "{\"candidates\":[{\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":21,\"candidatesTokenCount\":9}}]";
  Usage a = parse_usage(Provider::kGemini, true, array);
  EXPECT_EQ(a.input, 21);
  EXPECT_EQ(a.output, 9);
  // A stream that never finished does not prove its output count.
  Usage unfinished = parse_usage(Provider::kGemini, true, "data: {\"usageMetadata\":{\"promptTokenCount\":21,\"candidatesTokenCount\":4}}\n\n");
  EXPECT_FALSE(unfinished.output);
}

TEST(ProxyUsage, MalformedCountersAreNotBooked) {
  Usage neg = parse_usage(Provider::kOpenAI, false, R"({"usage":{"prompt_tokens":-1,"completion_tokens":2}})");
  EXPECT_EQ(neg.basis, "provider_malformed");
  EXPECT_FALSE(neg.input);
  Usage frac = parse_usage(Provider::kOpenAI, false, R"({"usage":{"prompt_tokens":1.5,"completion_tokens":2}})");
  EXPECT_EQ(frac.basis, "provider_malformed");
  Usage str = parse_usage(Provider::kOpenAI, false, R"({"usage":{"prompt_tokens":"3","completion_tokens":2}})");
  EXPECT_EQ(str.basis, "provider_malformed");
  Usage huge = parse_usage(Provider::kOpenAI, false,
                           R"({"usage":{"prompt_tokens":18446744073709551615,"completion_tokens":2}})");
  EXPECT_EQ(huge.basis, "provider_malformed");
  EXPECT_FALSE(huge.input);
  Usage garbage = parse_usage(Provider::kAnthropic, false, "<html>502 Bad Gateway</html>");
  EXPECT_EQ(garbage.basis, "unavailable");
}

TEST(ProxyUsage, WholeNumbersWrittenAsFractionsOrExponentsAreBooked) {
  Usage u = parse_usage(Provider::kOpenAI, false,
                        R"({"usage":{"prompt_tokens":1.0e3,"completion_tokens":2.0,"prompt_tokens_details":{"cached_tokens":-0}}})");
  EXPECT_EQ(u.basis, "provider_complete");
  EXPECT_EQ(u.input.value_or(-1), 1000);
  EXPECT_EQ(u.output.value_or(-1), 2);
  EXPECT_EQ(u.cache_read.value_or(-1), 0);
}

TEST(ProxyUsage, CaptureKeepsHeadAndTailWithinBounds) {
  UsageCapture cap(100, 200);
  std::string line = "data: {\"filler\":\"xxxxxxxxxxxxxxxxxxxx\"}\n\n";
  for (int i = 0; i < 1000; ++i) cap.feed(line);
  cap.feed("data: {\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":6}}\n\n");
  EXPECT_TRUE(cap.truncated());
  EXPECT_LE(cap.text().size(), 100u + 1 + 200u);
  Usage u = scan_usage(Provider::kOpenAI, true, "", cap);
  EXPECT_EQ(u.input, 5);
  EXPECT_EQ(u.output, 6);
  // Usage that only partly survives truncation is not accepted.
  UsageCapture cap2(100, 50);
  cap2.feed("data: {\"usage\":{\"prompt_tokens\":5}}\n\n");
  for (int i = 0; i < 1000; ++i) cap2.feed(line);
  Usage partial = scan_usage(Provider::kOpenAI, true, "", cap2);
  EXPECT_FALSE(partial.input);
  EXPECT_EQ(partial.note, "usage_not_proven_in_truncated_capture");
}

TEST(ProxyUsage, EncodedSideCopiesAreDecodedOrExplained) {
  std::string body = R"({"usage":{"input_tokens":3,"output_tokens":4}})";
  uLongf cap = compressBound(body.size()) + 32;
  std::string gz(cap, '\0');
  z_stream zs{};
  ASSERT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(body.data());
  zs.avail_in = static_cast<uInt>(body.size());
  zs.next_out = reinterpret_cast<Bytef*>(gz.data());
  zs.avail_out = static_cast<uInt>(gz.size());
  ASSERT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  gz.resize(zs.total_out);
  deflateEnd(&zs);
  UsageCapture c;
  c.feed(gz);
  Usage u = scan_usage(Provider::kAnthropic, false, "gzip", c);
  EXPECT_EQ(u.input, 3);
  EXPECT_EQ(u.output, 4);
  Usage br = scan_usage(Provider::kAnthropic, false, "br", c);
  EXPECT_FALSE(br.input);
  EXPECT_EQ(br.note, "unsupported_content_encoding/br");
  Usage stacked = scan_usage(Provider::kAnthropic, false, "gzip, br", c);
  EXPECT_EQ(stacked.note, "unsupported_content_encoding/gzip, br");
}

}  // namespace
}  // namespace caveman::proxy
