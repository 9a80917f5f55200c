"""git over real repositories, binutils over the machine's binaries, process and file listings,
and package tools. Every byte comes from the program named in the source."""
from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from .common import Context, Source, pick


def _package_repo(ctx: Context, rng) -> Path | None:
    """A git repository made of a real npm package's files, with seeded commits on top: authors
    with e-mail addresses, edits, renames, a deleted file."""
    pkgs = [p for p in ctx.node_modules.iterdir() if (p / "package.json").exists() and not p.name.startswith(".")]
    if not pkgs:
        return None
    pkg = pick(rng, pkgs, 1)[0]
    repo = ctx.work / f"repo_{pkg.name}"
    if repo.exists():
        return repo
    shutil.copytree(pkg, repo, symlinks=True, ignore=shutil.ignore_patterns("node_modules"))
    people = [("Mira Solberg", "mira@solberg.example"), ("Tomás Ferreira", "tferreira@maintainers.example"),
              ("Ken Ito", "<ken.ito@build.example>"), ("main", "main@ci.example")]
    g = ["git", "-c", "init.defaultBranch=main"]
    ctx.run(g + ["init", "-q"], cwd=repo)
    name, mail = people[0]
    ctx.run(["git", "add", "-A"], cwd=repo)
    ctx.run(["git", "-c", f"user.name={name}", "-c", f"user.email={mail}", "commit", "-qm",
             f"Import {pkg.name}"], cwd=repo)
    files = sorted(str(p.relative_to(repo)) for p in repo.rglob("*")
                   if p.is_file() and p.suffix in (".js", ".ts", ".md", ".json", ".mjs", ".cjs") and ".git" not in p.parts)
    for c in range(rng.randint(4, 12)):
        name, mail = rng.choice(people)
        for f in pick(rng, files, rng.randint(1, 3)):
            p = repo / f
            lines = p.read_text(errors="replace").split("\n")
            if len(lines) < 3:
                continue
            at = rng.randrange(1, len(lines))
            op = rng.random()
            if op < 0.4:
                lines[at] = lines[at].replace(" ", "  ", 1) + f" // {rng.choice(['fix', 'todo', 'perf'])} {c}"
            elif op < 0.7:
                del lines[at:at + rng.randint(1, 6)]
            else:
                lines.insert(at, f"// added by change {c}: {rng.choice(['retry', 'guard', 'cache'])}")
            p.write_text("\n".join(lines))
        env = dict(ctx.env, GIT_AUTHOR_DATE=f"2026-0{1 + c % 9}-1{c % 9}T1{c % 10}:0{c % 6}:00Z",
                   GIT_COMMITTER_DATE=f"2026-0{1 + c % 9}-1{c % 9}T1{c % 10}:0{c % 6}:00Z")
        ctx.run(["git", "add", "-A"], cwd=repo, env=env)
        ctx.run(["git", "-c", f"user.name={name}", "-c", f"user.email={mail}", "commit", "-qm",
                 f"{rng.choice(['Fix', 'Tidy', 'Speed up', 'Document'])} {rng.choice(files).split('/')[-1]} (#{100 + c})"],
                cwd=repo, env=env)
    return repo


def git_sources(ctx: Context) -> list[Source]:
    if not ctx.have("git"):
        return []
    rng = ctx.fork("git")
    out = []
    repos = [r for r in (_package_repo(ctx, rng) for _ in range(4)) if r]
    for repo in repos:
        files = ctx.run(["git", "ls-files"], cwd=repo, merge=False).split()
        n = rng.randint(3, 12)
        out.append(Source("git-log", f"git log -n {n} ({repo.name})", ctx.sh(f"git log -n {n}", cwd=repo), ("log", "text", "records")))
        out.append(Source("git-log-stat", f"git log --stat ({repo.name})", ctx.sh(f"git log --stat -n {n}", cwd=repo), ("log", "text", "records")))
        out.append(Source("git-show", f"git show HEAD~1 ({repo.name})", ctx.sh("git show HEAD~1", cwd=repo), ("diff",)))
        f = pick(rng, [x for x in files if x.endswith((".js", ".ts", ".md"))] or files, 1)[0]
        out.append(Source("git-blame", f"git blame {f}", ctx.sh(f"git blame {shlex.quote(f)}", cwd=repo), ("tabular", "log", "code")))
        for x in pick(rng, files, rng.randint(2, 6)):
            p = repo / x
            if p.exists():
                p.write_text(p.read_text(errors="replace") + f"\n// local edit {rng.randint(1, 99)}\n")
        (repo / f"notes-{rng.randint(1, 99)}.txt").write_text("draft\n")
        out.append(Source("git-status", f"git status ({repo.name})", ctx.sh("git status", cwd=repo), ("text", "terminal", "log")))
        out.append(Source("git-diff", f"git diff ({repo.name})", ctx.sh("git diff", cwd=repo), ("diff",)))
    return out


