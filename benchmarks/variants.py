"""The variants a benchmark run compares side by side: (name, environment, code checkout).

Each speed-up the product keeps must be measurable switched off (issue #21: it stays only if the
whole 10,000-paper build gets >= 3 % slower without it), so each has an environment variable that
turns it off and a line in VARIANTS below. To add one, add a line:

    Variant("no-cache", {"READINGLIST_CACHE": "off"}),

The first variant is the base the others are compared with. `--compare REV` adds the same build
with the code of REV (e.g. the commit before the redesign): its own checkout and virtualenv,
cached under .readinglist-cache/bench-venvs/<commit>/.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Checkout:
    """Code to build with: its source root (mkdocs.yml, overrides/, content/) and its Python."""

    label: str
    root: Path
    python: Path

    def readinglist(self) -> list[str]:
        """The `readinglist` command of this checkout (its console script)."""
        script = self.python.with_name("readinglist")
        if script.exists():
            return [str(script)]
        return [str(self.python), "-m", "generator"]


@dataclass(frozen=True)
class Variant:
    name: str
    env: dict[str, str] = field(default_factory=dict)
    rev: str | None = None  # None: the code of this worktree
    # Whether its output is the base's, byte for byte (the "same output" column, oracle.py). Only
    # a switch that changes the pages by design says False, with the reason beside it.
    same_bytes: bool = True
    # A switch of `readinglist serve` alone (its build is the base's): not built, only timed in the
    # edit loop (--edit-loop), after the base.
    serve_only: bool = False


# The base first, then one line per speed-up the product keeps, with the variable that switches it off.
VARIANTS: list[Variant] = [
    Variant("base"),
    Variant("no-cache", {"READINGLIST_CACHE": "off"}),  # the no-change memo (runtime/memo.py)
    Variant("no-reference-cache", {"READINGLIST_REFERENCE_CACHE": "off"}),  # render/references.py cache
    # site/shared_chrome.py; off, the pages keep Material's icons and scripts inline: other bytes by design.
    Variant("no-shared-chrome", {"READINGLIST_SHARED_CHROME": "off"}, same_bytes=False),
    Variant("markdown-pass", {"READINGLIST_SKIP_MARKDOWN": "off"}),  # the plugin's on_page_content
    Variant("no-fragments", {"READINGLIST_FRAGMENTS": "off"}),  # paper pages' chrome rendered once (site/fragments.py)
    # A paper page's article kept out of the theme until the page is rendered (site/paper_chrome.py, step 3).
    Variant("no-late-article", {"READINGLIST_LATE_ARTICLE": "off"}),
    Variant("serial-references", {"READINGLIST_WORKERS": "1"}),  # citeproc in worker processes (runtime/parallel.py)
    Variant("no-text-cache", {"READINGLIST_TEXT_CACHE": "off"}),  # memoized escape.text, to_mathml, wikilinks
    Variant("gc-running", {"READINGLIST_GC_PAUSE": "off"}),  # the collector paused in a build (runtime/collector.py)
    # `readinglist serve`'s watcher tells MkDocs what it wrote (site/serve_signal.py); off, MkDocs polls build/.
    Variant("serve-polls-docs", {"READINGLIST_SERVE_SIGNAL": "off"}, serve_only=True),
    # Unchanged paper pages left out of `mkdocs serve` rebuilds (site/serve_rebuilds.py); off, every rebuild
    # gives MkDocs all the pages.
    Variant("no-serve-prune", {"READINGLIST_SERVE_PRUNE": "off"}, serve_only=True),
]


def parse_variant(text: str) -> Variant:
    """`name:VAR=value,VAR=value` from the command line (--variant)."""
    name, _, assignments = text.partition(":")
    env = dict(a.split("=", 1) for a in assignments.split(",") if "=" in a)
    return Variant(name.strip(), env)


def current_checkout() -> Checkout:
    check_plugin(Path(sys.executable), ROOT)
    return Checkout("current", ROOT, Path(sys.executable))


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def rev_checkout(rev: str) -> Checkout:
    """The code of `rev` in .readinglist-cache/bench-venvs/<commit>/src with a virtualenv of its own
    beside it (pip install -e, made once and reused). The files come from `git archive`, not
    `git worktree add`, so nothing is registered in the repository's .git for them."""
    commit = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    home = ROOT / ".readinglist-cache" / "bench-venvs" / commit
    src, venv = home / "src", home / "venv"
    python = venv / "bin" / "python"
    ready = home / ".installed"
    if not ready.exists():
        print(f"[compare] setting up {rev} ({commit[:12]}) in {home} ...", file=sys.stderr)
        src.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", str(src)], check=True)
        # Byte-compiled once here, as a regular install is (an editable one compiles on first import).
        subprocess.run([str(python), "-m", "compileall", "-q", str(src / "generator")], check=False)
        ready.write_text(commit + "\n")
    check_plugin(python, src)
    return Checkout(f"{rev}", src, python)


def check_plugin(python: Path, src: Path) -> None:
    """MkDocs must load the `readinglist` plugin from this checkout, not from another install."""
    code = ("import importlib.metadata as m, sys\n"
            "ep = [e for e in m.entry_points(group='mkdocs.plugins') if e.name == 'readinglist']\n"
            "print(sys.modules[ep[0].load().__module__].__file__ if ep else '')")
    # -I: neither PYTHONPATH nor the current folder on the path, as for the benchmark's commands,
    # which run in the project folder (no `generator` package there).
    out = subprocess.run([str(python), "-I", "-c", code], check=True, capture_output=True, text=True,
                         cwd=src.parent).stdout.strip()
    if not out or not Path(out).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"the readinglist MkDocs plugin of {python} is {out or 'missing'}, not under {src}")
