"""The light/dark toggle works and the choice follows the reader to other pages."""

from __future__ import annotations

from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, set_scheme

pytestmark = pytest.mark.browser


def _scheme(page: Any) -> str:
    return str(page.locator("body").get_attribute("data-md-color-scheme"))


def test_dark_mode_toggle_persists_across_pages(page: Any, site: Served) -> None:
    goto(page, site)
    assert _scheme(page) == "default"
    set_scheme(page, "dark")
    assert _scheme(page) == "slate"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    click_and_wait(page, page.get_by_role("link", name="All papers").last, site, "all/")  # instant navigation
    assert _scheme(page) == "slate"
    goto(page, site, "papers/scaling-categorical-flow-maps/")  # a full page load
    assert _scheme(page) == "slate"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
    set_scheme(page, "light")
    goto(page, site, "digests/")
    assert _scheme(page) == "default"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != background
