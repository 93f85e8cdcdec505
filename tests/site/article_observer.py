"""A MkDocs hook for tests (mkdocs.yml `hooks:`): for each paper page, what a plugin that comes
after readinglist sees of it in `on_post_page` (the page's output and `page.content`), one JSON
line per page appended to the file named by $ARTICLE_OBSERVER_LOG. Only MkDocs' public events."""

from __future__ import annotations

import json
import os
from typing import Any


def on_post_page(output: str, page: Any, config: Any, **_: Any) -> str:
    if page.meta.get("template") == "paper.html":
        with open(os.environ["ARTICLE_OBSERVER_LOG"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"src": page.file.src_uri, "output": output, "content": page.content}) + "\n")
    return output
