"""Shared theme chrome (generator/chrome.py): icons become CSS masks of the same shapes, and
script-only parts and inline scripts move into files that write the same markup back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

from generator.site import shared_chrome as chrome
from generator.site.shared_chrome import SharedChrome

SEARCH_PATH = "M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23"
ICON = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="{SEARCH_PATH}"/></svg>'
PALETTE = ('<form class="md-header__option" data-md-component="palette">\n  <input class="md-option" '
           'type="radio" name="__palette" id="__palette_0">\n  <label class="md-header__button md-icon" '
           f'for="__palette_1" hidden>\n    {ICON}\n  </label>\n</form>')
HEADER = (f'<header class="md-header">\n<a href="../.." class="md-logo">{ICON}</a>\n'
          '<span class="md-ellipsis">A &lt;b&gt;title&lt;/b&gt;</span>\n'
          f'{PALETTE}\n<script>var palette=__md_get("__palette");</script>\n'
          '<div class="md-search" data-md-component="search" role="dialog">\n<div class="md-search__inner">'
          '<input class="md-search__input"></div>\n</div>\n</header>')


def _inserted(script: str) -> list[str]:
    """The markup a shared script writes, in order."""
    return [json.loads(m) for m in re.findall(r'insertAdjacentHTML\("beforebegin",("(?:[^"\\]|\\.)*")\)', script)]


def test_icons_become_masks_of_the_same_shape_sized_as_before() -> None:
    shared = SharedChrome()
    out = shared.share(f"<a class=\"md-logo\">{ICON}</a>", "../..")
    (key,) = shared.icons
    assert out == f'<a class="md-logo"><svg class="rl-icon rl-icon-{key}" viewBox="0 0 24 24"></svg></a>'
    css = shared.icons_css()
    rule = next(line for line in css.splitlines() if line.startswith(f".rl-icon-{key}{{"))
    # The mask is the very icon Material inlined, as a data URI (once for WebKit, once standard).
    assert unquote(rule).count(ICON) == 2
    assert "svg.rl-icon{background-color:currentcolor;" in css


def test_script_only_chrome_and_inline_scripts_move_to_one_file_that_writes_them_back() -> None:
    shared = SharedChrome()
    out = shared.share(HEADER, "../..")
    (name,) = shared.scripts
    assert re.fullmatch(r"rl-[0-9a-f]{10}\.js", name)
    # The page keeps its own parts (logo link, title) and loads the rest from the shared file.
    assert '<span class="md-ellipsis">A &lt;b&gt;title&lt;/b&gt;</span>' in out
    assert f'<script src="../../assets/javascripts/{name}"></script>\n</header>' in out
    assert "md-search" not in out and "__palette" not in out and "var palette" not in out
    script = shared.scripts[name]
    form, dialog = _inserted(script)
    (key,) = shared.icons
    assert form.startswith('<form class="md-header__option" data-md-component="palette">\n<input class="md-option"')
    assert f'<svg class="rl-icon rl-icon-{key}" viewBox="0 0 24 24"></svg>' in form
    assert dialog == ('<div class="md-search" data-md-component="search" role="dialog">\n'
                      '<div class="md-search__inner"><input class="md-search__input"></div>\n</div>')
    # The palette script runs between the form it reads and the dialog, as it did inline.
    assert script.index("__palette_0") < script.index('var palette=__md_get("__palette");') < \
        script.index("md-search__inner")


def test_the_config_data_block_is_written_back_with_its_text_unchanged() -> None:
    config = {"base": "../..", "translations": {"search.result.none": "No matching documents"}}
    block = f'<script id="__config" type="application/json">{json.dumps(config)}</script>'
    shared = SharedChrome()
    out = shared.share(block, "../..")
    (name,) = shared.scripts
    assert out == f'<script src="../../assets/javascripts/{name}"></script>'
    (written,) = _inserted(shared.scripts[name])
    assert written == block


def test_the_same_chrome_on_every_page_is_one_file_named_by_its_content(tmp_path: Path) -> None:
    shared = SharedChrome()
    pages = [shared.share(HEADER.replace("title", f"title {n}"), "../..") for n in range(3)]
    assert len(shared.scripts) == 1 and len(shared.icons) == 1
    assert len({re.search(r'<script src="[^"]+"', p).group(0) for p in pages}) == 1  # type: ignore[union-attr]
    shared.write(tmp_path)
    (name,) = shared.scripts
    assert (tmp_path / chrome.SCRIPTS_DIR / name).read_text("utf-8") == shared.scripts[name]
    assert (tmp_path / chrome.ICONS_CSS).read_text("utf-8") == shared.icons_css()


def test_chrome_without_shared_parts_is_left_as_it_is() -> None:
    block = '<nav class="md-tabs"><a href="../../all/" class="md-tabs__link">All papers</a></nav>'
    scripted = '<script src="../../assets/javascripts/bundle.js"></script>'
    shared = SharedChrome()
    assert shared.share(block + scripted, "../..") == block + scripted
    assert shared.scripts == {} and shared.icons == {}


def test_blocks_that_differ_per_page_stop_getting_files_past_the_cap() -> None:
    shared = SharedChrome()
    outs = [shared.share(f"<p>page</p><script>var n={n};</script>", ".") for n in range(chrome.MAX_SCRIPTS + 5)]
    assert len(shared.scripts) == chrome.MAX_SCRIPTS
    assert outs[-1] == f"<p>page</p><script>var n={chrome.MAX_SCRIPTS + 4};</script>"
    assert outs[0].startswith('<p>page</p><script src="./assets/javascripts/rl-')


def test_a_dirty_build_keeps_the_icons_of_the_pages_it_did_not_render(tmp_path: Path) -> None:
    first = SharedChrome()
    first.share(ICON, ".")
    first.write(tmp_path)
    (old_rule,) = [line for line in first.icons_css().splitlines() if line.startswith(".rl-icon-")]
    SharedChrome().write(tmp_path)  # `serve --dirty` after editing the home page: no paper page
    assert (tmp_path / chrome.ICONS_CSS).read_text("utf-8") == first.icons_css()
    other = SharedChrome()  # a paper page rendered again with another icon
    other.share(ICON.replace(SEARCH_PATH, "M3 6h18v2H3z"), ".")
    other.write(tmp_path)
    css = (tmp_path / chrome.ICONS_CSS).read_text("utf-8")
    assert old_rule in css.splitlines() and len(re.findall(r"^\.rl-icon-", css, re.M)) == 2
    empty = tmp_path / "empty"
    SharedChrome().write(empty)  # every page links the stylesheet, so it exists even with no icons
    assert ".rl-icon-" not in (empty / chrome.ICONS_CSS).read_text("utf-8")
