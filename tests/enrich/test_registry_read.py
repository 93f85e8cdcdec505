"""The key registry reads as YAML reads it: its entries, and the line of each (for messages), whether
`dump` wrote the file or a curator edited it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.enrich.registry import Registry
from generator.errors import Problems

ENTRIES = {
    "openreview:00YSfu0RVx": {"key": "hertrich2025kernel", "slug": "kernel-regime-meets-sample-complexity"},
    "arxiv:2401.12345": {"key": "smith2024a", "slug": "3d-gaussians-at-scale"},
    "title:on-the-role-of-x": {"key": "yes", "slug": "2024-01-15"},  # YAML would read a bool and a date
    "untitled:0123456789ab": {"key": "anonymous2025untitled", "slug": "untitled-paper-by-a-b"},
    "title:x:y": {"key": "null", "slug": "off"},
    "openreview:A_b-C": {"key": "k:with.odd+chars/ok", "slug": "nan"},
}


def as_yaml_reads_it(path: Path) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """The definition: the entries YAML's safe loader gives (each value as text), and the line of each id."""
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text) or {}
    entries = {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items() if isinstance(v, dict)}
    node = yaml.compose(text)
    return entries, {str(k.value): k.start_mark.line + 1 for k, _ in node.value} if node else {}


def test_a_dumped_registry_reads_as_yaml_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "citekeys.yml"
    path.write_text(Registry(dict(ENTRIES)).dump(), encoding="utf-8")
    # Quoted values ('yes', '2024-01-15') stay text.
    got = Registry.load(path, Problems())
    assert (got.entries, got.lines) == as_yaml_reads_it(path)
    assert got.entries == ENTRIES
    plain = {k: v for k, v in ENTRIES.items() if k.startswith(("openreview", "arxiv", "untitled"))}
    path.write_text(Registry(dict(plain)).dump(), encoding="utf-8")
    got = Registry.load(path, Problems())
    assert (got.entries, got.lines) == as_yaml_reads_it(path)
    assert list(got.entries) == list(as_yaml_reads_it(path)[0])
    assert got.entries == plain
    assert got.lines == {"arxiv:2401.12345": 4, "openreview:00YSfu0RVx": 7,
                         "openreview:A_b-C": 10, "untitled:0123456789ab": 13}


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("  slug: 3d", "  slug: 2024-01-15 # a date", 1),
    lambda t: t + "# a comment at the end\n",
    lambda t: t.replace("  key: smith2024a", "  key: smith2024a\n  note: hello", 1),
    lambda t: t.replace("arxiv:2401.12345:", "arxiv:2401.12345 :", 1),
    lambda t: t.replace("  key: smith2024a", "  key: 'smith2024a'", 1),
    lambda t: t.replace("  key: smith2024a", "  key: 2024", 1),
    lambda t: t.replace("  key: smith2024a", "  key: yes", 1),
    lambda t: t.replace("openreview:A_b-C:\n  key: k:with.odd+chars/ok\n", "arxiv:2401.12345:\n  key: dup\n", 1),
])
def test_hand_edits_read_as_yaml_reads_them(edit, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plain = {k: v for k, v in ENTRIES.items() if k.startswith(("openreview", "arxiv", "untitled"))}
    path = tmp_path / "citekeys.yml"
    path.write_text(edit(Registry(dict(plain)).dump()), encoding="utf-8")
    got = Registry.load(path, Problems())
    assert (got.entries, got.lines) == as_yaml_reads_it(path)
