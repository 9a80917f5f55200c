#include "keepalive.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "errors.h"
#include "prices.h"
#include "spend_db.h"
#include "usage_scanner.h"

namespace caveman::proxy {
namespace {

constexpr std::size_t kMaxPingAnswer = 1024 * 1024;
constexpr int kMaxAdvanceSteps = 100000;

}  // namespace

KeepaliveRunner::KeepaliveRunner(LifetimeBook* book, PingSender sender, ManualClock* manual)
    : book_(book), sender_(std::move(sender)), manual_(manual) {
  if (manual_ == nullptr) thread_ = std::thread([this] { run(); });
}

KeepaliveRunner::~KeepaliveRunner() { stop(); }

void KeepaliveRunner::poke() {
  {
    base::MutexLock lock(mu_);
    poked_ = true;
  }
  cv_.notify_all();
}

void KeepaliveRunner::stop() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
    if (in_flight_) in_flight_->cancel();  // a silent upstream must not hold up shutdown
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int KeepaliveRunner::send_due() {
  std::vector<PingJob> jobs = book_->take_due();
  for (const PingJob& job : jobs) {
    auto cancel = std::make_shared<CancelToken>();
    {
      base::MutexLock lock(mu_);
      if (stopping_) cancel->cancel();
      in_flight_ = cancel;
    }
    PingResult r = sender_(job, cancel.get());
    {
      base::MutexLock lock(mu_);
      in_flight_.reset();
    }
    book_->on_ping_done(job.session, r.ok, r.usd);
  }
  return static_cast<int>(jobs.size());
}

int KeepaliveRunner::advance(std::int64_t ms) {
  if (manual_ == nullptr) return 0;
  base::MutexLock lock(advance_mu_);
  std::int64_t target = manual_->now() + std::max<std::int64_t>(0, ms);
  int sent = 0;
  for (int step = 0; step < kMaxAdvanceSteps; ++step) {
    std::optional<std::int64_t> due = book_->next_due();
    if (!due || *due > target) break;
    manual_->set(std::max(*due, manual_->now()));
    sent += send_due();
  }
  manual_->set(target);
  return sent;
}

void KeepaliveRunner::run() {
  while (true) {
    {
      base::UniqueLock lock(mu_);
      if (stopping_) return;
      std::optional<std::int64_t> due = book_->next_due();
      std::int64_t wait_ms = due ? std::max<std::int64_t>(0, *due - book_->now()) : 60000;
      if (wait_ms > 0) {
        cv_.wait_for(lock.native(), std::chrono::milliseconds(wait_ms),
                     [&]() REQUIRES(mu_) { return stopping_ || poked_; });
      }
      if (stopping_) return;
      poked_ = false;
    }
    send_due();
  }
}

PingResult send_ping(UpstreamClient& upstream, UsageWriter* usage, const PingJob& job,
                     const HeaderList& extra, CancelToken* cancel) {
  const PingTemplate& t = *job.ping;
  std::int64_t output_tokens = 1;
  std::optional<std::string> body = keepalive_body(*t.request.body, &output_tokens);
  if (!body) return {};
  UpstreamRequest r = t.request;
  r.body = std::make_shared<const std::string>(std::move(*body));
  std::erase_if(r.headers, [](const auto& h) { return h.first == "x-mock-idle-ms"; });
  r.headers.insert(r.headers.end(), extra.begin(), extra.end());
  auto started = std::chrono::steady_clock::now();
  int status = 0;
  std::string answer;
  ExchangeResult result = upstream.exchange(
      r,
      [&](const UpstreamHead& h) {
        status = h.status;
        answer.clear();
        return true;
      },
      [&](std::string_view data) {
        if (answer.size() + data.size() > kMaxPingAnswer) return false;
        answer.append(data);
        return true;
      },
      cancel);
  PingResult out;
  out.ok = result.status.ok() && status >= 200 && status < 300;
  Usage u = parse_usage(t.provider, false, answer);
  if (auto price = find_price(provider_name(t.provider), t.model); price && u.input) {
    UsageTokens tokens{u.input.value_or(0), u.output.value_or(0), u.cache_read.value_or(0),
                       u.cache_write.value_or(0), u.cache_write_1h.value_or(0)};
    out.usd = price_usage(provider_name(t.provider), *price, tokens).total();
  }
  if (!out.ok)
    spdlog::info("keepalive ping of session {:016x} refused ({}): pings stop", job.session, status);
  if (usage == nullptr) return out;
  UsageRow row;
  row.request_id = new_request_id();
  row.kind = "keepalive";
  row.label = t.label;
  row.agent_slug = t.agent;
  row.session_id = t.session_id;
  if (!t.session_id.empty()) row.session_correlation_basis = "native_marker";
  row.provider = t.provider;
  row.model = t.model;
  row.route_from = t.route_from;
  row.route_to = t.request.origin + t.request.path;
  row.endpoint = t.endpoint;
  row.status_code = status;
  if (!result.status.ok()) row.error_code = result.status.error_code();
  row.latency_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - started)
                       .count();
  row.request_bytes = static_cast<std::int64_t>(r.body->size());
  row.response_bytes = static_cast<std::int64_t>(answer.size());
  row.auth_mode = t.auth_mode;
  row.runtime_mode = t.runtime_mode;
  row.optimization_ids = "caveman-keepalive";
  row.session_key = job.session;
  row.raw_body = r.body;
  row.sent_body = r.body;
  row.usage = u;
  usage->submit(std::move(row));
  return out;
}

}  // namespace caveman::proxy
