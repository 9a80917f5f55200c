#!/usr/bin/env python3
"""The npm launcher's signal rules (npm/caveman/lib/launch.mjs), with a stand-in binary.

CAVEMAN_SHRINK_BIN points the caveman-shrink launcher at a Python script that counts the SIGINTs
it receives. Under a terminal (a pty), Ctrl-C reaches the binary once — from the terminal, which
signals the whole foreground process group; the launcher does not add a second copy (Claude Code
under an interactive `caveman wrap claude` would read two Ctrl-C as "exit"). Without a terminal,
a SIGINT or SIGTERM sent to the launcher's pid is forwarded once, and the launcher's exit status
follows the binary's. Also: piped stdin written in pieces reaches the binary whole (the launcher
never touches process.stdin, which would set O_NONBLOCK on the fd it shares with the binary).
"""
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCHER = os.path.normpath(os.path.join(HERE, "../../../npm/caveman/bin/caveman-shrink.mjs"))
STANDIN = r"""#!/usr/bin/env python3
import os, signal, sys
if sys.argv[1:] == ["count"]:
    print(len(sys.stdin.buffer.read()), flush=True)
    sys.exit(0)
# One byte per delivered signal through the wakeup fd (Python-level handlers would merge two
# SIGINTs that arrive a millisecond apart).
r, w = os.pipe()
os.set_blocking(w, False)
signal.set_wakeup_fd(w)
signal.signal(signal.SIGINT, lambda s, f: None)
signal.signal(signal.SIGTERM, lambda s, f: None)
os.write(1, b"ready\n")
while True:
    for b in os.read(r, 64):
        if b == signal.SIGINT:
            os.write(1, b"INT\n")
        elif b == signal.SIGTERM:
            os.write(1, b"TERM\n")
            os._exit(143)
"""
failures = 0


def check(cond, message):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {message}")


def read_until(fd_read, want, timeout=15.0):
    buf, end = b"", time.time() + timeout
    while time.time() < end and want not in buf:
        r, _, _ = select.select([fd_read], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd_read, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def drain(fd_read, seconds):
    buf, end = b"", time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd_read], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd_read, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def main():
    work = tempfile.mkdtemp(prefix="caveman-launcher-signals-")
    standin = os.path.join(work, "standin.sh")
    with open(standin, "w") as f:
        f.write(STANDIN)
    os.chmod(standin, 0o755)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": work, "CAVEMAN_SHRINK_BIN": standin}

    # 1. A terminal: Ctrl-C typed once reaches the binary once.
    pid, master = pty.fork()
    if pid == 0:
        os.execvpe("node", ["node", LAUNCHER], env)
    out = read_until(master, b"ready")
    check(b"ready" in out, f"stand-in started under a pty: {out!r}")
    os.write(master, b"\x03")
    out = drain(master, 1.5)
    check(out.count(b"INT") == 1, f"one Ctrl-C on a terminal → the binary sees one SIGINT: {out!r}")
    os.kill(pid, signal.SIGTERM)
    out = drain(master, 1.5)
    _, status = os.waitpid(pid, 0)
    check(out.count(b"TERM") == 1, f"SIGTERM to the launcher forwarded once under a pty: {out!r}")
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 143,
          f"the launcher exits with the binary's code 143 (status {status})")
    os.close(master)

    # 2. No terminal: SIGINT to the launcher's pid is forwarded once; SIGTERM too.
    p = subprocess.Popen(["node", LAUNCHER], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         start_new_session=True)
    out = read_until(p.stdout.fileno(), b"ready")
    check(b"ready" in out, f"stand-in started with pipes: {out!r}")
    p.send_signal(signal.SIGINT)
    out = drain(p.stdout.fileno(), 1.5)
    check(out.count(b"INT") == 1, f"SIGINT to the launcher (no terminal) forwarded once: {out!r}")
    p.send_signal(signal.SIGTERM)
    out = drain(p.stdout.fileno(), 1.5)
    check(p.wait(timeout=10) == 143 and out.count(b"TERM") == 1,
          f"SIGTERM forwarded, exit 143 (got {p.returncode}, {out!r})")

    # 3. A piped stdin reaches the binary whole, written in pieces after it started (a launcher
    # that touched process.stdin after the spawn made the shared fd non-blocking: EAGAIN).
    p = subprocess.Popen(["node", LAUNCHER, "count"], env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(3):
            time.sleep(0.3)
            p.stdin.write(b"x" * 1000)
            p.stdin.flush()
        p.stdin.close()
    except BrokenPipeError:
        pass
    out, err = p.stdout.read(), p.stderr.read()
    p.wait(timeout=30)
    check(out.strip() == b"3000", f"3,000 piped bytes reach the binary: {out!r} {err[-300:]!r}")

    subprocess.run(["rm", "-rf", work], check=False)
    if failures:
        print(f"launcher signals: {failures} failure(s)")
        return 1
    print("ok: launcher signals (one Ctrl-C on a terminal, forwarding without one, whole stdin)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
