#include "actions.h"

#include "caveman/base/codes.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kActionableWait{5000};
constexpr milliseconds kWaitAction{250};
constexpr const char* kObjectGroup = "caveman-browse";

// Scrolls the element to the centre and reports whether it can take a pointer event there.
// Runs in the element's own frame; coordinates are converted to the top-level viewport.
constexpr const char* kProbe = R"JS(async function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return { state: 'detached' };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const box = () => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const a = box();
  await new Promise((resolve) => setTimeout(resolve, 32));
  const b = box();
  if (a.some((v, i) => Math.abs(v - b[i]) > 0.5)) return { state: 'moving' };
  const hidden = b[2] <= 0 || b[3] <= 0 ||
      (el.checkVisibility ? !el.checkVisibility({ visibilityProperty: true }) :
       getComputedStyle(el).visibility !== 'visible');
  if (hidden) return { state: 'hidden' };
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return { state: 'disabled' };
  let x = b[0] + b[2] / 2, y = b[1] + b[3] / 2;
  let hit = el.ownerDocument.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  const within = (outer, inner) => {
    for (let n = inner; n; n = n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  const viaLabel = hit && el.labels && Array.from(el.labels).some((l) => within(l, hit));
  if (!hit || !(within(el, hit) || viaLabel)) {
    const what = hit ? hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '') +
        ' "' + (hit.innerText || '').trim().slice(0, 40) + '"' : 'nothing';
    return { state: 'covered', by: what };
  }
  for (let w = el.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
    const f = w.frameElement.getBoundingClientRect();
    x += f.left + w.frameElement.clientLeft;
    y += f.top + w.frameElement.clientTop;
  }
  return { state: 'ok', x, y };
})JS";

constexpr const char* kFocusAndSelectAll = R"JS(function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return 'other';
  el.focus();
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (el.readOnly) return 'readonly';
    el.select();
    return 'field';
  }
  if (el.isContentEditable) {
    const r = document.createRange();
    r.selectNodeContents(el);
    const s = getSelection();
    s.removeAllRanges();
    s.addRange(r);
    return 'field';
  }
  return 'other';
})JS";

constexpr const char* kSelectOption = R"JS(function (want) {
  let el = this.nodeType === 1 ? this : this.parentElement;
  if (el && el.tagName === 'OPTION') el = el.closest('select');
  if (!el || el.tagName !== 'SELECT') {
    return { error: 'select works on <select> elements, not <' + (el ? el.tagName.toLowerCase() : '?') +
                    '>; click the option instead' };
  }
  const norm = (s) => String(s).replace(/\s+/g, ' ').trim();
  const opts = Array.from(el.options);
  const w = norm(want), lw = w.toLowerCase();
  const match = opts.find((o) => o.value === want) || opts.find((o) => norm(o.label) === w) ||
      opts.find((o) => norm(o.text) === w) ||
      opts.find((o) => norm(o.text).toLowerCase() === lw || o.value.toLowerCase() === lw);
  if (!match) return { error: 'no option matches', options: opts.slice(0, 30).map((o) => norm(o.text)) };
  if (match.disabled) return { error: 'the option "' + norm(match.text) + '" is disabled' };
  if (el.multiple) { match.selected = true; } else { el.value = match.value; }
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: norm(match.text), value: match.value };
})JS";

Status action_failed(std::string message) {
  return Status::InvalidArgument(codes::kBrowserActionFailed, std::move(message));
}

Status unknown_uid(const std::string& uid) {
  return Status::NotFound(
      codes::kUnknownUid,
      "uid " + uid +
          " no longer exists in the page (it changed since the snapshot); take a new "
          "browser_snapshot");
}

// Runtime.callFunctionOn on `object_id`, returning the value.
Result<Json> call_on(Browser& b, const std::string& object_id, const char* fn, const Json& args,
                     Clock::time_point deadline) {
  Json params = Json{{"functionDeclaration", fn}, {"objectId", object_id}, {"returnByValue", true},
                     {"awaitPromise", true},      {"userGesture", true}};
  if (!args.empty()) params["arguments"] = args;
  CAVEMAN_ASSIGN_OR_RETURN(Json r, b.cdp().call_json("Runtime.callFunctionOn", params, b.session(), deadline));
  if (auto ex = r.find("exceptionDetails"); ex != r.end() && ex->is_object()) {
    std::string text = ex->value("exception", Json::object()).value("description", ex->value("text", std::string()));
    return action_failed("the page threw: " + text);
  }
  return r.value("result", Json::object()).value("value", Json(nullptr));
}

// Waits for the probe to report an actionable point; returns {x, y}.
Result<std::pair<double, double>> actionable_point(Browser& b, const std::string& uid,
                                                   const std::string& object_id, Clock::time_point deadline) {
  Clock::time_point until = std::min(deadline, Clock::now() + kActionableWait);
  std::string last = "unknown";
  while (true) {
    CAVEMAN_ASSIGN_OR_RETURN(Json probe, call_on(b, object_id, kProbe, Json::array(), deadline));
    std::string state = probe.is_object() ? probe.value("state", std::string()) : "";
    if (state == "ok") return std::make_pair(probe.value("x", 0.0), probe.value("y", 0.0));
    if (state == "detached") return unknown_uid(uid);
    last = state == "covered" ? "covered by " + probe.value("by", std::string("another element")) : state;
    if (Clock::now() >= until) break;
    pump_for(b, milliseconds(50));
  }
  return action_failed("uid " + uid + " is not actionable after " + std::to_string(kActionableWait.count() / 1000) +
                       " s: " + last);
}

