"""MkDocs hook: run the generator before MkDocs collects the docs folder.

Kept thin on purpose: all logic lives in the generator package. `mkdocs build`,
`mkdocs serve` and `mkdocs gh-deploy` work on their own because of it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from generator.build import build
from generator.config import load_config

log = logging.getLogger("mkdocs.readinglist")


def on_pre_build(config: Any, **_: Any) -> None:
    # `readinglist serve`/`watch` regenerate the pages themselves; building here too would
    # make MkDocs rebuild twice per edit.
    if os.environ.get("READINGLIST_HOOK") == "off":
        return
    result = build(load_config(Path(config.config_file_path)))
    for problem in result.problems:
        log.warning(str(problem)) if problem.severity == "error" else log.info(str(problem))
    log.info(result.summary())


def on_serve(server: Any, config: Any, builder: Any, **_: Any) -> Any:
    if os.environ.get("READINGLIST_HOOK") != "off":
        rl = load_config(Path(config.config_file_path))
        for folder in (rl.seeds_dir, rl.content_dir):
            if folder.exists():
                server.watch(str(folder))
    return server


def on_page_context(context: Any, page: Any, **_: Any) -> Any:
    # Tag chips on a paper page link to the tag's own page, not to the index of all tags.
    from generator.render.tags import canonical_tag_links

    if isinstance(context.get("tags"), list):
        canonical_tag_links(context["tags"])
    return context
