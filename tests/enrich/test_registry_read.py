"""The key registry read by its fast path (`dump`'s own layout) gives what the YAML loader gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.enrich import registry as reg
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


def _load_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Registry, Registry, bool]:
    text = path.read_text(encoding="utf-8")
    used_fast = reg._read_own_layout(text) is not None
    fast = Registry.load(path, Problems())
    with monkeypatch.context() as m:
        m.setattr(reg, "_read_own_layout", lambda text: None)
        slow = Registry.load(path, Problems())
    return fast, slow, used_fast


def test_a_dumped_registry_reads_the_same_by_either_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "citekeys.yml"
    path.write_text(Registry(dict(ENTRIES)).dump(), encoding="utf-8")
    fast, slow, used_fast = _load_both(path, monkeypatch)
    # Quoted values ('yes', '2024-01-15') are not `dump`'s plain layout: the loader reads them.
    assert not used_fast
    assert fast.entries == slow.entries == ENTRIES and fast.lines == slow.lines
    plain = {k: v for k, v in ENTRIES.items() if k.startswith(("openreview", "arxiv", "untitled"))}
    path.write_text(Registry(dict(plain)).dump(), encoding="utf-8")
    fast, slow, used_fast = _load_both(path, monkeypatch)
    assert used_fast
    assert fast.entries == slow.entries == plain
    assert list(fast.entries) == list(slow.entries)
    assert fast.lines == slow.lines == {"arxiv:2401.12345": 4, "openreview:00YSfu0RVx": 7,
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
def test_hand_edits_go_through_the_yaml_loader(edit, tmp_path: Path,  # type: ignore[no-untyped-def]
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    plain = {k: v for k, v in ENTRIES.items() if k.startswith(("openreview", "arxiv", "untitled"))}
    path = tmp_path / "citekeys.yml"
    path.write_text(edit(Registry(dict(plain)).dump()), encoding="utf-8")
    fast, slow, used_fast = _load_both(path, monkeypatch)
    assert not used_fast
    assert fast.entries == slow.entries and fast.lines == slow.lines
