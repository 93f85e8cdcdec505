"""MkDocs hook: run the generator before MkDocs collects the docs folder.

Kept thin on purpose: all logic lives in the generator package. `mkdocs build`,
`mkdocs serve` and `mkdocs gh-deploy` work on their own because of it.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any

from generator import search, slim
from generator.build import build
from generator.config import load_config

log = logging.getLogger("mkdocs.readinglist")


def on_pre_build(config: Any, **_: Any) -> None:
    # `readinglist serve`/`watch` regenerate the pages themselves; building here too would
    # make MkDocs rebuild twice per edit.
    if os.environ.get("READINGLIST_HOOK") != "off":
        result = build(load_config(Path(config.config_file_path)))
        for problem in result.problems:
            log.warning(str(problem)) if problem.severity == "error" else log.info(str(problem))
        log.info(result.summary())
    _start_search_index(config)


def on_serve(server: Any, config: Any, builder: Any, **_: Any) -> Any:
    if os.environ.get("READINGLIST_HOOK") != "off":
        rl = load_config(Path(config.config_file_path))
        for folder in (rl.seeds_dir, rl.content_dir):
            if folder.exists():
                server.watch(str(folder))
    return server


# Search: a Pagefind index written after each build, behind Material's search box (generator/search.py).
_state: dict[str, Any] = {"serving": False, "built": False}
_index_lock = threading.Lock()  # one Pagefind run at a time; a later run sees what the earlier wrote
_publish_lock = threading.Lock()


def on_startup(command: str, **_: Any) -> None:
    _state["serving"] = command == "serve"


def on_config(config: Any, **_: Any) -> Any:
    if search.available():
        config.extra["readinglist_search_worker"] = search.WORKER
    else:
        log.warning("readinglist: the Pagefind binary is missing (pip install -e .); "
                    "search falls back to Material's built-in index")
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, **_: Any) -> str:
    # Pagefind indexes the papers; Material's own index would be a second, 25 MB copy of them.
    if config.extra.get("readinglist_search_worker"):
        meta = page.meta.get("search") if isinstance(page.meta.get("search"), dict) else {}
        page.meta["search"] = {**meta, "exclude": True}
    return markdown


def _prepared(config: Any) -> Path:
    return Path(config.docs_dir) / ".readinglist-cache" / search.INDEX_DIR


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


def on_post_build(config: Any, **_: Any) -> None:
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


def on_post_page(output: str, **_: Any) -> str:
    return slim.strip_indentation(output)
