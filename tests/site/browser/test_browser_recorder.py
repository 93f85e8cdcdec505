"""The request and console recorder behind every browser test really catches what it must."""

from __future__ import annotations

from typing import Any

import pytest
from browser_site import Served
from browser_ui import Recorder, goto

pytestmark = pytest.mark.browser


def test_recorder_catches_outside_requests_and_console_errors(browser: Any,
                                                              served_sites: dict[str, Served]) -> None:
    site = served_sites["root"]
    rec = Recorder.open(browser, site)
    try:
        goto(rec.page, site)
        assert rec.outside() == [] and rec.errors == []
        with rec.page.expect_request("https://example.org/pixel.png"):
            rec.page.evaluate("document.body.append(Object.assign(new Image(), {src: 'https://example.org/pixel.png'}))")
        with rec.page.expect_console_message(lambda m: "readinglist test error" in m.text):
            rec.page.evaluate("console.error('readinglist test error')")
    finally:
        rec.close()
    assert rec.outside() == ["https://example.org/pixel.png"]
    assert any("readinglist test error" in e for e in rec.errors)
    with pytest.raises(AssertionError, match=r"requests left 127\.0\.0\.1"):
        rec.assert_clean()
