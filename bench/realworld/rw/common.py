"""What every family generator shares: the seeded context, running real programs, payloads.

A family turns real programs' output (or real files on this machine) into `Source`s; the
generator then writes each source as the tool results an agent would get: a command's Bash
result, a file's Bash `cat`, its Claude Code Read listing (whole, or a window with
offset/limit) and its `cat -n` listing. Nothing here is a fixture: the seed picks which
packages, files, repositories, sizes and seeded faults, and the programs make the bytes.
"""
from __future__ import annotations

import dataclasses
import os
import random
import shutil
import subprocess
from pathlib import Path


@dataclasses.dataclass
class Source:
    family: str
    name: str  # what it is, for the report (command line or file path)
    text: str
    declared: tuple[str, ...]  # content types a correct detector may give it
    kind: str = "command"  # "command" (a Bash result) or "file" (also read with the agent's Read)


@dataclasses.dataclass
class Payload:
    id: str
    family: str
    variant: str  # bash | read | read-window | read-catn
    path: str  # the file the tool names (Read's file_path, `cat PATH`); "" for a command's output
    name: str
    declared: tuple[str, ...]
    text: str  # the bytes the agent's tool result carries
    source: str  # the file's own text for a read (the listing's content), else == text
    first_line: int = 1  # number of the listing's first line (reads)
    needles: list = dataclasses.field(default_factory=list)


class Context:
    """The seed's choices and the workspace the programs run in."""

    def __init__(self, seed: int, work: Path, root: Path):
        self.seed = seed
        self.rng = random.Random(seed)
        self.work = work
        self.root = root
        self.node_modules = root / "tests/e2e/node_modules"
        self.env = dict(os.environ, HOME=str(work / "home"), LC_ALL="C.UTF-8", TZ="UTC",
                        GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1", TERM="dumb")
        (work / "home").mkdir(parents=True, exist_ok=True)

    def fork(self, label: str) -> random.Random:
        """An independent stream per family, so adding a family never changes another's picks."""
        return random.Random(f"{self.seed}:{label}")

    def have(self, tool: str) -> bool:
        return shutil.which(tool) is not None

    def run(self, argv, cwd=None, stdin=None, timeout=120, merge=True, env=None) -> str:
        """Runs a real program; its stdout (and stderr, as a shell tool shows it) as text."""
        p = subprocess.run(argv, cwd=cwd or self.work, input=stdin, capture_output=True,
                           timeout=timeout, env=env or self.env, shell=isinstance(argv, str))
        out = p.stdout.decode("utf-8", "replace")
        if merge and p.stderr:
            out += p.stderr.decode("utf-8", "replace")
        return out

    def sh(self, command: str, cwd=None, timeout=120) -> str:
        """A Bash tool call: stdout and stderr interleaved as the agent's shell returns them."""
        p = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=cwd or self.work, capture_output=True,
                           timeout=timeout, env=self.env)
        return p.stdout.decode("utf-8", "replace")


def pick(rng: random.Random, items, k: int):
    items = sorted(items)
    return rng.sample(items, min(k, len(items)))


def read_text(path: Path, limit: int = 400_000) -> str | None:
    try:
        data = path.read_bytes()[:limit]
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def claude_listing(text: str, offset: int = 1, limit: int | None = None) -> str:
    """Claude Code's Read result: `N<TAB>line`, and a whole file that ends in a newline shows one
    more numbered empty line."""
    lines = text.split("\n")
    whole = offset == 1 and limit is None
    if lines and lines[-1] == "":
        lines.pop()
        ends_nl = True
    else:
        ends_nl = False
    end = len(lines) if limit is None else min(len(lines), offset - 1 + limit)
    shown = [f"{n}\t{lines[n - 1]}" for n in range(offset, end + 1)]
    if whole and ends_nl:
        shown.append(f"{len(lines) + 1}\t")
    return "\n".join(shown)


def window(text: str, offset: int, limit: int) -> str:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines[offset - 1:offset - 1 + limit])


def cat_n_listing(text: str) -> str:
    """`cat -n FILE` (what a shell-reading agent such as Codex gets): numbers right-aligned in six
    columns, then a TAB."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
        return "\n".join(f"{n:6d}\t{line}" for n, line in enumerate(lines, 1)) + "\n"
    return "\n".join(f"{n:6d}\t{line}" for n, line in enumerate(lines, 1))
