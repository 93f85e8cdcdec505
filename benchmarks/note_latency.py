"""How fast a note edit shows up, at 1,000 papers (synthetic digest) or in a list already built.

1. Disk: `Watcher` (what `readinglist watch` runs) from the save to the generated Markdown
   holding the new text. Target: 300 ms.
2. Browser: `readinglist serve` with Chromium (Playwright) on the paper's page, from the save
   to the open tab showing the new text after its live reload. Target: 2 s at 10,000 papers.

    .venv/bin/python benchmarks/note_latency.py [--papers 1000] [--rounds 5] [--no-browser]
    .venv/bin/python benchmarks/note_latency.py --project DIR --no-disk --serve-rounds 3 \
        --variant serve-polls-docs:READINGLIST_SERVE_SIGNAL=off     # base and variant, A B A B A B

`--project DIR` takes a list that is built already (e.g. a 10,000-paper one of benchmarks/run.py
or the issue's profiling copy): the paper a third of the way down papers.json gets a note (made by
`readinglist note` when it has none) and is edited. `--variant` starts `readinglist serve` with
those switches in turns with the base, each serve timing `--rounds` edits, 20 s apart (as the
benchmark's edit loop: the search index of one edit is written before the next).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.watch import Watcher  # noqa: E402
from tests.conftest import copy_project  # noqa: E402

WORDS = ("learning neural graph sparse robust federated diffusion causal kernel bayesian transformer "
         "policy reward language vision model attention optimization gradient stochastic").split()
NOTE = "---\nstatus: reading\nrating: 4\nadded: 2025-08-08\n---\nEdit marker {marker}: see [[syn2025paper1]].\n"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def synthetic_project(dest: Path, papers: int) -> tuple[Path, Path, str]:
    """A project with one TMLR digest of `papers` papers and a note on the first; returns
    (mkdocs.yml, the note, the paper page's Markdown path relative to build/)."""
    copy_project(dest, seeds=False)
    cfg = dest / "mkdocs.yml"
    (dest / "overrides").mkdir(exist_ok=True)
    (dest / "citekeys.yml").unlink(missing_ok=True)
    rnd = random.Random(7)
    lines = ["Daily TMLR digest for Aug 08, 2025", "TMLR", "Accepted papers", "==============="]
    for i in range(papers):
        title = " ".join(rnd.choice(WORDS).capitalize() for _ in range(6)) + f" Number {i}"
        lines += [f"Title: {title}", f"Authors: Alex Syn{i}, Bo Jones",
                  "Abstract: " + " ".join(rnd.choice(WORDS) for _ in range(120)) + ".",
                  f"URL: https://openreview.net/forum?id=syn{i:07d}", "---"]
    (dest / "seeds" / "000_synthetic.txt").write_text("\n".join(lines) + "\n")
    notes = dest / "content" / "notes"
    for old in notes.glob("*.md"):
        old.unlink()  # the shipped notes are about seed papers, not the synthetic ones
    from generator.build import build
    from generator.config import load_config

    result = build(load_config(cfg))
    first = result.library.papers[0]
    note = notes / f"{first.key}.md"
    note.write_text(NOTE.format(marker="start"))
    return cfg, note, f"papers/{first.slug}/index.md"


def save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def disk_latency(cfg: Path, note: Path, page: Path, rounds: int) -> list[float]:
    watcher = Watcher(cfg, debounce=0.05, out=io.StringIO())
    watcher.start()
    times = []
    try:
        for n in range(rounds):
            marker = f"disk{n}x{time.time_ns()}"
            t0 = time.perf_counter()
            save(note, NOTE.format(marker=marker))
            while marker not in page.read_text():
                if time.perf_counter() - t0 > 30:
                    raise SystemExit("the edit never reached the Markdown")
                time.sleep(0.001)
            times.append(time.perf_counter() - t0)
            watcher.wait_for(n + 1, 10)
    finally:
        watcher.stop()
    return times


def existing_project(root: Path) -> tuple[Path, Path, str]:
    """(mkdocs.yml, the note, the page's Markdown path relative to build/) of a list built already:
    the paper a third of the way down papers.json, given a note if it has none."""
    cfg = root.resolve() / "mkdocs.yml"
    papers = json.loads((cfg.parent / "build" / "papers.json").read_text(encoding="utf-8"))
    paper = papers[len(papers) // 3]
    note = cfg.parent / "content" / "notes" / f"{paper['key']}.md"
    if not note.exists():
        subprocess.run([sys.executable, "-m", "generator.cli", "-f", str(cfg), "note", paper["key"]],
                       cwd=cfg.parent, check=True, capture_output=True)
    return cfg, note, f"{paper['page']}index.md"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def browser_latency(cfg: Path, note: Path, page_md: str, rounds: int, env: dict[str, str],
                    pause: float) -> list[float]:
    """`readinglist serve` (with `env`), the paper's page open in Chromium: `rounds` note edits,
    `pause` seconds apart, each timed from the save to the tab showing it."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    # The note's own text and a marker line, replaced on each edit (the note does not grow).
    text = note.read_text(encoding="utf-8").split("\nEdit marker ")[0].rstrip("\n") + "\n"
    save(note, text + "\nEdit marker start.\n")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", **env)
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "-f", str(cfg), "serve", "--port", str(port)],
                            cwd=cfg.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    times: list[float] = []
    reload_at: list[float] = []
    painted: list[float] = []
    try:
        url = f"http://127.0.0.1:{port}/{page_md.removesuffix('index.md')}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page()
            deadline = time.monotonic() + 900
            while True:  # the first MkDocs build of 10,000 pages takes a while
                try:
                    page.goto(url, wait_until="load", timeout=10_000)
                    if "Edit marker start" in page.inner_text("body"):
                        break
                except Exception:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("readinglist serve did not come up")
                time.sleep(1)
            time.sleep(2)  # let the live-reload connection settle
            for n in range(rounds):
                if n:
                    time.sleep(pause)
                marker = f"tab{n}x{time.time_ns()}"
                t0, wall0 = time.perf_counter(), time.time()
                save(note, text + f"\nEdit marker {marker}.\n")
                page.wait_for_function(f"document.body && document.body.innerText.includes({marker!r})",
                                       timeout=60_000, polling=20)
                times.append(time.perf_counter() - t0)
                # When the reloaded document started, in wall-clock time: splits server from browser;
                # and when it first painted (its text; the check above runs later, on a main thread
                # busy with Material's scripts, which fetch and parse the 1.6 MB sitemap).
                origin = page.evaluate("performance.timeOrigin") / 1000
                reload_at.append(origin - wall0)
                paint = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
                if paint is not None:
                    painted.append(origin + paint / 1000 - wall0)
            browser.close()
        print(f"  {', '.join(f'{t:.2f}' for t in times)} s; the tab started reloading after a median "
              f"{statistics.median(reload_at) * 1000:.0f} ms (generator + MkDocs' rebuild; the rest is the browser "
              f"loading the page) and first painted after {', '.join(f'{t:.2f}' for t in painted)} s", flush=True)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        save(note, text)
    return times


def report(name: str, times: list[float], target: float) -> bool:
    ms = [t * 1000 for t in times]
    ok = statistics.median(times) <= target
    print(f"{name}: median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms over {len(ms)} edits "
          f"(target {target * 1000:.0f} ms for the median) {'OK' if ok else 'TOO SLOW'}")
    return ok


def variant(text: str) -> tuple[str, dict[str, str]]:
    name, _, assignments = text.partition(":")
    return name, dict(a.split("=", 1) for a in assignments.split(",") if "=" in a)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--papers", type=int, default=1000, help="the synthetic list's size (without --project)")
    ap.add_argument("--project", type=Path, help="a list built already, instead of a synthetic one")
    ap.add_argument("--rounds", type=int, default=5, help="edits timed per watcher and per serve")
    ap.add_argument("--serve-rounds", type=int, default=1, help="serves started per variant, in turns")
    ap.add_argument("--pause", type=float, default=20.0, help="seconds between two edits under serve")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:VAR=VALUE[,VAR=VALUE]",
                    help="also serve with these switches, in turns with the base")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--no-disk", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rl-note-latency-") as tmp:
        t0 = time.perf_counter()
        if args.project:
            cfg, note, page_md = existing_project(args.project)
        else:
            cfg, note, page_md = synthetic_project(Path(tmp), args.papers)
            print(f"setup: {args.papers} papers, first full build {time.perf_counter() - t0:.1f} s")
        ok = True
        if not args.no_disk:
            ok &= report("note edit -> generated Markdown on disk",
                         disk_latency(cfg, note, cfg.parent / "build" / page_md, args.rounds), 0.3)
        if not args.no_browser:
            variants = [("base", {}), *(variant(v) for v in args.variant)]
            times: dict[str, list[float]] = {name: [] for name, _ in variants}
            for rnd in range(args.serve_rounds):
                for name, env in variants:
                    print(f"serve round {rnd + 1}, {name} {env or ''}", flush=True)
                    times[name] += browser_latency(cfg, note, page_md, args.rounds, env, args.pause)
            for name, _ in variants:
                ok &= report(f"note edit -> open browser tab (readinglist serve, {name})", times[name], 2.0) \
                    or name != "base"
            for name, _ in variants[1:]:
                diff = statistics.median(times[name]) - statistics.median(times["base"])
                print(f"{name} - base: {diff:+.2f} s (medians)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
