"""Scale benchmark: synthetic lists of N papers, timed stage by stage; prints a table (`make bench`).

    python benchmarks/run.py                       # N = 1,000 and 10,000, three runs each (8-10 minutes)
    python benchmarks/run.py --runs 1              # one run each
    python benchmarks/run.py --sizes 1000          # one size
    python benchmarks/run.py --edit-loop           # also: edit under `readinglist serve` at the largest N
    python benchmarks/run.py --json out.json       # also write the figures as JSON

Each measurement runs in a child process of its own, so peak memory is that stage's alone. The
generator is timed through the names `generator.build.build` calls: `collect` (read and enrich),
`render_site` and `write_tree`; "read" is `generator.sources.read_all` and "related" the functions
of `generator.enrich.related` (when that module exists), both run inside `collect`, so "enrich" is
`collect` without them. The speed of this (virtual, shared) machine moves by a third within a
minute, so each size is built `--runs` times from a cold project and the median run is reported
(each run's figures are printed under the table). Figures on a shared machine are pessimistic.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import synth  # noqa: E402

TARGETS = {
    "gen_s": 8.0, "gen_mb": 1024, "gen_share": 0.15, "whole_s": 75.0, "ratio": 11.0,
    "nochange_s": 1.5, "site_kb": 25.0, "search_kb": 2.5, "search_s": 1.5, "edit_s": 5.0,
}


# ---------------------------------------------------------------- project set-up

def make_project(dest: Path, n: int, seed: int = 0) -> Path:
    """A project folder like a curator's: this repo's mkdocs.yml, overrides, content (no notes), N papers."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    # The readinglist MkDocs plugin comes from the installed package, so mkdocs.yml copies as it is.
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (dest / "mkdocs.yml").write_text(text, encoding="utf-8")
    if (ROOT / "overrides").is_dir():
        shutil.copytree(ROOT / "overrides", dest / "overrides")
    else:
        (dest / "overrides").mkdir()
    if (ROOT / "content").is_dir():
        # Notes name seed papers; the synthetic list has none of them.
        shutil.copytree(ROOT / "content", dest / "content", ignore=shutil.ignore_patterns("notes"))
    (dest / "build").mkdir()
    (dest / "build" / ".gitignore").write_text("*\n!.gitignore\n")
    synth.generate(n, dest / "seeds", seed)
    return dest / "mkdocs.yml"


# ---------------------------------------------------------------- child: one generator run

