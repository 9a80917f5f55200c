"""Real files of the machine and of the installed npm packages, read as an agent reads them:
configs (YAML, TOML, INI, systemd units, conf files), markup sources (HTML, XML, SVG, JSX/TSX,
Vue) and code. The seed picks which files; the files are whatever this machine has."""
from __future__ import annotations

from pathlib import Path

from .common import Context, Source, pick, read_text

import os

ROOTS = ["/etc", "/usr/share", "/usr/lib/python3", "/usr/lib/python3.11", "/usr/lib/systemd", "/lib/systemd/system",
         "/usr/include", "/root/.pyenv"]
_INDEX: dict[str, list[tuple[str, int]]] = {}


def _index(ctx: Context) -> list[tuple[str, int]]:
    """Every regular file under the roots, walked once (the families filter this list)."""
    key = str(ctx.root)
    if key not in _INDEX:
        found = []
        roots = ROOTS + [str(ctx.node_modules), str(ctx.root / "tests/e2e/agents/node_modules"),
                         str(ctx.root / "bench/realworld/markup-src")]
        for r in roots:
            for dirpath, dirnames, filenames in os.walk(r):
                dirnames.sort()
                for f in sorted(filenames):
                    p = os.path.join(dirpath, f)
                    try:
                        st = os.lstat(p)
                    except OSError:
                        continue
                    if os.path.stat.S_ISREG(st.st_mode):
                        found.append((p, st.st_size))
        _INDEX[key] = found
    return _INDEX[key]


def _files(ctx: Context, suffixes, roots=None, min_size=600, max_size=120_000) -> list[Path]:
    return [Path(p) for p, size in _index(ctx)
            if p.endswith(suffixes) and min_size <= size <= max_size
            and (roots is None or p.startswith(tuple(roots)))]


def _take(ctx: Context, rng, family: str, suffixes, declared, k: int, **kw) -> list[Source]:
    out = []
    for p in pick(rng, _files(ctx, suffixes, **kw), k * 2):
        text = read_text(p)
        if text is None or not text.strip() or "\x00" in text:
            continue
        if declared == ("xml",) and not text.lstrip().startswith("<"):
            continue  # Java's .policy files are grant blocks, not XML
        if declared == ("config",) and text.lstrip().startswith("<?xml"):
            out.append(Source("xml", str(p), text, ("xml",), kind="file"))  # fontconfig and D-Bus .conf files
            continue
        out.append(Source(family, str(p), text, declared, kind="file"))
        if len(out) == k:
            break
    return out


def sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("files")
    out = []
    out += _take(ctx, rng, "yaml", (".yml", ".yaml"), ("config",), 6)
    out += _take(ctx, rng, "toml", (".toml",), ("config",), 5, min_size=200)
    out += _take(ctx, rng, "ini", (".ini", ".cnf", "setup.cfg", ".editorconfig", ".desktop", ".gitconfig"), ("config",), 6,
                 roots=["/etc", "/usr/share", "/usr/lib", "/root"], min_size=300)
    out += _take(ctx, rng, "systemd-unit", (".service", ".socket", ".timer"), ("config",), 6, roots=["/lib/systemd", "/usr/lib/systemd"],
                 min_size=300)
    out += _take(ctx, rng, "conf", (".conf",), ("config",), 6, roots=["/etc", "/usr/share/doc", "/usr/lib"], min_size=800)
    out += _take(ctx, rng, "html-source", (".html", ".htm"), ("html",), 6)
    out += _take(ctx, rng, "xml", (".xml", ".xsd", ".xsl", ".plist", ".policy", ".metainfo.xml"), ("xml",), 6)
    out += _take(ctx, rng, "svg", (".svg",), ("xml",), 5, min_size=800)
    out += _take(ctx, rng, "jsx-tsx", (".tsx", ".jsx"), ("code",), 6, min_size=400)
    out += _take(ctx, rng, "vue", (".vue",), ("code", "html"), 4, min_size=400)
    out += _take(ctx, rng, "code-ts", (".ts", ".mts"), ("code",), 5, min_size=1500)
    out += _take(ctx, rng, "code-py", (".py",), ("code",), 5, roots=["/usr/lib/python3.11", "/usr/lib/python3"], min_size=1500)
    out += _take(ctx, rng, "code-c", (".h", ".c"), ("code",), 5, roots=["/usr/include"], min_size=1500)
    return out
