"""The folders a benchmark builds: a curator's project per workload and checkout, and the stock
MkDocs + Material reference site holding the same papers as plain Markdown pages."""

from __future__ import annotations

import os
import re
import shutil
import time
import unicodedata
from pathlib import Path

import seeded
import synth

WORKLOADS = ("synth", "seeded")


def write_seeds(workload: str, n: int, dest: Path, seed: int) -> list[synth.SynthPaper]:
    """The digests of `workload` with `n` distinct papers in `dest`; returns the distinct papers."""
    maker = seeded.SeedText(seed) if workload == "seeded" else None
    return synth.generate(n, dest, seed, maker=maker).papers


# The next day's deploy (issue 46): a digest of this many new papers on top of the list.
NEXT_DAY = 300
NEXT_DIGEST = "next-day-cs-lg.txt"


def write_next_day(workload: str, n: int, dest: Path, seed: int) -> list[synth.SynthPaper]:
    """One listing digest of `n` papers the list does not have (another seed of the same
    workload's maker) at `dest`; returns them."""
    maker = seeded.SeedText(seed + 1000) if workload == "seeded" else synth.Synth(seed + 1000)
    papers = [maker.paper() for _ in range(n)]
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(synth.listing_digest(maker.rng, papers), encoding="utf-8")
    return papers


def next_day(proj: Path, digest: Path | None) -> None:
    """The project as the Pages workflow finds it the next day: `digest` added to its seeds (None:
    taken out again), its build folder and site gone, its caches (.readinglist-cache/) restored."""
    target = proj / "seeds" / NEXT_DIGEST
    if digest is None:
        target.unlink(missing_ok=True)
        return
    shutil.copy(digest, target)
    old = proj.parent / "old" / f"{proj.name}-next-{time.time_ns()}"
    old.mkdir(parents=True, exist_ok=True)
    for name in ("build", "site"):
        if (proj / name).exists():
            (proj / name).rename(old / name)
    fresh_build_folder(proj)


def make_project(dest: Path, code_root: Path, seeds: Path) -> Path:
    """A project like a curator's: the checkout's mkdocs.yml, overrides/ and content/ (without notes,
    which name seed papers), the workload's digests. Returns its mkdocs.yml."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    shutil.copy(code_root / "mkdocs.yml", dest / "mkdocs.yml")
    for name in ("overrides", "content"):
        if (code_root / name).is_dir():
            shutil.copytree(code_root / name, dest / name, ignore=shutil.ignore_patterns("notes"))
    (dest / "overrides").mkdir(exist_ok=True)
    shutil.copytree(seeds, dest / "seeds")
    fresh_build_folder(dest)
    return dest / "mkdocs.yml"


def fresh_build_folder(proj: Path) -> None:
    (proj / "build").mkdir(exist_ok=True)
    (proj / "build" / ".gitignore").write_text("*\n!.gitignore\n")


def fresh_build_folder_aside(proj: Path) -> None:
    """An empty build folder, the old one moved aside (see cold_project); caches stay."""
    old = proj.parent / "old" / f"{proj.name}-build-{time.time_ns()}"
    old.mkdir(parents=True, exist_ok=True)
    (proj / "build").rename(old / "build")
    fresh_build_folder(proj)


def cold_project(proj: Path) -> None:
    """The project as before its first build: no build folder, no caches, no keys handed out. The
    old output is moved aside (into the work folder's `old/`, removed at the end), not deleted:
    deleting ten thousand files slows file creation on this machine's disk for minutes after."""
    old = proj.parent / "old" / f"{proj.name}-{time.time_ns()}"
    for name in ("build", ".readinglist-cache", "site"):
        if (proj / name).exists():
            old.mkdir(parents=True, exist_ok=True)
            (proj / name).rename(old / name)
    (proj / "citekeys.yml").unlink(missing_ok=True)
    fresh_build_folder(proj)


STOCK_CONFIG = """\
site_name: Reading list (stock MkDocs reference)
site_url: http://127.0.0.1:8000/
docs_dir: docs
site_dir: site
theme:
  name: material
  font: false
  features:
    - navigation.instant
    - search.suggest
    - search.highlight
    - content.code.copy
plugins:
  - search
markdown_extensions:
  - toc:
      permalink: true
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
not_in_nav: |
  papers/*
nav:
  - Home: index.md
"""


def slug(text: str, taken: set[str]) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60].strip("-") or "paper"
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}-{k}"
    taken.add(name)
    return name


