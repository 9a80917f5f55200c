#include "tool_args.h"

#include <algorithm>
#include <cmath>

#include "caveman/base/ccr_handle.h"
#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "url_policy.h"

namespace caveman::browse {
namespace {

Status invalid(std::string message) {
  return Status::InvalidArgument(codes::kInvalidArguments, std::move(message));
}

// Optional string argument (absent or null → unchanged).
Status opt_string(const Json& args, const char* name, std::size_t max_bytes, std::string* out,
                  bool* present = nullptr) {
  auto it = args.find(name);
  if (present != nullptr) *present = false;
  if (it == args.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return invalid(std::string("\"") + name + "\" must be a string");
  const std::string& v = it->get_ref<const std::string&>();
  if (v.size() > max_bytes) {
    return invalid(std::string("\"") + name + "\" is longer than " + std::to_string(max_bytes) + " bytes");
  }
  *out = v;
  if (present != nullptr) *present = true;
  return Status::Ok();
}

// `file`: true, or a plain file name (never a path: the file stays in its directory).
Status parse_file_arg(const Json& args, SnapshotRequest* r) {
  auto it = args.find("file");
  if (it == args.end() || it->is_null() || (it->is_boolean() && !it->get<bool>())) return Status::Ok();
  r->to_file = true;
  if (it->is_boolean()) return Status::Ok();
  if (!it->is_string()) return invalid("\"file\" must be true or a file name");
  const std::string& name = it->get_ref<const std::string&>();
  bool plain = !name.empty() && name.size() <= 128 && name.front() != '.' &&
               std::all_of(name.begin(), name.end(), [](char c) {
                 return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '-' || c == '_';
               });
  if (!plain) {
    return invalid("\"file\" must be a plain file name (letters, digits, . - _; at most 128; not starting with "
                   "a dot): it is written in $CAVEMAN_HOME/browse/");
  }
  r->file_name = name;
  return Status::Ok();
}

Status check_object(const Json& args) {
  if (!args.is_object()) return invalid("arguments must be an object");
  return Status::Ok();
}

}  // namespace

Result<SnapshotRequest> parse_snapshot_args(const Json& args) {
  CAVEMAN_RETURN_IF_ERROR(check_object(args));
  SnapshotRequest r;
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "url", kMaxUrlBytes + 1, &r.url, &r.has_url));
  if (r.has_url) CAVEMAN_RETURN_IF_ERROR(check_url(r.url));
  if (auto it = args.find("wait"); it != args.end() && !it->is_null()) {
    if (!it->is_number()) return invalid("\"wait\" must be a number of milliseconds (0–30000)");
    double w = it->get<double>();
    if (!(w >= 0 && w <= kMaxWaitMs) || std::floor(w) != w) {
      return invalid("\"wait\" must be an integer from 0 to 30000 (milliseconds)");
    }
    r.wait_ms = static_cast<int>(w);
  }
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "query", kMaxQueryBytes, &r.query));
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "expand", 64, &r.expand));
  if (!r.expand.empty() && !r.query.empty()) return invalid("pass either \"query\" or \"expand\", not both");
  CAVEMAN_RETURN_IF_ERROR(parse_file_arg(args, &r));
  return r;
}

Result<ActRequest> parse_act_args(const Json& args) {
  CAVEMAN_RETURN_IF_ERROR(check_object(args));
  ActRequest r;
  bool has_action = false;
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "action", 64, &r.action, &has_action));
  if (!has_action) return invalid("missing \"action\" (click, type, select, scroll, wait or navigate)");
  if (std::find(std::begin(kActions), std::end(kActions), r.action) == std::end(kActions)) {
    return Status::InvalidArgument(
        codes::kUnknownAction,
        "unknown action \"" + r.action + "\"; use click, type, select, scroll, wait or navigate");
  }
  if (auto it = args.find("full"); it != args.end() && !it->is_null()) {
    if (!it->is_boolean()) return invalid("\"full\" must be true or false");
    r.full = it->get<bool>();
  }
  bool has_uid = false, has_text = false, has_option = false;
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "uid", 256, &r.uid, &has_uid));
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "text", kMaxTextBytes, &r.text, &has_text));
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "option", kMaxTextBytes, &r.option, &has_option));
  r.uid = std::string(base::trim_ascii(r.uid));
  if (r.uid.size() >= 2 && r.uid.front() == '[' && r.uid.back() == ']') r.uid = r.uid.substr(1, r.uid.size() - 2);
  if (r.action == "navigate") {
    bool has_url = false;
    CAVEMAN_RETURN_IF_ERROR(opt_string(args, "url", kMaxUrlBytes + 1, &r.url, &has_url));
    if (!has_url) return invalid("\"navigate\" needs \"url\"");
    CAVEMAN_RETURN_IF_ERROR(check_url(r.url));
    return r;
  }
  if (r.action == "wait") return r;
  if (r.uid.empty()) return invalid("\"" + r.action + "\" needs the \"uid\" of a control from browser_snapshot");
  if (r.action == "type" && !has_text) return invalid("\"type\" needs \"text\"");
  if (r.action == "select" && !has_option && !has_text) {
    return invalid("\"select\" needs \"option\" (the value, label or text of the option)");
  }
  return r;
}

Result<EvalRequest> parse_eval_args(const Json& args) {
  CAVEMAN_RETURN_IF_ERROR(check_object(args));
  EvalRequest r;
  bool present = false;
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "expression", kMaxTextBytes, &r.expression, &present));
  if (!present || base::trim_ascii(r.expression).empty()) return invalid("\"expression\" must be a non-empty string");
  return r;
}

Result<RecoverRequest> parse_recover_args(const Json& args) {
  CAVEMAN_RETURN_IF_ERROR(check_object(args));
  RecoverRequest r;
  bool present = false;
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "recovery_handle", kMaxHandleBytes, &r.handle, &present));
  r.handle = base::normalize_ccr_handle(r.handle);
  if (!present || r.handle.empty()) return invalid("\"recovery_handle\" must be a non-empty string");
  CAVEMAN_RETURN_IF_ERROR(opt_string(args, "query", kMaxQueryBytes, &r.query));
  return r;
}

}  // namespace caveman::browse
