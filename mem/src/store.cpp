// MemStore: opening, the write paths (remember, supersede, forget, import) and the chain walk.
// Search lives in store_search.cpp, the schema in store_schema.cpp.
#include "store.h"

#include <sqlite3.h>

#include <set>

#include "caveman/base/codes.h"
#include "caveman/base/private_file.h"
#include "store_internal.h"

namespace caveman::mem {

using internal::Transaction;
using internal::with_store;

namespace internal {

Status status_from_exception(const std::exception& e, std::string_view what,
                             const std::string& path) {
  const std::string where = "mem: " + std::string(what) + " (" + path + "): ";
  const auto* se = dynamic_cast<const SQLite::Exception*>(&e);
  if (se == nullptr) return Status::Internal(codes::kMemStoreUnavailable, where + e.what());
  switch (base::sqlite_primary_code(*se)) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corrupt(
          codes::kMemStoreCorrupt,
          where + se->what() +
              " — the file is damaged or is not a cavemem database. It was left untouched: move "
              "it aside to start a new store, or restore a backup (`cavemem export` writes one)");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Unavailable(codes::kMemStoreBusy,
                                 where + se->what() + " (another process holds the store; retry)");
    case SQLITE_FULL:
      return Status::Io(codes::kMemStoreUnavailable, where + se->what() + " (disk full)");
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return Status::Io(
          codes::kMemStoreUnavailable,
          where + se->what() + " (check that the file and its directory are writable)");
    default:
      return Status::Io(codes::kMemStoreUnavailable, where + se->what());
  }
}

std::string join_tags(const std::vector<std::string>& tags) {
  std::string out;
  for (const std::string& t : tags) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

std::vector<std::string> split_tags(std::string_view joined) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < joined.size()) {
    std::size_t j = joined.find(' ', i);
    if (j == std::string_view::npos) j = joined.size();
    if (j > i) out.emplace_back(joined.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

Memory read_memory(SQLite::Statement& q, int first) {
  auto opt = [&](int i) -> std::optional<std::string> {
    SQLite::Column c = q.getColumn(first + i);
    if (c.isNull()) return std::nullopt;
    return c.getString();
  };
  Memory m;
  m.id = q.getColumn(first).getString();
  m.text = q.getColumn(first + 1).getString();
  m.created_at = q.getColumn(first + 2).getString();
  m.valid_from = q.getColumn(first + 3).getString();
  m.valid_until = opt(4);
  m.supersedes = opt(5);
  m.superseded_by = opt(6);
  m.project = opt(7);
  m.tags = split_tags(q.getColumn(first + 8).getString());
  return m;
}

}  // namespace internal

namespace {

Status unknown_memory(std::string_view id) {
  return Status::NotFound(codes::kUnknownMemory, "no memory with id " + std::string(id));
}

Status invalid_value(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

std::optional<Memory> load(SQLite::Database& db, std::string_view id) {
  SQLite::Statement q(db, std::string("SELECT ") + internal::kMemoryColumns +
                              " FROM memories WHERE id = ?1");
  q.bind(1, std::string(id));
  if (!q.executeStep()) return std::nullopt;
  return internal::read_memory(q);
}

void bind_optional(SQLite::Statement& q, int index, const std::optional<std::string>& v) {
  if (v) {
    q.bind(index, *v);
  } else {
    q.bind(index);
  }
}

constexpr const char* kInsertSql =
    "INSERT OR IGNORE INTO memories(id, text, created_at, valid_from, valid_until, supersedes, "
    "superseded_by, project, tags, cjk) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

// INSERT OR IGNORE of a full row through a kInsertSql statement (reused by bulk import);
// true when a row was inserted.
bool insert_row(SQLite::Statement& q, const Memory& m) {
  q.reset();
  q.bind(1, m.id);
  q.bind(2, m.text);
  q.bind(3, m.created_at);
  q.bind(4, m.valid_from);
  bind_optional(q, 5, m.valid_until);
  bind_optional(q, 6, m.supersedes);
  bind_optional(q, 7, m.superseded_by);
  bind_optional(q, 8, m.project);
  q.bind(9, internal::join_tags(m.tags));
  q.bind(10, has_cjk(m.text) ? 1 : 0);
  return q.exec() == 1;
}

bool insert_row(SQLite::Database& db, const Memory& m) {
  SQLite::Statement q(db, kInsertSql);
  return insert_row(q, m);
}

std::string describe_not_current(const Memory& m) {
  if (m.superseded_by) return m.id + " is not current: superseded by " + *m.superseded_by;
  return m.id + " is not current: it expired at " + m.valid_until.value_or("?");
}

constexpr base::FileErrors kMemFileErrors{codes::kMemStoreUnsafe, codes::kMemStoreUnavailable,
                                          "mem: ", "CAVEMAN_HOME"};

}  // namespace

MemStore::MemStore(std::unique_ptr<SQLite::Database> db, std::string path, const Clock* clock)
    : db_(std::move(db)), path_(std::move(path)), clock_(clock) {}

MemStore::~MemStore() = default;

Result<std::unique_ptr<MemStore>> MemStore::open(const std::string& path, StoreOptions options) {
  if (path.empty()) return invalid_value("mem: the store path is empty");
  const bool memory = path == ":memory:";
  std::optional<base::PrivateFile> file;
  if (!memory) {
    CAVEMAN_ASSIGN_OR_RETURN(base::PrivateFile prepared,
                             base::prepare_private_db_file(path, kMemFileErrors));
    file = std::move(prepared);
  }
  const Clock* clock = options.clock != nullptr ? options.clock : &system_clock();
  return with_store("cannot open the memory store", path,
                    [&]() -> Result<std::unique_ptr<MemStore>> {
                      const int flags = memory ? SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE
                                               : SQLite::OPEN_READWRITE | SQLite::OPEN_NOFOLLOW;
                      auto db = std::make_unique<SQLite::Database>(path, flags, kBusyTimeoutMs);
                      internal::prepare_connection(*db);
                      // Reads the header first: a file that is not a database fails here,
                      // before anything is written.
                      db->exec("PRAGMA journal_mode=WAL");
                      Status s = internal::ensure_schema(*db, *clock);
                      if (!s.ok()) return s;
                      if (file) CAVEMAN_RETURN_IF_ERROR(base::recheck_private_db_file(*file, kMemFileErrors));
                      // Per-connection view of the index's term statistics (recall's bounds).
                      db->exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_vocab USING "
                               "fts5vocab(main, memories_fts, row)");
                      return std::unique_ptr<MemStore>(new MemStore(std::move(db), path, clock));
                    });
}

Result<RememberOutcome> MemStore::remember(const NewMemory& memory) {
  CAVEMAN_RETURN_IF_ERROR(validate_text(memory.text));
  const std::string id = memory_id(memory.text);
  return with_store("remember", path_, [&]() -> Result<RememberOutcome> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    if (std::optional<Memory> existing = load(*db_, id)) {
      if (existing->text != memory.text) {
        return Status::Internal(codes::kMemIdCollision, "mem: two texts share the id " + id);
      }
      if (!existing->current()) {
        return Status::InvalidArgument(
            codes::kMemorySuperseded,
            describe_not_current(*existing) +
                "; this text is an old version — supersede the current version instead");
      }
      return RememberOutcome{std::move(*existing), false};
    }
    Memory m;
    m.id = id;
    m.text = memory.text;
    m.created_at = clock_->now();
    m.valid_from = m.created_at;
    m.project = memory.project;
    m.tags = memory.tags.value_or(std::vector<std::string>{});
    insert_row(*db_, m);
    tx.commit();
    return RememberOutcome{std::move(m), true};
  });
}

Result<Memory> MemStore::supersede(std::string_view old_id, const NewMemory& replacement) {
  if (!is_memory_id(old_id))
    return invalid_value("\"" + std::string(old_id) + "\" is not a memory id");
  CAVEMAN_RETURN_IF_ERROR(validate_text(replacement.text));
  const std::string new_id = memory_id(replacement.text);
  return with_store("supersede", path_, [&]() -> Result<Memory> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    std::optional<Memory> old = load(*db_, old_id);
    if (!old) return unknown_memory(old_id);
    if (!old->current()) {
      return Status::InvalidArgument(
          codes::kMemoryNotCurrent, describe_not_current(*old) + "; supersede the current version");
    }
    if (new_id == old->id) return invalid_value("the new text is identical to " + old->id);
    if (std::optional<Memory> taken = load(*db_, new_id)) {
      return Status::InvalidArgument(codes::kMemoryExists,
                                     "the new text is already stored as " + new_id +
                                         (taken->current() ? " (current)" : " (an old version)"));
    }
    Memory m;
    m.id = new_id;
    m.text = replacement.text;
    m.created_at = clock_->now();
    m.valid_from = m.created_at;
    m.supersedes = old->id;
    m.project = replacement.project ? replacement.project : old->project;
    m.tags = replacement.tags ? *replacement.tags : old->tags;
    insert_row(*db_, m);
    SQLite::Statement expire(*db_,
                             "UPDATE memories SET valid_until = ?1, superseded_by = ?2 WHERE id = ?3");
    expire.bind(1, m.created_at);
    expire.bind(2, m.id);
    expire.bind(3, old->id);
    expire.exec();
    tx.commit();
    return m;
  });
}

