#!/usr/bin/env python3
"""Compile cost of a build tree in CPU seconds (user + system of the compiler and linker
processes), comparable between commits on one machine, unlike wall time (issue 40, scope 5).

  scripts/compile_cost.py PRESET [--targets T ...] [--build-dir DIR] [--jobs N] [--top N] [--json FILE]
  scripts/compile_cost.py --report LOG [--top N]          summarise a log written earlier
  scripts/compile_cost.py --calibrate                     only the reference compile (below)
  scripts/compile_cost.py --sum DIR...                    the trees' totals and their sum
  make compile-cost                                       the three trees as `make test` builds them

Configures the preset into a fresh build directory (default build/cost-PRESET, removed first)
with this script as the compiler and linker launcher instead of ccache, builds it (or only the
targets given, as `make test` does for the TSan tree) with `nice -n 10`, and prints the CPU
seconds of every compile and link, the sum per component and the translation units that
dominate. Each launch records the rusage of its own child (os.wait4), so the figure excludes
the launcher, ninja and CMake, and is the same whether the build ran with -j1 or -j2. A busy
machine inflates it (shared caches and cores: +40–60% at load 9 on the 2-core machine), so the
build is bracketed by a reference compile, a fixed program of standard headers compiled by g++
-O2 three times before and after: compare trees as CPU seconds / reference seconds when the
machine's load differs between the runs.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def launch(log, argv):
    """Runs one compiler or linker command and appends {out, user, sys, wall, link} to log."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    out = argv[argv.index("-o") + 1] if "-o" in argv else "?"
    src = next((a for a in reversed(argv) if a.endswith((".cpp", ".cc", ".c"))), "")
    rec = {"out": out, "src": os.path.relpath(src, ROOT) if src else "", "user": round(ru.ru_utime, 3),
           "sys": round(ru.ru_stime, 3), "wall": round(wall, 3), "maxrss_kib": ru.ru_maxrss,
           "link": "-c" not in argv, "rc": code}
    with open(log, "a", encoding="utf-8") as f:  # one short O_APPEND write per process
        f.write(json.dumps(rec) + "\n")
    return code


REFERENCE = r"""
#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>
int main(int argc, char** argv) {
  std::map<std::string, std::vector<std::regex>> rules;
  std::unordered_map<std::string, int> counts;
  for (int i = 1; i < argc; ++i) rules[argv[i]].emplace_back(argv[i], std::regex::ECMAScript);
  std::vector<std::string> words;
  std::istringstream in(argc > 1 ? argv[1] : "a b c");
  for (std::string w; in >> w;) words.push_back(w), ++counts[w];
  std::sort(words.begin(), words.end());
  std::ostringstream out;
  for (const auto& [k, v] : rules)
    for (const auto& re : v) out << k << std::regex_search(k, re) << counts[k];
  return static_cast<int>(out.str().size() + words.size());
}
"""


