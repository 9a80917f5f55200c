#!/usr/bin/env python3
"""caveman-shrink -- <cmd>: noisy command output, as an agent runs it (issue 10, acceptance 2).

- `sh -c 'printf …; exit 3'` exits 3 and keeps its error lines;
- a real noisy build: g++ on a file with deliberate errors — exit code 1, every `error:` line
  and the last 20 lines survive, the output costs no more tokens (compiler diagnostics get
  lossless views only, docs/engine.md), and `recover` returns g++'s exact bytes;
- a command that does not exist → 127 with a clear message; not executable → 126;
- killed by a signal → 128+N; binary output is not printed but recoverable;
- output that never ends (`yes`) is stopped at the cap and stored; `--full` prints the exact
  output; `--shell` runs a shell only when asked.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-shrink")
failures = []
home = tempfile.mkdtemp(prefix="caveman-shrink-cmd-e2e-")
ENV = dict(os.environ, CAVEMAN_CCR_DB=os.path.join(home, "ccr.db"), LC_ALL="C.UTF-8")
FOOTER = re.compile(r"^\[caveman-shrink\] exit (\d+)(?: \(([^)]*)\))? · (.*)$")


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


def shrink(args, cwd=None, timeout=120):
    return subprocess.run([BIN] + args, capture_output=True, env=ENV, cwd=cwd, timeout=timeout)


def footer(stdout):
    lines = stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
    m = FOOTER.match(lines[-1])
    return m, lines[:-1]


def handle_of(stdout):
    m = re.search(rb"caveman-shrink recover (ccr_[0-9a-f]{32})\n$", stdout)
    return m.group(1).decode() if m else None


def recover(handle):
    return shrink(["recover", handle]).stdout


# 1. printf + exit 3
r = shrink(["--", "sh", "-c", "printf 'compiling a.c\\nwarning: unused x\\nerror: a.c:3: expected ;\\n'; exit 3"])
check(r.returncode == 3, "printf/exit 3: exit code %d" % r.returncode)
check(b"error: a.c:3: expected ;\n" in r.stdout, "printf/exit 3: error line missing: %r" % r.stdout)
m, _ = footer(r.stdout)
check(m is not None and m.group(1) == "3", "printf/exit 3: footer %r" % r.stdout[-200:])

# 2. a real noisy build
work = tempfile.mkdtemp(prefix="caveman-shrink-gxx-")
with open(os.path.join(work, "broken.cpp"), "w") as f:
    f.write("#include <iostream>\n#include <map>\n#include <string>\n#include <vector>\n"
            "int main() {\n"
            "  std::map<std::string, std::vector<int>> m;\n"
            "  m[\"a\"].push_back(\"not an int\");\n"
            "  std::cout << m << std::endl;\n"
            "  return undefined_variable;\n"
            "}\n")
gxx = ["g++", "-std=c++17", "-fdiagnostics-color=never", "-c", "broken.cpp", "-o", "/dev/null"]
direct = subprocess.run(gxx, cwd=work, capture_output=True, env=ENV)
raw = direct.stdout + direct.stderr
check(direct.returncode == 1 and len(raw.splitlines()) > 100, "g++ is not noisy here (%d lines)" % len(raw.splitlines()))
r = shrink(["--"] + gxx, cwd=work)
check(r.returncode == 1, "g++: exit code %d" % r.returncode)
shown = r.stdout
m, body = footer(shown)
check(m is not None, "g++: no footer")
for line in raw.decode().splitlines():
    if "error:" in line:
        check(line.encode() + b"\n" in shown, "g++: error line lost: %s" % line)
for line in [l for l in raw.decode().splitlines() if l.strip()][-20:]:
    check(line.encode() + b"\n" in shown, "g++: tail line lost: %s" % line)
check(b"'undefined_variable' was not declared" in shown or "‘undefined_variable’ was not declared".encode() in shown,
      "g++: the undeclared-variable error is missing")
h = handle_of(shown)
check(h is not None, "g++: no handle in footer")
if h:
    check(recover(h) == raw, "g++: recover is not g++'s exact output")
tokens = re.search(r"(\d+) → (\d+) tokens", m.group(3)) if m else None
check(tokens is not None and int(tokens.group(2)) <= int(tokens.group(1)), "g++: footer token counts %r" % (m and m.group(3)))
if tokens:
    print("g++ noisy build: %d bytes -> %d bytes, %s -> %s o200k tokens" % (len(raw), len(shown), tokens.group(1), tokens.group(2)))
shutil.rmtree(work, ignore_errors=True)

# 3. missing / not executable
r = shrink(["--", "caveman-no-such-command-xyz", "--flag"])
check(r.returncode == 127, "missing command: exit %d" % r.returncode)
check(b"cave_command_not_found: caveman-no-such-command-xyz: command not found" in r.stderr, "missing command: message %r" % r.stderr)
check(r.stdout == b"", "missing command: stdout %r" % r.stdout)
noexec = os.path.join(home, "noexec.sh")
with open(noexec, "w") as f:
    f.write("#!/bin/sh\necho hi\n")
r = shrink(["--", noexec])
check(r.returncode == 126 and b"cave_command_not_executable" in r.stderr, "not executable: exit %d %r" % (r.returncode, r.stderr))

# 4. killed by a signal
r = shrink(["--", "sh", "-c", "echo about to die; kill -KILL $$"])
check(r.returncode == 137, "SIGKILL: exit %d" % r.returncode)
check(b"about to die\n" in r.stdout and b"killed by SIGKILL" in r.stdout, "SIGKILL: output %r" % r.stdout)
r = shrink(["--", "sh", "-c", "kill -SEGV $$"])
check(r.returncode == 139, "SIGSEGV: exit %d" % r.returncode)

# 5. binary output
r = shrink(["--", "head", "-c", "20000", "/bin/ls"])
check(r.returncode == 0, "binary: exit %d" % r.returncode)
check(r.stdout.startswith(b"[caveman-shrink: binary output, 20000 bytes, not shown]\n"), "binary: %r" % r.stdout[:100])
h = handle_of(r.stdout)
with open("/bin/ls", "rb") as f:
    check(h is not None and recover(h) == f.read(20000), "binary: recover is not exact")

# 6. output that never ends: stopped at 4 × --max-bytes, stored, exit 128+SIGTERM
r = shrink(["--max-bytes", "65536", "--", "yes", "caveman"], timeout=60)
m, body = footer(r.stdout)
check(r.returncode == 143, "yes: exit %d" % r.returncode)
check(m is not None and "stopped by caveman-shrink after 262144 bytes" in (m.group(2) or ""), "yes: footer %r" % r.stdout[-300:])
check(len(r.stdout) < 4096, "yes: printed %d bytes" % len(r.stdout))
h = handle_of(r.stdout)
check(h is not None and recover(h) == b"caveman\n" * (262144 // 8), "yes: stored capture is not the first 262144 bytes")

# 7. --full and --shell
r = shrink(["--full", "--", "sh", "-c", "seq 1 5000; echo oops >&2; exit 7"])
check(r.returncode == 7, "--full: exit %d" % r.returncode)
check(r.stdout == "".join("%d\n" % i for i in range(1, 5001)).encode() + b"oops\n", "--full: output is not exact")
r = shrink(["--", "echo", "a", "&&", "echo", "b"])
check(r.stdout.startswith(b"a && echo b\n"), "no shell unless asked: %r" % r.stdout)
r = shrink(["--shell", "--", "echo", "a", "&&", "echo", "b"])
check(r.stdout.startswith(b"a\nb\n"), "--shell: %r" % r.stdout)

# 8. a long successful log is compressed and recoverable
script = "for i in $(seq 1 400); do echo \"[INFO] 2026-01-01 12:00:00 step $i done\"; done; echo '[ERROR] step 401 failed'; exit 1"
r = shrink(["--", "sh", "-c", script])
raw = subprocess.run(["sh", "-c", script], capture_output=True).stdout
check(r.returncode == 1 and b"[ERROR] step 401 failed\n" in r.stdout, "log: error line or exit code lost")
check(len(r.stdout) < len(raw) / 4, "log: %d -> %d bytes" % (len(raw), len(r.stdout)))
h = handle_of(r.stdout)
check(h is not None and recover(h) == raw, "log: recover is not exact")

shutil.rmtree(home, ignore_errors=True)
if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("ok: caveman-shrink -- <cmd> keeps exit codes, error lines and recoverable originals")
