#include "cli/objects_command.h"

#include <spdlog/spdlog.h>

#include <ostream>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/cli.h"
#include "caveman/base/log.h"
#include "caveman/ccr.h"
#include "cli/engine_cli.h"
#include "json/json.h"

namespace caveman::engine_cli {
namespace {

constexpr std::size_t kPreviewBytes = 512;
constexpr int kMaxLimit = 99999;

Result<std::unique_ptr<ccr::Store>> open_store() {
  ccr::OpenOptions options;
  CAVEMAN_ASSIGN_OR_RETURN(std::string path, ccr::resolve_store_path(&options));
  return ccr::open_store(path, options);
}

int fail(std::ostream& err, const Status& s) {
  base::stream_logger(err)->error("objects: {}", s.ToString());
  return kExitError;
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

void add_objects_commands(CLI::App& objects, ObjectsFlags* f) {
  objects.require_subcommand(1);
  CLI::App* list = objects.add_subcommand("list", "A session's objects, newest first");
  list->add_option("session", f->target, "The session id")->required();
  list->add_option("--limit", f->limit, "At most N objects (0 = all)")
      ->transform(base::decimal())
      ->check(CLI::Range(0, kMaxLimit));
  list->add_flag("--full", f->full, "Whole data instead of a 512-byte preview");
  objects.add_subcommand("get", "One object as JSON")
      ->add_option("id", f->target, "ccr_obj_... or ccr://<id>")
      ->required();
  CLI::App* set = objects.add_subcommand("set", "Update an object, then print it");
  set->add_option("id", f->target, "ccr_obj_... or ccr://<id>")->required();
  set->add_option("--currentness", f->currentness, "current | stale | archived");
  set->add_option("--lifecycle", f->lifecycle, "hot | warm | cold | archived");
}

int run_objects_command(const ObjectsFlags& f, std::ostream& out, std::ostream& err) {
  if (f.verb == "set" && !f.currentness && !f.lifecycle) {
    return base::usage_error("caveman-engine", "objects set needs --currentness or --lifecycle", err);
  }
  const std::string target = base::normalize_ccr_handle(f.target);
  Result<std::unique_ptr<ccr::Store>> store = open_store();
  if (!store.ok()) return fail(err, store.status());
  if (f.verb == "list") {
    Result<std::vector<ccr::TypedObject>> objects = (*store)->list_session_objects(target, f.limit);
    if (!objects.ok()) return fail(err, objects.status());
    std::string text = "{\"session_id\":";
    json::write_string(target, text);
    text += ",\"data_preview_bytes\":";
    text += f.full ? "null" : std::to_string(kPreviewBytes);
    text += ",\"objects\":[";
    for (std::size_t i = 0; i < objects->size(); ++i) {
      if (i > 0) text += ',';
      text += f.full ? (*objects)[i].to_json() : preview((*objects)[i]).to_json();
    }
    text += "]}\n";
    out << text;
    return kExitOk;
  }
  if (f.currentness) {
    if (Status s = (*store)->set_object_currentness(target, *f.currentness); !s.ok()) return fail(err, s);
  }
  if (f.lifecycle) {
    if (Status s = (*store)->set_object_lifecycle(target, *f.lifecycle); !s.ok()) return fail(err, s);
  }
  Result<ccr::TypedObject> o = (*store)->get_object(target);
  if (!o.ok()) return fail(err, o.status());
  out << o->to_json() << "\n";
  return kExitOk;
}

}  // namespace caveman::engine_cli
