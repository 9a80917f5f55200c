"""Runtime failures: Python tracebacks and unittest runs, node stack traces and node:test runs,
AddressSanitizer / UBSan reports and valgrind memcheck on small C programs with seeded bugs.
The interpreters, test runners, sanitizers and valgrind write every byte."""
from __future__ import annotations

from .common import Context, Source

WORDS = ["invoice", "cursor", "payload", "tenant", "window", "segment", "ticket", "vector", "budget", "socket",
         "shard", "lease", "quota", "anchor"]
PY_RAISES = [
    "raise KeyError({w!r})",
    "return {{}}[{w!r}]",
    "return int({w!r})",
    "return [1, 2][{n}]",
    "return None.{w}",
    "raise ValueError('bad {w}: ' + str({n}))",
    "return 1 / ({n} - {n})",
    "import json; return json.loads('{{\"{w}\": }}')",
    "raise RuntimeError('{w} failed after {n} retries')",
]


def _py_chain(rng, depth: int) -> str:
    names = rng.sample(WORDS, depth)
    lines = ["import sys", ""]
    for i, w in enumerate(names):
        lines.append(f"def {w}_{i}(x):")
        if i + 1 < depth:
            lines.append(f"    y = x + {rng.randint(1, 9)}")
            lines.append(f"    return {names[i + 1]}_{i + 1}(y)")
        else:
            lines.append("    " + rng.choice(PY_RAISES).format(w=rng.choice(WORDS), n=rng.randint(2, 9)))
        lines.append("")
    lines.append(f"for k in range({rng.randint(1, 4)}):")
    lines.append(f"    print('processing batch', k, file=sys.stderr)")
    lines.append(f"{names[0]}_0(1)")
    return "\n".join(lines) + "\n"


def py_tracebacks(ctx: Context, n: int) -> list[Source]:
    rng = ctx.fork("py-traceback")
    d = ctx.work / "py"
    d.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        f = d / f"job_{i}.py"
        f.write_text(_py_chain(rng, rng.randint(2, 7)))
        out.append(Source("py-traceback", f"python3 {f.name}", ctx.sh(f"python3 {f.name}", cwd=d), ("diagnostics",)))
    return out


def py_unittest(ctx: Context, n: int) -> list[Source]:
    rng = ctx.fork("py-unittest")
    d = ctx.work / "pyut"
    d.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        cases = []
        for j in range(rng.randint(8, 40)):
            kind = rng.random()
            a, b = rng.randint(0, 50), rng.randint(0, 50)
            if kind < 0.12:
                body = f"self.assertEqual({a} + {b}, {a + b + 1})"
            elif kind < 0.18:
                body = f"self.assertIn({rng.choice(WORDS)!r}, {rng.sample(WORDS, 3)!r})"
            elif kind < 0.22:
                body = f"raise OSError('{rng.choice(WORDS)} unavailable')"
            elif kind < 0.25:
                body = f"self.skipTest('needs {rng.choice(WORDS)}')"
            else:
                body = f"self.assertEqual({a} * {b}, {a * b})"
            cases.append(f"    def test_{rng.choice(WORDS)}_{j}(self):\n        {body}\n")
        f = d / f"test_unit_{i}.py"
        f.write_text("import unittest\n\nclass T(unittest.TestCase):\n" + "\n".join(cases)
                     + "\nif __name__ == '__main__':\n    unittest.main()\n")
        out.append(Source("py-unittest", f"python3 -m unittest -v {f.name}",
                          ctx.sh(f"python3 -m unittest -v {f.stem}", cwd=d), ("log", "diagnostics")))
    return out