Result<std::vector<Memory>> MemStore::history(std::string_view id) {
  if (!is_memory_id(id)) return invalid_value("\"" + std::string(id) + "\" is not a memory id");
  return with_store("history", path_, [&]() -> Result<std::vector<Memory>> {
    Transaction tx(*db_, Transaction::Kind::kRead);
    std::optional<Memory> start = load(*db_, id);
    if (!start) return unknown_memory(id);
    std::set<std::string> seen{start->id};
    auto corrupt = [](std::string message) {
      return Status::Corrupt(codes::kMemChainCorrupt, "mem: version chain is broken: " + message);
    };
    std::vector<Memory> older;
    for (Memory cur = *start; cur.supersedes;) {
      std::optional<Memory> prev = load(*db_, *cur.supersedes);
      if (!prev) return corrupt(cur.id + " supersedes " + *cur.supersedes + ", which does not exist");
      if (prev->superseded_by != cur.id) {
        return corrupt(cur.id + " supersedes " + prev->id + ", but " + prev->id +
                       " names " + prev->superseded_by.value_or("no successor"));
      }
      if (!seen.insert(prev->id).second) return corrupt("cycle through " + prev->id);
      older.push_back(*prev);
      cur = std::move(*prev);
    }
    std::vector<Memory> chain(older.rbegin(), older.rend());
    chain.push_back(*start);
    for (Memory cur = *start; cur.superseded_by;) {
      std::optional<Memory> next = load(*db_, *cur.superseded_by);
      if (!next) {
        return corrupt(cur.id + " is superseded by " + *cur.superseded_by + ", which does not exist");
      }
      if (next->supersedes != cur.id) {
        return corrupt(cur.id + " is superseded by " + next->id + ", but " + next->id +
                       " supersedes " + next->supersedes.value_or("nothing"));
      }
      if (!seen.insert(next->id).second) return corrupt("cycle through " + next->id);
      chain.push_back(*next);
      cur = std::move(*next);
    }
    return chain;
  });
}

