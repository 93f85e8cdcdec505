"""MkDocs plugin `readinglist`: run the generator before MkDocs collects the docs folder.

Kept thin on purpose: all logic lives in the generator package. Because it is a
plugin (entry point in pyproject.toml), `mkdocs build`, `mkdocs serve` and
`mkdocs gh-deploy` work on their own wherever the package is installed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.plugins import BasePlugin, event_priority

from .build import build
from .config import load_config

log = logging.getLogger("mkdocs.plugins.readinglist")


def _enabled() -> bool:
    # `readinglist serve`/`watch` regenerate the pages themselves; building here too would
    # make MkDocs rebuild twice per edit.
    return os.environ.get("READINGLIST_HOOK") != "off"


class ReadingListPlugin(BasePlugin):  # type: ignore[type-arg]
    def on_pre_build(self, config: Any, **_: Any) -> None:
        if not _enabled():
            return
        result = build(load_config(Path(config.config_file_path)))
        for problem in result.problems:
            # Input problems are readinglist's to report (`readinglist check --strict` fails on
            # them); they are not MkDocs warnings, so `mkdocs build --strict` judges the site only.
            (log.error if problem.severity == "error" else log.info)(str(problem))
        log.info(result.summary())

    def on_serve(self, server: Any, config: Any, builder: Any, **_: Any) -> Any:
        if _enabled():
            rl = load_config(Path(config.config_file_path))
            for folder in (rl.seeds_dir, rl.content_dir):
                if folder.exists():
                    server.watch(str(folder))
        return server

    # After Material's tags plugin has put its links into the context.
    @event_priority(-100)
    def on_page_context(self, context: Any, page: Any, **_: Any) -> Any:
        # Tag chips on a paper page link to the tag's own page, not to the index of all tags.
        from .render.tags import canonical_tag_links

        if isinstance(context.get("tags"), list):
            canonical_tag_links(context["tags"])
        return context
