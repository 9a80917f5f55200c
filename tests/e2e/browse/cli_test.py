#!/usr/bin/env python3
"""caveman-browse direct CLI (docs/browse.md#direct-cli) with the real Chromium, pages on loopback.

Successive invocations share one detached browser through <CAVEMAN_HOME>/browse-session.json
(mode 0600): snapshot <url> → act <uid> type → eval → snapshot <query> → recover <handle>
(byte-exact: SHA-256 prefix = handle) → a stale uid after navigation (exit 1,
cave_unknown_uid) → usage errors (exit 2) → the shared browser killed from outside is replaced
on the next call → close (exit 0; no browser process left, state removed) → close again.
Also the MCP server attached to that browser through CAVEMAN_BROWSE_CDP (WebSocket client).
"""
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

BIN = os.path.join(os.environ.get("CAVEMAN_BIN_DIR", "../../build/release/bin"), "caveman-browse")
SRC = os.environ.get("CAVEMAN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PAGES = os.path.join(SRC, "tests", "testdata", "browse")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, file=sys.stderr)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=PAGES))
threading.Thread(target=httpd.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d" % httpd.server_address[1]

home = tempfile.mkdtemp(prefix="caveman-browse-cli-")
cave_home = os.path.join(home, ".caveman")
env = dict(os.environ, HOME=home, CAVEMAN_HOME=cave_home, TMPDIR=home, CAVEMAN_BROWSE_EPHEMERAL="0")
env.pop("CAVEMAN_BROWSE_CDP", None)
state_path = os.path.join(cave_home, "browse-session.json")


def run(*args, timeout=60):
    r = subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def ours():
    """Live processes whose command line names our home (the browser's profile is in it)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open("/proc/%s/cmdline" % pid, "rb").read().replace(b"\0", b" ").decode(errors="replace")
            stat = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if home in cmd and stat != "Z":
            found.append((int(pid), cmd[:160]))
    return found


def wait_gone(seconds=10):
    until = time.time() + seconds
    while ours() and time.time() < until:
        time.sleep(0.1)
    return ours()


def uid(outline, role, name):
    m = re.search(r"\[(u[0-9a-z_]+)\] %s \"%s\"" % (role, re.escape(name)), outline)
    return m.group(1) if m else None


try:
    rc, out, err = run("snapshot", base + "/agent_checkout.html")
    check(rc == 0, "snapshot: rc %d %s" % (rc, err))
    email = uid(out, "textbox", "Email")
    check(email is not None, "Email textbox uid in:\n" + out)
    check(re.search(r"^# recovery_handle=ccr_[0-9a-f]{32} ", out, re.M) is not None, "handle line")
    check(os.stat(state_path).st_mode & 0o777 == 0o600, "state file is 0600")
    state = json.load(open(state_path))
    check(state["owned"] is True and state["endpoint"].startswith("http://127.0.0.1:"), "state: %s" % state)
    first_pid = state["pid"]

    rc, out, err = run("act", email or "u1", "type", "grace@example.com")
    # Like browser_act, the answer is what changed since the latest snapshot.
    check(rc == 0 and ('textbox "Email" = "grace@example.com"' in json.loads(out).get("changes", "")),
          "act type answers the change: %d %s %s" % (rc, out, err))
    rc, out, err = run("eval", "document.querySelector('#email').value")
    check(rc == 0 and json.loads(out) == {"result": "grace@example.com"}, "eval: %s %s" % (out, err))
    check(json.load(open(state_path))["pid"] == first_pid, "the same browser served every call")

    rc, out, err = run("snapshot", "Email")
    check(rc == 0 and 'textbox "Email" = "grace@example.com"' in out and "Save order" not in out,
          "focused snapshot of the current page:\n" + out + err)
    handle = re.search(r"recovery_handle=(ccr_[0-9a-f]{32})", out).group(1)
    rc, raw, err = run("recover", handle)
    check(rc == 0 and "ccr_" + hashlib.sha256(raw.encode()).hexdigest()[:32] == handle, "recover is byte-exact")
    check(json.loads(raw)["nodes"], "recover gives the raw AX JSON")
    rc, out, err = run("snapshot", base + "/order_dashboard.html", "ORD-0042", "--json")
    payload = json.loads(out)
    check(rc == 0 and "Review ORD-0042" in payload["uids"] and payload["tokens_after"] < 200, "--json payload: " + out[:300])
    rc, out, err = run("act", email or "u1", "click")
    check(rc == 1 and "cave_unknown_uid" in err, "stale uid: %d %s" % (rc, err))
    rc, out, err = run("recover", "ccr_00000000000000000000000000000000")
    check(rc == 1 and "cave_unknown_handle" in err, "unknown handle: %d %s" % (rc, err))
    rc, out, err = run("snapshot", "file:///etc/passwd")
    check(rc == 1 and "cave_browser_url_denied" in err, "url policy: %d %s" % (rc, err))
    for bad in (["frobnicate"], ["act", "u1"], ["close", "now"]):
        rc, out, err = run(*bad)
        check(rc == 2 and "usage" in err, "usage error %s: %d %s" % (bad, rc, err))

    # The MCP server attached to that same browser over its WebSocket (CAVEMAN_BROWSE_CDP):
    # it works in a page of its own and leaves the browser running when it exits.
    mcp_env = dict(env, CAVEMAN_BROWSE_CDP=state["endpoint"], CAVEMAN_BROWSE_EPHEMERAL="1")
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "browser_snapshot", "arguments": {"url": base + "/login.html"}}},
    ]
    r = subprocess.run([BIN], env=mcp_env, input="".join(json.dumps(m) + "\n" for m in msgs),
                       capture_output=True, text=True, timeout=60)
    replies = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    snap = next((m for m in replies if m.get("id") == 2), {})
    text = snap.get("result", {}).get("content", [{}])[0].get("text", "")
    outline = json.loads(text).get("uids", "") if text.startswith("{") else ""
    check(r.returncode == 0 and 'button "Sign in"' in outline and not snap["result"].get("isError"),
          "MCP over CAVEMAN_BROWSE_CDP: %s %s" % (text[:300], r.stderr[-500:]))
    rc, out, err = run("eval", "location.pathname")
    check(rc == 0 and json.loads(out) == {"result": "/order_dashboard.html"} and
          json.load(open(state_path))["pid"] == first_pid, "attached server left the browser and our page alone: " + out + err)

    # The shared browser dies behind our back: the next call launches a new one.
    os.killpg(first_pid, signal.SIGKILL)
    check(wait_gone() == [], "killed browser gone")
    rc, out, err = run("snapshot", base + "/dialogs.html")
    check(rc == 0 and "Show alert" in out, "relaunch after the browser died: %d %s" % (rc, err))
    check(json.load(open(state_path))["pid"] != first_pid, "a new browser")

    rc, out, err = run("close")
    check(rc == 0 and "closed the browser" in out, "close: %d %s %s" % (rc, out, err))
    left = wait_gone()
    check(left == [], "no browser process left after close: %s" % left)
    check(not os.path.exists(state_path), "state removed")
    rc, out, err = run("close")
    check(rc == 0 and "no browser session" in out, "close again: %s" % out)
    # TMPDIR is the home: Chromium's org.chromium.Chromium.* temp dirs must not be left there.
    stray = [n for n in os.listdir(home) if n.startswith(("org.chromium.", "caveman-browse-", "cvb-"))]
    check(stray == [], "nothing left in TMPDIR: %s" % stray)
finally:
    for pid, _ in ours():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    httpd.shutdown()
    shutil.rmtree(home, ignore_errors=True)

if failures:
    print("caveman-browse CLI: %d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("ok: caveman-browse CLI")
