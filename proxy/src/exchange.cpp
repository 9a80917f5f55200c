// The last stages of the request path: send (one upstream exchange, with the 4xx retry of
// the client's own bytes) and reply (buffered on the worker or relayed from a relay
// thread), plus recording the row once both parties are done.
#include "exchange.h"

#include <spdlog/spdlog.h>

#include <functional>
#include <optional>

#include "caveman/base/codes.h"
#include "errors.h"

namespace caveman::proxy {
namespace {

constexpr const char* kJson = "application/json";
constexpr std::size_t kDrainBeforeRetry = 1024 * 1024;
constexpr auto kLivenessPoll = std::chrono::milliseconds(200);
// Cap on a buffered non-streaming answer (a model's reply is far smaller).
constexpr std::size_t kMaxBufferedAnswer = 64u * 1024 * 1024;

// Model calls that do not ask for a stream (and token counts) are answered in one piece.
// Embeddings can be large and other compat paths could be anything: they are relayed.
bool answers_in_one_piece(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kCountTokens || e == Endpoint::kChatCompletions ||
         e == Endpoint::kResponses || e == Endpoint::kGenerateContent || e == Endpoint::kGeminiCountTokens;
}

// The cave headers every proxied response carries.
void add_caveman_headers(const Exchange& x, const std::string& optimization, ProxyResponse& res) {
  res.set_header("x-cave-request-id", x.request_id);
  res.set_header("x-cave-trace-id", x.trace_id);
  res.set_header("x-cave-project", x.rt->config.label);
  res.set_header("x-cave-mode", x.rt->config.mode);
  res.set_header("x-cave-optimization", optimization.empty() ? "none" : optimization);
}

// The row of a request whose transformed body the provider refused: the original is sent.
void note_refused_transform(Exchange& x) {
  base::MutexLock lock(x.mu);
  x.row.optimization_ids = "";
  x.row.compression_ratio.reset();
  x.row.compression_tokens_before.reset();
  x.row.compression_tokens_after.reset();
  x.row.error_code = "transformed_request_refused";
  x.row.recovery_handle.clear();
  x.row.sent_body = x.raw_body;
}

// `request` with the test clock's x-mock-idle-ms for this send (no change on a real clock).
UpstreamRequest timed_request(Exchange& x, const UpstreamRequest& request) {
  UpstreamRequest r = request;
  for (auto& h : x.rt->clock_headers()) r.headers.push_back(std::move(h));
  return r;
}

// The upstream exchange both answer paths share. A transformed request the provider refuses
// (4xx) is sent again exactly as the client wrote it; the refusal is drained (bounded) and
// never shown. on_head / on_data see only what the client is to receive.
ExchangeResult send_upstream(Exchange& x, const HeadFn& on_head, const DataFn& on_data) {
  bool retry_original = false;
  std::size_t drained = 0;
  auto publish = [&](const UpstreamHead& h) {
    {
      base::MutexLock lock(x.mu);
      x.content_encoding = h.content_encoding;
      x.status_code = h.status;
    }
    return on_head(h);
  };
  auto forward = [&](std::string_view data) {
    x.capture->feed(data);
    return on_data(data);
  };
  UpstreamRequest timed;  // the test clock's header is taken at send time (one per send)
  if (x.rt->test_clock) timed = timed_request(x, x.upstream);
  const UpstreamRequest& request = x.rt->test_clock ? timed : x.upstream;
  ExchangeResult result = x.rt->upstream->exchange(
      request,
      [&](const UpstreamHead& h) {
        if (x.transformed && h.status >= 400 && h.status < 500) {
          retry_original = true;
          return true;
        }
        return publish(h);
      },
      [&](std::string_view data) {
        if (retry_original) {
          drained += data.size();
          return drained <= kDrainBeforeRetry;
        }
        return forward(data);
      },
      &x.cancel);
  if (retry_original && !x.cancel.cancelled()) {
    UpstreamRequest original = timed_request(x, x.upstream);
    original.body = x.raw_body;
    note_refused_transform(x);
    result = x.rt->upstream->exchange(original, publish, forward, &x.cancel);
  }
  return result;
}

// One upstream answer held in memory: its head and at most `cap` body bytes.
struct Collected {
  ExchangeResult result;
  std::optional<UpstreamHead> head;
  std::string body;
  bool too_large = false;  // the answer had more than `cap` bytes: body is incomplete
};

// Runs one exchange (`run` hands it the two callbacks) and keeps what it delivers.
Collected collect_answer(std::size_t cap,
                         const std::function<ExchangeResult(const HeadFn&, const DataFn&)>& run) {
  Collected c;
  c.result = run(
      [&](const UpstreamHead& h) {
        c.head = h;
        c.body.clear();
        return true;
      },
      [&](std::string_view data) {
        if (c.body.size() + data.size() > cap) {
          c.too_large = true;
          return false;
        }
        c.body.append(data);
        return true;
      });
  return c;
}

// Runs on a relay thread: the upstream exchange feeding the channel.
void run_relay(const std::shared_ptr<Exchange>& x) {
  ExchangeResult result = send_upstream(
      *x,
      [&](const UpstreamHead& h) {
        x->head.publish(h);
        return true;
      },
      [&](std::string_view data) { return x->channel.push(data); });
  x->head.fail(result.status.ok() ? Status::Unavailable(codes::kUpstreamUnavailable, "no response")
                                  : result.status);
  {
    base::MutexLock lock(x->mu);
    x->relay_status = result.status;
  }
  x->channel.close_writer(result.status);
  x->party_done();
}

// Status and headers of the provider's answer, plus the cave headers. The compression
// headers are sent only when the provider took the transformed body.
void write_head(Exchange& x, const UpstreamHead& head, ProxyResponse& res) {
  res.status = head.status;
  for (auto& [k, v] : filter_response_headers(head.headers)) res.set_header(k, v);
  bool refused_transform = false;
  {
    base::MutexLock lock(x.mu);
    refused_transform = x.row.error_code == "transformed_request_refused";
  }
  add_caveman_headers(x, refused_transform ? std::string() : x.optimization, res);
  if (!refused_transform) {
    for (auto& [k, v] : x.compression_headers) res.set_header(k, v);
  }
}

// The Content-Type the client's response body is written with.
std::string body_content_type(const UpstreamHead& head) {
  return head.content_type.empty() ? "application/octet-stream" : head.content_type;
}

bool has_no_body(const UpstreamHead& head) {
  return head.status == 204 || head.status == 304 || (head.content_length && *head.content_length == 0);
}

// The response's completion callback: the client side of the exchange is done.
std::function<void(bool)> client_done(const std::shared_ptr<Exchange>& x) {
  return [x](bool success) {
    if (!success) {
      x->cancel.cancel();
      x->channel.close_reader();
    }
    {
      base::MutexLock lock(x->mu);
      x->client_ok = success;
    }
    x->party_done();
  };
}

// The relayed body of known length: each chunk as it arrives, never padded.
ProxyResponse::SizedProvider relay_sized(const std::shared_ptr<Exchange>& x) {
  return [x](std::size_t, std::size_t, BodySink& sink) {
    std::string chunk;
    while (true) {
      switch (x->channel.pop(&chunk, kLivenessPoll)) {
        case ByteChannel::Pop::kData:
          if (!sink.write(chunk.data(), chunk.size())) return false;
          x->note_write(chunk.size());
          return true;
        case ByteChannel::Pop::kEnd:
          return false;  // ended before Content-Length bytes: abort, never pad
        case ByteChannel::Pop::kTimeout:
          if (!sink.is_writable()) return false;  // the client went away
          break;
      }
    }
  };
}

// The relayed chunked body (SSE): each chunk as it arrives.
ProxyResponse::ChunkedProvider relay_chunked(const std::shared_ptr<Exchange>& x) {
  return [x](std::size_t, BodySink& sink) {
    std::string chunk;
    while (true) {
      switch (x->channel.pop(&chunk, kLivenessPoll)) {
        case ByteChannel::Pop::kData:
          if (chunk.empty()) continue;
          if (!sink.write(chunk.data(), chunk.size())) return false;
          x->note_write(chunk.size());
          return true;
        case ByteChannel::Pop::kEnd:
          // A stream the upstream broke off is not ended cleanly for the client.
          if (!x->channel.final_status().ok()) return false;
          sink.done();
          return true;
        case ByteChannel::Pop::kTimeout:
          if (!sink.is_writable()) return false;
          break;
      }
    }
  };
}

// Whether a finished request may be kept warm by keepalive pings (docs/proxy.md, "Cache
// lifetimes"): an Anthropic model call answered 2xx, in a mode that changes what is sent
// (compress, active), pay-as-you-go unless keepalive.oauth, an agent whose liveness the
// proxy can see.
std::shared_ptr<const PingTemplate> ping_template(const Exchange& x, const UsageRow& row,
                                                  int status) {
  const Config& config = x.rt->config;
  bool mode_ok = x.mode.plan.compress || x.mode.plan.optimize;
  AuthMode auth = x.mode.cost_auth;
  bool auth_ok =
      auth == AuthMode::kPayg ||
      (config.keepalive_oauth && (auth == AuthMode::kOauth || auth == AuthMode::kSubscription));
  bool lease = x.route.agent_pid > 0 || !row.session_id.empty();
  if (!config.keepalive_enabled || !mode_ok || !auth_ok || !lease ||
      x.route.provider != Provider::kAnthropic || x.route.endpoint != Endpoint::kMessages ||
      status < 200 || status >= 300 || !row.sent_body) {
    return nullptr;
  }
  auto t = std::make_shared<PingTemplate>();
  t->request = x.upstream;
  t->request.body = row.sent_body;
  t->provider = row.provider;
  t->model = row.model;
  t->agent = row.agent_slug;
  t->route_from = row.route_from;
  t->endpoint = row.endpoint;
  t->auth_mode = row.auth_mode;
  t->label = row.label;
  t->runtime_mode = row.runtime_mode;
  t->session_id = row.session_id;
  t->one_hour = row.sent_body->find(R"("ttl":"1h")") != std::string::npos;
  // With extended thinking a ping may bill up to its budget: the stopping rule must know.
  if (row.sent_body->find(R"("budget_tokens")") != std::string::npos) {
    (void)keepalive_body(*row.sent_body, &t->output_tokens);
  }
  return t;
}

}  // namespace

void Exchange::party_done() {
  if (parties.fetch_sub(1) != 1) return;
  UsageRow out;
  int status = 0;
  {
    base::MutexLock lock(mu);
    status = status_code;
    row.status_code = status;
    row.latency_ms = elapsed_ms();
    row.ttfb_ms = ttfb_ms.load();
    row.response_bytes = bytes_written.load();
    if (row.error_code.empty()) {
      if (!relay_status.ok() && status != 0) {
        row.error_code = relay_status.error_code();
      } else if (!client_ok) {
        row.error_code = codes::kClientCancelled;
      } else if (status >= 400) {
        row.error_code = "provider_" + std::to_string(status);
      }
    }
    row.capture = std::move(capture);
    row.content_encoding = content_encoding;
    out = std::move(row);
  }
  if (lifetime_open && rt->lifetimes) {
    bool one_hour = out.sent_body && out.sent_body->find(R"("ttl":"1h")") != std::string::npos;
    rt->lifetimes->on_request_end(out.session_key, ping_template(*this, out, status),
                                  AgentLease{route.agent_pid, out.session_id}, one_hour);
    if (rt->keepalive) rt->keepalive->poke();
  }
  // The row is queued before the request stops counting as in flight, so "nothing in
  // flight" means every finished request's row is queued (tests and shutdown rely on it).
  if (rt->usage) rt->usage->submit(std::move(out));
  rt->metrics.request_finished(std::string(provider_name(route.provider)), status);
  rt->activity.touch();  // a long stream ending starts the idle clock afresh
  if (server != nullptr) server->untrack(id);
}

void Exchange::reply_error(const Status& status, ProxyResponse& res) {
  int http = http_status_for(status);
  res.status = http;
  add_caveman_headers(*this, "", res);
  // The client sees a generic 5xx message; the operator sees the cause.
  if (http >= 500) spdlog::warn("request {}: {}", request_id, status.ToString());
  res.set_content(error_envelope(http, status.error_code(), status.message(), request_id, trace_id),
                  kJson);
}

// The answer failed before the client got anything: an error envelope, and the row says why.
void Exchange::reply_failure(const Status& status, ProxyResponse& res) {
  reply_error(status, res);
  {
    base::MutexLock lock(mu);
    status_code = res.status;
    row.error_code = status.error_code();
  }
  party_done();
}

// Stage "reply": record mode, marker-only compress and every fallback end here.
void Exchange::reply(ProxyResponse& res) {
  row.optimization_ids = optimization;
  if (!row.stream && doc && answers_in_one_piece(route.endpoint)) return answer_buffered(res);
  answer_relayed(res);
}

// The loop's final answer, as the provider gave it, with the cave headers.
void Exchange::reply_from_loop(const LoopOutcome& loop, ProxyResponse& res) {
  res.status = loop.response.status;
  for (auto& [k, v] : filter_response_headers(loop.response.headers)) res.set_header(k, v);
  add_caveman_headers(*this, optimization, res);
  for (auto& [k, v] : compression_headers) res.set_header(k, v);
  res.set_content(loop.response.body,
                  loop.response.content_type.empty() ? std::string(kJson) : loop.response.content_type);
  {
    base::MutexLock lock(mu);
    status_code = loop.response.status;
    row.optimization_ids = optimization;
    row.usage = loop.usage;
    note_write(loop.response.body.size());
    parties.store(1);
  }
  party_done();
}

// A request that does not ask for a stream is exchanged on the server worker itself and
// its answer buffered: no relay thread and no hand-offs. The provider sends such an answer
// in one piece, so the client loses no early bytes. A client that hangs up while the
// provider is still working cancels the upstream request (ClientWatch).
void Exchange::answer_buffered(ProxyResponse& res) {
  parties.store(1);  // no relay party
  ClientWatchScope watched(&rt->client_watch, client, &cancel);
  Collected answer = collect_answer(kMaxBufferedAnswer, [&](const HeadFn& on_head, const DataFn& on_data) {
    return send_upstream(*this, on_head, on_data);
  });
  if (answer.too_large) {
    return reply_failure(
        Status::Unavailable(codes::kUpstreamResponseTooLarge,
                            "the provider's answer to a non-streaming request is larger "
                            "than 64 MiB; ask for a stream"),
        res);
  }
  if (!answer.result.status.ok() || !answer.head) {
    // Also an answer that broke off after its head: a partial body is never passed on.
    return reply_failure(answer.result.status.ok()
                             ? Status::Unavailable(codes::kUpstreamUnavailable, "no response")
                             : answer.result.status,
                         res);
  }
  const UpstreamHead& got = *answer.head;
  auto body = std::make_shared<const std::string>(std::move(answer.body));
  write_head(*this, got, res);
  if (has_no_body(got)) {
    if (!got.content_type.empty()) res.set_header("Content-Type", got.content_type);
    return party_done();
  }
  auto self = shared_from_this();
  res.set_content_provider(
      body->size(), body_content_type(got),
      [self, body](std::size_t offset, std::size_t length, BodySink& sink) {
        if (!sink.write(body->data() + offset, length)) return false;
        self->note_write(length);
        return true;
      },
      client_done(self));
}

// Streams, embeddings, other compat paths and bodies that are not JSON (whether they stream
// is unknown) go through a relay thread: the client gets each chunk as it arrives.
void Exchange::answer_relayed(ProxyResponse& res) {
  auto self = shared_from_this();
  rt->relays.run([self] { run_relay(self); });
  Result<UpstreamHead> got = [&] {
    ClientWatchScope watched(&rt->client_watch, client, &cancel);  // until the head
    return head.wait();
  }();
  if (!got.ok()) return reply_failure(got.status(), res);
  write_head(*this, *got, res);
  if (has_no_body(*got)) {
    std::string chunk;
    while (channel.pop(&chunk, kLivenessPoll) != ByteChannel::Pop::kEnd) {
    }
    if (!got->content_type.empty()) res.set_header("Content-Type", got->content_type);
    return party_done();
  }
  if (got->content_length) {
    res.set_content_provider(*got->content_length, body_content_type(*got), relay_sized(self), client_done(self));
  } else {
    res.set_chunked_content_provider(body_content_type(*got), relay_chunked(self), client_done(self));
  }
}

// The retrieve loop's transport: one buffered exchange of `body`, no 4xx retry (the loop
// decides what a refusal means).
Result<BufferedResponse> Exchange::send_buffered(std::shared_ptr<const std::string> body) {
  UpstreamRequest r = timed_request(*this, upstream);
  r.body = std::move(body);
  Collected answer = collect_answer(kMaxLoopResponseBytes, [&](const HeadFn& on_head, const DataFn& on_data) {
    return rt->upstream->exchange(r, on_head, on_data, &cancel);
  });
  if (!answer.too_large && !answer.result.status.ok()) return answer.result.status;
  BufferedResponse br;
  if (answer.head) {
    br.status = answer.head->status;
    br.headers = std::move(answer.head->headers);
    br.content_type = std::move(answer.head->content_type);
    br.content_encoding = std::move(answer.head->content_encoding);
  }
  br.body = std::move(answer.body);
  br.too_large = answer.too_large;
  return br;
}

}  // namespace caveman::proxy
