"""MkDocs plugin `readinglist`: run the generator before MkDocs collects the docs folder.

Kept thin on purpose: all logic lives in the generator package. Because it is a
plugin (entry point in pyproject.toml), `mkdocs build`, `mkdocs serve` and
`mkdocs gh-deploy` work on their own wherever the package is installed.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.toc import get_toc

from ..build import build
from ..config import load_config
from ..errors import GeneratorError, Stopped
from ..render import html
from ..render.search_records import RECORDS
from ..runtime import lock, switches
from ..write import MARKER
from . import search, serve_rebuilds, serve_signal, size
from .paper_chrome import PaperChrome

log = logging.getLogger("mkdocs.plugins.readinglist")


def _enabled() -> bool:
    # `readinglist serve`/`watch` regenerate the pages themselves; building here too would
    # make MkDocs rebuild twice per edit.
    return switches.on("READINGLIST_HOOK")


class ReadingListPlugin(BasePlugin):  # type: ignore[type-arg]
    """Runs the generator before each build. Its other parts are speed-ups through MkDocs' public
    events that change no byte of any page's `<article>` (tests/render/test_html_pages.py builds
    the site with and without the plugin and compares): the paper bodies, already HTML, skip the
    Markdown pass; the theme chrome around paper pages is `PaperChrome`'s (site/paper_chrome.py:
    rendered once, shared as files, its indentation dropped); unchanged paper pages are left out
    of `mkdocs serve` rebuilds; search is Pagefind's."""

    def __init__(self) -> None:
        super().__init__()
        self._bodies: dict[str, str] = {}  # page source -> its finished HTML body, for on_page_content
        self._chrome = PaperChrome()
        self._lock: lock.ListLock | None = None  # the list's build lock, while a build holds it

    def on_startup(self, command: str, dirty: bool = False, **_: Any) -> None:
        _state["serving"] = command == "serve"
        _state["dirty"] = dirty

    def on_config(self, config: Any, **_: Any) -> Any:
        if os.environ.get("GITHUB_ACTIONS") == "true" and is_local_url(config.site_url or ""):
            raise PluginError(
                f"readinglist: site_url is {config.site_url or 'not set'} in a build on GitHub Actions: the "
                "published pages' canonical links, sitemap and 404 page would point there. Set SITE_URL to the "
                "site's address (the Pages workflow passes it from actions/configure-pages: "
                "`SITE_URL: ${{ steps.pages.outputs.base_url }}/`), or write it as site_url in mkdocs.yml.")
        if not config.use_directory_urls:
            # Paper and listing pages are HTML with relative links of the form `../slug/`.
            log.warning("readinglist: generated pages link with directory URLs (papers/<slug>/); "
                        "use_directory_urls: false in mkdocs.yml would break those links")
        # What the templates may rely on only when this plugin runs (generator/theme/main.html).
        config.extra["readinglist_plugin"] = True
        if search.available():
            config.extra["readinglist_search"] = search.SCRIPT
            _search_box_first(config)
        else:
            log.warning("readinglist: the Pagefind binary is missing (pip install -e .); "
                        "search falls back to Material's built-in index")
        return config

    def on_env(self, env: Any, config: Any, **_: Any) -> Any:
        # For generator/theme/paper.html's chrome blocks, which call it only where it is defined
        # (without this plugin every block is Material's own). Fresh per build: `mkdocs serve`
        # rebuilds with the same plugin.
        env.globals["rl_paper_chrome"] = self._chrome = PaperChrome.from_switches()
        return env

    def on_pre_build(self, config: Any, **_: Any) -> None:
        self._bodies.clear()
        if _enabled():
            # One build of the list at a time (runtime/lock.py), held until MkDocs has read the
            # docs folder and the search index is written (on_post_build, on_build_error).
            self._release()  # (a build MkDocs gave up on without telling: never held twice)
            self._lock = lock.for_list(Path(config.config_file_path).parent)
            self._lock.acquire(log.info)
            try:
                result = build(load_config(Path(config.config_file_path)))
            except Stopped as exc:
                # A file the curator writes could not be read whole, and nothing was written:
                # `mkdocs build` fails; `mkdocs serve` serves the last build's pages and says why.
                if not (_state["serving"] and (Path(config.docs_dir) / MARKER).is_file()):
                    raise PluginError(f"readinglist: {exc}\nreadinglist: {exc.advice()}") from None
                for line in exc.lines():
                    log.error(line)
                log.error(f"readinglist: {exc.advice()}; serving the last good build until then")
                result = None
            except GeneratorError as exc:
                # A message that says what to do, not a traceback (MkDocs prints a PluginError alone).
                raise PluginError(f"readinglist: {exc}") from None
            for problem in result.problems if result is not None else ():
                # Input problems are readinglist's to report (`readinglist check --strict` fails on
                # them); they are not MkDocs warnings, so `mkdocs build --strict` judges the site only.
                (log.error if problem.severity == "error" else log.info)(str(problem))
            if result is not None:
                log.info(result.summary())
        if not _rebuilding():
            _start_search_index(config)

    def on_files(self, files: Any, config: Any, **_: Any) -> Any:
        left_out = serve_rebuilds.prune(files, _state, serve_signal.written_since(_state))
        if left_out:
            log.debug(f"readinglist: {len(left_out)} unchanged paper pages left out of this rebuild")
        return files

    def on_page_markdown(self, markdown: str, page: Any, config: Any, **_: Any) -> str:
        # Pagefind indexes the papers; Material's own index would be a second, 25 MB copy of them.
        if config.extra.get("readinglist_search"):
            meta = page.meta.get("search") if isinstance(page.meta.get("search"), dict) else {}
            page.meta["search"] = {**meta, "exclude": True}
        if page.meta.get(html.FLAG) is True and switches.on("READINGLIST_SKIP_MARKDOWN"):
            # The generator wrote this body as finished HTML (render/html.py): Python-Markdown
            # would give it back unchanged, at 5 ms a page. It comes back in on_page_content.
            self._bodies[page.file.src_uri] = markdown
            return ""
        return markdown

    def on_page_content(self, output: str, page: Any, config: Any, files: Any, **_: Any) -> str:
        body = self._bodies.pop(page.file.src_uri, None)
        if body is None:
            if page.meta.get(html.FLAG) is True:
                # Markdown ran over the finished HTML (READINGLIST_SKIP_MARKDOWN=off) and gave it
                # back, but its `toc` sees no heading inside raw HTML: the same table of contents
                # as when the pass is skipped, so that the switch changes no byte.
                page.toc = get_toc(html.toc_tokens(output))  # type: ignore[arg-type]
            return output
        # What Markdown's `toc` would have listed (the headings carry its ids and permalinks).
        page.toc = get_toc(html.toc_tokens(body))  # type: ignore[arg-type]
        return body.strip()

    @event_priority(100)  # before Material's search plugin, which reads `page.content` here
    def on_page_context(self, context: Any, page: Any, config: Any, **_: Any) -> Any:
        if config.extra.get("readinglist_search"):
            # Pagefind answers search: a paper page's article waits outside the theme (site/paper_chrome.py).
            self._chrome.hold_article(page)
        return context

    @event_priority(100)  # first: every other plugin sees the finished page
    def on_post_page(self, output: str, page: Any, **_: Any) -> str:
        # A paper page's article back in place, its head and white space (site/paper_chrome.py);
        # other pages pass unchanged.
        return self._chrome.finish_page(output, page)

    def on_post_build(self, config: Any, **_: Any) -> None:
        try:
            serve_rebuilds.keep_sitemap(config.site_dir, _state)
            serve_signal.done(_state)
            self._chrome.write(Path(config.site_dir))
            if _rebuilding():
                # A rebuild under `mkdocs serve` is a second or two: an index made beside it took the
                # CPU it needs (Pagefind's process and the records' JSON), and the open tab waited.
                _start_search_index(config)
            _finish_search_index(config)
            if not _state.get("serving"):
                # A whole walk of the site: for builds that publish, not for each rebuild under serve.
                _warn_if_large(config)
            _state["built"] = True
        finally:
            self._release()

    def on_build_error(self, error: Exception, **_: Any) -> None:
        self._release()

    def _release(self) -> None:
        held, self._lock = self._lock, None
        if held is not None:
            held.release()

    def on_serve(self, server: Any, config: Any, builder: Any, **_: Any) -> Any:
        # Under `readinglist serve`, its watcher says when it wrote pages (site/serve_signal.py).
        serve_signal.watch(server, config, _state)
        if _enabled():
            rl = load_config(Path(config.config_file_path))
            for folder in (rl.seeds_dir, rl.content_dir):
                if folder.exists():
                    server.watch(str(folder))
        return server


