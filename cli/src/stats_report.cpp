#include "stats_report.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <sys/stat.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "caveman/base/codes.h"
#include "caveman/base/time.h"
#include "prices.h"

namespace caveman::cli {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string saved_pct(const Bucket& b) {
  if (b.tokens_before <= 0) return "0.0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f",
                100.0 * static_cast<double>(b.tokens_before - b.tokens_after) /
                    static_cast<double>(b.tokens_before));
  return buf;
}

// Dollars rounded to micro-dollars so that output is stable.
double usd(double v) { return std::round(v * 1e6) / 1e6; }

std::string usd_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

nlohmann::ordered_json bucket_json(const Bucket& b, bool dollars) {
  nlohmann::ordered_json j;
  j["requests"] = b.requests;
  j["tokens_before"] = b.tokens_before;
  j["tokens_after"] = b.tokens_after;
  j["tokens_saved"] = b.tokens_before - b.tokens_after;
  if (!dollars) return j;
  j["usd_before"] = usd(b.usd_before());
  j["usd_after"] = usd(b.usd_after());
  j["usd_saved"] = usd(b.usd_before() - b.usd_after());
  j["usd_input"] = usd(b.usd_input);
  j["usd_cache_read"] = usd(b.usd_cache_read);
  j["usd_cache_write"] = usd(b.usd_cache_write);
  j["usd_output"] = usd(b.usd_output);
  j["unpriced_requests"] = b.unpriced_requests;
  j["would_save_tokens"] = b.would_save_tokens;
  j["would_save_usd"] = usd(b.would_save_usd);
  return j;
}

// Adds one request row to a bucket: tokens, and dollars when the model has a price.
void add_request(Bucket& b, const std::string& provider, const std::string& model,
                 const proxy::UsageTokens& u, std::int64_t removed, std::int64_t would_tokens,
                 double would_usd) {
  // As documented in docs/cli.md (for OpenAI rows this counts cached tokens twice; dollars
  // below use each provider's own convention).
  std::int64_t after = u.input + u.cache_read + u.cache_write;
  b.requests += 1;
  b.tokens_after += after;
  b.tokens_before += after + removed;
  b.would_save_tokens += would_tokens;
  b.would_save_usd += would_usd;
  std::optional<proxy::ModelPrice> price = proxy::find_price(provider, model);
  if (!price) {
    b.unpriced_requests += 1;
    return;
  }
  proxy::Dollars d = proxy::price_usage(provider, *price, u);
  b.usd_input += d.input;
  b.usd_cache_read += d.cache_read;
  b.usd_cache_write += d.cache_write;
  b.usd_output += d.output;
  b.usd_removed += static_cast<double>(removed) * price->input * 1e-6;
}

// Whether caveman.db has the lifetime columns (a proxy older than issue 37 never added them).
bool has_lifetime_columns(SQLite::Database& db) {
  SQLite::Statement q(
      db, "SELECT COUNT(*) FROM pragma_table_info('requests') WHERE name = 'cache_retention'");
  return q.executeStep() && q.getColumn(0).getInt64() > 0;
}

// One row's lifetime figures (columns 11..16 of read_requests' query).
void add_lifetimes(LifetimeBucket& b, const std::string& provider, const std::string& model,
                   const SQLite::Statement& q, double row_usd) {
  std::optional<proxy::ModelPrice> price = proxy::find_price(provider, model);
  double write =
      price ? (price->cache_write_5m > 0 ? price->cache_write_5m : price->input) * 1e-6 : 0;
  double read = price ? price->cache_read * 1e-6 : 0;
  if (q.getColumn(11).getString() == "keepalive") {
    b.keepalive_requests += 1;
    b.usd_keepalive += row_usd;
  }
  std::int64_t avoided = q.getColumn(12).getInt64();
  b.keepalive_avoided_tokens += avoided;
  b.usd_keepalive_avoided += static_cast<double>(avoided) * (write - read);
  std::int64_t recompact = q.getColumn(13).getInt64();
  if (!q.getColumn(13).isNull()) b.recompactions += 1;
  b.recompact_saved_tokens += recompact;
  b.usd_recompact_saved += static_cast<double>(recompact) * write;
  b.cache_write_1h_tokens += q.getColumn(14).getInt64();
  if (q.getColumn(16).getString() == "in_memory") b.openai_in_memory_requests += 1;
}

