"""The two measurements in a browser (Debian's Chromium through Playwright), run once on the base
variant: first search results after typing (target <= 1.5 s), and a note edit under
`readinglist serve` until the open tab shows it (target <= 2 s)."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from variants import Checkout


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


@contextlib.contextmanager
def chromium_on(site: Path) -> Iterator[tuple[Any, str]]:
    """Debian's Chromium and `site` served under /reading-list/: (browser, the site's address)."""
    from playwright.sync_api import sync_playwright

    server, base = serve_static(site)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            try:
                yield browser, base
            finally:
                browser.close()
    finally:
        server.shutdown()


def counting_page(browser: Any, parts: tuple[str, ...]) -> tuple[Any, Any, list[int]]:
    """A tab in a fresh context, and the list its finished requests whose address holds one of
    `parts` add their body sizes to."""
    ctx = browser.new_context()
    page = ctx.new_page()
    got: list[int] = []
    page.on("requestfinished", lambda r: got.append(
        r.sizes()["responseBodySize"] if any(k in r.url for k in parts) else 0))
    return ctx, page, got


def search_latency(site: Path, query: str, runs: int = 3) -> dict[str, Any]:
    """Open a paper page in a fresh browser context, type `query`, time until results show."""
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    page_url = papers[len(papers) // 2]["page"]
    times, totals, fetched, counts, first_ok = [], [], [], [], True
    with chromium_on(site) as (browser, base):
        for _ in range(runs):
            # Bytes search needs (the worker, Pagefind's files, Material's search index); the
            # sitemap Material's instant navigation loads on every first visit is not search.
            ctx, page, got = counting_page(browser, SEARCH_URLS)
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
    return {"after_typing_s": max(times), "open_to_result_s": max(totals), "fetched_kb": max(fetched) / 1024,
            "results_shown": min(counts), "links_ok": first_ok, "query": query}


def filter_latency(site: Path, runs: int = 3) -> dict[str, Any]:
    """The All papers filter (target: first filtered results <= 1 s): on a fresh All papers page,
    once it has loaded the filter's index, choose the tag most papers have and time until the
    first row shows (and the bytes Pagefind fetched from opening); then open a shared address
    (a tag and a year, sorted by title) in a fresh context, time from opening to the first row."""
    from collections import Counter

    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    tag, count = Counter(t for p in papers for t in p["tags"]).most_common(1)[0]
    year = Counter(p["year"] for p in papers if p["year"]).most_common(1)[0][0]
    chosen, opened, fetched = [], [], []
    rows = "[data-rl-filter-results] tbody tr"
    with chromium_on(site) as (browser, base):
        for _ in range(runs):
            ctx, page, got = counting_page(browser, ("/pagefind/",))
            page.goto(base + "all/", wait_until="load")
            # A reader takes a moment to choose; the page loads the filter's index meanwhile.
            page.locator("form[data-rl-filter][data-rl-index=ready]").wait_for(timeout=60_000)
            t0 = time.perf_counter()
            page.locator("select[name=tag]").select_option(tag)
            page.locator(rows).first.wait_for(timeout=60_000)
            chosen.append(time.perf_counter() - t0)
            fetched.append(sum(got))
            ctx.close()
            ctx = browser.new_context()
            page = ctx.new_page()
            query = urlencode({"tag": tag, "year": year, "sort": "title"})
            t0 = time.perf_counter()
            page.goto(f"{base}all/?{query}", wait_until="load")
            page.locator(rows).first.wait_for(timeout=60_000)
            opened.append(time.perf_counter() - t0)
            ctx.close()
    return {"tag": tag, "tagged": count, "after_choice_s": max(chosen), "shared_link_s": max(opened),
            "fetched_kb": max(fetched) / 1024}


# ---------------------------------------------------------------- edit loop under `readinglist serve`

def edit_loop(code: Checkout, config_file: Path, timeout: float = 900.0,
              env: dict[str, str] | None = None) -> dict[str, Any]:
    """Edit a paper (its note when notes exist, else its title in the digest) under `readinglist serve`
    (with `env`: a serve-only variant's switches) and time until the open page in Chromium shows the edit."""
    import socket

    from playwright.sync_api import sync_playwright

    proj = config_file.parent
    site_json = proj / "build" / "papers.json"
    variant_env = env or {}
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", CI="", **variant_env)
    env.pop("PYTHONPATH", None)
    if not site_json.exists():
        subprocess.run([*code.readinglist(), "-f", str(config_file), "build"], env=env, check=True,
                       capture_output=True)
    papers = json.loads(site_json.read_text(encoding="utf-8"))
    paper = papers[len(papers) // 3]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(proj / "serve.log", "w")
    proc = subprocess.Popen([*code.readinglist(), "-f", str(config_file), "serve", "--port", str(port)],
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
        note = _note_stub(code, proj, paper)
        if note is not None:
            _wait_for(url, 'id="my-notes"', timeout)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url, wait_until="load")
            time.sleep(2.0)  # let the live-reload socket connect
            times = []
            # Three edits, the median reported (this machine's speed moves by a third within
            # minutes); each after the search index of the one before has been written, as when a
            # curator reads the page between saves.
            for i in range(EDITS if note is not None else 1):
                if i:
                    time.sleep(EDIT_PAUSE)
                mark = f"{marker} number {i + 1}"
                if note is not None:
                    with note.open("a", encoding="utf-8") as fh:
                        fh.write(f"\n\n{mark}.\n")
                    how = f"note {note.relative_to(proj)}"
                else:
                    how = _title_edit(proj, paper, mark)
                t0 = time.perf_counter()
                page.get_by_text(mark).first.wait_for(timeout=120_000)
                times.append(time.perf_counter() - t0)
            browser.close()
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
        log.close()
    return {"edit_s": statistics.median(times), "edit_all_s": times, "startup_s": startup, "edited": how}


EDITS = 3
EDIT_PAUSE = 20.0  # seconds: the index starts 2 s after the last save and takes about 15 s at 10,000 papers


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


def _note_stub(code: Checkout, proj: Path, paper: dict[str, Any]) -> Path | None:
    """The paper's note, made by `readinglist note` (None on a branch without notes)."""
    notes = proj / "content" / "notes"
    probe = subprocess.run([*code.readinglist(), "note", "--help"], capture_output=True, text=True, cwd=proj)
    if probe.returncode != 0:
        return None
    before = set(notes.rglob("*.md")) if notes.exists() else set()
    subprocess.run([*code.readinglist(), "-f", str(proj / "mkdocs.yml"), "note", paper["key"]], capture_output=True,
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

