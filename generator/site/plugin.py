"""MkDocs plugin `readinglist`: run the generator before MkDocs collects the docs folder.

Kept thin on purpose: all logic lives in the generator package. Because it is a
plugin (entry point in pyproject.toml), `mkdocs build`, `mkdocs serve` and
`mkdocs gh-deploy` work on their own wherever the package is installed.
"""

from __future__ import annotations

import logging
import os
import threading
from functools import partial
from pathlib import Path
from typing import Any

from mkdocs.plugins import BasePlugin
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url
from watchdog.events import FileSystemEventHandler

from ..build import build
from ..config import load_config
from ..render import html
from . import search
from . import serve_rebuilds as serve_prune
from . import whitespace as slim
from .fragments import FragmentCache
from .shared_chrome import SharedChrome

log = logging.getLogger("mkdocs.plugins.readinglist")


def _enabled() -> bool:
    # `readinglist serve`/`watch` regenerate the pages themselves; building here too would
    # make MkDocs rebuild twice per edit.
    return os.environ.get("READINGLIST_HOOK") != "off"


class ReadingListPlugin(BasePlugin):  # type: ignore[type-arg]
    _shared: SharedChrome | None = None  # the icons and scripts this build's paper pages share

    def on_startup(self, command: str, dirty: bool = False, **_: Any) -> None:
        _state["serving"] = command == "serve"
        _state["dirty"] = dirty

    def on_config(self, config: Any, **_: Any) -> Any:
        if not config.use_directory_urls:
            # Paper and listing pages are HTML with relative links of the form `../slug/`.
            log.warning("readinglist: generated pages link with directory URLs (papers/<slug>/); "
                        "use_directory_urls: false in mkdocs.yml would break those links")
        if search.available():
            config.extra["readinglist_search_worker"] = search.WORKER
        else:
            log.warning("readinglist: the Pagefind binary is missing (pip install -e .); "
                        "search falls back to Material's built-in index")
        return config

    def on_env(self, env: Any, config: Any, **_: Any) -> Any:
        # A fresh cache per build: `mkdocs serve` rebuilds with the same environment.
        env.globals["rl_cached"] = FragmentCache()
        env.globals["rl_shared"] = self._shared = SharedChrome()
        return env

    def on_pre_build(self, config: Any, **_: Any) -> None:
        if _enabled():
            result = build(load_config(Path(config.config_file_path)))
            for problem in result.problems:
                # Input problems are readinglist's to report (`readinglist check --strict` fails on
                # them); they are not MkDocs warnings, so `mkdocs build --strict` judges the site only.
                (log.error if problem.severity == "error" else log.info)(str(problem))
            log.info(result.summary())
        _start_search_index(config)

    def on_files(self, files: Any, config: Any, **_: Any) -> Any:
        left_out = serve_prune.prune(files, _state)
        if left_out:
            log.debug(f"readinglist: {len(left_out)} unchanged paper pages left out of this rebuild")
        return files

    def on_page_markdown(self, markdown: str, page: Any, config: Any, **_: Any) -> str:
        # Pagefind indexes the papers; Material's own index would be a second, 25 MB copy of them.
        if config.extra.get("readinglist_search_worker"):
            meta = page.meta.get("search") if isinstance(page.meta.get("search"), dict) else {}
            page.meta["search"] = {**meta, "exclude": True}
        if page.meta.get(html.FLAG) is True:
            # The generator wrote this body as finished HTML (render/html.py): no Markdown pass.
            page.render = partial(_render_prebuilt, page)
        return markdown

    def on_post_build(self, config: Any, **_: Any) -> None:
        serve_prune.keep_sitemap(config.site_dir, _state)
        (self._shared or SharedChrome()).write(Path(config.site_dir))
        _finish_search_index(config)
        _state["built"] = True

    def on_post_page(self, output: str, page: Any, **_: Any) -> str:
        if self._shared is not None and page.meta.get("template") == "paper.html":
            # The rest of a paper page's chrome went through rl_shared in overrides/paper.html.
            output = self._shared.share_head(output, get_relative_url(".", page.url))
        return str(slim.strip_indentation(output))

    def on_serve(self, server: Any, config: Any, builder: Any, **_: Any) -> Any:
        if _enabled():
            rl = load_config(Path(config.config_file_path))
            for folder in (rl.seeds_dir, rl.content_dir):
                if folder.exists():
                    server.watch(str(folder))
        native_observer(server)
        return server