def node_failures(ctx: Context, n_stack: int, n_test: int) -> list[Source]:
    if not ctx.have("node"):
        return []
    rng = ctx.fork("node")
    d = ctx.work / "node"
    d.mkdir(exist_ok=True)
    out = []
    throws = ["throw new TypeError(`cannot read ${{k}}`)", "return undefinedThing.{w}", "JSON.parse('{{bad')",
              "throw new RangeError('{w} out of range: ' + k)", "return null.{w}", "await Promise.reject(new Error('{w} timeout'))"]
    for i in range(n_stack):
        names = rng.sample(WORDS, rng.randint(2, 6))
        lines = []
        for j, w in enumerate(names):
            nxt = f"return {names[j + 1]}(k + 1)" if j + 1 < len(names) else rng.choice(throws).format(w=rng.choice(WORDS))
            lines.append(f"async function {w}(k) {{\n  {nxt};\n}}")
        lines.append(f"{names[0]}(1).catch((e) => {{ console.error(e); process.exit(1); }});")
        f = d / f"job_{i}.mjs"
        f.write_text("\n".join(lines) + "\n")
        out.append(Source("node-stack", f"node {f.name}", ctx.sh(f"node {f.name}", cwd=d), ("diagnostics",)))
    for i in range(n_test):
        cases = []
        for j in range(rng.randint(6, 30)):
            a, b = rng.randint(0, 40), rng.randint(0, 40)
            good = rng.random() > 0.15
            cases.append(f"test('{rng.choice(WORDS)} {j}', () => {{ assert.strictEqual({a} + {b}, {a + b if good else a + b + 2}); }});")
        f = d / f"unit_{i}.test.mjs"
        f.write_text("import test from 'node:test';\nimport assert from 'node:assert';\n" + "\n".join(cases) + "\n")
        out.append(Source("node-test", f"node --test {f.name}", ctx.sh(f"node --test {f.name}", cwd=d), ("log", "diagnostics")))
    return out


C_BUGS = [
    ("heap-buffer-overflow", "int *a = malloc({n} * sizeof(int)); for (int i = 0; i <= {n}; i++) a[i] = i; int r = a[0]; free(a); return r;"),
    ("use-after-free", "char *s = malloc({n}); strcpy(s, \"x\"); free(s); return s[0];"),
    ("stack-buffer-overflow", "int a[{n}]; int i = {n}; a[i % 64 + {n}] = 1; return a[0];"),
    ("double-free", "void *p = malloc({n}); free(p); free(p); return 0;"),
    ("leak", "for (int i = 0; i < {n}; i++) {{ void *p = malloc(64 + i); (void)p; }} return 0;"),
    ("signed-overflow", "int x = 2147483600; x += {n} * 100; return x & 1;"),
]


def _c_bug_program(rng) -> tuple[str, str]:
    kind, body = rng.choice(C_BUGS)
    fns = rng.sample(WORDS, rng.randint(2, 4))
    parts = ["#include <stdlib.h>", "#include <string.h>", ""]
    parts.append(f"int {fns[-1]}(void) {{ {body.format(n=rng.randint(3, 40))} }}")
    for j in range(len(fns) - 2, -1, -1):
        parts.append(f"int {fns[j]}(void) {{ return {fns[j + 1]}() + {j}; }}")
    parts.append(f"int main(void) {{ return {fns[0]}() & 0; }}")
    return kind, "\n".join(parts) + "\n"


def sanitizers(ctx: Context, n_asan: int, n_valgrind: int) -> list[Source]:
    rng = ctx.fork("sanitizer")
    d = ctx.work / "san"
    d.mkdir(exist_ok=True)
    out = []
    env = "ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1"
    if ctx.have("clang"):
        for i in range(n_asan):
            kind, src = _c_bug_program(rng)
            (d / f"a{i}.c").write_text(src)
            ctx.sh(f"clang -g -O0 -fsanitize=address,undefined -fno-omit-frame-pointer a{i}.c -o a{i}", cwd=d)
            out.append(Source("sanitizer", f"./a{i} ({kind})", ctx.sh(f"{env} ./a{i}", cwd=d), ("diagnostics",)))
    if ctx.have("valgrind") and ctx.have("gcc"):
        for i in range(n_valgrind):
            kind, src = _c_bug_program(rng)
            (d / f"v{i}.c").write_text(src)
            ctx.sh(f"gcc -g -O0 v{i}.c -o v{i}", cwd=d)
            text = ctx.sh(f"valgrind --leak-check=full ./v{i}", cwd=d, timeout=180)
            out.append(Source("valgrind", f"valgrind ./v{i} ({kind})", text, ("diagnostics",)))
    return out


def sources(ctx: Context) -> list[Source]:
    return (py_tracebacks(ctx, 8) + py_unittest(ctx, 6) + node_failures(ctx, 7, 6)
            + sanitizers(ctx, 6, 5))
