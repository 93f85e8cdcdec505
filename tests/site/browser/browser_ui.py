"""What a person does on the site, as small helpers shared by the browser tests."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from browser_site import Served

SCHEMES = ("light", "dark")


@dataclass
class Recorder:
    """One browser context and tab, with every request and console error it produced."""

    site: Served
    context: Any
    page: Any
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    @classmethod
    def open(cls, browser: Any, site: Served, *, color_scheme: str = "light") -> Recorder:
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, color_scheme=color_scheme,
            permissions=["clipboard-read", "clipboard-write"])
        rec = cls(site, context, context.new_page())
        context.on("request", lambda r: rec.requests.append(r.url))
        # Nothing may reach the network; stop any outside request right here (it is still recorded).
        context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/]).*"), lambda route: route.abort())
        context.on("page", rec._watch)
        rec._watch(rec.page)
        return rec

    def _watch(self, page: Any) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text} ({page.url})"))
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e} ({page.url})"))

    def outside(self) -> list[str]:
        """Requests to anywhere but this site's server on 127.0.0.1."""
        return [u for u in self.requests if not u.startswith(self.site.origin + "/")
                and urlsplit(u).scheme not in ("data", "blob", "about")]

    def allow_error(self, pattern: str) -> None:
        """A console error this test provokes on purpose (e.g. the 404 status of a missing page)."""
        self.allowed.append(re.compile(pattern))

    def assert_clean(self) -> None:
        assert self.outside() == [], f"requests left 127.0.0.1: {self.outside()}"
        errors = [e for e in self.errors if not any(p.search(e) for p in self.allowed)]
        assert errors == [], "console errors:\n" + "\n".join(errors)

    def close(self) -> None:
        self.context.close()


def goto(page: Any, site: Served, path: str = "") -> Any:
    """Open `path` (relative to the site root) and wait until Material has started."""
    response = page.goto(site.url(path), wait_until="load")
    page.wait_for_selector("body[data-md-color-scheme]")
    return response


def path_of(page: Any, site: Served) -> str:
    """The current page's path relative to the site root (`papers/x/`)."""
    path = urlsplit(page.url).path
    assert path.startswith(site.prefix), f"{page.url} is outside {site.prefix}"
    return path[len(site.prefix):]


def h1(page: Any) -> str:
    return str(page.locator("article.md-content__inner h1").first.inner_text()).replace("¶", "").strip()


MATERIAL_CLOSE_DELAY_MS = 125
# Material closes the drawer and the search 125 ms after the location changes
# (`merge(location$, target$).pipe(delay(125))` in its bundle, on the `location$` and `target$`
# it puts on `window`); the new article can be in sooner, and a drawer opened before then is
# closed under the next click. The page counts a timer of the same length started on the same
# changes: subscribed after Material's, each starts after Material's and fires after it, so none
# pending means Material's close has run. A full page load (no instant navigation) starts a new
# document with no count and nothing of Material's pending.
_WATCH_CLOSE = """delay => {
    if (window.rlCloses || !window.location$ || !window.target$) return
    window.rlCloses = {pending: 0}
    const later = () => {
        window.rlCloses.pending += 1
        setTimeout(() => { window.rlCloses.pending -= 1 }, delay)
    }
    window.location$.subscribe(later)
    window.target$.subscribe(later)
}"""


def click_and_wait(page: Any, locator: Any, site: Served, expect_path: str) -> None:
    """Click a link and wait until `expect_path` is shown. Material's instant navigation changes
    the URL before it swaps the content in, so wait for the old article to be replaced too, and
    then for Material's close of the drawer and search after a navigation (above)."""
    page.evaluate(_WATCH_CLOSE, MATERIAL_CLOSE_DELAY_MS)
    page.evaluate("document.querySelectorAll('article.md-content__inner').forEach(a => a.dataset.rlOld = '1')")
    locator.click()
    page.wait_for_url(site.url(expect_path) + "*")
    page.wait_for_selector("article.md-content__inner:not([data-rl-old])")
    page.wait_for_function("!window.rlCloses || window.rlCloses.pending === 0")


def search(page: Any, query: str, expect: str | None = None) -> list[str]:
    """Type `query` into Material's search box (it listens for key-up) and return the result titles.
    With `expect`, wait until a result of that title is shown: results for the query typed so far
    arrive one key at a time, so reading them at once could see an earlier prefix's list."""
    box = page.locator(".md-search__input")
    if not box.is_visible():
        page.locator("label.md-header__button[for='__search']").click()
    box.click()
    box.fill("")
    box.press_sequentially(query, delay=10)
    if expect is not None:
        heading = page.locator(".md-search-result__item h1", has_text=expect).first
        heading.wait_for(timeout=20_000)
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
    # A shorter prefix may already show the paper; the full query's results replace that list a
    # moment later, and a click on the old one is lost. Wait until the list stops changing.
    page.evaluate("""() => new Promise(done => {
        const list = document.querySelector('.md-search-result__list')
        let quiet = setTimeout(done, 150)
        new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(done, 150) })
            .observe(list, {childList: true, subtree: true})
    })""")
    return [t.strip() for t in page.locator(".md-search-result__item h1").all_inner_texts()]


def set_scheme(page: Any, scheme: str) -> None:
    """Click the header toggle until the page shows `scheme` (light = Material's default, dark = slate)."""
    want = "slate" if scheme == "dark" else "default"
    if page.locator("body").get_attribute("data-md-color-scheme") != want:
        page.locator("form[data-md-component='palette'] label:visible").first.click()
        page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') === '{want}'")


def screenshot(page: Any, out: Path, site: Served, name: str, scheme: str, *, full_page: bool = True) -> Path:
    """Picture `<variant>-<name>-<scheme>.png` for a person to look at (transitions finished)."""
    target = out / f"{site.name}-{name}-{scheme}.png"
    page.screenshot(path=str(target), full_page=full_page, animations="disabled")
    return target


def link_targets(page: Any, selector: str) -> list[tuple[str, str, str]]:
    """(link text, href, h1 of the page it opens) for every link matching `selector`.
    The pages are fetched by the browser itself, so relative links resolve as they would on click."""
    return [tuple(x) for x in page.evaluate(
        """async sel => Promise.all([...document.querySelectorAll(sel)].map(async a => {
            const html = await (await fetch(a.href)).text()
            const doc = new DOMParser().parseFromString(html, 'text/html')
            const h = doc.querySelector('article h1')
            const title = h ? h.textContent.replace('¶', '').trim() : ''
            return [a.textContent.trim(), a.href, title]
        }))""", selector)]