class _ChangesOnly(FileSystemEventHandler):  # type: ignore[misc]
    """Passes on what changes a file. inotify also reports files being opened and closed unwritten,
    and every build reads the whole docs folder: MkDocs would rebuild after each build, forever."""

    CHANGES = frozenset({"created", "modified", "moved", "deleted", "closed"})

    def __init__(self, handler: Any) -> None:
        super().__init__()
        self.handler = handler

    def dispatch(self, event: Any) -> None:
        if event.event_type in self.CHANGES:
            self.handler.dispatch(event)


def native_observer(server: Any) -> bool:
    """Let `mkdocs serve` hear of changes from the operating system instead of polling for them.

    MkDocs polls its watched folders every half second, and each poll lists and stats every file
    of the docs folder: at 10,000 papers a tenth of a second of CPU twice a second, and up to half
    a second before an edit is even noticed. The same handlers on watchdog's native observer
    (inotify on Linux) hear of a change at once. Reaches into MkDocs' and watchdog's internals, so
    anything unexpected leaves the polling observer as it was."""
    try:
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        old = server.observer
        if not isinstance(old, PollingObserver) or old.is_alive() or Observer is PollingObserver:
            return False
        new = Observer()
        refs = {}
        for path, watch in server._watch_refs.items():
            for handler in old._handlers.get(watch, ()):
                refs[path] = new.schedule(_ChangesOnly(handler), path, recursive=watch.is_recursive)
        if set(refs) != set(server._watch_refs):
            return False
        server.observer, server._watch_refs = new, refs
        return True
    except Exception as exc:  # a different MkDocs or watchdog: polling still works
        log.debug(f"readinglist: keeping MkDocs' polling observer ({exc})")
        return False


def _render_prebuilt(page: Any, config: Any, files: Any) -> None:
    """What `Page.render` leaves on a page, for a body that is already HTML."""
    body = page.markdown or ""
    page.content = body
    page.toc = get_toc(html.toc_tokens(body))  # type: ignore[arg-type]
    page.present_anchor_ids = html.anchor_ids(body)
    page.links_to_anchors = {}
    page._title_from_render = None


# Search: a Pagefind index written after each build, behind Material's search box (generator/search.py).
_state: dict[str, Any] = {"serving": False, "built": False}
_index_lock = threading.Lock()  # one Pagefind run at a time; a later run sees what the earlier wrote
_publish_lock = threading.Lock()


def _prepared(config: Any) -> Path:
    # Beside mkdocs.yml, not in the docs folder: MkDocs would list its 10,000 chunk files on every
    # build (a second of each rebuild under `serve`) and its watcher would see Pagefind write them.
    return Path(config.config_file_path).parent / ".readinglist-cache" / search.INDEX_DIR


def _start_search_index(config: Any) -> None:
    """Index the papers while MkDocs renders the pages: Pagefind is a process of its own, so on two
    cores the index costs next to no time; an unchanged list reuses the index of the last build."""
    if not config.extra.get("readinglist_search_worker"):
        return
    papers, out = Path(config.docs_dir) / "papers.json", _prepared(config)

    def run() -> None:
        try:
            with _index_lock:
                count = search.build_index(papers, out)
            if count is not None:
                log.info(f"readinglist: search index of {count} papers written")
        except search.SearchIndexError as exc:
            _state["index_error"] = str(exc)

    _state["index_error"] = ""
    thread = threading.Thread(target=run, daemon=True)
    _state["index_thread"] = thread
    thread.start()


def _finish_search_index(config: Any) -> None:
    thread = _state.get("index_thread")
    if not config.extra.get("readinglist_search_worker") or thread is None:
        return
    site = Path(config.site_dir)

    def finish() -> None:
        thread.join()
        if _state.get("index_error"):
            log.warning(f"readinglist: search index not written: {_state['index_error']}")
            return
        with _publish_lock:
            search.publish(_prepared(config), site)

    if _state["serving"] and _state["built"]:
        # Rebuilds under `mkdocs serve`: the page reloads at once; search catches up in a moment.
        threading.Thread(target=finish, daemon=True).start()
    else:
        finish()
    _state["built"] = True
