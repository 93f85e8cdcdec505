"""Chromium loads the pages built from the hostile digests and no payload runs: no dialog, no
console message or page error from a payload, no injected element; searching for a payload word
shows the payloads as text in the results."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator

import pytest
from hostile_html import TITLE_PAYLOADS, Site, build_hostile_site

pytestmark = pytest.mark.browser

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# Elements and attributes only a payload could have made.
INJECTED_JS = """() => {
  const bad = [...document.querySelectorAll('iframe, object, embed, frame, img, video, audio')]
    .map(e => e.outerHTML.slice(0, 80));
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) {
      const v = a.value.trim().toLowerCase();
      if (a.name.startsWith('on') || (['href', 'src', 'action'].includes(a.name) && v.startsWith('javascript:')))
        bad.push(e.tagName + ' ' + a.name + '=' + a.value.slice(0, 60));
    }
  }
  for (const s of document.querySelectorAll('script'))
    if (s.textContent.includes('xss')) bad.push('script: ' + s.textContent.slice(0, 60));
  return bad;
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    site = build_hostile_site(tmp_path_factory)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site.site))
    handler.log_message = lambda *a, **k: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(chromium_browser: object) -> object:
    return chromium_browser  # the session's one Chromium (tests/conftest.py)


class Watch:
    """Everything a page did that a payload could cause."""

    def __init__(self, page: object) -> None:
        self.dialogs: list[str] = []
        self.console: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", self._dialog)  # type: ignore[attr-defined]
        page.on("console", lambda m: self.console.append(m.text))  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: self.errors.append(str(e)))  # type: ignore[attr-defined]

    def _dialog(self, dialog: object) -> None:
        self.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    def payload_ran(self) -> list[str]:
        return self.dialogs + [m for m in self.console + self.errors if "xss" in m or "alert" in m]


def test_no_payload_runs_on_any_page_that_shows_them(served: tuple[Site, str], browser: object) -> None:
    site, base = served
    pages = ["", "all/", "digests/", "digests/000-hostile-tmlr/", "digests/001-hostile-listing/",
             "digests/003-hostile-header/", "tags/"]
    pages += [p["page"] for p in site.papers]
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    watch = Watch(page)
    for rel in pages:
        page.goto(base + rel, wait_until="load")
        # onerror/onload handlers would fire as their resources fail or load: wait for the network to go quiet.
        page.wait_for_load_state("networkidle")
        assert page.evaluate(INJECTED_JS) == [], rel
    assert watch.payload_ran() == []
    # The payloads are there, as text a reader sees.
    page.goto(base + site.paper(TITLE_PAYLOADS[0])["page"], wait_until="load")
    body = page.inner_text("article")
    assert TITLE_PAYLOADS[0] in body
    assert 'Mallory <img src=x onerror=alert("xss-author")>' in body
    assert "[click me](javascript:alert(\"xss-mdlink\"))" in body
    assert page.title() == TITLE_PAYLOADS[0] + " - Reading list"
    context.close()


def test_search_results_show_payloads_as_text_and_run_nothing(served: tuple[Site, str],
                                                              browser: object) -> None:
    _site, base = served
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    watch = Watch(page)
    page.goto(base, wait_until="load")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.press_sequentially("Scripted", delay=40)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15_000)
    text = page.inner_text(".md-search-result")
    assert TITLE_PAYLOADS[0] in text
    assert page.evaluate(INJECTED_JS) == []
    # Search for a word of the payload markup itself, then open a result (highlighting runs).
    box.fill("")
    box.press_sequentially("onerror", delay=40)
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    assert "onerror=alert" in page.inner_text(".md-search-result")
    assert page.evaluate(INJECTED_JS) == []
    page.locator(".md-search-result__item a").first.click()
    page.wait_for_load_state("networkidle")
    assert "h=onerror" in page.url
    assert page.evaluate(INJECTED_JS) == []
    assert watch.payload_ran() == []
    context.close()
