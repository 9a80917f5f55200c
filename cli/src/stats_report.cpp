#include "stats_report.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <sys/stat.h>

#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

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

nlohmann::ordered_json bucket_json(const Bucket& b) {
  nlohmann::ordered_json j;
  j["requests"] = b.requests;
  j["tokens_before"] = b.tokens_before;
  j["tokens_after"] = b.tokens_after;
  j["tokens_saved"] = b.tokens_before - b.tokens_after;
  return j;
}

Status read_requests(const std::string& path, const std::string& since, StatsReport* r) {
  SQLite::Database db(path, SQLite::OPEN_READONLY, 5000);
  SQLite::Statement q(db,
                      "SELECT COALESCE(agent_slug,'unlabeled-agent'), COALESCE(provider,'unknown'),"
                      " COALESCE(input_tokens,0)+COALESCE(cached_input_tokens,0)"
                      "+COALESCE(cache_creation_input_tokens,0),"
                      " COALESCE(compression_tokens_before,0)-COALESCE(compression_tokens_after,0)"
                      " FROM requests WHERE ts >= ? ORDER BY id");
  q.bind(1, since);
  while (q.executeStep()) {
    std::int64_t after = q.getColumn(2).getInt64();
    std::int64_t removed = std::max<std::int64_t>(0, q.getColumn(3).getInt64());
    for (auto* map : {&r->by_agent, &r->by_provider}) {
      Bucket& b = (*map)[q.getColumn(map == &r->by_agent ? 0 : 1).getString()];
      b.requests += 1;
      b.tokens_after += after;
      b.tokens_before += after + removed;
    }
    r->requests += 1;
    r->tokens_after += after;
    r->tokens_before += after + removed;
  }
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
  std::tm tm{};
  gmtime_r(&epoch, &tm);
  char buf[80];  // sized for any int fields, so the format can never truncate
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d%c%02d:%02d:%02d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, sep, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

Result<std::int64_t> parse_duration(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument("cave_invalid_duration",
                                   "duration must look like 90s, 15m, 24h or 7d, got \"" +
                                       std::string(text) + "\"");
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
    return Status::Unavailable("cave_db_unavailable", e.what());
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
  auto section = [](const std::map<std::string, Bucket>& m) {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (const auto& [k, b] : m) o[k] = bucket_json(b);
    return o;
  };
  j["by_agent"] = section(by_agent);
  j["by_provider"] = section(by_provider);
  j["by_content_type"] = section(by_content_type);
  return j.dump(2) + "\n";
}

std::string StatsReport::to_csv() const {
  std::ostringstream out;
  out << "section,key,requests,tokens_before,tokens_after,saved_pct,basis\n";
  Bucket total{requests, tokens_before, tokens_after};
  auto row = [&](const std::string& section, const std::string& key, const Bucket& b) {
    out << section << "," << nlohmann::json(key).dump() << "," << b.requests << ","
        << b.tokens_before << "," << b.tokens_after << "," << saved_pct(b) << ",inferred\n";
  };
  row("total", "all", total);
  for (const auto& [k, b] : by_agent) row("agent", k, b);
  for (const auto& [k, b] : by_provider) row("provider", k, b);
  for (const auto& [k, b] : by_content_type) row("content_type", k, b);
  return out.str();
}

std::string StatsReport::to_table() const {
  struct Line {
    std::string section, key, count, before, after, pct;
  };
  std::vector<Line> lines{{"", "", "count", "tokens before", "tokens after", "saved"}};
  auto add = [&](const std::string& section, const std::string& key, const Bucket& b) {
    lines.push_back({section, key, std::to_string(b.requests), std::to_string(b.tokens_before),
                     std::to_string(b.tokens_after), saved_pct(b) + "%"});
  };
  add("total", "requests", Bucket{requests, tokens_before, tokens_after});
  for (const auto& [k, b] : by_agent) add("agent", k, b);
  for (const auto& [k, b] : by_provider) add("provider", k, b);
  for (const auto& [k, b] : by_content_type) add("content type", k, b);
  std::size_t w[6] = {0, 0, 0, 0, 0, 0};
  for (const auto& l : lines) {
    const std::string* f[6] = {&l.section, &l.key, &l.count, &l.before, &l.after, &l.pct};
    for (int i = 0; i < 6; ++i) w[i] = std::max(w[i], f[i]->size());
  }
  std::ostringstream out;
  for (const auto& l : lines) {
    out << std::left << std::setw(static_cast<int>(w[0])) << l.section << "  "
        << std::setw(static_cast<int>(w[1])) << l.key << std::right;
    out << "  " << std::setw(static_cast<int>(w[2])) << l.count << "  "
        << std::setw(static_cast<int>(w[3])) << l.before << "  "
        << std::setw(static_cast<int>(w[4])) << l.after << "  "
        << std::setw(static_cast<int>(w[5])) << l.pct << "\n";
  }
  out << "All figures are inferred (local o200k estimates and provider-reported input tokens)";
  out << (since.empty() ? ".\n" : ", since " + since + ".\n");
  return out.str();
}

}  // namespace caveman::cli
