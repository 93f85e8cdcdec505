"""Theme chrome that paper pages share as files instead of each carrying its own copy.

Material writes the same bytes into every page: about ten inline SVG icons (search, close, arrows,
palette toggles, logo, menu; 2.8 KB), the palette switch and the search dialog (1.8 KB), the
inline scripts (palette, script config; 2 KB) and the navigation drawer (2.2 KB). At 10,000 paper
pages that was 90 MB of the site. `PaperChrome` (site/paper_chrome.py) passes those blocks of
`generator/theme/paper.html` through `SharedChrome.share`, and the page head through `share_head`,
which

- draws each icon with a CSS mask instead of inline paths: `<svg class="rl-icon rl-icon-ID"
  viewBox=...></svg>`, sized by Material's own `svg` rules as before; the shapes are data URIs in
  one generated stylesheet (`ICONS_CSS`), which every page links (a paper page's header stays on
  screen when instant navigation moves to another page, and Material drops stylesheets the next
  page does not link). CSS, not `<use href>`: Material's instant navigation reassigns every
  `[href]`, which throws on SVG elements, and a relative `xlink:href` in the kept header would
  resolve against whichever page is shown;
- moves each run of inline scripts and of shared elements into one script file under
  `assets/javascripts/`, named by its content, which writes the elements back where it stands
  while the page is parsed, before Material's bundle reads them (and again when instant navigation
  swaps the page in, as Material runs the scripts of the page it shows). The elements are those
  that do nothing without JavaScript anyway (the palette switch, the search button and dialog,
  the `__config` data block) and the navigation drawer: without JavaScript a paper page's drawer is
  empty, while its tabs and logo still link the rest of the site.

So the page Material's bundle sees is the page it rendered, with icons painted by CSS. Only
blocks outside the page content go through here. The files are written after the build
(`write`); a file's name is a hash of its content, so a page never gets another page's script.

The same switch drops the indentation and blank lines Material's templates leave outside the
article (`strip_indentation`): about 4 KB of a 27 KB paper page, on its ~900 lines.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import quote

ICONS_CSS = "assets/stylesheets/readinglist-icons.css"
SCRIPTS_DIR = "assets/javascripts"

# Material includes its icons as the files are: exactly these two attributes, no nested <svg>.
_ICON = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox="([^"<>]*)">((?:(?!</?svg\b).)*?)</svg>', re.S)
# How the shared elements' opening tags start: the palette switch, the search button of narrow
# screens, the search dialog (all three only work through Material's JavaScript), the drawer.
_SHARED_STARTS = (
    '<form class="md-header__option" data-md-component="palette">',
    '<label class="md-header__button md-icon" for="__search">',
    '<div class="md-search" data-',  # Material's search dialog, or readinglist's (partials/search.html)
    '<nav class="md-nav md-nav--primary',
)
# Blocks that differ per page would each get a file of their own; past this many they stay inline.
MAX_SCRIPTS = 64
# A classic inline script (run as written), or a JSON data block (read by id, never run).
_SCRIPT = re.compile(r'<script>(.*?)</script>|<script id="[\w-]+" type="application/json">.*?</script>', re.S)
_TAG_NAME = re.compile(r"<([a-z]+)")
# Elements whose text keeps its white space, matched whole (they do not nest in practice).
_KEEP = re.compile(r"<(pre|textarea)\b.*?</\1\s*>", re.S | re.I)
# A line break with the blank lines and indentation after it: one line break is the same to HTML.
_INDENT = re.compile(r"\n\s+")


class SharedChrome:
    """Shares the icons and scripts of theme blocks; remembers the ones the pages now refer to."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled  # off: every block stays as the theme wrote it (READINGLIST_SHARED_CHROME=off)
        self.icons: dict[str, tuple[str, str]] = {}   # id -> (viewBox, inner SVG)
        self.scripts: dict[str, str] = {}             # file name -> script text
        self._made: dict[tuple[str, str], str] = {}   # (run, base) -> its <script src>: 10,000 heads

    def share(self, html: str, base: str) -> str:
        """`html` (a theme block) with its icons drawn by CSS and its scripts and inert parts in files."""
        html = _ICON.sub(self._icon, html)
        out: list[str] = []
        pos = 0
        for start, end in _runs(html):
            out += [html[pos:start], self._script(html[start:end], base)]
            pos = end
        out.append(html[pos:])
        return "".join(out)

    def share_head(self, html: str, base: str) -> str:
        """A whole page with the scripts of its head shared (Material writes its `__md_scope`
        script there from a partial of its own, outside any block a template can wrap)."""
        end = html.find("</head>")
        return html if end < 0 else self.share(html[:end], base) + html[end:]

    def _icon(self, m: re.Match[str]) -> str:
        view_box, inner = m.group(1), m.group(2)
        key = hashlib.sha1(f"{view_box}\0{inner}".encode()).hexdigest()[:8]
        self.icons[key] = (view_box, inner)
        return f'<svg class="rl-icon rl-icon-{key}" viewBox="{view_box}"></svg>'

    def _script(self, run: str, base: str) -> str:
        """One script file that does what `run` (inert elements and inline scripts) did in place."""
        made = self._made.get((run, base))
        if made is None:
            made = self._new_script(run, base)
            if made != run:  # not past MAX_SCRIPTS, where each page's own run would be kept
                self._made[(run, base)] = made
        return made

    def _new_script(self, run: str, base: str) -> str:
        lines = ["// readinglist: theme chrome shared by the paper pages (generator/site/shared_chrome.py)."]
        pos = 0
        for m in re.finditer(r"<script>(.*?)</script>", run, re.S):
            lines.append(_insert(run[pos : m.start()]))
            # At the top level as it was inline (its `var`s stay global); an error is reported but
            # does not stop the elements after it, as with separate scripts.
            lines.append(f"try{{{m.group(1)}\n}}catch(e){{setTimeout(function(){{throw e}})}}")
            pos = m.end()
        lines.append(_insert(run[pos:]))
        text = "\n".join(line for line in lines if line) + "\n"
        name = f"rl-{hashlib.sha1(text.encode()).hexdigest()[:10]}.js"
        if name not in self.scripts and len(self.scripts) >= MAX_SCRIPTS:
            return run
        self.scripts[name] = text
        return f'<script src="{base}/{SCRIPTS_DIR}/{name}"></script>'

    def icons_css(self) -> str:
        rules = [
            "/* readinglist: the theme's icons on paper pages, drawn as masks (generator/site/shared_chrome.py). */",
            "svg.rl-icon{background-color:currentcolor;-webkit-mask-position:center;mask-position:center;"
            "-webkit-mask-repeat:no-repeat;mask-repeat:no-repeat;-webkit-mask-size:contain;mask-size:contain}",
            "@media (forced-colors:active){svg.rl-icon{forced-color-adjust:none;background-color:CanvasText}}",
        ]
        for key, (view_box, inner) in sorted(self.icons.items()):
            svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}">{inner}</svg>'
            url = f'url("data:image/svg+xml;charset=utf-8,{quote(svg, safe=" /=:;,.-")}")'
            rules.append(f".rl-icon-{key}{{-webkit-mask-image:{url};mask-image:{url}}}")
        return "\n".join(rules) + "\n"

    def write(self, site_dir: Path) -> None:
        """The stylesheet and scripts this build's pages refer to. Under `serve --dirty` the pages
        not rendered again keep theirs: the stylesheet keeps the icons it has, the old files stay."""
        if not self.enabled:
            return
        css = site_dir / ICONS_CSS
        text = self.icons_css()
        if css.exists():
            old = css.read_text(encoding="utf-8").splitlines()
            text += "".join(f"{line}\n" for line in old if line.startswith(".rl-icon-") and line not in text)
        css.parent.mkdir(parents=True, exist_ok=True)
        css.write_text(text, encoding="utf-8")
        for name, script in self.scripts.items():
            path = site_dir / SCRIPTS_DIR / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(script, encoding="utf-8")


