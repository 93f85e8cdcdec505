"""A paper page's chrome in one object (generator/site/paper_chrome.py), through the real
generator/theme/paper.html over a small stand-in for Material's main.html: without the plugin
every block is the theme's own; with it each block is rendered once and reused with the page's
own title and table of contents, icons and scripts go to shared files, and the head and white
space are finished after rendering, never inside the article."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.site import shared_chrome
from generator.site.paper_chrome import PaperChrome
from generator.site.shared_chrome import strip_indentation

THEME = Path(__file__).resolve().parents[2] / "generator" / "theme"
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M3 6h18v2H3z"/></svg>'
# Material's blocks, small: each says when it is rendered (`drawn`), so reuse can be counted.
MAIN = """<html><head>
  <script>__md_scope=new URL("{{ base_url }}",location)</script>
  {% block styles %}{{ drawn("styles") }}<link rel="stylesheet" href="{{ base_url }}/main.css">{% endblock %}
</head><body>
  {% block header %}{{ drawn("header") }}<header><a class="md-logo">""" + ICON + """</a>
      <span class="md-ellipsis">{{ page.meta.title }}</span></header>{% endblock %}
  {% block tabs %}{{ drawn("tabs") }}<nav class="md-tabs"><a href="{{ base_url }}/all/">All</a></nav>{% endblock %}
  {% block site_nav %}{{ drawn("site_nav") }}<nav class="md-nav">{% include "partials/toc.html" %}</nav>{% endblock %}
  <main>{% block content %}{% endblock %}</main>
  {% block footer %}{{ drawn("footer") }}<footer>Made with Material</footer>{% endblock %}
  {% block config %}{{ drawn("config") }}<script id="__config" type="application/json">
    {"base": "{{ base_url }}"}</script>{% endblock %}
  {% block scripts %}{{ drawn("scripts") }}<script src="{{ base_url }}/bundle.js"></script>{% endblock %}