Status read_requests(const std::string& path, const std::string& since, StatsReport* r) {
  SQLite::Database db(path, SQLite::OPEN_READONLY, 5000);
  bool lifetimes = has_lifetime_columns(db);
  std::string sql =
      "SELECT COALESCE(agent_slug,'unlabeled-agent'), COALESCE(provider,'unknown'),"
      " COALESCE(model,'unknown'), substr(ts,1,10),"
      " COALESCE(input_tokens,0), COALESCE(output_tokens,0),"
      " COALESCE(cached_input_tokens,0), COALESCE(cache_creation_input_tokens,0),"
      " COALESCE(compression_tokens_before,0)-COALESCE(compression_tokens_after,0),"
      " COALESCE(would_save_tokens,0), COALESCE(would_save_usd,0), ";
  sql += lifetimes
             ? "COALESCE(kind,''), COALESCE(keepalive_avoided_tokens,0), recompact_saved_tokens,"
               " COALESCE(cache_write_1h_tokens,0), COALESCE(session_key,''), "
               "COALESCE(cache_retention,'')"
             : "'', 0, NULL, 0, '', ''";
  sql += " FROM requests WHERE ts >= ? ORDER BY id";
  SQLite::Statement q(db, sql);
  q.bind(1, since);
  while (q.executeStep()) {
    std::string provider = q.getColumn(1).getString();
    std::string model = q.getColumn(2).getString();
    proxy::UsageTokens u{q.getColumn(4).getInt64(), q.getColumn(5).getInt64(),
                         q.getColumn(6).getInt64(), q.getColumn(7).getInt64(),
                         q.getColumn(14).getInt64()};
    std::int64_t removed = std::max<std::int64_t>(0, q.getColumn(8).getInt64());
    std::int64_t would_tokens = q.getColumn(9).getInt64();
    double would_usd = q.getColumn(10).getDouble();
    for (Bucket* b : {&r->by_agent[q.getColumn(0).getString()], &r->by_provider[provider],
                      &r->by_model[model], &r->by_day[q.getColumn(3).getString()], &r->total}) {
      add_request(*b, provider, model, u, removed, would_tokens, would_usd);
    }
    std::optional<proxy::ModelPrice> price = proxy::find_price(provider, model);
    double row_usd = price ? proxy::price_usage(provider, *price, u).total() : 0;
    LifetimeBucket one;
    add_lifetimes(one, provider, model, q, row_usd);
    if (one.empty()) continue;
    std::string session = q.getColumn(15).getString();
    for (LifetimeBucket* b : {&r->lifetimes, &r->lifetimes_by_day[q.getColumn(3).getString()],
                              &r->lifetimes_by_session[session.empty() ? "none" : session]}) {
      add_lifetimes(*b, provider, model, q, row_usd);
    }
  }
  r->requests = r->total.requests;
  r->tokens_before = r->total.tokens_before;
  r->tokens_after = r->total.tokens_after;
  return Status::Ok();
}

Status read_recoveries(const std::string& path, const std::string& since, StatsReport* r) {
  SQLite::Database db(path, SQLite::OPEN_READONLY, 5000);
  SQLite::Statement q(db,
                      "SELECT content_type, COUNT(*), SUM(tokens_before), SUM(tokens_after)"
                      " FROM recoveries WHERE created_at >= ? GROUP BY content_type"
                      " ORDER BY content_type");
  q.bind(1, since);
  while (q.executeStep()) {
    Bucket& b = r->by_content_type[q.getColumn(0).getString()];
    b.requests = q.getColumn(1).getInt64();
    b.tokens_before = q.getColumn(2).getInt64();
    b.tokens_after = q.getColumn(3).getInt64();
  }
  return Status::Ok();
}

}  // namespace

std::string utc_seconds(std::time_t epoch, char sep) {
  return base::format_utc({static_cast<std::int64_t>(epoch), 0}, {base::Fraction::kNone, sep, false});
}