def bibtex(key: str, p: synth.SynthPaper) -> str:
    def esc(s: str) -> str:
        return s.replace("{", "\\{").replace("}", "\\}")

    return (f"@article{{{key},\n  title = {{{esc(p.title)}}},\n  author = {{{esc(' and '.join(p.authors))}}},\n"
            f"  year = {{2025}},\n  url = {{https://openreview.net/forum?id={p.openreview}}},\n}}")


def stock_project(dest: Path, papers: list[synth.SynthPaper]) -> Path:
    """Stock MkDocs + Material, no readinglist plugin: one page per paper (title, authors, abstract,
    BibTeX in a code block) and an index linking them. Returns its mkdocs.yml."""
    if dest.exists():
        shutil.rmtree(dest)
    docs = dest / "docs" / "papers"
    docs.mkdir(parents=True)
    (dest / "mkdocs.yml").write_text(STOCK_CONFIG, encoding="utf-8")
    taken: set[str] = set()
    index = ["# Reading list", ""]
    for p in papers:
        name = slug(p.title, taken)
        title = p.title.replace("<", "&lt;")
        abstract = "\n\n".join(a.replace("<", "&lt;") for a in p.abstract)
        page = (f"# {title}\n\n**Authors:** {', '.join(p.authors) or 'Anonymous'}\n\n## Abstract\n\n{abstract}\n\n"
                f"## BibTeX\n\n```bibtex\n{bibtex(name.replace('-', '')[:40], p)}\n```\n")
        (docs / f"{name}.md").write_text(page, encoding="utf-8")
        index.append(f"- [{title}](papers/{name}.md)")
    (dest / "docs" / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return dest / "mkdocs.yml"


def tree_bytes(folder: Path) -> int:
    total = 0
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            total += os.stat(os.path.join(dirpath, name)).st_size
    return total


def part_of(path: str) -> str:
    """The part of the site a file (its path in the site, `/`-separated) counts towards: the
    parts of the size warning (generator/site/size.py, copied: the benchmark imports no generator
    code, so that it measures any commit alike)."""
    top, _, rest = path.partition("/")
    if not rest:
        if top in ("papers.json", "references.json", "references.ris", "references.bib"):
            return top
        return "feeds" if top.startswith("feed") and top.endswith(".xml") else "other"
    if top == "papers":
        return "paper pages"
    if top in ("tags", "digests"):
        return f"{top}/ downloads" if "/" not in rest else f"{top}/ pages"
    return "search index" if top == "pagefind" else "other"


def size_by_part(site: Path) -> dict[str, int]:
    parts: dict[str, int] = {}
    for dirpath, _dirs, names in os.walk(site):
        rel = os.path.relpath(dirpath, site).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        for name in names:
            part = part_of(prefix + name)
            parts[part] = parts.get(part, 0) + os.stat(os.path.join(dirpath, name)).st_size
    return parts


def download_bytes(site: Path) -> int:
    """Bytes of the reference-manager downloads: every `.bib` and `.ris`, and the CSL-JSON `.json`
    beside a `.bib` of the same name (references.json, tags/*.json, digests/*.json). The rest of the
    site is what the pages, search, feeds and papers.json take."""
    total = 0
    for dirpath, _dirs, names in os.walk(site):
        have = set(names)
        for name in names:
            stem, _, ext = name.rpartition(".")
            if ext in ("bib", "ris") or (ext == "json" and f"{stem}.bib" in have):
                total += os.stat(os.path.join(dirpath, name)).st_size
    return total


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime in ns) of every file under `folder`: a file rewritten, even atomically through
    a new file renamed over it, changes one of them."""
    out = {}
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            out[path] = (st.st_ino, st.st_mtime_ns)
    return out


def files_changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> int:
    """Files written, added or removed between two snapshots."""
    return sum(1 for p, v in after.items() if before.get(p) != v) + sum(1 for p in before if p not in after)
