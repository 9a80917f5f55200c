#include "hooks_gemini.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "agent_mcp.h"
#include "binaries.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "config_journal.h"
#include "hook_files.h"

namespace caveman::cli {
namespace {

// Gemini may redact its environment before it runs a hook (environment variable redaction, or
// always on GitHub Actions); a hook's own "env" is added after that, so the state root and the
// native settings reach the hook process either way.
std::string with_hook_env(const std::string& document, const Environment& env) {
  nlohmann::json doc = nlohmann::json::parse(document, nullptr, false);
  if (!doc.is_object() || !doc.contains("hooks")) return document;
  nlohmann::json vars = nlohmann::json::object();
  for (const char* name : {"CAVEMAN_HOME", "CAVEMAN_NATIVE_TIMEOUT_MS", "CAVEMAN_NATIVE_POLICY",
                           "CAVEMAN_SHRINK_HOOK", "CAVEMAN_SHRINK_BIN"}) {
    if (auto v = env.get(name)) vars[name] = *v;
  }
  for (auto& [event, groups] : doc["hooks"].items()) {
    for (auto& g : groups) {
      for (auto& h : g["hooks"]) h["env"] = vars;
    }
  }
  return doc.dump();
}

// `path` made absolute (against the working directory) and normalized, as Node's
// path.resolve does: no "." or ".." parts, no trailing slash.
std::string resolved(const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_relative()) {
    std::error_code ec;
    p = std::filesystem::current_path(ec) / p;
  }
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// "/a/b/c" → "/a/b/c", "/a/b", "/a", "/".
std::vector<std::string> self_and_ancestors(std::string path) {
  std::vector<std::string> out{path};
  while (path != "/") {
    std::size_t cut = path.rfind('/');
    path = cut == 0 ? "/" : path.substr(0, cut);
    out.push_back(path);
  }
  return out;
}

std::string owner_problem(const std::string& what, unsigned uid) {
  return what + " is owned by uid " + std::to_string(uid) + ", not root";
}

// Gemini's per-path rule (checkPosixStatsSecurity, plus its lstat of symlinks), every reason
// rather than Gemini's first; true when the path exists.
bool check_existing(const std::string& path, const PathProbe& probe,
                    std::vector<std::string>* problems) {
  PathFacts f = probe(path);
  if (!f.exists) return false;
  if (f.is_link && f.link_uid != 0) {
    problems->push_back(owner_problem("the symlink " + path, f.link_uid));
  }
  if (f.uid != 0) problems->push_back(owner_problem(path, f.uid));
  if ((f.mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[16];
    std::snprintf(mode, sizeof mode, "%o", f.mode & 07777u);
    problems->push_back(path + " is writable by " + ((f.mode & S_IWOTH) ? "others" : "group") +
                        " (mode " + mode + ")");
  }
  return true;
}

}  // namespace

PathFacts probe_path(const std::string& path) {
  PathFacts f;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    f.exists = true;
    f.is_dir = S_ISDIR(st.st_mode);
    f.uid = st.st_uid;
    f.mode = st.st_mode;
  }
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    f.is_link = true;
    f.link_uid = st.st_uid;
  }
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    f.real = real;
    std::free(real);
  }
  return f;
}

std::vector<std::string> gemini_system_file_problems(const std::string& path, unsigned creator_uid,
                                                     const PathProbe& probe) {
  std::vector<std::string> problems;
  std::set<std::string> seen;
  std::string missing;  // the shallowest part that does not exist yet
  const std::string lexical = resolved(path);
  std::string deepest_existing;
  for (const std::string& p : self_and_ancestors(lexical)) {
    seen.insert(p);
    if (check_existing(p, probe, &problems)) {
      if (deepest_existing.empty()) deepest_existing = p;
    } else {
      missing = p;
    }
  }
  // Gemini checks the resolved path too when a symlink sits on the way.
  const std::string real = deepest_existing.empty() ? "" : probe(deepest_existing).real;
  if (!real.empty() && real != deepest_existing) {
    std::string canonical =
        real + lexical.substr(deepest_existing == "/" ? 0 : deepest_existing.size());
    for (const std::string& p : self_and_ancestors(resolved(canonical))) {
      if (seen.insert(p).second) check_existing(p, probe, &problems);
    }
  }
  if (!missing.empty() && creator_uid != 0) {
    problems.push_back(owner_problem("what caveman creates at " + missing, creator_uid));
  }
  return problems;
}

std::string gemini_session_defaults_path(const Environment& env, const std::string& session_dir) {
  return caveman_home(env) + "/run/gemini-" + session_dir.substr(session_dir.rfind('/') + 1) +
         "/system-defaults.json";
}

