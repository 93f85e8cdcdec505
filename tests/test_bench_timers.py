"""The benchmark's stage timers: wrapped at the stages' entry points, never around their inner helpers."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator

import pytest

from generator.build import build
from generator.config import Config
from tests.conftest import ROOT


@pytest.fixture
def bench() -> Iterator[types.ModuleType]:
    """benchmarks/run.py, with every generator module's names put back afterwards (the timers are
    installed by assignment)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import run

    # The modules the timers wrap names in, imported before their names are saved.
    import generator.build
    import generator.enrich.related
    import generator.sources  # noqa: F401

    saved = {name: dict(vars(module)) for name, module in list(sys.modules.items())
             if name.startswith("generator") and module is not None}
    try:
        yield run
    finally:
        for name, names in saved.items():
            vars(sys.modules[name]).update(names)
        sys.path.remove(str(ROOT / "benchmarks"))


def test_the_related_stage_is_timed_where_enrich_calls_it_not_inside(
        bench: types.ModuleType, project: Callable[..., Config]) -> None:
    import generator.build as gb
    import generator.enrich as enrich
    import generator.enrich.related as related

    timer = bench.StageTimer()
    assert bench.install_timers(timer)
    wrapped = sorted((name, attr) for name, module in sys.modules.items()
                     if name.startswith("generator") and module is not None
                     for attr, value in vars(module).items() if getattr(value, "_bench_stage", None) == "related")
    assert wrapped == [("generator.enrich", "tag_model"), ("generator.enrich", "text_model"),
                       ("generator.enrich", "with_related")]
    # The helpers the stage calls ten thousand times are the module's own, unwrapped.
    assert not hasattr(related.paper_text, "_bench_stage") and not hasattr(related._pick_terms, "_bench_stage")
    assert enrich.text_model.__wrapped__ is related.text_model  # type: ignore[attr-defined]
    assert gb.render_site._bench_stage == "render"  # type: ignore[attr-defined]

    result = build(project())
    assert len(result.library.papers) == 41
    assert set(timer.totals) == {"read", "collect", "related", "render", "write"}
    assert 0 < timer.totals["related"] < timer.totals["collect"]
    assert 0 < timer.totals["read"] < timer.totals["collect"]
