#include "cli/objects_command.h"

#include <ostream>

#include "caveman/base/ccr_handle.h"
#include "caveman/ccr.h"
#include "cli/engine_cli.h"
#include "json/json.h"

namespace caveman::engine_cli {
namespace {

constexpr std::size_t kPreviewBytes = 512;
constexpr const char* kUsage =
    "usage: caveman-engine objects list <session> [--limit N] [--full]\n"
    "       caveman-engine objects get <id>\n"
    "       caveman-engine objects set <id> [--currentness current|stale|archived]\n"
    "                                       [--lifecycle hot|warm|cold|archived]\n";

Result<std::unique_ptr<ccr::Store>> open_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  return ccr::open_store(path, options);
}

int fail(std::ostream& err, const Status& s) {
  err << "objects: " << s.ToString() << "\n";
  return kExitError;
}

int usage(std::ostream& err) {
  err << kUsage;
  return kExitUsage;
}

// Cuts data to a UTF-8-safe preview; the byte lengths still report the full size.
ccr::TypedObject preview(ccr::TypedObject o) {
  if (o.data.size() <= kPreviewBytes) return o;
  std::size_t end = kPreviewBytes;
  while (end > 0 && (static_cast<unsigned char>(o.data[end]) & 0xC0) == 0x80) --end;
  o.data.resize(end);
  return o;
}

}  // namespace

int run_objects_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2) return usage(err);
  const std::string& verb = args[0];
  std::string target = base::normalize_ccr_handle(args[1]);
  if (verb == "list") {
    int limit = 0;
    bool full = false;
    for (std::size_t i = 2; i < args.size(); ++i) {
      if (args[i] == "--full") {
        full = true;
      } else if (args[i] == "--limit" && i + 1 < args.size()) {
        const std::string& v = args[++i];
        if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos) {
          return usage(err);
        }
        limit = std::stoi(v);
      } else {
        return usage(err);
      }
    }
    Result<std::unique_ptr<ccr::Store>> store = open_store();
    if (!store.ok()) return fail(err, store.status());
    Result<std::vector<ccr::TypedObject>> objects = (*store)->list_session_objects(target, limit);
    if (!objects.ok()) return fail(err, objects.status());
    std::string text = "{\"session_id\":";
    json::write_string(target, text);
    text += ",\"data_preview_bytes\":";
    text += full ? "null" : std::to_string(kPreviewBytes);
    text += ",\"objects\":[";
    for (std::size_t i = 0; i < objects->size(); ++i) {
      if (i > 0) text += ',';
      text += full ? (*objects)[i].to_json() : preview((*objects)[i]).to_json();
    }
    text += "]}\n";
    out << text;
    return kExitOk;
  }
  if (verb == "get" || verb == "set") {
    Result<std::unique_ptr<ccr::Store>> store = open_store();
    if (!store.ok()) return fail(err, store.status());
    if (verb == "set") {
      if (args.size() < 4) return usage(err);
      for (std::size_t i = 2; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) return usage(err);
        Status s;
        if (args[i] == "--currentness") {
          s = (*store)->set_object_currentness(target, args[i + 1]);
        } else if (args[i] == "--lifecycle") {
          s = (*store)->set_object_lifecycle(target, args[i + 1]);
        } else {
          return usage(err);
        }
        if (!s.ok()) return fail(err, s);
      }
    }
    Result<ccr::TypedObject> o = (*store)->get_object(target);
    if (!o.ok()) return fail(err, o.status());
    out << o->to_json() << "\n";
    return kExitOk;
  }
  return usage(err);
}

}  // namespace caveman::engine_cli