def strip_indentation(html: str) -> str:
    """`html` without leading white space on its lines, outside `<pre>` and `<textarea>`: HTML
    treats a line break followed by more white space the same as a line break alone, except
    inside elements that keep white space."""
    out: list[str] = []
    pos = 0
    for m in _KEEP.finditer(html):
        out.append(_INDENT.sub("\n", html[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_INDENT.sub("\n", html[pos:]))
    return "".join(out)


def _insert(html: str) -> str:
    """JavaScript that writes `html` where the running script stands."""
    html = strip_indentation(html).strip()
    if not html:
        return ""
    return f'document.currentScript.insertAdjacentHTML("beforebegin",{json.dumps(html, ensure_ascii=False)});'


def _element_end(html: str, start: int) -> int | None:
    """End of the element that opens at `start`, by counting its tag name's opening and closing tags."""
    name = _TAG_NAME.match(html, start)
    if name is None:
        return None
    tags = re.compile(rf"<(/?){name.group(1)}\b[^>]*>")
    depth = 0
    for m in tags.finditer(html, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return m.end()
    return None


def _runs(html: str) -> list[tuple[int, int]]:
    """Spans of `html` made only of inert elements and inline scripts (with the blanks between)."""
    parts: list[tuple[int, int]] = [m.span() for m in _SCRIPT.finditer(html)]
    for marker in _SHARED_STARTS:
        start = html.find(marker)
        end = _element_end(html, start) if start >= 0 else None
        if end is not None:
            parts.append((start, end))
    runs: list[tuple[int, int]] = []
    for start, end in sorted(parts):
        if runs and not html[runs[-1][1] : start].strip():
            runs[-1] = (runs[-1][0], max(end, runs[-1][1]))
        elif not runs or start >= runs[-1][1]:
            runs.append((start, end))
    return runs
