#!/usr/bin/env bash
# Acceptance 1 (issue 9): `caveman start` serves /health/ready, stops cleanly (exit 0) on
# SIGTERM and removes its run-state; a second `start` on a taken port (by the proxy or by a
# foreign process) fails clearly with exit 1; a corrupt caveman.yaml names line and column.
set -euo pipefail
bin=${CAVEMAN_BIN_DIR:?}
work=$(mktemp -d /tmp/caveman-cli-start-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
# GET a URL (curl is not a bootstrap package); non-zero exit when nothing answers 2xx.
http_get() { python3 -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' "$1" 2>/dev/null; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

export HOME=$work/home CAVEMAN_HOME=$work/home/.caveman PATH=/usr/bin:/bin
unset CAVEMAN_LISTEN CAVEMAN_CONFIG CAVEMAN_MODE
mkdir -p "$HOME"
port=$(free_port)

"$bin/caveman" start --port "$port" >"$work/start.out" 2>"$work/start.err" &
start_pid=$!
pids+=("$start_pid")
for _ in $(seq 1 100); do
  http_get "http://127.0.0.1:$port/health/ready" >"$work/health" && break
  sleep 0.1
done
grep -q '"caveman-proxy"' "$work/health" || fail "no /health/ready: $(cat "$work/start.err")"
grep -q "http://127.0.0.1:$port" "$work/start.out" || fail "start did not print the URL: $(cat "$work/start.out")"
grep -q "caveman wrap claude" "$work/start.out" || fail "start did not say how to point an agent"
[[ -f $CAVEMAN_HOME/run/$port.json ]] || fail "no run-state file"
grep -q '"owner":"start"' "$CAVEMAN_HOME/run/$port.json" || fail "run-state owner is not start"

# A second start on the same port fails clearly and leaves the first one alone.
set +e
timeout 20 "$bin/caveman" start --port "$port" >"$work/second.out" 2>"$work/second.err"
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "second start exit $rc (want 1)"
grep -q "cave_port_in_use" "$work/second.err" || fail "unclear message: $(cat "$work/second.err")"
grep -q "a Caveman proxy is already listening" "$work/second.err" || fail "did not name the holder"
http_get "http://127.0.0.1:$port/health/ready" >/dev/null || fail "first proxy hurt by the second start"

# SIGTERM to caveman is forwarded; the proxy shuts down cleanly and caveman exits 0.
kill -TERM "$start_pid"
set +e
wait "$start_pid"
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "start exited $rc after SIGTERM (want 0): $(tail -3 "$work/start.err")"
[[ ! -f $CAVEMAN_HOME/run/$port.json ]] || fail "run-state left behind"
if http_get "http://127.0.0.1:$port/health/ready" >/dev/null; then fail "still listening"; fi

# A foreign process on the port: clear message, exit 1.
python3 -c 'import socket,sys,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1",int(sys.argv[1]))); s.listen(); time.sleep(60)' "$port" &
pids+=("$!")
for _ in $(seq 1 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
set +e
timeout 20 "$bin/caveman" start --port "$port" >/dev/null 2>"$work/foreign.err"
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "start on a foreign port exit $rc (want 1)"
grep -q "in use by another process" "$work/foreign.err" || fail "foreign message: $(cat "$work/foreign.err")"

# Corrupt caveman.yaml: line and column in the error, exit 1.
printf 'mode: compress\nlisten: [oops\n' >"$CAVEMAN_HOME/caveman.yaml"
set +e
timeout 20 "$bin/caveman" start --port "$(free_port)" >/dev/null 2>"$work/yaml.err"
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "corrupt yaml exit $rc"
grep -q "line" "$work/yaml.err" && grep -q "column" "$work/yaml.err" || fail "yaml error: $(cat "$work/yaml.err")"
echo "ok: caveman start (ready, SIGTERM exit 0, taken port, foreign port, corrupt yaml)"
