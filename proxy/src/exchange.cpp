// The provider request pipeline: route → headers → inspect → transform → relay → row.
#include "exchange.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <set>

#include "cost_modes.h"
#include "errors.h"
#include "headers.h"
#include "json_spans.h"
#include "live_zone.h"
#include "native/session_marker.h"
#include "optimizers.h"
#include "pixel_mode.h"
#include "retrieve_loop.h"
#include "transform.h"

namespace caveman::proxy {
namespace {

constexpr const char* kJson = "application/json";
constexpr std::size_t kDrainBeforeRetry = 1024 * 1024;
constexpr auto kLivenessPoll = std::chrono::milliseconds(200);
// Cap on a buffered non-streaming answer (a model's reply is far smaller).
constexpr std::size_t kMaxBufferedAnswer = 64u * 1024 * 1024;

std::string format_ratio(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", ratio);
  return buf;
}

bool has_live_zone(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kChatCompletions || e == Endpoint::kResponses ||
         e == Endpoint::kGenerateContent || e == Endpoint::kStreamGenerate;
}

bool server_retrieve_endpoint(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kChatCompletions || e == Endpoint::kResponses ||
         e == Endpoint::kGenerateContent;
}

// Model calls that do not ask for a stream (and token counts) are answered in one piece.
// Embeddings can be large and other compat paths could be anything: they are relayed.
bool answers_in_one_piece(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kCountTokens || e == Endpoint::kChatCompletions ||
         e == Endpoint::kResponses || e == Endpoint::kGenerateContent || e == Endpoint::kGeminiCountTokens;
}

// The cave headers every proxied response carries.
void add_cave_headers(const Exchange& x, const std::string& optimization, ProxyResponse& res) {
  res.set_header("x-cave-request-id", x.request_id);
  res.set_header("x-cave-trace-id", x.trace_id);
  res.set_header("x-cave-project", x.rt->config.label);
  res.set_header("x-cave-mode", x.rt->config.mode);
  res.set_header("x-cave-optimization", optimization.empty() ? "none" : optimization);
}

void reply_error(Exchange* x, const Status& status, ProxyResponse& res) {
  int http = http_status_for(status);
  res.status = http;
  if (x != nullptr) {
    add_cave_headers(*x, "", res);
  } else {
    res.set_header("x-cave-request-id", new_request_id());
  }
  std::string id = x != nullptr ? x->request_id : res.header("x-cave-request-id");
  // The client sees a generic 5xx message; the operator sees the cause.
  if (http >= 500) spdlog::warn("request {}: {}", id, status.ToString());
  res.set_content(error_envelope(http, status.cave_code(), status.message(), id,
                                 x != nullptr ? x->trace_id : ""),
                  kJson);
}

// The upstream exchange both answer paths share. A transformed request the provider refuses
// (4xx) is sent again exactly as the client wrote it; the refusal is drained (bounded) and
// never shown. on_head / on_data see only what the client is to receive.
ExchangeResult send_upstream(Exchange& x, const HeadFn& on_head, const DataFn& on_data) {
  bool retry_original = false;
  std::size_t drained = 0;
  auto publish = [&](const UpstreamHead& h) {
    {
      std::lock_guard<std::mutex> lock(x.mu);
      x.content_encoding = h.content_encoding;
      x.status_code = h.status;
    }
    return on_head(h);
  };
  auto forward = [&](std::string_view data) {
    x.capture->feed(data);
    return on_data(data);
  };
  ExchangeResult result = x.rt->upstream->exchange(
      x.upstream,
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
    UpstreamRequest original = x.upstream;
    original.body = x.raw_body;
    {
      std::lock_guard<std::mutex> lock(x.mu);
      x.row.optimization_ids = "";
      x.row.compression_ratio.reset();
      x.row.compression_tokens_before.reset();
      x.row.compression_tokens_after.reset();
      x.row.error_code = "transformed_request_refused";
      x.row.recovery_handle.clear();
      x.row.sent_body = x.raw_body;
    }
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
  x->head.fail(result.status.ok() ? Status::Unavailable("cave_upstream_unavailable", "no response")
                                  : result.status);
  {
    std::lock_guard<std::mutex> lock(x->mu);
    x->relay_status = result.status;
  }
  x->channel.close_writer(result.status);
  x->party_done();
}

// The answer failed before the client got anything: an error envelope, and the row says why.
void reply_failure(Exchange* x, const Status& status, ProxyResponse& res) {
  reply_error(x, status, res);
  {
    std::lock_guard<std::mutex> lock(x->mu);
    x->status_code = res.status;
    x->row.error_code = status.cave_code();
  }
  x->party_done();
}

// Status and headers of the provider's answer, plus the cave headers. The compression
// headers are sent only when the provider took the transformed body.
void write_head(Exchange& x, const UpstreamHead& head, const std::string& optimization,
                const HeaderList& compression_headers, ProxyResponse& res) {
  res.status = head.status;
  for (auto& [k, v] : filter_response_headers(head.headers)) res.set_header(k, v);
  bool refused_transform = false;
  {
    std::lock_guard<std::mutex> lock(x.mu);
    refused_transform = x.row.error_code == "transformed_request_refused";
  }
  add_cave_headers(x, refused_transform ? std::string() : optimization, res);
  if (!refused_transform) {
    for (auto& [k, v] : compression_headers) res.set_header(k, v);
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
      std::lock_guard<std::mutex> lock(x->mu);
      x->client_ok = success;
    }
    x->party_done();
  };
}

// A request that does not ask for a stream is exchanged on the server worker itself and
// its answer buffered: no relay thread and no hand-offs. The provider sends such an answer
// in one piece, so the client loses no early bytes. A client that hangs up while the
// provider is still working cancels the upstream request (ClientWatch).
void answer_buffered(const std::shared_ptr<Exchange>& x, const std::string& optimization,
                     const HeaderList& compression_headers, ProxyResponse& res) {
  x->parties.store(1);  // no relay party
  ClientWatchScope watched(&x->rt->client_watch, x->client, &x->cancel);
  Collected answer =
      collect_answer(kMaxBufferedAnswer, [&](const HeadFn& on_head, const DataFn& on_data) {
        return send_upstream(*x, on_head, on_data);
      });
  if (answer.too_large) {
    return reply_failure(x.get(),
                         Status::Unavailable("cave_upstream_response_too_large",
                                             "the provider's answer to a non-streaming request is larger "
                                             "than 64 MiB; ask for a stream"),
                         res);
  }
  if (!answer.result.status.ok() || !answer.head) {
    // Also an answer that broke off after its head: a partial body is never passed on.
    return reply_failure(x.get(),
                         answer.result.status.ok()
                             ? Status::Unavailable("cave_upstream_unavailable", "no response")
                             : answer.result.status,
                         res);
  }
  const UpstreamHead& head = *answer.head;
  auto body = std::make_shared<const std::string>(std::move(answer.body));
  write_head(*x, head, optimization, compression_headers, res);
  if (has_no_body(head)) {
    if (!head.content_type.empty()) res.set_header("Content-Type", head.content_type);
    x->party_done();
    return;
  }
  res.set_content_provider(
      body->size(), body_content_type(head),
      [x, body](std::size_t offset, std::size_t length, BodySink& sink) {
        if (!sink.write(body->data() + offset, length)) return false;
        x->note_write(length);
        return true;
      },
      client_done(x));
}

// Streams, embeddings, other compat paths and bodies that are not JSON (whether they stream
// is unknown) go through a relay thread: the client gets each chunk as it arrives.
void answer_relayed(const std::shared_ptr<Exchange>& x, const std::string& optimization,
                    const HeaderList& compression_headers, ProxyResponse& res) {
  x->rt->relays.run([x] { run_relay(x); });
  Result<UpstreamHead> head = [&] {
    ClientWatchScope watched(&x->rt->client_watch, x->client, &x->cancel);  // until the head
    return x->head.wait();
  }();
  if (!head.ok()) return reply_failure(x.get(), head.status(), res);
  write_head(*x, *head, optimization, compression_headers, res);
  const std::string content_type = body_content_type(*head);
  if (has_no_body(*head)) {
    std::string chunk;
    while (x->channel.pop(&chunk, kLivenessPoll) != ByteChannel::Pop::kEnd) {
    }
    if (!head->content_type.empty()) res.set_header("Content-Type", head->content_type);
    x->party_done();
    return;
  }
  if (head->content_length) {
    res.set_content_provider(
        *head->content_length, content_type,
        [x](std::size_t, std::size_t, BodySink& sink) {
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
        },
        client_done(x));
  } else {
    res.set_chunked_content_provider(
        content_type,
        [x](std::size_t, BodySink& sink) {
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
        },
        client_done(x));
  }
}

// The cost mode for this request, plus the cache-bust monitor (observe only).
CostPlan observe_cost(Exchange& x, const JsonDoc* doc, bool bypass) {
  UsageRow& row = x.row;
  if (doc == nullptr || !has_live_zone(x.route.endpoint)) {
    CostPlan none;
    none.runtime_mode = x.rt->config.mode;
    row.runtime_mode = none.runtime_mode;
    return none;
  }
  row.session_key = session_fingerprint(x.route.endpoint, *doc, row.agent_slug, row.model, row.session_id);
  row.api = x.route.endpoint;
  BustReport bust = x.rt->sessions.observe(row.session_key, prefix_components(x.route.endpoint, *doc));
  row.cache_bust = bust.bust ? 1 : 0;
  row.cache_bust_component = bust.component;
  CostPlan plan = plan_cost(x.rt->config, bypass, row.session_key, x.rt->sessions);
  row.runtime_mode = plan.runtime_mode;
  row.estimate_wanted = plan.estimate;
  row.guard_note = plan.guard_note;
  return plan;
}

// Runs the optimizers on the body about to be sent: in active mode their output is sent; in
// recommend/shadow mode the row only names them ("shadow:<id>"). Returns the ids applied.
std::string apply_cost_optimizers(Exchange& x, const CostPlan& plan, AuthMode auth) {
  if (!plan.optimize && plan.preview.empty()) return {};
  OptimizerOutcome o = run_optimizers(x.rt->config, x.route, auth, *x.upstream.body, x.row.session_key);
  if (o.ids.empty()) return {};
  std::string ids;
  for (const std::string& id : o.ids) {
    if (!ids.empty()) ids += ',';
    ids += plan.optimize ? id : plan.preview + ":" + id;
  }
  if (plan.optimize) {
    auto sent = std::make_shared<const std::string>(std::move(o.body));
    x.upstream.body = sent;
    x.row.sent_body = sent;
    x.transformed = true;  // a 4xx is retried with the client's bytes
  }
  return ids;
}

}  // namespace

void Exchange::party_done() {
  if (parties.fetch_sub(1) != 1) return;
  UsageRow out;
  int status = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    status = status_code;
    row.status_code = status;
    row.latency_ms = elapsed_ms();
    row.ttfb_ms = ttfb_ms.load();
    row.response_bytes = bytes_written.load();
    if (row.error_code.empty()) {
      if (!relay_status.ok() && status != 0) {
        row.error_code = relay_status.cave_code();
      } else if (!client_ok) {
        row.error_code = "cave_client_cancelled";
      } else if (status >= 400) {
        row.error_code = "provider_" + std::to_string(status);
      }
    }
    row.capture = std::move(capture);
    row.content_encoding = content_encoding;
    out = std::move(row);
  }
  // The row is queued before the request stops counting as in flight, so "nothing in
  // flight" means every finished request's row is queued (tests and shutdown rely on it).
  if (rt->usage) rt->usage->submit(std::move(out));
  rt->metrics.request_finished(std::string(provider_name(route.provider)), status);
  rt->activity.touch();  // a long stream ending starts the idle clock afresh
  if (server != nullptr) server->untrack(id);
}