def _binaries(ctx: Context, rng, k: int, max_size: int) -> list[str]:
    cands = [str(p) for d in ("/usr/bin", "/usr/lib/x86_64-linux-gnu") for p in Path(d).glob("*")
             if p.is_file() and not p.is_symlink() and 4000 < p.stat().st_size < max_size]
    return pick(rng, [c for c in cands if not c.endswith((".a", ".o")) and _is_elf(c)], k)


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def binutils_sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("binutils")
    out = []
    for b in _binaries(ctx, rng, 6, 200_000):
        lines = rng.choice([200, 400, 800])
        out.append(Source("objdump", f"objdump -d {b} | head -n {lines}",
                          ctx.sh(f"objdump -d --no-show-raw-insn {b} | head -n {lines}"), ("log", "code", "text", "tabular")))
    libs = [str(p) for p in Path("/usr/lib/x86_64-linux-gnu").glob("lib*.so*")
            if p.is_file() and not p.is_symlink() and p.stat().st_size < 3_000_000]
    for lib in pick(rng, [x for x in libs if "stdc++" in x or "boost" in x or "icu" in x or "gtest" in x] + pick(rng, libs, 6), 6):
        lines = rng.choice([150, 300, 600])
        out.append(Source("nm", f"nm -C -D {lib} | head -n {lines}", ctx.sh(f"nm -C -D {lib} | head -n {lines}"), ("tabular", "log")))
    for b in _binaries(ctx, rng, 5, 2_000_000):
        flag = rng.choice(["-S", "-d", "-s --wide", "-h -l"])
        out.append(Source("readelf", f"readelf {flag} {b}", ctx.sh(f"readelf {flag} {b} | head -n 400"), ("tabular", "text")))
    for b in _binaries(ctx, rng, 5, 4_000_000):
        out.append(Source("ldd", f"ldd {b}", ctx.sh(f"ldd {b}"), ("tabular", "log", "text")))
    return out


def listing_sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("listings")
    out = []
    for fmt in rng.sample(["aux", "-ef", "-eo pid,ppid,user,%cpu,%mem,rss,stat,start,cmd", "axjf"], 3):
        out.append(Source("ps", f"ps {fmt}", ctx.sh(f"ps {fmt}"), ("tabular",)))
    dirs = [d for d in ["/usr/bin", "/etc", "/usr/lib/x86_64-linux-gnu", "/usr/share/doc", "/var/lib/dpkg/info",
                        str(ctx.node_modules), "/usr/include", "/usr/share/man/man1", "/var/log", "/usr/lib/python3.11"]
            if os.path.isdir(d)]
    for d in pick(rng, dirs, 6):
        out.append(Source("ls", f"ls -la {d}", ctx.sh(f"ls -la {d} | head -n {rng.choice([60, 200, 500])}"), ("tabular",)))
    for d in pick(rng, dirs, 5):
        pat = rng.choice(["*.h", "*.so*", "*.json", "*.md", "*.conf", "*"])
        out.append(Source("find", f"find {d} -name '{pat}'",
                          ctx.sh(f"find {d} -maxdepth 3 -name '{pat}' 2>&1 | head -n {rng.choice([80, 300, 900])}"),
                          ("search-result", "text", "log")))
    for d in pick(rng, dirs, 3):
        out.append(Source("tree", f"find {d} | sort (tree-like)",
                          ctx.sh(f"cd {d} && find . -maxdepth 2 | sort | sed -e 's/[^-][^\\/]*\\//  |/g' | head -n 400"),
                          ("text", "search-result", "log")))
    for flag in ["-h", "-T", "-i", "-hT --total"]:
        out.append(Source("df", f"df {flag}", ctx.sh(f"df {flag}"), ("tabular",)))
    return out


def package_sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("packages")
    out = []
    if ctx.have("dpkg"):
        for pat in rng.sample(["lib*", "*dev*", "python3*", "*", "g*", "*-common"], 4):
            out.append(Source("dpkg-l", f"dpkg -l '{pat}'", ctx.sh(f"dpkg -l '{pat}' | head -n {rng.choice([60, 300, 1200])}"),
                              ("tabular",)))
        names = ctx.run(["dpkg-query", "-W", "-f=${Package}\n"], merge=False).split()
        for group in range(5):
            pk = pick(rng, names, rng.randint(1, 4))
            out.append(Source("apt-cache-show", f"apt-cache show {' '.join(pk)}",
                              ctx.sh("apt-cache show " + " ".join(pk)), ("records",)))
        status = Path("/var/lib/dpkg/status")
        if status.exists():
            stanzas = status.read_text(errors="replace").split("\n\n")
            for _ in range(3):
                start = rng.randrange(0, max(1, len(stanzas) - 40))
                text = "\n\n".join(stanzas[start:start + rng.randint(5, 40)]) + "\n"
                out.append(Source("debian-control", f"/var/lib/dpkg/status stanzas {start}..", text, ("records",), kind="file"))
    hist = Path("/var/log/apt/history.log")
    if hist.exists():
        stanzas = [s for s in hist.read_text(errors="replace").split("\n\n") if s.strip()]
        for n in rng.sample([3, 8, 20], 2):
            out.append(Source("apt-history", f"apt history, last {n} runs",
                              "\n\n".join(stanzas[-n:]) + "\n", ("records", "log"), kind="file"))
    e2e = ctx.root / "tests/e2e"
    if ctx.have("npm") and (e2e / "node_modules").exists():
        out.append(Source("npm-ls", "npm ls --all", ctx.sh("npm ls --all", cwd=e2e, timeout=180), ("text", "log")))
        depth = rng.choice([1, 2])
        out.append(Source("npm-ls", f"npm ls --depth {depth}", ctx.sh(f"npm ls --depth {depth}", cwd=e2e, timeout=180), ("text", "log")))
        out.append(Source("npm-ls-json", "npm ls --all --json", ctx.run(["npm", "ls", "--all", "--json"], cwd=e2e, merge=False,
                                                                       timeout=180), ("json",)))
        out.append(Source("npm-ls-json", "npm ls --all --long --json",
                          ctx.run(["npm", "ls", "--long", "--json", "--depth", "1"], cwd=e2e, merge=False, timeout=180), ("json",)))
    return out


def sources(ctx: Context) -> list[Source]:
    return git_sources(ctx) + binutils_sources(ctx) + listing_sources(ctx) + package_sources(ctx)
