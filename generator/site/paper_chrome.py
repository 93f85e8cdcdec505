"""Everything the readinglist plugin does to a paper page outside its article, in one object.

What happens to one paper page, in order:

1. The generator writes the article: `build/papers/<slug>/index.md` is front matter
   (`template: paper.html`, `rl_html: true`, ...) and a body that is finished HTML
   (generator/render/paper.py). Nothing below changes a byte of it.
2. MkDocs reads the page; the plugin hands the body past Python-Markdown, which would give it
   back unchanged (`on_page_markdown` / `on_page_content` in site/plugin.py, switch
   `READINGLIST_SKIP_MARKDOWN`).
3. Before the theme renders the page (`on_page_context`, ahead of every other plugin), and only
   when Pagefind answers search (Material's own index then leaves every page out), `hold_article`
   takes the article out of `page.content` and leaves `ARTICLE_HOLE` in its place: Material's
   search plugin runs a regular expression over each page's content in that event whether or not
   the page is indexed (1.2 s at 10,000 papers), and the theme has less text to join. Switch
   `READINGLIST_LATE_ARTICLE`. `finish_page` puts the article back first thing (step 5), before
   any other plugin's `on_post_page` sees the page, and into `page.content` too.
4. Material's `main.html` renders the page with `generator/theme/paper.html`, which puts
   `page.content` (the article, or its hole: step 3) in `{% block content %}` and passes each
   block of Material's chrome around it (styles, header, tabs, site_nav, footer, config,
   scripts) to `rl_paper_chrome`. With the plugin each block calls `PaperChrome` (that Jinja
   global) directly: the block is rendered once per build and reused with the page's own values
   put in (site/fragments.py, `READINGLIST_FRAGMENTS`), and in the blocks listed in
   `SHARED_BLOCKS` the icons become CSS masks and the inline scripts and script-only elements
   move into shared script files (site/shared_chrome.py, `READINGLIST_SHARED_CHROME`). Without
   the plugin (stock MkDocs, Zensical) `rl_paper_chrome` is not defined and every block is
   Material's own.
5. When the page is rendered (`on_post_page`), `finish_page` puts the article back in its hole,
   shares the scripts of the page head (Material writes one from a partial of its own, outside
   any block a template can wrap) and drops the theme's indentation outside the article
   (`strip_indentation`): a paper page was about 27 KB, 4 KB of it leading white space. Both
   belong to `READINGLIST_SHARED_CHROME`.
6. After the build (`on_post_build`), `write` puts the icon stylesheet and the script files the
   pages now refer to into the site.

A fresh `PaperChrome` is made for each build (`on_env`): `mkdocs serve` rebuilds with the same plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup
from mkdocs.utils import get_relative_url

from ..runtime import switches
from .fragments import FragmentCache
from .shared_chrome import SharedChrome, strip_indentation

TEMPLATE = "paper.html"
# What `page.content` of a paper page holds while the theme renders it (step 3). A comment no text
# of the list can put into a page (every `<` of untrusted text is escaped: render/escape.py) and
# no theme template writes.
ARTICLE_HOLE = "<!-- readinglist: the article goes here after the theme (site/paper_chrome.py) -->"
# The blocks whose icons and scripts go into shared files. On a paper page the others hold no
# inline icon or script: `styles` links stylesheets, `tabs` and `footer` are links and text, and
# `scripts` loads files already (Material's bundle, the readinglist scripts).
SHARED_BLOCKS = frozenset({"header", "site_nav", "config"})


class PaperChrome:
    """The chrome of this build's paper pages: `rl_paper_chrome` in generator/theme/paper.html,
    then `finish_page` on each rendered page and `write` once after the build."""

    def __init__(self, *, fragments: bool = True, shared: bool = True, late_article: bool = True) -> None:
        self.fragments = FragmentCache(fragments)
        self.shared = SharedChrome(shared)
        self.late_article = late_article
        self._held: dict[str, str] = {}  # page source -> its article, from hold_article to finish_page

    @classmethod
    def from_switches(cls) -> PaperChrome:
        """Each speed-up with its own switch, for the benchmark's variants (benchmarks/variants.py)."""
        return cls(fragments=switches.on("READINGLIST_FRAGMENTS"), shared=switches.on("READINGLIST_SHARED_CHROME"),
                   late_article=switches.on("READINGLIST_LATE_ARTICLE"))

    def __call__(self, block: str, page: Any, holes: Sequence[str] = (),
                 caller: Callable[[], str] | None = None) -> Markup:
        """Block `block` of `page`, as `caller` renders it. `holes` are the values in it that differ
        from page to page (the title in the header, the table of contents in the sidebar): reused
        output gets this page's."""
        assert caller is not None, "used as rl_paper_chrome(block, page, holes, caller=caller)"
        render = caller
        if block in SHARED_BLOCKS and self.shared.enabled:
            def render() -> str:
                return self.shared.share(str(caller()), _base(page))
        return self.fragments(block, page, holes, caller=render)

    @staticmethod
    def is_paper(page: Any) -> bool:
        return bool(page.meta.get("template") == TEMPLATE)

    def hold_article(self, page: Any) -> None:
        """A paper page's article kept here until `finish_page`, `ARTICLE_HOLE` in its place (step 3).
        The plugin calls it only when Pagefind answers search: otherwise Material's search plugin
        indexes what `page.content` holds in the same event."""
        if self.late_article and self.is_paper(page) and page.content:
            self._held[page.file.src_uri] = page.content
            page.content = ARTICLE_HOLE

    def finish_page(self, output: str, page: Any) -> str:
        """A rendered page with its article in place, its head's scripts shared and no indentation
        outside its article; any page but a paper page, or a build with shared chrome off, gets
        only its article back."""
        article = self._held.pop(page.file.src_uri, None) if self._held else None
        if article is not None:
            page.content = article
            output = output.replace(ARTICLE_HOLE, article)
        if not self.shared.enabled or not self.is_paper(page):
            return output
        start, end = output.find("<article"), output.rfind("</article>")
        if start < 0 or end < 0:
            return output
        before, article, after = output[:start], output[start:end], output[end:]
        before = self.shared.share_head(before, _base(page))
        return strip_indentation(before) + article + strip_indentation(after)

    def write(self, site_dir: Path) -> None:
        """The icon stylesheet and script files this build's pages refer to (site/shared_chrome.py)."""
        self.shared.write(site_dir)


def _base(page: Any) -> str:
    """The relative URL of the site's root from `page` (MkDocs' `base_url` in its templates)."""
    return get_relative_url(".", page.url)
