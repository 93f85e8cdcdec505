"""mkdocs.yml as the generator reads it: `!ENV` values come from the environment, as in MkDocs."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.config import load_config
from tests.conftest import ROOT


def test_site_url_comes_from_site_url_in_the_environment_else_the_default(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    assert load_config(ROOT / "mkdocs.yml").site_url == "http://127.0.0.1:8000/"
    monkeypatch.setenv("SITE_URL", "https://lab.github.io/reading-list/")
    assert load_config(ROOT / "mkdocs.yml").site_url == "https://lab.github.io/reading-list/"
    # The first variable that is set wins; other tags (Material's !!python/name:) stay readable.
    (tmp_path / "mkdocs.yml").write_text(
        "site_url: !ENV [RL_TEST_UNSET, SITE_URL, 'http://x/']\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        encoding="utf-8")
    assert load_config(tmp_path / "mkdocs.yml").site_url == "https://lab.github.io/reading-list/"