</body></html>
"""
TOC = """<ul>{% for item in page.toc %}<li><a href="#{{ item }}">{{ item }}</a></li>{% endfor %}</ul>"""
ARTICLE = '<h1 id="t">A title</h1>\n    <pre>keep\n      this indent</pre>\n    <p>Text</p>'


@dataclass
class Page:
    title: str
    url: str = "papers/a/"
    toc: list[str] = field(default_factory=lambda: ["abstract", "cite"])
    previous_page: None = None
    next_page: None = None
    is_homepage: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.meta = {"template": "paper.html", "title": self.title}
        self.content = Markup(ARTICLE)


class Site:
    """The theme's paper.html over MAIN, with or without the plugin's `rl_paper_chrome`."""

    def __init__(self, chrome: PaperChrome | None) -> None:
        self.drawn: Counter[str] = Counter()
        loader = jinja2.ChoiceLoader([jinja2.DictLoader({"main.html": MAIN, "partials/toc.html": TOC}),
                                      jinja2.FileSystemLoader(str(THEME))])
        self.env = jinja2.Environment(loader=loader)
        self.env.globals["drawn"] = lambda name: self.drawn.update([name]) or ""
        if chrome is not None:
            self.env.globals["rl_paper_chrome"] = chrome
        self.chrome = chrome

    def render(self, page: Page) -> str:
        html = self.env.get_template("paper.html").render(page=page, base_url="../..")
        return self.chrome.finish_page(html, page) if self.chrome else html


def pages(n: int) -> list[Page]:
    return [Page(f"Paper {i} &amp; more", toc=["abstract", f"notes-{i}"]) for i in range(n)]


def test_without_the_plugin_every_block_is_the_theme_s_own_around_the_article() -> None:
    site = Site(None)
    html = site.render(Page("One"))
    assert site.drawn == Counter({b: 1 for b in ("styles", "header", "tabs", "site_nav", "footer", "config",
                                                  "scripts")})
    assert ICON in html and '<span class="md-ellipsis">One</span>' in html
    assert '<li><a href="#cite">cite</a></li>' in html
    assert '<script id="__config" type="application/json">\n    {"base": "../.."}</script>' in html
    assert f'<article class="rl-paper">\n    {ARTICLE}\n  </article>' in html


def test_each_block_is_rendered_twice_then_reused_with_the_page_s_own_title_and_toc() -> None:
    site = Site(PaperChrome())
    out = [site.render(page) for page in pages(5)]
    # The first page renders each block, the second checks it; the other three reuse it.
    assert site.drawn == Counter({b: 2 for b in ("styles", "header", "tabs", "site_nav", "footer", "config",
                                                  "scripts")})
    for i, html in enumerate(out):
        assert f'<span class="md-ellipsis">Paper {i} &amp; more</span>' in html
        assert f'<li><a href="#notes-{i}">notes-{i}</a></li>' in html
        assert html.count("notes-") == 2 and "Paper" in html
    # The same pages as when every block is rendered for every page.
    assert [Site(PaperChrome(fragments=False)).render(p) for p in pages(5)] == out


def test_icons_and_scripts_of_the_chrome_and_head_go_to_shared_files_and_the_article_stays(tmp_path: Path) -> None:
    chrome = PaperChrome()
    site = Site(chrome)
    html = site.render(Page("One"))
    (key,) = chrome.shared.icons
    assert f'<a class="md-logo"><svg class="rl-icon rl-icon-{key}" viewBox="0 0 24 24"></svg></a>' in html
    assert ICON not in html
    # The config data block and the head's scope script (outside any block) are now files.
    assert "__config" not in html and "__md_scope" not in html
    scripts = re.findall(r'<script src="\.\./\.\./assets/javascripts/(rl-[0-9a-f]{10}\.js)"></script>', html)
    assert sorted(scripts) == sorted(chrome.shared.scripts) and len(scripts) == 2
    assert '<script src="../../bundle.js"></script>' in html  # already a file: left where it is
    # No indentation outside the article; the article exactly as the generator wrote it.
    head = html[:html.index("<article")]
    assert not re.search(r"\n[ \t]", head) and not re.search(r"\n[ \t]", html[html.index("</article>"):])
    assert f'<article class="rl-paper">\n    {ARTICLE}\n  </article>' in html
    chrome.write(tmp_path)
    for name in scripts:
        assert (tmp_path / shared_chrome.SCRIPTS_DIR / name).is_file()
    assert f".rl-icon-{key}{{" in (tmp_path / shared_chrome.ICONS_CSS).read_text("utf-8")


def test_shared_chrome_off_keeps_the_theme_s_bytes_but_still_reuses_blocks(tmp_path: Path) -> None:
    plain = [Site(None).render(p) for p in pages(3)]
    site = Site(PaperChrome(shared=False))
    off = [site.render(p) for p in pages(3)]
    assert site.drawn["header"] == 2
    # Whitespace aside, the page Material would give: inline icons, inline scripts.
    assert [re.sub(r"\s+", "", h) for h in off] == [re.sub(r"\s+", "", h) for h in plain]
    assert ICON in off[2] and "__md_scope" in off[2]
    site.chrome.write(tmp_path)  # type: ignore[union-attr]
    assert list(tmp_path.iterdir()) == []


def test_pages_other_than_papers_are_left_as_rendered() -> None:
    page = Page("Home")
    page.meta["template"] = "main.html"
    html = "<html><head>\n  <script>var a=1;</script>\n</head><body>\n  <article>x</article>\n</body></html>"
    chrome = PaperChrome()
    assert chrome.finish_page(html, page) == html and chrome.shared.scripts == {}


def test_strip_indentation_keeps_pre_and_textarea() -> None:
    html = ("<div>\n    <p>\n\n\n      Some text\n    </p>\n"
            "    <pre><code>keep\n    this   indent\n</code></pre>\n"
            "  <textarea>\n  also kept</textarea>\n</div>\n")
    assert strip_indentation(html) == (
        "<div>\n<p>\nSome text\n</p>\n"
        "<pre><code>keep\n    this   indent\n</code></pre>\n"
        "<textarea>\n  also kept</textarea>\n</div>\n")