Status click_at(Browser& b, double x, double y, Clock::time_point deadline) {
  for (const char* type : {"mouseMoved", "mousePressed", "mouseReleased"}) {
    Json p = Json{{"type", type}, {"x", x}, {"y", y}};
    if (std::string_view(type) != "mouseMoved") {
      p["button"] = "left";
      p["buttons"] = std::string_view(type) == "mousePressed" ? 1 : 0;
      p["clickCount"] = 1;
    }
    CAVEMAN_RETURN_IF_ERROR(b.cdp().call("Input.dispatchMouseEvent", p, b.session(), deadline).status());
  }
  return Status::Ok();
}

Status key(Browser& b, const char* name, int code, Clock::time_point deadline) {
  for (const char* type : {"keyDown", "keyUp"}) {
    Json p = Json{{"type", type}, {"key", name}, {"code", name}, {"windowsVirtualKeyCode", code}};
    CAVEMAN_RETURN_IF_ERROR(b.cdp().call("Input.dispatchKeyEvent", p, b.session(), deadline).status());
  }
  return Status::Ok();
}

// wait with text: polls the page's visible text until it holds `text`.
Result<Json> wait_for_text(Browser& b, const std::string& text, Clock::time_point deadline) {
  std::string probe = "(document.body ? document.body.innerText : '').includes(" + Json(text).dump() + ")";
  while (true) {
    Result<Json> found = b.evaluate(probe, deadline);
    if (found.ok() && found->is_boolean() && found->get<bool>()) return Json{{"ok", true}, {"settled", true}};
    if (!b.alive())
      return Status::Unavailable(codes::kBrowserUnavailable, "the browser exited or crashed");
    if (Clock::now() + milliseconds(100) >= deadline) break;
    pump_for(b, milliseconds(100));
  }
  return action_failed("the text \"" + text.substr(0, 80) + "\" did not appear in time");
}

Result<Json> navigate(Browser& b, const std::string& url, Clock::time_point deadline) {
  Status s = b.navigate(url, deadline);
  if (s.error_code() == codes::kBrowserNavigationFailed) return action_failed(s.message());
  CAVEMAN_RETURN_IF_ERROR(s);
  return Json{{"ok", true}, {"settled", true}};
}

Result<Json> act_on_node(Browser& b, const ActRequest& req, const std::string& object_id,
                         Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(auto point, actionable_point(b, req.uid, object_id, deadline));
  Json out = Json{{"ok", true}, {"uid", req.uid}, {"settled", false}, {"note", "dispatched; resnapshot to verify"}};
  if (req.action == "scroll") return out;
  if (req.action == "select") {
    std::string want = req.option.empty() ? req.text : req.option;
    CAVEMAN_ASSIGN_OR_RETURN(Json r, call_on(b, object_id, kSelectOption, Json::array({Json{{"value", want}}}), deadline));
    if (!r.is_object() || r.contains("error")) {
      std::string msg = r.is_object() ? r.value("error", std::string("select failed")) : "select failed";
      if (r.is_object() && r.contains("options")) {
        msg += " \"" + want + "\"; options: ";
        bool first = true;
        for (const Json& o : r["options"]) {
          msg += (first ? "" : ", ") + o.get<std::string>();
          first = false;
        }
      }
      return action_failed(msg);
    }
    out["selected"] = r.value("selected", std::string());
    return out;
  }
  CAVEMAN_RETURN_IF_ERROR(click_at(b, point.first, point.second, deadline));
  if (req.action == "click") return out;
  // type: replace the field's content with the text.
  CAVEMAN_ASSIGN_OR_RETURN(Json kind, call_on(b, object_id, kFocusAndSelectAll, Json::array(), deadline));
  std::string k = kind.is_string() ? kind.get<std::string>() : "other";
  if (k == "readonly") return action_failed("uid " + req.uid + " is read-only");
  if (k != "field") return action_failed("uid " + req.uid + " is not a text field");
  if (req.text.empty()) {
    CAVEMAN_RETURN_IF_ERROR(key(b, "Delete", 46, deadline));
  } else {
    CAVEMAN_RETURN_IF_ERROR(b.cdp().call("Input.insertText", Json{{"text", req.text}}, b.session(), deadline).status());
  }
  return out;
}

}  // namespace

void pump_for(Browser& browser, milliseconds duration) {
  Clock::time_point until = Clock::now() + duration;
  // Nothing matches: this just reads (and hooks) events until the time is up.
  (void)browser.cdp().wait_event([](const CdpMessage&) { return false; }, until);
}

Result<Json> perform_action(Browser& b, const ActRequest& req, const UidTarget& target,
                            Clock::time_point deadline) {
  if (req.action == "navigate") return navigate(b, req.url, deadline);
  if (req.action == "wait" && !req.text.empty()) return wait_for_text(b, req.text, deadline);
  if (req.action == "wait") {
    pump_for(b, kWaitAction);
    if (!b.alive())
      return Status::Unavailable(codes::kBrowserUnavailable, "the browser exited or crashed");
    return Json{{"ok", true}, {"settled", true}};
  }
  Json resolve_params = Json{{"backendNodeId", target.backend_node_id}, {"objectGroup", kObjectGroup}};
  Result<Json> resolved = b.cdp().call_json("DOM.resolveNode", resolve_params, b.session(), deadline);
  if (!resolved.ok()) {
    if (resolved.status().error_code() == codes::kBrowserCdpError) return unknown_uid(req.uid);
    return resolved.status();
  }
  std::string object_id = resolved->value("object", Json::object()).value("objectId", std::string());
  if (object_id.empty()) return unknown_uid(req.uid);
  Result<Json> out = act_on_node(b, req, object_id, deadline);
  if (b.alive()) {
    (void)b.cdp().call("Runtime.releaseObjectGroup", Json{{"objectGroup", kObjectGroup}}, b.session(),
                       Clock::now() + milliseconds(1000));
  }
  return out;
}

}  // namespace caveman::browse
