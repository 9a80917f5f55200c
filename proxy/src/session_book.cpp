#include "session_book.h"

#include <cstdio>

#include "lru.h"

namespace caveman::proxy {

bool canary_selected(std::uint64_t session, int percent) {
  // Re-hashed so that the canary share is independent of how fingerprints were built.
  std::uint64_t h = fnv1a(std::string_view(reinterpret_cast<const char*>(&session), sizeof session),
                          fnv1a("canary"));
  return static_cast<int>(h % 100) < percent;
}

SessionBook::State& SessionBook::touch(std::uint64_t session) {
  return touch_lru(sessions_, lru_, session, max_sessions_);
}

BustReport SessionBook::observe(std::uint64_t session, PrefixComponents c) {
  base::MutexLock lock(mu_);
  State& s = touch(session);
  BustReport r;
  if (s.seen) {
    if (c.tools != s.last.tools) {
      r.component = "tools";
    } else if (c.system != s.last.system) {
      r.component = "system";
    } else if (c.messages.size() < s.last.messages.size()) {
      r.component = "history_truncated";
    } else {
      // Every earlier message must come back unchanged; the previous last message may not
      // (an agent can still be appending to it), so it is compared too but only if followed.
      for (std::size_t i = 0; i < s.last.messages.size(); ++i) {
        if (c.messages[i] != s.last.messages[i]) {
          r.component = "message:" + std::to_string(i);
          break;
        }
      }
    }
    r.bust = !r.component.empty();
  }
  s.last = std::move(c);
  s.seen = true;
  return r;
}

std::optional<std::string> SessionBook::stopped(std::uint64_t session) {
  base::MutexLock lock(mu_);
  auto it = sessions_.find(session);
  if (it == sessions_.end() || it->second.stop_reason.empty()) return std::nullopt;
  return it->second.stop_reason;
}

std::optional<std::string> SessionBook::charge(std::uint64_t session, double actual_usd,
                                               double record_usd) {
  base::MutexLock lock(mu_);
  State& s = touch(session);
  if (!s.stop_reason.empty()) return std::nullopt;
  s.actual_usd += actual_usd;
  s.record_usd += record_usd;
  ++s.charged;
  if (s.charged < kGuardMinRequests || s.actual_usd <= s.record_usd) return std::nullopt;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "guard: compressed requests cost $%.6f > record estimate $%.6f over %d requests",
                s.actual_usd, s.record_usd, s.charged);
  s.stop_reason = buf;
  return s.stop_reason;
}

std::int64_t SessionBook::swap_prompt_tokens(std::uint64_t session, std::int64_t tokens) {
  base::MutexLock lock(mu_);
  State& s = touch(session);
  std::int64_t previous = s.prompt_tokens;
  s.prompt_tokens = tokens;
  return previous;
}

}  // namespace caveman::proxy
