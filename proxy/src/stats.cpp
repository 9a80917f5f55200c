#include "stats.h"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "spend_db.h"

namespace caveman::proxy {
namespace {

using OJson = nlohmann::ordered_json;

OJson column_value(const SQLite::Column& c) {
  if (c.isNull()) return nullptr;
  if (c.isInteger()) return c.getInt64();
  if (c.isFloat()) return c.getDouble();
  return c.getString();
}

}  // namespace

Result<std::string> stats_summary(const std::string& db_path) {
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<SQLite::Database> db, open_spend_db(db_path));
  try {
    SQLite::Statement q(*db,
                        "SELECT COUNT(*), COALESCE(SUM(input_tokens),0), COALESCE(SUM(output_tokens),0), "
                        "COALESCE(SUM(cached_input_tokens),0), COALESCE(SUM(cache_creation_input_tokens),0), "
                        "COALESCE(SUM(compression_tokens_before),0), COALESCE(SUM(compression_tokens_after),0), "
                        "COALESCE(SUM(compression_eligible),0), COALESCE(SUM(would_save_tokens),0), "
                        "SUM(would_save_usd), COALESCE(SUM(cache_bust),0) FROM requests");
    q.executeStep();
    OJson out;
    out["requests"] = q.getColumn(0).getInt64();
    out["token_accounting"] = {{"input_tokens", q.getColumn(1).getInt64()},
                               {"output_tokens", q.getColumn(2).getInt64()},
                               {"cached_input_tokens", q.getColumn(3).getInt64()},
                               {"cache_creation_input_tokens", q.getColumn(4).getInt64()}};
    std::int64_t before = q.getColumn(5).getInt64();
    std::int64_t after = q.getColumn(6).getInt64();
    std::int64_t eligible = q.getColumn(7).getInt64();
    OJson modes = OJson::object();
    SQLite::Statement m(*db, "SELECT auth_mode, COUNT(*) FROM requests GROUP BY auth_mode ORDER BY auth_mode");
    while (m.executeStep()) modes[m.getColumn(0).getString()] = m.getColumn(1).getInt64();
    out["auth_mode_accounting"] = modes;
    out["compression_tokens_before"] = before;
    out["compression_tokens_after"] = after;
    out["compression_tokens_saved"] = before - after;
    out["compression_token_count_basis"] = "estimated_engine_o200k";
    out["requests_eligible_for_compression"] = eligible;
    out["would_save_tokens"] = q.getColumn(8).getInt64();
    out["would_save_usd"] = column_value(q.getColumn(9));
    out["cache_bust_requests"] = q.getColumn(10).getInt64();
    SQLite::Statement k(
        *db,
        "SELECT COUNT(*) FILTER (WHERE kind = 'keepalive'), "
        "COALESCE(SUM(keepalive_avoided_tokens),0), COALESCE(SUM(cache_write_1h_tokens),0), "
        "COUNT(recompact_saved_tokens), COALESCE(SUM(recompact_saved_tokens),0), "
        "COUNT(*) FILTER (WHERE cache_retention = 'in_memory') FROM requests");
    k.executeStep();
    out["keepalive_requests"] = k.getColumn(0).getInt64();
    out["keepalive_avoided_write_tokens"] = k.getColumn(1).getInt64();
    out["cache_write_1h_tokens"] = k.getColumn(2).getInt64();
    out["recompactions"] = k.getColumn(3).getInt64();
    out["recompact_saved_tokens"] = k.getColumn(4).getInt64();
    // Requests whose client chose in_memory on a model that offers 24h (lapses in minutes).
    out["openai_in_memory_requests"] = k.getColumn(5).getInt64();
    out["basis"] = "inferred";
    return out.dump(2);
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, e.what());
  }
}

Result<std::string> stats_recent(const std::string& db_path, int n) {
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<SQLite::Database> db, open_spend_db(db_path));
  try {
    SQLite::Statement q(
        *db,
        "SELECT ts, request_id, agent_slug, provider, model, endpoint, stream, status_code, "
        "error_code, latency_ms, input_tokens, output_tokens, cached_input_tokens, "
        "cache_creation_input_tokens, token_usage_basis, auth_mode, "
        "compression_tokens_before, compression_tokens_after, recovery_handle, runtime_mode, "
        "optimization_ids, session_key, cache_bust, cache_bust_component, would_save_tokens, "
        "would_save_usd, guard_note, kind, cache_write_1h_tokens, keepalive_avoided_tokens, "
        "recompact_saved_tokens, cache_retention, basis "
        "FROM requests ORDER BY id DESC LIMIT ?");
    q.bind(1, n);
    OJson rows = OJson::array();
    while (q.executeStep()) {
      OJson row;
      for (int i = 0; i < q.getColumnCount(); ++i) row[q.getColumnName(i)] = column_value(q.getColumn(i));
      rows.push_back(std::move(row));
    }
    return rows.dump(2);
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, e.what());
  }
}

}  // namespace caveman::proxy