class StageTimer:
    """Wraps functions so the outermost call of each stage adds its wall time to `totals`."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.depth: dict[str, int] = {}

    def wrap(self, stage: str, fn: Any) -> Any:
        if getattr(fn, "_bench_stage", None):
            return fn

        def timed(*args: Any, **kwargs: Any) -> Any:
            outer = self.depth.get(stage, 0) == 0
            self.depth[stage] = self.depth.get(stage, 0) + 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth[stage] -= 1
                if outer:
                    self.totals[stage] = self.totals.get(stage, 0.0) + time.perf_counter() - t0

        timed._bench_stage = stage  # type: ignore[attr-defined]
        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed


def install_timers(timer: StageTimer) -> bool:
    """Time the stages `build()` calls; returns whether a related-papers stage exists."""
    import importlib
    import inspect
    import types

    import generator.build as gb
    import generator.sources as gs

    gs.read_all = timer.wrap("read", gs.read_all)
    # `collect` reads, loads the notes and enriches (related papers among it); older branches
    # called `enrich` from build() directly.
    for name, stage in (("collect", "collect"), ("enrich", "collect"), ("render_site", "render"),
                        ("write_tree", "write")):
        if hasattr(gb, name):
            setattr(gb, name, timer.wrap(stage, getattr(gb, name)))
    try:
        related = importlib.import_module("generator.enrich.related")
    except ImportError:
        return False
    # Wherever a function of the related module is bound outside it (enrich, build), wrap it: those
    # are the stage's entry points. Not in the module itself: its helpers run tens of thousands of
    # times inside them (a wrapper each time was 0.5 µs of the timer's own, 0.01-0.02 s a build).
    # Nor generator functions (the tagging child's `text_blocks`): calling one only makes the
    # generator, so its wrapper would time nothing.
    for mod in [m for k, m in sys.modules.items()
                if k.startswith("generator") and m is not None and m is not related]:
        for attr, value in list(vars(mod).items()):
            if (isinstance(value, types.FunctionType) and value.__module__ == related.__name__
                    and not inspect.isgeneratorfunction(value)):
                setattr(mod, attr, timer.wrap("related", value))
    return True


def child_gen(config_file: Path) -> dict[str, Any]:
    import resource

    timer = StageTimer()
    has_related = install_timers(timer)
    import generator.build as gb
    from generator.config import load_config

    read_inside = hasattr(gb, "collect")  # else build() reads before it enriches
    t0 = time.perf_counter()
    result = gb.build(load_config(config_file))
    total = time.perf_counter() - t0
    st = timer.totals
    stats = result.stats
    return {
        "total": total,
        "read": st.get("read", 0.0),
        "enrich": max(0.0, st.get("collect", 0.0) - (st.get("read", 0.0) if read_inside else 0.0)
                      - st.get("related", 0.0)),
        "related": st.get("related") if has_related else None,
        "render": st.get("render", 0.0),
        "write": st.get("write", 0.0),
        "papers": len(result.library.papers),
        "written": len(stats.written) if stats else 0,
        "unchanged": stats.unchanged if stats else 0,
        "warnings": len(result.problems.warnings),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


# ---------------------------------------------------------------- parent: run children

def run_child(args: list[str], env: dict[str, str] | None = None,
              cwd: Path | None = None) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS MB, stdout) of a child process and its children."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=err, env=env, cwd=cwd, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.stderr.write(err.read()[-4000:])
            raise SystemExit(f"benchmark step failed ({proc.returncode}): {' '.join(args)}")
        # wait4 reports the child alone; its own children (pagefind) are in its RUSAGE_CHILDREN,
        # which the time of the whole command (`cpu`) below includes via the child's own report.
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read()


def gen(config_file: Path) -> dict[str, Any]:
    _, cpu, _, out = run_child([sys.executable, str(Path(__file__)), "--child", "gen", str(config_file)],
                               env=command_environ(dict(os.environ, CI="", READINGLIST_PROGRESS="off")))
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["cpu"] = cpu
    return result


def command_environ(env: dict[str, str]) -> dict[str, str]:
    """The environment `readinglist build` builds in: it restarts itself with glibc's huge-page
    tunable where that applies (generator/memory.py); the child here calls `build()` directly."""
    try:
        from generator.memory import tuned_environ
    except ImportError:  # an older generator: none
        return env
    return tuned_environ(env) or env


def mkdocs_build(config_file: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of `mkdocs build` with the generator hook off (it ran just before),
    Pagefind's indexing included."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_HOOK="off", READINGLIST_PROGRESS="off")
    # A small wrapper reports the CPU time of mkdocs and of the pagefind binary it starts.
    code = ("import resource, runpy, sys, json; sys.argv = ['mkdocs'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('mkdocs', run_name='__main__')\n"
            "except SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
            "c = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(json.dumps({'children_cpu': c.ru_utime + c.ru_stime}))\n"
            "sys.exit(code)\n")
    wall, cpu, peak, out = run_child([sys.executable, "-c", code, "build", "-q", "-f", str(config_file)], env=env)
    extra = json.loads(out.strip().splitlines()[-1])["children_cpu"]
    return wall, cpu + extra, peak


def tree_size(folder: Path) -> tuple[int, int, int]:
    """(bytes, bytes on disk by allocated blocks, files) under `folder`."""
    size = blocks = files = 0
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            st = os.stat(os.path.join(dirpath, name))
            size += st.st_size
            blocks += st.st_blocks * 512
            files += 1
    return size, blocks, files


def search_index_size(site: Path) -> tuple[int, str]:
    """Bytes of the search index the site ships, and which index it is."""
    pagefind = site / "pagefind"
    if pagefind.is_dir():
        return tree_size(pagefind)[0], "pagefind"
    lunr = site / "search" / "search_index.json"
    return (lunr.stat().st_size if lunr.exists() else 0), "lunr"


# Kernel time per new file on this machine's ext4 when nothing was deleted in the last minutes.
SETTLED_DISK_US = 50


def disk_probe(workdir: Path, count: int = 2000) -> float:
    """Kernel microseconds per file created in `workdir` (the files stay until the folder goes:
    deleting them would slow what follows, the very thing this looks for)."""
    import resource

    probe = workdir / "disk-probe"
    probe.mkdir(parents=True, exist_ok=True)
    data = b"x" * 1024
    before = resource.getrusage(resource.RUSAGE_SELF).ru_stime
    for i in range(count):
        fd = os.open(probe / f"f{i}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, data)
        os.close(fd)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_stime - before) / count * 1e6


def cpu_probe() -> float:
    """CPU seconds of a fixed pure-Python loop (the best of three): this shared virtual machine's
    speed changed by up to half between hours, and whole runs with it."""
    def once() -> float:
        start = time.process_time()
        total, names = 0, {}
        for i in range(3_000_000):
            total += i
        for i in range(300_000):
            names[str(i)] = i
        return time.process_time() - start
    return min(once() for _ in range(3))


def set_aside(proj: Path, names: tuple[str, ...]) -> None:
    """Move a run's output out of the project (into the work folder's `old/`, removed at the end):
    deleting ten thousand files slows the creation of files on this machine's disk for minutes
    after (see the README), which would slow the next run."""
    old = proj.parent / "old" / f"{proj.name}-{time.time_ns()}"
    for name in names:
        if (proj / name).exists():
            old.mkdir(parents=True, exist_ok=True)
            (proj / name).rename(old / name)
    (proj / "citekeys.yml").unlink(missing_ok=True)  # keys are handed out again, as in a first build


def cold_project(proj: Path) -> None:
    """The project as before its first build: no build folder, no caches, no keys handed out."""
    set_aside(proj, ("build", ".readinglist-cache", "site"))
    (proj / "build").mkdir()
    (proj / "build" / ".gitignore").write_text("*\n!.gitignore\n")


def median_run(runs: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The run whose `key` is the median (the lower middle one of an even number)."""
    return sorted(runs, key=lambda r: r[key])[(len(runs) - 1) // 2]


def measure(n: int, workdir: Path, *, seed: int, runs: int = 3) -> dict[str, Any]:
    """Each timing `runs` times from a cold project (this machine's speed moves by a third within a
    minute), the median reported: the generator cold, then without a change, then `mkdocs build`
    (its search index is made anew each time: the cache that keeps it is set aside too). Each
    step starts with the files of the steps before it written out (`os.sync`): the kernel writes
    a file back 30 s after it was written, which on two cores takes time from whatever runs then,
    and a step is timed for its own work, not for writing back the 230 MB site of the one before."""
    proj = workdir / f"n{n}"
    print(f"[N={n}] writing synthetic digests ...", file=sys.stderr)
    config_file = make_project(proj, n, seed)
    row: dict[str, Any] = {"n": n}
    gens: list[dict[str, Any]] = []
    mkdocs: list[dict[str, Any]] = []
    for run in range(runs):
        if run:
            cold_project(proj)
        print(f"[N={n}] run {run + 1} of {runs}: generator, cold ...", file=sys.stderr)
        os.sync()
        gens.append(gen(config_file))
        print(f"[N={n}] run {run + 1} of {runs}: generator, no change ...", file=sys.stderr)
        os.sync()
        nochange = gen(config_file)
        print(f"[N={n}] run {run + 1} of {runs}: mkdocs build ...", file=sys.stderr)
        os.sync()
        wall, cpu, peak = mkdocs_build(config_file)
        mkdocs.append({"wall": wall, "cpu": cpu, "mb": peak, "nochange": nochange})
    row["gen"] = median_run(gens, "total")
    middle = median_run(mkdocs, "wall")
    row["nochange"] = median_run([m["nochange"] for m in mkdocs], "total")
    row["mkdocs_s"], row["mkdocs_cpu"], row["mkdocs_mb"] = middle["wall"], middle["cpu"], middle["mb"]
    row["runs"] = {"gen_s": [g["total"] for g in gens], "gen_cpu": [g["cpu"] for g in gens],
                   "mkdocs_s": [m["wall"] for m in mkdocs], "nochange_s": [m["nochange"]["total"] for m in mkdocs]}
    row["whole_s"] = row["gen"]["total"] + row["mkdocs_s"]
    row["whole_cpu"] = row["gen"]["cpu"] + row["mkdocs_cpu"]
    site = proj / "site"
    size, blocks, files = tree_size(site)
    idx, kind = search_index_size(site)
    row.update(site_bytes=size, site_disk=blocks, site_files=files, search_bytes=idx, search_kind=kind,
               papers=row["gen"]["papers"])
    return row


def measure_search(row: dict[str, Any], workdir: Path) -> None:
    """The search timing of a measured size. Run after every size is built: Chromium deletes its
    profile folder when it closes, and on this machine's ext4 the files made in the minutes
    after many files were deleted cost several times the kernel time (see the README)."""
    n = row["n"]
    print(f"[N={n}] search in Chromium ...", file=sys.stderr)
    row["search"] = search_latency(workdir / f"n{n}" / "site", query="diffusion")


# ---------------------------------------------------------------- search in the browser

def serve_static(site: Path, prefix: str = "/reading-list/") -> tuple[Any, str]:
    """Serve `site` under `prefix` on 127.0.0.1 (free port), like a GitHub project page."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path: str) -> str:
            if not path.startswith(prefix):
                return str(site / "__missing__")
            return super().translate_path("/" + path[len(prefix):])

        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{prefix}"


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


SEARCH_URLS = ("/pagefind/", "/search/", "readinglist-search.js", "/workers/search.")


def search_latency(site: Path, query: str, runs: int = 3) -> dict[str, Any]:
    """Open a paper page in a fresh browser context, type `query`, time until results show."""
    from playwright.sync_api import sync_playwright

    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    page_url = papers[len(papers) // 2]["page"]
    server, base = serve_static(site)
    times, totals, fetched, counts, first_ok = [], [], [], [], True
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            for _ in range(runs):
                ctx = browser.new_context()
                page = ctx.new_page()
                got: list[int] = []
                # Bytes search needs (the worker, Pagefind's files, Material's search index); the
                # sitemap Material's instant navigation loads on every first visit is not search.
                page.on("requestfinished", lambda r, got=got: got.append(
                    r.sizes()["responseBodySize"] if any(k in r.url for k in SEARCH_URLS) else 0))
                t_open = time.perf_counter()
                page.goto(base + page_url, wait_until="load")
                box = page.locator(".md-search__input")
                box.click()
                box.press_sequentially(query)
                t_typed = time.perf_counter()
                page.locator(".md-search-result__item").first.wait_for(timeout=60_000)
                t_result = time.perf_counter()
                times.append(t_result - t_typed)
                totals.append(t_result - t_open)
                counts.append(page.locator(".md-search-result__item").count())
                fetched.append(sum(got))
                # The first result's link must open a paper page.
                href = page.locator(".md-search-result__item a").first.get_attribute("href") or ""
                first_ok = first_ok and "/papers/" in href
                ctx.close()
            browser.close()
    finally:
        server.shutdown()
    return {"after_typing_s": max(times), "open_to_result_s": max(totals), "fetched_kb": max(fetched) / 1024,
            "results_shown": min(counts), "links_ok": first_ok, "query": query}


# ---------------------------------------------------------------- edit loop under `readinglist serve`

def edit_loop(config_file: Path, timeout: float = 900.0) -> dict[str, Any]:
    """Edit a paper (its note when notes exist, else its title in the digest) under `readinglist serve`
    and time until the open page in Chromium shows the edit."""
    import socket

    from playwright.sync_api import sync_playwright

    proj = config_file.parent
    site_json = proj / "build" / "papers.json"
    if not site_json.exists():
        gen(config_file)
    papers = json.loads(site_json.read_text(encoding="utf-8"))
    paper = papers[len(papers) // 3]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", CI="")
    exe = Path(sys.executable).with_name("readinglist")
    log = open(proj / "serve.log", "w")
    proc = subprocess.Popen([str(exe), "-f", str(config_file), "serve", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=proj, start_new_session=True)
    url = f"http://127.0.0.1:{port}/{paper['page']}"
    marker = f"Benchmark edit {int(time.time())}"
    try:
        t_start = time.perf_counter()
        import urllib.request
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"readinglist serve exited early; see {proj / 'serve.log'}")
            try:
                with urllib.request.urlopen(url, timeout=5) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.perf_counter() - t_start > timeout:
                raise SystemExit("readinglist serve did not come up in time")
            time.sleep(1.0)
        startup = time.perf_counter() - t_start
        # The note is made first (`readinglist note`, a new file: a full rebuild) and the timed edit
        # is a change to it, as when a curator writes a note: what the target is about.
        note = _note_stub(proj, paper)
        if note is not None:
            _wait_for(url, 'id="my-notes"', timeout)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url, wait_until="load")
            time.sleep(2.0)  # let the live-reload socket connect
            if note is not None:
                with note.open("a", encoding="utf-8") as fh:
                    fh.write(f"\n\n{marker}.\n")
                how = f"note {note.relative_to(proj)}"
            else:
                how = _title_edit(proj, paper, marker)
            t0 = time.perf_counter()
            page.get_by_text(marker).first.wait_for(timeout=120_000)
            took = time.perf_counter() - t0
            browser.close()
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
        log.close()
    return {"edit_s": took, "startup_s": startup, "edited": how}


def _wait_for(url: str, text: str, timeout: float) -> None:
    import urllib.request

    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                if text in resp.read().decode("utf-8", "replace"):
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{url} never showed {text!r}")


def _note_stub(proj: Path, paper: dict[str, Any]) -> Path | None:
    """The paper's note, made by `readinglist note` (None on a branch without notes)."""
    exe = Path(sys.executable).with_name("readinglist")
    notes = proj / "content" / "notes"
    probe = subprocess.run([str(exe), "note", "--help"], capture_output=True, text=True, cwd=proj)
    if probe.returncode != 0:
        return None
    before = set(notes.rglob("*.md")) if notes.exists() else set()
    subprocess.run([str(exe), "-f", str(proj / "mkdocs.yml"), "note", paper["key"]], capture_output=True,
                   text=True, cwd=proj)
    after = set(notes.rglob("*.md")) if notes.exists() else set()
    created = sorted(after - before) or sorted(p for p in after if paper["key"] in p.name
                                               or paper["page"].split("/")[1] in p.name)
    return created[0] if created else None


def _title_edit(proj: Path, paper: dict[str, Any], marker: str) -> str:
    """Without notes: change the paper's title in its digest."""
    for digest in sorted((proj / "seeds").glob("*.txt")):
        text = digest.read_text(encoding="utf-8")
        title = paper["title_source"]
        if title in text:
            digest.write_text(text.replace(title, f"{title} {marker}", 1), encoding="utf-8")
            return f"title in {digest.name}"
    raise SystemExit("could not find the paper to edit")


# ---------------------------------------------------------------- the table

def fmt(value: float | None, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def table(rows: list[dict[str, Any]]) -> str:
    head = ["N", "read s", "enrich s", "related s", "render s", "write s", "gen s (CPU s)", "gen MB", "gen %",
            "no-change s (files)", "mkdocs s (CPU s)", "whole s (CPU s)", "site KB/paper", "search KB/paper",
            "search s (KB)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        g, nc, n = r["gen"], r["nochange"], r["papers"]
        s = r.get("search")
        cells = [
            f"{n:,}", fmt(g["read"]), fmt(g["enrich"]), fmt(g["related"]), fmt(g["render"]), fmt(g["write"]),
            f"{g['total']:.2f} ({g['cpu']:.2f})", fmt(g["peak_mb"], ".0f"),
            fmt(100 * g["total"] / r["whole_s"], ".1f"),
            f"{nc['total']:.2f} ({nc['written']})", f"{r['mkdocs_s']:.1f} ({r['mkdocs_cpu']:.1f})",
            f"{r['whole_s']:.1f} ({r['whole_cpu']:.1f})",
            fmt(r["site_bytes"] / n / 1024, ".1f") + f" ({r['site_disk'] / n / 1024:.1f} on disk)",
            fmt(r["search_bytes"] / n / 1024, ".2f") + f" {r['search_kind']}",
            (f"{s['after_typing_s']:.2f} ({s['fetched_kb']:.0f})" if s else "—"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def verdicts(rows: list[dict[str, Any]], edit: dict[str, Any] | None) -> list[str]:
    t = TARGETS
    big = max(rows, key=lambda r: r["n"])
    g, n = big["gen"], big["papers"]
    out = [
        f"generator at {n:,}: {g['total']:.2f} s wall, {g['cpu']:.2f} s CPU (target ≤ {t['gen_s']} s), "
        f"{g['peak_mb']:.0f} MB "
        f"(≤ {t['gen_mb']}), {100 * g['total'] / big['whole_s']:.1f} % of the whole build "
        f"(≤ {100 * t['gen_share']:.0f} %)",
        f"whole build at {n:,}: {big['whole_s']:.1f} s wall, {big['whole_cpu']:.1f} s CPU "
        f"(target ≤ {t['whole_s']} s)",
        f"no-change rebuild at {n:,}: {big['nochange']['total']:.2f} s, {big['nochange']['written']} files "
        f"rewritten (target ≤ {t['nochange_s']} s, 0 files)",
        f"site: {big['site_bytes'] / n / 1024:.1f} KB per paper (target ≤ {t['site_kb']}); search index "
        f"{big['search_bytes'] / n / 1024:.2f} KB per paper (≤ {t['search_kb']})",
    ]
    small = [r for r in rows if r["n"] < big["n"]]
    if small:
        s = min(small, key=lambda r: r["n"])
        out.append(f"time({big['n']:,}) / time({s['n']:,}): {big['whole_s'] / s['whole_s']:.1f} wall, "
                   f"{big['whole_cpu'] / s['whole_cpu']:.1f} CPU (target ≤ {t['ratio']})")
    if big.get("search"):
        sr = big["search"]
        out.append(f"search at {n:,} ('{sr['query']}'): first results {sr['after_typing_s']:.2f} s after typing "
                   f"(target ≤ {t['search_s']} s), {sr['open_to_result_s']:.2f} s from opening the page, "
                   f"{sr['fetched_kb']:.0f} KB fetched, {sr['results_shown']} results shown, "
                   f"links open paper pages: {sr['links_ok']}")
    if edit:
        out.append(f"edit loop at {n:,} ({edit['edited']}): shown {edit['edit_s']:.2f} s after saving "
                   f"(target ≤ {t['edit_s']} s); serve start-up {edit['startup_s']:.0f} s")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated list sizes (default 1000,10000)")
    ap.add_argument("--workdir", type=Path, help="keep the generated projects here (default: a temp folder)")
    ap.add_argument("--no-search", action="store_true", help="skip the Chromium search measurement")
    ap.add_argument("--edit-loop", action="store_true", help="also time an edit under `readinglist serve`")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=3,
                    help="cold runs of the generator and of mkdocs build per size, medians reported (default 3)")
    ap.add_argument("--json", type=Path, help="write the measurements to this JSON file")
    ap.add_argument("--child", nargs=2, metavar=("KIND", "CONFIG"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child_gen(Path(args.child[1]))))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="readinglist-bench-"))
    disk_us = disk_probe(workdir)
    cpu_before = cpu_probe()
    rows = [measure(n, workdir, seed=args.seed, runs=max(1, args.runs)) for n in sizes]
    cpu_after = cpu_probe()
    if not args.no_search:
        for row in rows:
            measure_search(row, workdir)
    edit = None
    if args.edit_loop:
        print(f"[N={max(sizes)}] edit loop under readinglist serve ...", file=sys.stderr)
        edit = edit_loop(workdir / f"n{max(sizes)}" / "mkdocs.yml")
    print(table(rows))
    print()
    for line in verdicts(rows, edit):
        print("- " + line)
    for row in rows:
        runs = row["runs"]
        print(f"- runs at {row['n']:,} (medians above): generator {', '.join(f'{t:.2f}' for t in runs['gen_s'])} s, "
              f"mkdocs build {', '.join(f'{t:.1f}' for t in runs['mkdocs_s'])} s, no change "
              f"{', '.join(f'{t:.2f}' for t in runs['nochange_s'])} s")
    print(f"- the disk, before the builds: {disk_us:.0f} µs of kernel time per new 1 KB file (settled: about "
          f"{SETTLED_DISK_US} µs; several times more for minutes after many files were deleted, as at the end of "
          "a benchmark or a test run: wait ten minutes, or the figures above are inflated)")
    print(f"- the CPU, before and after the builds: a fixed Python loop took {cpu_before:.2f} s and "
          f"{cpu_after:.2f} s (0.25-0.46 s on this machine, Dec 2026: every figure above moves with it)")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "edit": edit}, indent=1), encoding="utf-8")
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        shutil.rmtree(workdir / "old", ignore_errors=True)  # the earlier runs' output (set_aside)
    return 0


if __name__ == "__main__":
    sys.exit(main())
