"""Shared by the hostile-input tests: payloads, and an HTML scan that finds anything injected."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, copy_project

HOSTILE = FIXTURES / "hostile"
LONG = 100_000


def long_line(word: str) -> str:
    unit = f"<b>{word}</b> [x](javascript:{word}) {{{{ {word} }}}} "
    return (unit * (LONG // len(unit) + 1))[:LONG].rstrip()


LONG_TITLE, LONG_ABSTRACT = long_line("xss-lt"), long_line("xss-lb")
# A 100,000-character author line as big collaborations have: thousands of names.
LONG_AUTHORS = [f"Author{i} <b>xss-la</b> {{{{ x }}}} Surname{i}" for i in range(3000)]
LONG_AUTHOR = ", ".join(LONG_AUTHORS)[:LONG].rsplit(", ", 1)[0]
LONG_AUTHORS = LONG_AUTHOR.split(", ")


def long_digest() -> str:
    """A third digest, made here rather than committed: 100,000-character title, author and abstract."""
    return (f"Daily TMLR digest for Aug 10, 2025\nAccepted papers\n===============\nTitle: {LONG_TITLE}\n"
            f"Authors: {LONG_AUTHOR}\nAbstract: {LONG_ABSTRACT}\n"
            "URL: https://openreview.net/forum?id=Hostile100\n---\n")

# Payload strings as they appear in tests/fixtures/hostile/*.txt; each must show up as text.
TITLE_PAYLOADS = [
    '<script>alert("xss-title")</script> Scripted Title',
    '&lt;script&gt;alert("xss-entity")&lt;/script&gt; Entity Title',
    "}, author = {xss-bib-breakout}, note = { @misc{evil,",
    "{{ config.extra }} --- {% raw %} <!-- --> # Not a heading",
    '<script>alert("xss-ltitle")</script> Listing Script Title',
    "../../etc/passwd",
    "a/b\\c",
    "--- # --- <!-- -->",
]
AUTHOR_PAYLOADS = [
    'Mallory <img src=x onerror=alert("xss-author")>',
    "Eve {{ config }}",
    "Ann {: .evil onclick=\"alert('xss-attr-author')\" }",
    'Bob ](javascript:alert("xss-bracket"))',
    'Eve <img src=x onerror=alert("xss-lauthor")>',
]
ABSTRACT_PAYLOADS = [
    "An abstract with <iframe src=\"javascript:alert('xss-iframe')\"></iframe> and "
    "[click me](javascript:alert(\"xss-mdlink\")) and <!-- xss-comment --> inside.",
    "# xss-heading as an abstract line",
    "{% include \"xss.html\" %} and --8<-- \"/etc/passwd\" and {: onclick=\"alert('xss-attr')\" }",
    '<svg onload=alert("xss-svg")> and <javascript:alert("xss-autolink")> and '
    '<script>console.log("xss-console")</script>',
    "title: xss-front",
    'An abstract line with [click me](javascript:alert("xss-lmdlink")) and a second line with '
    '<iframe src=x></iframe> and {{ config }} --8<-- "/etc/passwd" {: onclick="alert(\'xss-lattr\')" }',
]
BAD_TAGS = {"iframe", "object", "embed", "frame", "frameset", "base", "img", "video", "audio"}
BAD_SCHEMES = ("javascript:", "data:", "vbscript:")


@dataclass
class Scan(HTMLParser):
    """Everything in a page a payload could have turned into markup."""

    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)  # the page's, then any SVG <title>s
    _in: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "title", "style"):
            self._in.append(tag)
            if tag == "script":
                self.scripts.append((dict(attrs), ""))
            if tag == "title":
                self.titles.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._in and self._in[-1] == tag:
            self._in.pop()

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def handle_data(self, data: str) -> None:
        where = self._in[-1] if self._in else ""
        if where == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        elif where == "title":
            self.titles[-1] += data
        elif where != "style":
            self.texts.append(data)

    @property
    def title(self) -> str:
        """The page title (the first <title>, in <head>)."""
        return self.titles[0] if self.titles else ""

    @functools.cached_property
    def text(self) -> str:
        return " ".join(" ".join(self.texts).split())

    def meta(self, name: str) -> str | None:
        for tag, attrs in self.tags:
            if tag == "meta" and attrs.get("name") == name:
                return attrs.get("content")
        return None

    def injected(self) -> list[str]:
        """Anything that only a payload could have put there (empty for a clean page)."""
        found = []
        for tag, attrs in self.tags:
            if tag in BAD_TAGS:
                found.append(f"<{tag} {attrs}>")
            for name, value in attrs.items():
                if name.startswith("on"):
                    found.append(f"<{tag} {name}={value!r}>")
                if name in ("href", "src", "action", "formaction", "xlink:href") and value and \
                        value.strip().lower().startswith(BAD_SCHEMES):
                    found.append(f"<{tag} {name}={value!r}>")
        for attrs, body in self.scripts:
            src = attrs.get("src") or ""
            if "xss" in body or (src and "assets/javascripts/" not in src):
                found.append(f"<script {attrs}>{body[:80]}")
        found += [f"<!--{c}-->" for c in self.comments if "xss" in c]
        return found


def scan(markup: str) -> Scan:
    parser = Scan()
    parser.feed(markup)
    parser.close()
    return parser


@dataclass
class Site:
    root: Path
    proc: subprocess.CompletedProcess[str]
    papers: list[dict[str, Any]]

    @property
    def site(self) -> Path:
        return self.root / "project" / "site"

    def page(self, rel: str) -> Scan:
        return scan((self.site / rel / "index.html").read_text(encoding="utf-8"))

    def paper(self, title: str) -> dict[str, Any]:
        (record,) = [p for p in self.papers if p["title_source"] == title]
        return record


_BUILT: dict[str, Site] = {}


def build_hostile_site(factory: Any) -> Site:
    """The hostile digests through `mkdocs build --strict`, once per test session (the build takes
    a while: Python-Markdown's inline pass is quadratic in the entities of one long line)."""
    if "site" in _BUILT:
        return _BUILT["site"]
    root = factory.mktemp("hostile")
    project = root / "project"
    project.mkdir()
    copy_project(project, seeds=False)
    (project / "overrides").mkdir(exist_ok=True)
    for f in HOSTILE.iterdir():
        if f.is_file():
            shutil.copy(f, project / "seeds" / f.name)
    (project / "seeds" / "002_hostile_long.txt").write_text(long_digest(), encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    papers = json.loads((project / "site" / "papers.json").read_text(encoding="utf-8"))
    # papers.json leaves the abstracts to references.json, which writes them on one line: each
    # record gets its paper's abstract as the build read it (the generator again, not written).
    from generator.build import build
    from generator.config import load_config

    abstracts = {p.key: p.abstract for p in build(load_config(project / "mkdocs.yml"), write=False).library.papers}
    papers = [{**p, "abstract": abstracts[p["key"]]} for p in papers]
    _BUILT["site"] = Site(root, proc, papers)
    return _BUILT["site"]