def is_local_url(url: str) -> bool:
    """Whether `url` is empty or points at this machine (what `mkdocs serve` uses), not a published site."""
    host = urlsplit(url).hostname or ""
    return host in {"", "localhost", "127.0.0.1", "0.0.0.0", "::1"} or host.endswith(".localhost")


# The Pagefind search box (templates/partials/search.html): only for a build with Pagefind's index,
# so a build without this plugin (stock MkDocs, Zensical) draws its engine's own box.
TEMPLATES = Path(__file__).resolve().parent / "templates"
THEME = Path(__file__).resolve().parent.parent / "theme"


def _search_box_first(config: Any) -> None:
    """Put TEMPLATES in the theme's template folders (`theme.dirs`) just before the readinglist
    theme's own folder: after the curator's `custom_dir`, which still wins."""
    dirs: list[str] = config.theme.dirs
    if str(TEMPLATES) in dirs:
        return
    place = dirs.index(str(THEME)) if str(THEME) in dirs else (1 if config.theme.custom_dir else 0)
    dirs.insert(place, str(TEMPLATES))


# Search: a Pagefind index written after each build, behind Material's search box (site/search.py).
_state: dict[str, Any] = {"serving": False, "built": False}
_index_lock = threading.Lock()  # one Pagefind run at a time; a later run sees what the earlier wrote
_publish_lock = threading.Lock()