void ProxyServer::handle_provider(ProxyRequest& req, ProxyResponse& res) {
  const HeaderList& inbound = req.headers;
  auto x = std::make_shared<Exchange>();
  x->rt = rt_;
  x->server = this;
  x->start = std::chrono::steady_clock::now();
  x->request_id = new_request_id();
  x->client = req.peer;
  x->trace_id = pick_trace_id(find_header(inbound, "x-cave-trace-id").value_or(""),
                              find_header(inbound, "traceparent").value_or(""));

  if (shutting_down_.load()) {
    res.set_header("Connection", "close");
    reply_error(x.get(), Status::Unavailable("cave_shutting_down", "caveman-proxy is shutting down"), res);
    res.status = 503;
    return;
  }
  Result<Route> route = match_route(req.method, req.target, rt_->config);
  if (!route.ok()) {
    rt_->metrics.request_started();
    reply_error(x.get(), route.status(), res);
    rt_->metrics.request_finished("none", res.status);
    return;
  }
  x->route = std::move(route).value();
  const Config& config = rt_->config;
  Result<MappedHeaders> mapped = map_request_headers(x->route, inbound, config, rt_->env);

  auto raw = std::make_shared<const std::string>(std::move(req.body));
  // Valid native session markers never reach the provider; one session correlates the row.
  native::MarkerScan markers;
  if (!rt_->session_key.empty()) {
    markers = native::strip_session_markers(*raw, rt_->session_key);
    if (markers.valid > 0) raw = std::make_shared<const std::string>(std::move(markers.body));
  }
  x->raw_body = raw;

  rt_->metrics.request_started();
  track(x);
  UsageRow& row = x->row;
  row.request_id = x->request_id;
  row.trace_id = x->trace_id;
  row.label = config.label;
  row.provider = x->route.provider;
  row.route_from = req.path;
  row.route_to = x->route.upstream_url;
  row.endpoint = x->route.path;
  row.request_bytes = static_cast<std::int64_t>(raw->size());
  row.runtime_mode = config.mode;
  row.raw_body = raw;
  row.sent_body = raw;
  row.agent_slug = x->route.agent;
  if (!markers.session_id.empty()) {
    row.session_id = markers.session_id;
    row.session_correlation_basis = "native_marker";
  }
  if (row.agent_slug.empty()) {
    std::string agent = find_header(inbound, "x-cave-agent").value_or("");
    if (valid_agent_slug(agent)) row.agent_slug = agent;
  }

  auto fail_early = [&](const Status& s) {
    x->parties.store(1);  // no relay runs
    reply_failure(x.get(), s, res);
  };
  if (!mapped.ok()) return fail_early(mapped.status());
  row.auth_mode = std::string(auth_mode_name(mapped->auth_mode));

  // Malformed JSON is not an error: it is forwarded untouched in every mode.
  std::optional<JsonDoc> doc = JsonDoc::parse(*raw);
  LiveZone facts = doc ? inspect_request(x->route.endpoint, *doc) : LiveZone{};
  row.model = !facts.model.empty() ? facts.model : (!x->route.model.empty() ? x->route.model : "unknown");
  row.stream = facts.stream || x->route.endpoint == Endpoint::kStreamGenerate;

  x->upstream.origin = x->route.origin;
  x->upstream.host = x->route.upstream_host;
  x->upstream.port = x->route.upstream_port;
  std::size_t path_start = x->route.upstream_url.find('/', x->route.origin.size());
  x->upstream.path = path_start == std::string::npos ? "/" : x->route.upstream_url.substr(path_start);
  x->upstream.headers = std::move(mapped->upstream);
  x->upstream.body = raw;

  // Mode decision (PROCESSES.md §1.7.2).
  bool bypass = find_header(inbound, "x-caveman-bypass").value_or("") == "1" ||
                find_header(inbound, "x-cave-transforms").value_or("") == "caveman.pass-through.v1";
  AuthMode auth = mapped->auth_mode;
  bool marker_only = config.recovery_via_mcp;
  bool server_retrieve = !config.recovery_via_mcp && auth == AuthMode::kPayg && !row.stream &&
                         !facts.declares_retrieve_tool && server_retrieve_endpoint(x->route.endpoint);
  CostPlan plan = observe_cost(*x, doc ? &*doc : nullptr, bypass);
  bool eligible = plan.compress && rt_->compress_enabled() && doc && has_live_zone(x->route.endpoint) &&
                  (marker_only || server_retrieve);
  row.compression_eligible = eligible;

  std::string optimization;
  TransformOutcome outcome;
  HeaderList compression_headers;  // sent only when the provider took the transformed body
  if (eligible) {
    LiveZone zone = extract_live_zone(x->route.endpoint, *doc, static_cast<std::size_t>(config.min_bytes));
    Transformer transformer(rt_->engine.get(), rt_->store.get(), rt_->prefix_cache.get(),
                            knobs_for_request(config.budget_tokens, config.min_saving_tokens, raw->size()));
    outcome = transformer.transform(*raw, *doc, zone);
    if (!outcome.error.empty()) spdlog::warn("compress: a block kept its original bytes: {}", outcome.error);
  }
  if (outcome.changed) {
    x->transformed = true;
    optimization = "caveman-live-zone-compress";
    auto sent = std::make_shared<const std::string>(std::move(outcome.body));
    x->upstream.body = sent;
    row.sent_body = sent;
    row.recovery_handle = join_handles(outcome.handles);
    if (outcome.compressed_blocks > 0) {
      row.compression_tokens_before = outcome.tokens_before;
      row.compression_tokens_after = outcome.tokens_after;
      row.compression_ratio = outcome.tokens_before > 0
                                  ? static_cast<double>(outcome.tokens_before - outcome.tokens_after) /
                                        static_cast<double>(outcome.tokens_before)
                                  : 0.0;
    }
    std::int64_t saved = static_cast<std::int64_t>(raw->size()) - static_cast<std::int64_t>(sent->size());
    rt_->metrics.add_saved(saved, outcome.tokens_before - outcome.tokens_after);
    compression_headers = {
        {"x-caveman-compression-ratio", format_ratio(row.compression_ratio.value_or(0.0))},
        {"x-caveman-recovery-handle", row.recovery_handle},
        {"x-caveman-tokens-before", std::to_string(outcome.tokens_before)},
        {"x-caveman-tokens-after", std::to_string(outcome.tokens_after)},
        {"x-caveman-token-count-basis", "estimated_engine_o200k"}};
  }

  row.guard_charge = outcome.changed;
  std::string optimizers = apply_cost_optimizers(*x, plan, auth);
  if (!optimizers.empty()) optimization += (optimization.empty() ? "" : ",") + optimizers;

  // Server-side recovery: buffered exchange with the injected retrieve tool. It goes into
  // every eligible request that may be cached, compressed or not: tools open the cached
  // prefix, so a tool list that gained caveman_retrieve only on the first compressing turn
  // would turn the whole cached prompt back into a cache write. An Anthropic request without
  // any cache_control is never cached and pays for the tool on every turn: there it goes in
  // only once a marker is in the prompt.
  bool uncached = x->route.endpoint == Endpoint::kMessages &&
                  x->upstream.body->find("\"cache_control\"") == std::string::npos;
  bool retrieve_useful = !uncached || x->upstream.body->find("<<ccr:") != std::string::npos;
  if (eligible && server_retrieve && !marker_only && retrieve_useful) {
    Result<std::string> injected = inject_retrieve_tool(x->route.endpoint, *x->upstream.body);
    if (injected.ok()) {
      optimization += ",caveman-retrieve-tool";
      auto with_tool = std::make_shared<const std::string>(std::move(injected).value());
      row.sent_body = with_tool;
      std::set<std::string> handles(outcome.handles.begin(), outcome.handles.end());
      SendFn send = [&](std::shared_ptr<const std::string> body) -> Result<BufferedResponse> {
        UpstreamRequest r = x->upstream;
        r.body = std::move(body);
        Collected answer = collect_answer(
            kMaxLoopResponseBytes, [&](const HeadFn& on_head, const DataFn& on_data) {
              return rt_->upstream->exchange(r, on_head, on_data, &x->cancel);
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
      };
      Status loop_error;
      LoopOutcome loop = run_retrieve_loop(x->route.endpoint, x->route.provider, with_tool, handles,
                                           *rt_->engine, send, &loop_error);
      bool refused = loop.response.status >= 400 && loop.response.status < 500;
      if (loop_error.ok() && !loop.replay_original && !refused) {
        res.status = loop.response.status;
        for (auto& [k, v] : filter_response_headers(loop.response.headers)) res.set_header(k, v);
        add_cave_headers(*x, optimization, res);
        for (auto& [k, v] : compression_headers) res.set_header(k, v);
        res.set_content(loop.response.body, loop.response.content_type.empty()
                                                ? std::string(kJson)
                                                : loop.response.content_type);
        std::lock_guard<std::mutex> lock(x->mu);
        x->status_code = loop.response.status;
        x->row.optimization_ids = optimization;
        x->row.usage = loop.usage;
        x->note_write(loop.response.body.size());
        x->parties.store(1);
      }
      if (x->parties.load() == 1) {
        x->party_done();
        return;
      }
      if (!loop_error.ok() && !refused) return fail_early(loop_error);
      // Refused or too large: fall through and relay the client's original bytes.
      x->transformed = false;
      x->upstream.body = raw;
      row.sent_body = raw;
      row.optimization_ids.clear();
      row.compression_ratio.reset();
      row.compression_tokens_before.reset();
      row.compression_tokens_after.reset();
      row.error_code = refused ? "transformed_request_refused" : "";
      row.recovery_handle.clear();
      optimization.clear();
      compression_headers.clear();
    }
  }
  // Pixel mode (PROCESSES.md §1.13): the whole original is stored first; any gate → original bytes.
  if (config.mode == "pixel" && !bypass && doc) {
    PixelOutcome px = apply_pixel_mode(x->route.endpoint, row.model, auth, *raw, rt_->store.get(), rt_->env);
    if (px.changed) {
      x->transformed = true;
      optimization = std::string(kPixelOptimizerId);
      auto sent = std::make_shared<const std::string>(std::move(px.body));
      x->upstream.body = sent;
      row.sent_body = sent;
      row.recovery_handle = px.handle;
      compression_headers = {{"x-caveman-recovery-handle", px.handle}};
    }
  }
  row.optimization_ids = optimization;

  // Record mode, marker-only compress and every fallback.
  if (!row.stream && doc && answers_in_one_piece(x->route.endpoint)) return answer_buffered(x, optimization, compression_headers, res);
  answer_relayed(x, optimization, compression_headers, res);
}

}  // namespace caveman::proxy