Status check_gemini_session_defaults(const std::string& path, unsigned creator_uid,
                                     const PathProbe& probe) {
  std::vector<std::string> problems = gemini_system_file_problems(path, creator_uid, probe);
  if (problems.empty()) return Status::Ok();
  std::string why;
  for (const std::string& p : problems) why += (why.empty() ? "" : "; ") + p;
  std::string message =
      "Gemini CLI will skip the hooks' settings file " + path + " (" + why +
      "): it loads a system defaults file only when root owns it and every directory above it "
      "and none is writable by group or others. ";
  if (creator_uid != 0) {
    message +=
        "Only root can meet that; run `caveman enable gemini` instead (persistent hooks in "
        "~/.gemini/settings.json, which Gemini loads without this check)";
  } else {
    message +=
        "Point CAVEMAN_HOME at a directory below none that others can write (the default "
        "~/.caveman), "
        "or run `caveman enable gemini`";
  }
  return Status::Unavailable(codes::kNativeHooksFailed, message);
}

std::string gemini_system_defaults_path(const Environment& env) {
  if (auto v = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); v && !v->empty()) return *v;
  std::string settings = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH").value_or("");
  if (settings.empty()) settings = "/etc/gemini-cli/settings.json";
  return settings.substr(0, settings.rfind('/') + 1) + "system-defaults.json";
}

Status install_gemini_session_hooks(WrapLaunch* launch) {
  return install_gemini_session_hooks_as(launch, ::geteuid(), probe_path);
}

Status install_gemini_session_hooks_as(WrapLaunch* launch, unsigned creator_uid,
                                       const PathProbe& probe) {
  if (!wants_native_hooks(*launch, "gemini")) return Status::Ok();
  // The session copy lives in the private state root, not in session_dir under $TMPDIR, and
  // only if Gemini would load it there.
  const std::string path = gemini_session_defaults_path(launch->env, launch->session_dir);
  CAVEMAN_RETURN_IF_ERROR(check_gemini_session_defaults(path, creator_uid, probe));
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(launch->proxy_path, launch->env, "gemini", "AfterTool"));
  pin_state_root(launch);
  // The user's own system defaults keep applying: the session copy is theirs plus our hooks.
  std::string original = read_file_bytes(gemini_system_defaults_path(launch->env)).value_or("");
  CAVEMAN_ASSIGN_OR_RETURN(HookGroupsAdded merged,
                           add_hook_groups(original, with_hook_env(document, launch->env)));
  const std::string dir = path.substr(0, path.rfind('/'));
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(dir, codes::kNativeHooksWrite));
  launch->owned_dirs.push_back(dir);
  if (Status s = write_file_atomic(path, merged.text); !s.ok()) {
    return Status::Io(codes::kNativeHooksWrite, s.message());
  }
  launch->env.set("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", path);
  launch->hooks_installed = true;
  return Status::Ok();
}

Result<HookInstallReport> install_gemini_hooks(const HookTarget& target) {
  const std::string path = agent_config_path("gemini", target.env);
  if (path.empty()) return Status::InvalidArgument(codes::kNoHome, "HOME is not set");
  if (read_hook_marker(target.caveman_home, "gemini")) {
    CAVEMAN_RETURN_IF_ERROR(uninstall_gemini_hooks(target).status());  // replace our own
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(target.proxy_path, target.env, "gemini", "AfterTool"));
  CAVEMAN_ASSIGN_OR_RETURN(HookGroupsAdded added, add_hook_groups(read_file_bytes(path).value_or(""), document));
  HookMarker marker{"gemini", hooks_document_command(document), {}, ""};
  CAVEMAN_RETURN_IF_ERROR(
      base::make_private_dirs(target.caveman_home + "/hooks", codes::kHomeNotWritable));
  CAVEMAN_ASSIGN_OR_RETURN(FileJournal j, journaled_write(path, added.text,
                                                          hook_marker_path(target.caveman_home, "gemini") + ".prev"));
  marker.journals.push_back(j);
  CAVEMAN_RETURN_IF_ERROR(write_hook_marker(target.caveman_home, marker));
  return HookInstallReport{{path}, "gemini hooks installed in " + path};
}

Result<HookInstallReport> uninstall_gemini_hooks(const HookTarget& target) {
  auto marker = read_hook_marker(target.caveman_home, "gemini");
  const std::string command = marker ? marker->command : "";
  return undo_hook_install(target.caveman_home, "gemini",
                           [&](const std::string&, const std::string& current) {
                             return remove_hook_groups(current, command);
                           });
}

}  // namespace caveman::cli