def _rebuilding() -> bool:
    """A rebuild under `mkdocs serve`, after its first build: the open tab waits for it."""
    return bool(_state["serving"] and _state["built"])


def _prepared(config: Any) -> Path:
    # Beside mkdocs.yml, not in the docs folder: MkDocs would list its 10,000 chunk files on every
    # build (a second of each rebuild under `serve`) and its watcher would see Pagefind write them.
    return Path(config.config_file_path).parent / ".readinglist-cache" / search.INDEX_DIR


# Under `mkdocs serve`, search is indexed again once the edits have paused this long: indexing
# ten thousand records takes seconds of both cores, and a curator saves a note many times a minute.
SERVE_INDEX_DELAY = 2.0


def _start_search_index(config: Any) -> None:
    """Index the papers while MkDocs renders the pages: Pagefind is a process of its own, so on two
    cores the index costs next to no time; an unchanged list reuses the index of the last build.
    After a rebuild under `serve`, the index waits for a pause in the edits (SERVE_INDEX_DELAY) and
    runs at a low priority, so that the next edit's rebuild and the open tab do not wait for it."""
    if not config.extra.get("readinglist_search"):
        return
    # The records the generator's build wrote (render/search_records.py): this build's, or, when
    # it did not build (READINGLIST_HOOK=off, `readinglist serve`), the watcher's.
    records, out = Path(config.docs_dir) / RECORDS, _prepared(config)
    background = _rebuilding()

    def run() -> None:
        try:
            with _index_lock:
                count = search.build_index(records, out, background=background)
            if count is not None:
                log.info(f"readinglist: search index of {count} records written")
        except search.SearchIndexError as exc:
            _state["index_error"] = str(exc)
        except Exception as exc:  # said as a failed build (_finish_search_index), not a thread's traceback
            _state["index_error"] = f"{type(exc).__name__}: {exc}"

    _state["index_error"] = ""
    pending = _state.get("index_thread")
    if isinstance(pending, threading.Timer):
        pending.cancel()  # an edit came within the delay: one index, of the newest pages, will do
    thread = threading.Timer(SERVE_INDEX_DELAY, run) if background else threading.Thread(target=run)
    thread.daemon = True
    _state["index_thread"] = thread
    thread.start()


def _finish_search_index(config: Any) -> None:
    thread = _state.get("index_thread")
    if not config.extra.get("readinglist_search") or thread is None:
        return
    site = Path(config.site_dir)

    def finish() -> str:
        thread.join()
        if _state.get("index_error"):
            return f"readinglist: search index not written: {_state['index_error']}"
        try:
            with _publish_lock:
                search.publish(_prepared(config), site)
        except OSError as exc:
            return f"readinglist: search index not put into {site}: {exc}"
        return ""

    def in_background() -> None:
        failed = finish()
        if failed:
            log.error(failed)

    if _rebuilding():
        # Rebuilds under `mkdocs serve`: the page reloads at once; search catches up in a moment.
        threading.Thread(target=in_background, daemon=True).start()
    else:
        failed = finish()
        if failed and not _state["serving"]:
            _state["built"] = True
            raise PluginError(failed)  # a site without its search is not a finished build
        if failed:
            log.error(failed)  # `mkdocs serve` goes on serving: the next rebuild tries again
    _state["built"] = True


def _warn_if_large(config: Any) -> None:
    """A MkDocs warning with the site's size by part when it passes `size_warning_mb` (site/size.py).
    Under `mkdocs build --strict` (the Pages workflow) it fails the deploy: the site is then within
    a fifth of the size GitHub Pages publishes."""
    try:
        limit = load_config(Path(config.config_file_path)).size_warning_mb
    except GeneratorError as exc:
        raise PluginError(f"readinglist: {exc}") from None
    if limit > 0 and (message := size.warning(size.size_by_part(Path(config.site_dir)), limit)):
        log.warning(message)