Result<std::int64_t> parse_duration(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument(
        codes::kInvalidDuration,
        "duration must look like 90s, 15m, 24h or 7d, got \"" + std::string(text) + "\"");
  };
  if (text.size() < 2 || text.size() > 12) return bad();
  std::int64_t n = 0;
  for (char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return bad();
    n = n * 10 + (c - '0');
  }
  switch (text.back()) {
    case 's': return n;
    case 'm': return n * 60;
    case 'h': return n * 3600;
    case 'd': return n * 86400;
    default: return bad();
  }
}

Result<StatsReport> build_stats(const std::string& caveman_db, const std::string& ccr_db,
                                std::int64_t since_epoch) {
  StatsReport r;
  std::string since_db = "0000";
  std::string since_ccr = "0000";
  if (since_epoch >= 0) {
    auto t = static_cast<std::time_t>(since_epoch);
    r.since = utc_seconds(t, 'T') + "Z";
    since_db = utc_seconds(t, ' ');
    since_ccr = utc_seconds(t, 'T');
  }
  try {
    if (file_exists(caveman_db)) CAVEMAN_RETURN_IF_ERROR(read_requests(caveman_db, since_db, &r));
    if (file_exists(ccr_db)) CAVEMAN_RETURN_IF_ERROR(read_recoveries(ccr_db, since_ccr, &r));
  } catch (const std::exception& e) {
    return Status::Unavailable(codes::kDbUnavailable, e.what());
  }
  return r;
}

std::string StatsReport::to_json() const {
  nlohmann::ordered_json j;
  j["requests"] = requests;
  j["tokens_before"] = tokens_before;
  j["tokens_after"] = tokens_after;
  j["tokens_saved"] = tokens_before - tokens_after;
  j["basis"] = "inferred";
  j["token_count_basis"] = "provider_reported_input_plus_estimated_o200k_removed";
  if (!since.empty()) j["since"] = since;
  nlohmann::ordered_json totals = bucket_json(total, true);
  for (const char* k : {"usd_before", "usd_after", "usd_saved", "usd_input", "usd_cache_read",
                        "usd_cache_write", "usd_output", "unpriced_requests", "would_save_tokens",
                        "would_save_usd"}) {
    j[k] = totals[k];
  }
  j["price_basis"] = "list prices, bench/prices.json; cache writes at the 5-minute or 1-hour rate";
  auto section = [](const std::map<std::string, Bucket>& m, bool dollars) {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (const auto& [k, b] : m) o[k] = bucket_json(b, dollars);
    return o;
  };
  j["by_agent"] = section(by_agent, true);
  j["by_provider"] = section(by_provider, true);
  j["by_model"] = section(by_model, true);
  j["by_day"] = section(by_day, true);
  j["by_content_type"] = section(by_content_type, false);
  auto lifetime_json = [](const LifetimeBucket& b) {
    return nlohmann::ordered_json{{"keepalive_requests", b.keepalive_requests},
                                  {"usd_keepalive", usd(b.usd_keepalive)},
                                  {"keepalive_avoided_write_tokens", b.keepalive_avoided_tokens},
                                  {"usd_keepalive_avoided", usd(b.usd_keepalive_avoided)},
                                  {"recompactions", b.recompactions},
                                  {"recompact_saved_tokens", b.recompact_saved_tokens},
                                  {"usd_recompact_saved", usd(b.usd_recompact_saved)},
                                  {"cache_write_1h_tokens", b.cache_write_1h_tokens},
                                  {"openai_in_memory_requests", b.openai_in_memory_requests}};
  };
  nlohmann::ordered_json life = lifetime_json(lifetimes);
  life["by_day"] = nlohmann::ordered_json::object();
  for (const auto& [k, b] : lifetimes_by_day) life["by_day"][k] = lifetime_json(b);
  life["by_session"] = nlohmann::ordered_json::object();
  for (const auto& [k, b] : lifetimes_by_session) life["by_session"][k] = lifetime_json(b);
  life["basis"] = "inferred";
  j["lifetimes"] = life;
  return j.dump(2) + "\n";
}

