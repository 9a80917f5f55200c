"""Compiler diagnostics: g++ and clang++ on seeded template errors, and a C project built with
make, and with cmake + ninja, carrying seeded faults. The compilers write every byte."""
from __future__ import annotations

from .common import Context, Source

NAMES = ["Order", "Point", "Ledger", "Sample", "Packet", "Tile", "Quote", "Span", "Record", "Frame",
         "Track", "Bucket", "Shard", "Event", "Token", "Route"]
FIELDS = ["id", "weight", "price", "offset", "count", "label", "stamp", "depth", "rank", "score"]

# Each fault is C++ text that does not compile; {T} is a struct, {f} one of its fields.
CXX_FAULTS = [
    "std::map<std::string, std::vector<{T}>> by_name; by_name[\"a\"].push_back(1);",
    "std::vector<{T}> v; std::sort(v.begin(), v.end());",
    "std::set<{T}> s; s.insert({T}{{}});",
    "std::unique_ptr<{T}> p = std::make_unique<{T}>(); auto q = p;",
    "std::vector<std::pair<int, {T}>> v; v.emplace_back(\"x\", 2, 3);",
    "std::function<int({T}&)> g = [](const {T}& t) {{ return t.missing_{f}; }};",
    "std::optional<{T}> o; int n = o->{f} + o.value().nope;",
    "std::unordered_map<{T}, int> h; h[{T}{{}}] = 1;",
    "std::array<{T}, 3> a{{}}; std::string s = a[0];",
    "auto it = std::find_if(items.begin(), items.end(), [](int x) {{ return x > 2; }});",
    "std::variant<int, {T}> var; auto& r = std::get<double>(var);",
    "std::shared_ptr<const {T}> c = std::make_shared<{T}>(); c->{f} = 3;",
]


def _cxx_program(rng, n_faults: int) -> str:
    types = rng.sample(NAMES, 3)
    lines = ["#include <algorithm>", "#include <array>", "#include <functional>", "#include <map>",
             "#include <memory>", "#include <optional>", "#include <set>", "#include <string>",
             "#include <unordered_map>", "#include <variant>", "#include <vector>", ""]
    for t in types:
        fields = rng.sample(FIELDS, 3)
        lines.append(f"struct {t} {{ " + " ".join(f"int {f} = 0;" for f in fields) + " };")
    lines.append("")
    for i, fault in enumerate(rng.sample(CXX_FAULTS, n_faults)):
        t = rng.choice(types)
        lines.append(f"void step_{i}(std::vector<{t}>& items) {{")
        lines.append("  " + fault.format(T=t, f=rng.choice(FIELDS)))
        lines.append("}")
    lines.append("int main() { return 0; }")
    return "\n".join(lines) + "\n"


def cxx_diagnostics(ctx: Context, compiler: str, family: str, n: int) -> list[Source]:
    if not ctx.have(compiler):
        return []
    rng = ctx.fork(family)
    out = []
    d = ctx.work / family
    d.mkdir(exist_ok=True)
    for i in range(n):
        src = d / f"unit_{i}.cpp"
        src.write_text(_cxx_program(rng, rng.randint(1, 4)))
        std = rng.choice(["-std=c++17", "-std=c++20"])
        text = ctx.sh(f"{compiler} {std} -Wall -Wextra -c {src.name} -o /dev/null", cwd=d)
        out.append(Source(family, f"{compiler} -c {src.name}", text, ("diagnostics",)))
    return out


C_FAULTS = [
    ("int {fn}(int x) {{ return x * 2 }}", "missing semicolon"),
    ("int {fn}(int x) {{ return undeclared_{fn}(x); }}", "implicit declaration"),
    ("int {fn}(int x) {{ int unused = x; return 0; }}", "unused variable"),
    ("int {fn}(int *p) {{ char *c = p; return *c; }}", "incompatible pointer"),
    ("int {fn}(int x) {{ if (x = 3) return 1; return 0; }}", "assignment in condition"),
    ("extern int missing_{fn}(void);\nint {fn}(int x) {{ return missing_{fn}() + x; }}", "undefined reference"),
    ("int {fn}(unsigned u) {{ int s = -1; return u < s; }}", "sign compare"),
    ("int {fn}(const char *s) {{ char buf[4]; sprintf(buf, \"%d-%s\", 1234, s); return buf[0]; }}", "overflow"),
]


def _c_project(ctx: Context, rng, d, modules: int, faults: int):
    d.mkdir(parents=True, exist_ok=True)
    names = rng.sample(["parse", "store", "route", "cache", "codec", "queue", "timer", "stats", "auth", "index", "proto", "sched", "crypt", "image"],
                       modules)
    faulty = set(rng.sample(range(modules), min(faults, modules)))
    for i, m in enumerate(names):
        body = ["#include <stdio.h>", "#include <string.h>", f'#include "{m}.h"', ""]
        for j in range(rng.randint(2, 5)):
            body.append(f"int {m}_op{j}(int x) {{ return x + {rng.randint(1, 99)}; }}")
        if i in faulty:
            fault, _ = rng.choice(C_FAULTS)
            body.append(fault.format(fn=f"{m}_bad"))
        (d / f"{m}.c").write_text("\n".join(body) + "\n")
        (d / f"{m}.h").write_text(f"int {m}_op0(int x);\n")
    main = ["#include <stdio.h>"] + [f'#include "{m}.h"' for m in names]
    main += ["int main(void) {", "  int t = 0;"] + [f"  t += {m}_op0(1);" for m in names]
    main += ['  printf("%d\\n", t);', "  return 0;", "}"]
    (d / "main.c").write_text("\n".join(main) + "\n")
    return names


def make_build(ctx: Context, n: int) -> list[Source]:
    rng = ctx.fork("make-build")
    out = []
    for i in range(n):
        d = ctx.work / f"make_{i}"
        names = _c_project(ctx, rng, d, rng.randint(4, 10), rng.randint(1, 4))
        objs = " ".join(f"{m}.o" for m in names + ["main"])
        (d / "Makefile").write_text(f"CFLAGS = -Wall -Wextra -O1\napp: {objs}\n\t$(CC) -o $@ $^\n"
                                    "%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n")
        text = ctx.sh("make -k", cwd=d)
        out.append(Source("make-build", f"make -k ({len(names)} modules)", text, ("diagnostics", "log")))
    return out


def cmake_build(ctx: Context, n: int) -> list[Source]:
    if not (ctx.have("cmake") and ctx.have("ninja")):
        return []
    rng = ctx.fork("cmake-ninja")
    out = []
    for i in range(n):
        d = ctx.work / f"cmake_{i}"
        names = _c_project(ctx, rng, d, rng.randint(4, 10), rng.randint(1, 4))
        srcs = " ".join(f"{m}.c" for m in names + ["main"])
        (d / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.20)\nproject(app C)\n"
                                          f"add_executable(app {srcs})\n"
                                          "target_compile_options(app PRIVATE -Wall -Wextra)\n")
        ctx.sh("cmake -S . -B build -G Ninja", cwd=d)
        text = ctx.sh("cmake --build build -- -k 0", cwd=d)
        out.append(Source("cmake-ninja", f"cmake --build ({len(names)} modules)", text, ("diagnostics", "log")))
    return out


def sources(ctx: Context) -> list[Source]:
    return (cxx_diagnostics(ctx, "g++", "gxx-templates", 8) + cxx_diagnostics(ctx, "clang++", "clang-templates", 6)
            + make_build(ctx, 6) + cmake_build(ctx, 5))