Result<std::optional<Memory>> MemStore::forget(std::string_view id) {
  if (!is_memory_id(id)) return invalid_value("\"" + std::string(id) + "\" is not a memory id");
  return with_store("forget", path_, [&]() -> Result<std::optional<Memory>> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    std::optional<Memory> row = load(*db_, id);
    if (!row) return std::optional<Memory>();
    std::optional<Memory> prev = row->supersedes ? load(*db_, *row->supersedes) : std::nullopt;
    std::optional<Memory> next = row->superseded_by ? load(*db_, *row->superseded_by) : std::nullopt;
    // Never relink a node to itself (possible only in a cyclic chain of an old database).
    const bool same = prev && next && prev->id == next->id;
    if (prev && prev->superseded_by == row->id) {
      SQLite::Statement q(*db_, "UPDATE memories SET superseded_by = ?1 WHERE id = ?2");
      bind_optional(q, 1, next && !same ? std::optional<std::string>(next->id) : std::nullopt);
      q.bind(2, prev->id);
      q.exec();
    }
    if (next && next->supersedes == row->id) {
      SQLite::Statement q(*db_, "UPDATE memories SET supersedes = ?1 WHERE id = ?2");
      bind_optional(q, 1, prev && !same ? std::optional<std::string>(prev->id) : std::nullopt);
      q.bind(2, next->id);
      q.exec();
    }
    SQLite::Statement del(*db_, "DELETE FROM memories WHERE id = ?1");
    del.bind(1, row->id);
    del.exec();
    tx.commit();
    return row;
  });
}

Result<std::optional<Memory>> MemStore::get(std::string_view id) {
  return with_store("get", path_, [&]() -> Result<std::optional<Memory>> { return load(*db_, id); });
}

Result<StoreStats> MemStore::stats() {
  return with_store("stats", path_, [&]() -> Result<StoreStats> {
    Transaction tx(*db_, Transaction::Kind::kRead);
    StoreStats s;
    SQLite::Statement q(*db_, R"sql(
      SELECT count(*),
             ifnull(sum(valid_until IS NULL AND superseded_by IS NULL), 0),
             ifnull(sum(superseded_by IS NOT NULL), 0),
             ifnull(sum(valid_until IS NOT NULL AND superseded_by IS NULL), 0),
             count(DISTINCT CASE WHEN valid_until IS NULL AND superseded_by IS NULL
                                 THEN project END)
      FROM memories)sql");
    q.executeStep();
    s.versions = q.getColumn(0).getInt64();
    s.current = q.getColumn(1).getInt64();
    s.superseded = q.getColumn(2).getInt64();
    s.expired = q.getColumn(3).getInt64();
    s.projects = q.getColumn(4).getInt64();
    s.db_bytes = db_->execAndGet("PRAGMA page_count").getInt64() *
                 db_->execAndGet("PRAGMA page_size").getInt64();
    s.schema_version = db_->execAndGet("PRAGMA user_version").getInt();
    return s;
  });
}

