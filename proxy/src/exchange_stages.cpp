// The request path's early stages, in the order ProxyServer::handle_provider runs them:
// route → strip_markers → open_row → authenticate → inspect → decide_mode → transform →
// retrieve_loop → pixel; then reply (exchange.cpp).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <set>

#include "caveman/base/codes.h"
#include "errors.h"
#include "exchange.h"
#include "native/session_marker.h"
#include "optimizers.h"
#include "pixel_mode.h"
#include "prices.h"
#include "transform.h"
#include "url.h"

namespace caveman::proxy {
namespace {

std::string format_ratio(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", ratio);
  return buf;
}

bool has_live_zone(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kChatCompletions || e == Endpoint::kResponses ||
         e == Endpoint::kGenerateContent || e == Endpoint::kStreamGenerate;
}

// Shares of the body's bytes in its last message and the one before (Anthropic Messages).
RequestShape request_shape(Endpoint e, const JsonDoc& doc) {
  RequestShape shape;
  NodeId messages = doc.get(doc.root(), "messages");
  if (e != Endpoint::kMessages || !doc.is(messages, JsonKind::kArray)) return shape;
  const std::vector<NodeId>& items = doc.node(messages).items;
  const JsonNode& root = doc.node(doc.root());
  double total = static_cast<double>(root.end - root.begin);
  auto share = [&](NodeId id) {
    return static_cast<double>(doc.node(id).end - doc.node(id).begin) / total;
  };
  if (!items.empty() && total > 0) shape.tail_share = share(items.back());
  if (items.size() > 1 && total > 0) shape.premium_share = share(items[items.size() - 2]);
  for (NodeId m : items) {
    NodeId content = doc.get(m, "content");
    shape.blocks += doc.is(content, JsonKind::kArray)
                        ? static_cast<std::int64_t>(doc.node(content).items.size())
                        : 1;
  }
  return shape;
}

// The retention an OpenAI client chose itself on a model that offers 24h ("in_memory" there is
// worth saying in caveman stats: the cache lapses after minutes), else "".
std::string client_retention(const Route& route, const JsonDoc& doc, const std::string& model) {
  if (route.provider != Provider::kOpenAI) return {};
  std::string_view asked = doc.get_string(doc.root(), "prompt_cache_retention");
  if (asked.empty()) return {};
  std::optional<ModelPrice> price = find_price("openai", model);
  return price && price->retention_24h ? std::string(asked) : std::string();
}

bool server_retrieve_endpoint(Endpoint e) {
  return e == Endpoint::kMessages || e == Endpoint::kChatCompletions || e == Endpoint::kResponses ||
         e == Endpoint::kGenerateContent;
}

// The transformed body is dropped: the provider gets the client's bytes and the row says so.
void undo_transform(Exchange& x, bool refused) {
  x.transformed = false;
  x.upstream.body = x.raw_body;
  x.row.sent_body = x.raw_body;
  x.row.optimization_ids.clear();
  x.row.compression_ratio.reset();
  x.row.compression_tokens_before.reset();
  x.row.compression_tokens_after.reset();
  x.row.error_code = refused ? "transformed_request_refused" : "";
  x.row.recovery_handle.clear();
  x.optimization.clear();
  x.compression_headers.clear();
}

}  // namespace

std::shared_ptr<Exchange> Exchange::begin(ProxyRuntime* rt, ProxyServer* server, const ProxyRequest& req) {
  auto x = std::make_shared<Exchange>();
  x->rt = rt;
  x->server = server;
  x->start = std::chrono::steady_clock::now();
  x->request_id = new_request_id();
  x->client = req.peer;
  x->inbound = req.headers;
  x->trace_id = pick_trace_id(find_header(x->inbound, "x-cave-trace-id").value_or(""),
                              find_header(x->inbound, "traceparent").value_or(""));
  return x;
}

void Exchange::reply_shutting_down(ProxyResponse& res) {
  res.set_header("Connection", "close");
  reply_error(Status::Unavailable(codes::kShuttingDown, "caveman-proxy is shutting down"), res);
  res.status = 503;
}

// Stage "route": which provider and endpoint; an unknown one is answered here (no row).
bool Exchange::route_request(const ProxyRequest& req, ProxyResponse& res) {
  Result<Route> matched = match_route(req.method, req.target, rt->config);
  if (!matched.ok()) {
    rt->metrics.request_started();
    reply_error(matched.status(), res);
    rt->metrics.request_finished("none", res.status);
    return false;
  }
  route = std::move(matched).value();
  return true;
}

// Stage "strip markers": valid native session markers never reach the provider; one
// session correlates the row.
void Exchange::strip_markers(std::string body) {
  if (!rt->session_key.empty()) {
    native::MarkerScan markers = native::strip_session_markers(body, rt->session_key);
    if (markers.valid > 0) body = std::move(markers.body);
    marker_session = std::move(markers.session_id);
  }
  raw_body = std::make_shared<const std::string>(std::move(body));
}

// The request now counts as in flight and has a row, whatever happens next.
void Exchange::open_row(const std::string& route_from) {
  rt->metrics.request_started();
  if (server != nullptr) server->track(shared_from_this());
  const Config& config = rt->config;
  row.request_id = request_id;
  row.trace_id = trace_id;
  row.label = config.label;
  row.provider = route.provider;
  row.route_from = route_from;
  row.route_to = route.upstream_url;
  row.endpoint = route.path;
  row.request_bytes = static_cast<std::int64_t>(raw_body->size());
  row.runtime_mode = config.mode;
  row.raw_body = raw_body;
  row.sent_body = raw_body;
  row.agent_slug = route.agent;
  if (!marker_session.empty()) {
    row.session_id = marker_session;
    row.session_correlation_basis = "native_marker";
  }
  if (row.agent_slug.empty()) {
    std::string agent = find_header(inbound, "x-cave-agent").value_or("");
    if (valid_route_name(agent)) row.agent_slug = agent;
  }
}

// Stage "authenticate headers": the client's headers mapped to what the provider gets.
bool Exchange::authenticate(ProxyResponse& res) {
  Result<MappedHeaders> m = map_request_headers(route, inbound, rt->config, rt->env);
  if (!m.ok()) {
    parties.store(1);  // no relay runs
    reply_failure(m.status(), res);
    return false;
  }
  mapped = std::move(m).value();
  row.auth_mode = std::string(auth_mode_name(mapped.auth_mode));
  return true;
}

// Request facts every mode needs, and where the upstream request goes. Malformed JSON is
// not an error: it is forwarded untouched in every mode.
void Exchange::inspect() {
  doc = JsonDoc::parse(*raw_body);
  facts = doc ? inspect_request(route.endpoint, *doc) : LiveZone{};
  row.model = !facts.model.empty() ? facts.model : (!route.model.empty() ? route.model : "unknown");
  row.stream = facts.stream || route.endpoint == Endpoint::kStreamGenerate;
  upstream.origin = route.origin;
  upstream.host = route.upstream_host;
  upstream.port = route.upstream_port;
  std::size_t path_start = route.upstream_url.find('/', route.origin.size());
  upstream.path = path_start == std::string::npos ? "/" : route.upstream_url.substr(path_start);
  upstream.headers = std::move(mapped.upstream);
  upstream.body = raw_body;
}

// Stage "decide mode" (docs/spec/proxy.md#modes): bypass, recovery style, cost plan, eligibility.
void Exchange::decide_mode() {
  const Config& config = rt->config;
  mode.bypass = find_header(inbound, "x-caveman-bypass").value_or("") == "1" ||
                find_header(inbound, "x-cave-transforms").value_or("") == "caveman.pass-through.v1";
  mode.auth = mapped.auth_mode;
  mode.cost_auth = mode.auth == AuthMode::kSubscription && api_key_credential(inbound)
                       ? AuthMode::kPayg
                       : mode.auth;
  mode.marker_only = config.recovery_via_mcp;
  mode.server_retrieve = !config.recovery_via_mcp && mode.auth == AuthMode::kPayg && !row.stream &&
                         !facts.declares_retrieve_tool && server_retrieve_endpoint(route.endpoint);
  mode.plan = observe_cost();
  mode.eligible = mode.plan.compress && rt->compress_enabled() && doc && has_live_zone(route.endpoint) &&
                  (mode.marker_only || mode.server_retrieve);
  row.compression_eligible = mode.eligible;
}

// The cost mode for this request, plus the cache-bust monitor (observe only).
CostPlan Exchange::observe_cost() {
  if (!doc || !has_live_zone(route.endpoint)) {
    CostPlan none;
    none.runtime_mode = rt->config.mode;
    row.runtime_mode = none.runtime_mode;
    return none;
  }
  row.session_key = session_fingerprint(route.endpoint, *doc, row.agent_slug, row.model, row.session_id);
  row.api = route.endpoint;
  if (rt->lifetimes) {
    RequestStart started =
        rt->lifetimes->on_request_start(row.session_key, request_shape(route.endpoint, *doc));
    rt->lifetimes->note_latest(row.session_key, AgentLease{route.agent_pid, row.session_id});
    row.keepalive_bridged = started.bridged;
    cache_lapsed = started.lapsed;
    row.cache_lapsed = started.lapsed;
    lifetime_open = true;
  }
  BustReport bust = rt->sessions.observe(row.session_key, prefix_components(route.endpoint, *doc));
  row.cache_bust = bust.bust ? 1 : 0;
  row.cache_bust_component = bust.component;
  row.cache_retention = client_retention(route, *doc, row.model);
  CostPlan plan = plan_cost(rt->config, mode.bypass, row.session_key, rt->sessions);
  row.runtime_mode = plan.runtime_mode;
  row.estimate_wanted = plan.estimate;
  row.guard_note = plan.guard_note;
  return plan;
}

// Stage "transform": live-zone compression, then the cost optimizers.
void Exchange::transform() {
  row.guard_charge = mode.eligible && compress() && !mode.plan.reuse_only;
  apply_cost_optimizers();
}

// True when the body changed (blocks compressed or reused from the prefix cache).
bool Exchange::compress() {
  const Config& config = rt->config;
  LiveZone zone = extract_live_zone(route.endpoint, *doc, static_cast<std::size_t>(config.min_bytes));
  CompressKnobs knobs =
      knobs_for_request(config.budget_tokens, config.min_saving_tokens, raw_body->size(),
                        prompt_cached(route.endpoint, *raw_body));
  knobs.reuse_only = mode.plan.reuse_only;
  knobs.recompact = cache_lapsed && rt->config.recompact_enabled;
  Transformer transformer(rt->engine.get(), rt->store.get(), rt->prefix_cache.get(), knobs);
  TransformOutcome outcome = transformer.transform(*raw_body, *doc, zone);
  if (!outcome.error.empty()) spdlog::warn("compress: a block kept its original bytes: {}", outcome.error);
  handles = outcome.handles;
  if (rt->lifetimes && config.recompact_enabled)
    rt->lifetimes->note_compactable(row.session_key, outcome.compactable_tokens);
  if (!outcome.changed) return false;
  transformed = true;
  optimization = "caveman-live-zone-compress";
  if (outcome.recompacted_blocks > 0) {
    optimization += ",caveman-recompact";
    row.recompact_saved_tokens = outcome.recompact_saved_tokens;
  }
  auto sent = std::make_shared<const std::string>(std::move(outcome.body));
  upstream.body = sent;
  row.sent_body = sent;
  row.recovery_handle = join_handles(outcome.handles);
  std::int64_t before = outcome.tokens_before;
  std::int64_t after = outcome.tokens_after;
  if (outcome.compressed_blocks > 0) {
    row.compression_tokens_before = before;
    row.compression_tokens_after = after;
    row.compression_ratio = before > 0 ? static_cast<double>(before - after) / static_cast<double>(before) : 0.0;
  }
  rt->metrics.add_saved(static_cast<std::int64_t>(raw_body->size()) - static_cast<std::int64_t>(sent->size()),
                        before - after);
  compression_headers = {{"x-caveman-compression-ratio", format_ratio(row.compression_ratio.value_or(0.0))},
                         {"x-caveman-recovery-handle", row.recovery_handle},
                         {"x-caveman-tokens-before", std::to_string(before)},
                         {"x-caveman-tokens-after", std::to_string(after)},
                         {"x-caveman-token-count-basis", "estimated_engine_o200k"}};
  return true;
}

// Runs the optimizers on the body about to be sent: in active mode their output is sent; in
// recommend/shadow mode the row only names them ("shadow:<id>").
void Exchange::apply_cost_optimizers() {
  const CostPlan& plan = mode.plan;
  if (!plan.optimize && plan.preview.empty()) return;
  OptimizerContext context;
  context.session = row.session_key;
  std::optional<ModelPrice> price = find_price(provider_name(route.provider), row.model);
  if (rt->lifetimes) context.ttl = rt->lifetimes->ttl_for(row.session_key, price);
  context.retention_24h = price && price->retention_24h;
  OptimizerOutcome o = run_optimizers(rt->config, route, mode.cost_auth, *upstream.body, context);
  if (o.ids.empty()) return;
  std::string ids;
  for (const std::string& id : o.ids) {
    if (!ids.empty()) ids += ',';
    ids += plan.optimize ? id : plan.preview + ":" + id;
  }
  if (plan.optimize) {
    auto sent = std::make_shared<const std::string>(std::move(o.body));
    upstream.body = sent;
    row.sent_body = sent;
    transformed = true;  // a 4xx is retried with the client's bytes
  }
  optimization += (optimization.empty() ? "" : ",") + ids;
}

// Stage "retrieve loop": server-side recovery, a buffered exchange with the injected
// retrieve tool. It goes into every eligible request that may be cached, compressed or
// not: tools open the cached prefix, so a tool list that gained caveman_retrieve only on
// the first compressing turn would turn the whole cached prompt back into a cache write.
// An Anthropic request without any cache_control is never cached and pays for the tool on
// every turn: there it goes in only once a marker is in the prompt.
LoopStage Exchange::retrieve_loop(ProxyResponse& res) {
  bool useful = prompt_cached(route.endpoint, *upstream.body) ||
                upstream.body->find("<<ccr:") != std::string::npos;
  if (!mode.eligible || !mode.server_retrieve || mode.marker_only || !useful) return LoopStage::kNotRun;
  Result<std::string> injected = inject_retrieve_tool(route.endpoint, *upstream.body);
  if (!injected.ok()) return LoopStage::kNotRun;
  optimization += ",caveman-retrieve-tool";
  auto with_tool = std::make_shared<const std::string>(std::move(injected).value());
  row.sent_body = with_tool;
  Status error;
  LoopOutcome loop = run_retrieve_loop(
      route.endpoint, route.provider, with_tool, std::set<std::string>(handles.begin(), handles.end()),
      *rt->engine, [this](std::shared_ptr<const std::string> body) { return send_buffered(std::move(body)); },
      &error);
  bool refused = loop.response.status >= 400 && loop.response.status < 500;
  if (error.ok() && !loop.replay_original && !refused) {
    reply_from_loop(loop, res);
    return LoopStage::kAnswered;
  }
  if (!error.ok() && !refused) {
    parties.store(1);  // no relay runs
    reply_failure(error, res);
    return LoopStage::kAnswered;
  }
  undo_transform(*this, refused);  // refused or too large: relay the client's bytes
  return LoopStage::kFellBack;
}

// Stage "pixel" (docs/pixel.md#proxy-mode-pixel): the whole original is stored first; any gate →
// original bytes.
void Exchange::pixel() {
  if (rt->config.mode != "pixel" || mode.bypass || !doc) return;
  PixelOutcome px = apply_pixel_mode(route.endpoint, row.model, mode.auth, *raw_body, rt->store.get(), rt->env);
  if (!px.changed) return;
  transformed = true;
  optimization = std::string(kPixelOptimizerId);
  auto sent = std::make_shared<const std::string>(std::move(px.body));
  upstream.body = sent;
  row.sent_body = sent;
  row.recovery_handle = px.handle;
  compression_headers = {{"x-caveman-recovery-handle", px.handle}};
}

void ProxyServer::handle_provider(ProxyRequest& req, ProxyResponse& res) {
  std::shared_ptr<Exchange> x = Exchange::begin(rt_, this, req);
  if (shutting_down_.load()) return x->reply_shutting_down(res);
  if (!x->route_request(req, res)) return;
  x->strip_markers(std::move(req.body));
  x->open_row(req.path);
  if (!x->authenticate(res)) return;
  x->inspect();
  x->decide_mode();
  x->transform();
  if (x->retrieve_loop(res) == LoopStage::kAnswered) return;
  x->pixel();
  x->reply(res);
}

}  // namespace caveman::proxy