def calibrate(rounds=3):
    """CPU seconds of the reference compile: the median of `rounds` runs of g++ -O2."""
    import tempfile
    times = []
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "reference.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write(REFERENCE)
        for _ in range(rounds):
            proc = subprocess.Popen(["nice", "-n", "10", "c++", "-std=c++20", "-O2", "-c", src, "-o",
                                     os.path.join(d, "reference.o")])
            _, _, ru = os.wait4(proc.pid, 0)
            times.append(ru.ru_utime + ru.ru_stime)
    times.sort()
    return round(times[len(times) // 2], 3)


def component(rec):
    """The top-level directory a compile belongs to (tests/unit/<area> kept apart)."""
    path = rec["src"] or rec["out"]
    if rec["link"]:
        return "link"
    if path.startswith("build/") or path.startswith("/"):
        return "generated"
    parts = path.split("/")
    if parts[0] == "tests" and len(parts) > 2:
        return "/".join(parts[:3]) if parts[1] == "unit" else "/".join(parts[:2])
    return parts[0]


# Headers that make a translation unit expensive (header-only libraries and big templates).
HEAVY_HEADERS = {
    "CLI11": "/CLI/CLI.hpp", "cpp-httplib": "/httplib.h", "nlohmann_json": "/nlohmann/json.hpp",
    "spdlog": "/spdlog/spdlog.h", "yaml-cpp": "/yaml-cpp/yaml.h", "SQLiteCpp": "/SQLiteCpp/SQLiteCpp.h",
    "gtest": "/gtest/gtest.h", "gmock": "/gmock/gmock.h", "<regex>": "/c++/12/regex",
}


def header_deps(build):
    """{object path: set of headers} from ninja's deps log (empty when unavailable)."""
    try:
        out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    deps, cur = {}, None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            cur = line.split(": #deps")[0]
            deps[cur] = set()
        elif cur and line.strip():
            deps[cur].add(line.strip())
    return deps


def report(log, top, out_json=None, meta=None):
    recs = [json.loads(line) for line in open(log, encoding="utf-8") if line.strip()]
    cpu = lambda r: r["user"] + r["sys"]  # noqa: E731
    compiles = [r for r in recs if not r["link"]]
    links = [r for r in recs if r["link"]]
    total = sum(cpu(r) for r in recs)
    comp_total = sum(cpu(r) for r in compiles)
    link_total = sum(cpu(r) for r in links)
    print(f"{len(compiles)} compiles {comp_total:.0f} s + {len(links)} links {link_total:.0f} s = "
          f"{total:.0f} CPU s (user {sum(r['user'] for r in recs):.0f}, sys {sum(r['sys'] for r in recs):.0f})")
    by = defaultdict(lambda: [0, 0.0])
    for r in recs:
        k = component(r)
        by[k][0] += 1
        by[k][1] += cpu(r)
    print("\nper component (CPU s, share):")
    for k, (n, s) in sorted(by.items(), key=lambda kv: -kv[1][1]):
        print(f"  {k:28s} {n:4d} {s:8.1f}  {100 * s / total:5.1f}%")
    tests = sum(cpu(r) for r in compiles if r["src"].startswith("tests/unit/"))
    test_links = sum(cpu(r) for r in links if "_tests" in os.path.basename(r["out"]))
    print(f"\nunit-test sources {tests:.0f} s + unit-test links {test_links:.0f} s = "
          f"{100 * (tests + test_links) / total:.1f}% of the tree")
    print(f"\ntop {top} translation units (CPU s, peak RSS MiB):")
    for r in sorted(compiles, key=cpu, reverse=True)[:top]:
        print(f"  {cpu(r):6.1f}  {r['maxrss_kib'] // 1024:5d}  {r['src'] or r['out']}")
    deps = header_deps(os.path.dirname(os.path.abspath(log)))
    heavy = {}
    if deps:
        print("\ntranslation units including a heavy header (directly or not): count, their CPU s, share")
        for name, suffix in HEAVY_HEADERS.items():
            with_h = [r for r in compiles if any(h.endswith(suffix) for h in deps.get(r["out"], ()))]
            s = sum(cpu(r) for r in with_h)
            heavy[name] = {"tus": len(with_h), "cpu_s": round(s, 1)}
            print(f"  {name:14s} {len(with_h):4d} {s:8.1f}  {100 * s / total:5.1f}%")
    print(f"\ntop {min(top, 10)} links:")
    for r in sorted(links, key=cpu, reverse=True)[:min(top, 10)]:
        print(f"  {cpu(r):6.1f}  {r['maxrss_kib'] // 1024:5d}  {r['out']}")
    if out_json:
        summary = dict(meta or {}, compiles=len(compiles), compile_cpu_s=round(comp_total, 1), links=len(links),
                       link_cpu_s=round(link_total, 1), total_cpu_s=round(total, 1),
                       unit_test_cpu_s=round(tests + test_links, 1),
                       components={k: round(s, 1) for k, (_, s) in by.items()}, heavy_headers=heavy,
                       top=[{"src": r["src"] or r["out"], "cpu_s": round(cpu(r), 1)}
                            for r in sorted(compiles, key=cpu, reverse=True)[:top]])
        with open(out_json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--launch":
        sys.exit(launch(sys.argv[2], sys.argv[3:]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("preset", nargs="?")
    ap.add_argument("--targets", nargs="*", default=[])
    ap.add_argument("--build-dir")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json")
    ap.add_argument("--report", metavar="LOG")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--sum", nargs="+", metavar="DIR")
    a = ap.parse_args()
    if a.sum:
        grand = 0.0
        for d in a.sum:
            with open(os.path.join(d, "compile_cost.json"), encoding="utf-8") as f:
                j = json.load(f)
            grand += j["total_cpu_s"]
            print(f"{j.get('preset', d):8s} {j['total_cpu_s']:8.1f} CPU s ({j['compiles']} compiles, {j['links']} links; "
                  f"reference {j.get('reference_s')}, load at the end {j.get('load_end')}, at {j.get('commit')})")
        print(f"{'sum':8s} {grand:8.1f} CPU s")
        return
    if a.calibrate:
        print(f"reference compile: {calibrate()} CPU s, 1-min load {os.getloadavg()[0]:.2f}")
        return
    if a.report:
        report(a.report, a.top, a.json)
        return
    if not a.preset:
        ap.error("a preset (release, fuzz, tsan, ...) or --report LOG")
    build = os.path.abspath(a.build_dir or os.path.join(ROOT, "build", f"cost-{a.preset}"))
    if not os.path.relpath(build, ROOT).startswith("build" + os.sep):
        ap.error("the build directory must be under build/ (it is removed first)")
    shutil.rmtree(build, ignore_errors=True)
    os.makedirs(build)
    log = os.path.join(build, "compile_cost.jsonl")
    launcher = f"{sys.executable};{os.path.abspath(__file__)};--launch;{log}"
    env = dict(os.environ, CCACHE_DISABLE="1")
    subprocess.run(["cmake", "--preset", a.preset, "-B", build, f"-DCMAKE_C_COMPILER_LAUNCHER={launcher}",
                    f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}", f"-DCMAKE_CXX_LINKER_LAUNCHER={launcher}",
                    f"-DCMAKE_C_LINKER_LAUNCHER={launcher}"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    ref_before = calibrate()
    t0 = time.monotonic()
    cmd = ["nice", "-n", "10", "cmake", "--build", build, "-j", str(a.jobs)]
    for t in a.targets:
        cmd += ["--target", t]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    ref_after = calibrate()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    load = os.getloadavg()
    print(f"{a.preset} at {commit}{' targets ' + ' '.join(a.targets) if a.targets else ''}: "
          f"build {wall:.0f} s wall with -j{a.jobs}, 1-min load at the end {load[0]:.2f}; "
          f"reference compile {ref_before} s before, {ref_after} s after")
    report(log, a.top, a.json or os.path.join(build, "compile_cost.json"),
           {"preset": a.preset, "commit": commit, "targets": a.targets, "wall_s": round(wall, 1),
            "jobs": a.jobs, "load_end": round(load[0], 2), "reference_s": [ref_before, ref_after]})


if __name__ == "__main__":
    main()