Status MemStore::for_each(bool current_only, const std::function<void(const Memory&)>& fn) {
  return with_store("export", path_, [&]() -> Status {
    Transaction tx(*db_, Transaction::Kind::kRead);
    SQLite::Statement q(*db_, std::string("SELECT ") + internal::kMemoryColumns +
                                  " FROM memories" +
                                  (current_only ? " WHERE valid_until IS NULL AND superseded_by IS NULL" : "") +
                                  " ORDER BY seq");
    while (q.executeStep()) fn(internal::read_memory(q));
    return Status::Ok();
  });
}

namespace {

Status bad_import(int line, const std::string& message) {
  return Status::InvalidArgument(codes::kInvalidImport,
                                 "line " + std::to_string(line) + ": " + message);
}

// Field checks of one import row; fills defaults (id, timestamps).
Status check_import_row(ImportRow& row, const std::string& now) {
  Memory& m = row.memory;
  Status text = validate_text(m.text);
  if (!text.ok()) return bad_import(row.line, text.ToString());
  const std::string id = memory_id(m.text);
  if (m.id.empty()) m.id = id;
  if (m.id != id) return bad_import(row.line, "id " + m.id + " does not match its text (expected " + id + ")");
  if (m.created_at.empty()) m.created_at = now;
  if (m.valid_from.empty()) m.valid_from = m.created_at;
  for (const std::string* ts : {&m.created_at, &m.valid_from}) {
    if (!is_utc_timestamp(*ts)) return bad_import(row.line, "\"" + *ts + "\" is not an RFC 3339 UTC time");
  }
  if (m.valid_until && !is_utc_timestamp(*m.valid_until)) {
    return bad_import(row.line, "\"" + *m.valid_until + "\" is not an RFC 3339 UTC time");
  }
  for (const auto* link : {&m.supersedes, &m.superseded_by}) {
    if (*link && (!is_memory_id(**link) || **link == m.id)) {
      return bad_import(row.line, "\"" + **link + "\" is not a valid link");
    }
  }
  if (m.project) {
    Status p = validate_project(*m.project);
    if (!p.ok()) return bad_import(row.line, p.message());
  }
  Result<std::vector<std::string>> tags = normalize_tags(m.tags);
  if (!tags.ok()) return bad_import(row.line, tags.status().message());
  m.tags = std::move(tags).value();
  return Status::Ok();
}

}  // namespace

Result<ImportSummary> MemStore::import(const std::vector<ImportRow>& input) {
  std::vector<ImportRow> rows = input;
  const std::string now = clock_->now();
  for (ImportRow& row : rows) CAVEMAN_RETURN_IF_ERROR(check_import_row(row, now));
  return with_store("import", path_, [&]() -> Result<ImportSummary> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    ImportSummary summary;
    std::vector<const ImportRow*> inserted;
    SQLite::Statement insert(*db_, kInsertSql);  // prepared once for the whole import
    for (const ImportRow& row : rows) {
      if (insert_row(insert, row.memory)) {
        ++summary.imported;
        inserted.push_back(&row);
      } else {
        ++summary.skipped;
      }
    }
    // Every link touching an imported row must be mutual, and no chain may loop.
    for (const ImportRow* row : inserted) {
      const Memory& m = row->memory;
      if (m.supersedes) {
        std::optional<Memory> prev = load(*db_, *m.supersedes);
        if (!prev || prev->superseded_by != m.id) {
          return bad_import(row->line, m.id + " supersedes " + *m.supersedes +
                                           ", which is missing or does not name it as successor");
        }
      }
      if (m.superseded_by) {
        std::optional<Memory> next = load(*db_, *m.superseded_by);
        if (!next || next->supersedes != m.id) {
          return bad_import(row->line, m.id + " is superseded by " + *m.superseded_by +
                                           ", which is missing or does not name it as predecessor");
        }
      }
      std::set<std::string> seen{m.id};
      for (std::optional<std::string> link = m.supersedes; link;) {
        if (!seen.insert(*link).second) return bad_import(row->line, "cyclic chain through " + *link);
        std::optional<Memory> prev = load(*db_, *link);
        link = prev ? prev->supersedes : std::nullopt;
      }
    }
    tx.commit();
    return summary;
  });
}

}  // namespace caveman::mem