std::string StatsReport::to_csv() const {
  std::ostringstream out;
  out << "section,key,requests,tokens_before,tokens_after,saved_pct,usd_before,usd_after,"
         "usd_input,usd_cache_read,usd_cache_write,usd_output,would_save_tokens,would_save_usd,basis\n";
  auto row = [&](const std::string& section, const std::string& key, const Bucket& b) {
    out << section << "," << nlohmann::json(key).dump() << "," << b.requests << ","
        << b.tokens_before << "," << b.tokens_after << "," << saved_pct(b) << ","
        << usd_text(b.usd_before()) << "," << usd_text(b.usd_after()) << "," << usd_text(b.usd_input)
        << "," << usd_text(b.usd_cache_read) << "," << usd_text(b.usd_cache_write) << ","
        << usd_text(b.usd_output) << "," << b.would_save_tokens << "," << usd_text(b.would_save_usd)
        << ",inferred\n";
  };
  row("total", "all", total);
  for (const auto& [k, b] : by_agent) row("agent", k, b);
  for (const auto& [k, b] : by_provider) row("provider", k, b);
  for (const auto& [k, b] : by_model) row("model", k, b);
  for (const auto& [k, b] : by_day) row("day", k, b);
  for (const auto& [k, b] : by_content_type) row("content_type", k, b);
  return out.str();
}

std::string StatsReport::to_table() const {
  constexpr int kCols = 8;
  using Line = std::array<std::string, kCols>;
  std::vector<Line> lines{{"", "", "count", "tokens before", "tokens after", "saved", "$ before", "$ after"}};
  auto add = [&](const std::string& section, const std::string& key, const Bucket& b, bool dollars) {
    lines.push_back({section, key, std::to_string(b.requests), std::to_string(b.tokens_before),
                     std::to_string(b.tokens_after), saved_pct(b) + "%",
                     dollars ? usd_text(b.usd_before()) : "", dollars ? usd_text(b.usd_after()) : ""});
  };
  add("total", "requests", total, true);
  for (const auto& [k, b] : by_agent) add("agent", k, b, true);
  for (const auto& [k, b] : by_provider) add("provider", k, b, true);
  for (const auto& [k, b] : by_model) add("model", k, b, true);
  for (const auto& [k, b] : by_day) add("day", k, b, true);
  for (const auto& [k, b] : by_content_type) add("content type", k, b, false);
  std::size_t w[kCols] = {};
  for (const auto& l : lines) {
    for (int i = 0; i < kCols; ++i) w[i] = std::max(w[i], l[static_cast<std::size_t>(i)].size());
  }
  std::ostringstream out;
  for (const auto& l : lines) {
    out << std::left << std::setw(static_cast<int>(w[0])) << l[0] << "  " << std::setw(static_cast<int>(w[1]))
        << l[1] << std::right;
    for (int i = 2; i < kCols; ++i) out << "  " << std::setw(static_cast<int>(w[i])) << l[static_cast<std::size_t>(i)];
    out << "\n";
  }
  if (!lifetimes.empty()) {
    out << "cache lifetimes: " << lifetimes.keepalive_requests << " keepalive pings ($"
        << usd_text(lifetimes.usd_keepalive) << ") avoided " << lifetimes.keepalive_avoided_tokens
        << " written tokens ($" << usd_text(lifetimes.usd_keepalive_avoided) << "); "
        << lifetimes.recompactions << " re-compactions removed " << lifetimes.recompact_saved_tokens
        << " tokens ($" << usd_text(lifetimes.usd_recompact_saved) << ")";
    if (lifetimes.openai_in_memory_requests > 0) {
      out << "; " << lifetimes.openai_in_memory_requests
          << " OpenAI requests asked for in_memory retention where 24h is offered";
    }
    out << "\n";
  }
  if (total.would_save_tokens > 0) {
    out << "record-mode estimate: compress would save " << total.would_save_tokens << " tokens ($"
        << usd_text(total.would_save_usd) << ")\n";
  }
  out << "All figures are inferred (local o200k estimates and provider-reported input tokens)";
  out << (since.empty() ? ".\n" : ", since " + since + ".\n");
  return out.str();
}

}  // namespace caveman::cli
