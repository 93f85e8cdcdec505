"""A MkDocs hook for tests (mkdocs.yml `hooks:`): after each build, one JSON line appended to the
file named by $BUILD_OBSERVER_LOG, with the Markdown pages MkDocs built with (as every plugin's
`on_files` left them: hooks run after the plugins) and the pages it rendered. Only MkDocs' public
events, so a test sees what MkDocs was given, not how a plugin decided it."""

from __future__ import annotations

import json
import os
from typing import Any

_build: dict[str, list[str]] = {"pages": [], "rendered": []}


def on_files(files: Any, config: Any, **_: Any) -> Any:
    _build["pages"] = sorted(f.src_uri for f in files.documentation_pages())
    _build["rendered"] = []
    return files


def on_post_page(output: str, page: Any, config: Any, **_: Any) -> str:
    _build["rendered"].append(page.file.src_uri)
    return output


def on_post_build(config: Any, **_: Any) -> None:
    with open(os.environ["BUILD_OBSERVER_LOG"], "a", encoding="utf-8") as fh:
        fh.write(json.dumps(_build) + "\n")
