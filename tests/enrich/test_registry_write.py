"""The registry file is written as libyaml's safe dumper writes it (sorted, unicode kept, 200 columns),
whatever the entries hold (values YAML would read as numbers, dates or booleans; long ids). libyaml,
not PyYAML's pure-Python dumper, which writes shorter ids as `? id` already."""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildResult
from generator.enrich.registry import HEADER, Registry
from generator.errors import Problems


def yaml_dump(entries: dict[str, dict[str, str]]) -> str:
    return HEADER + yaml.dump(dict(sorted(entries.items())), Dumper=yaml.CSafeDumper, allow_unicode=True,
                              sort_keys=True, width=200)


def test_the_seed_registry_is_written_as_yaml_writes_it(seed_build: BuildResult) -> None:
    entries = {p.id: {"key": p.key, "slug": p.slug} for p in seed_build.library.papers}
    assert Registry(entries).dump() == yaml_dump(entries)


SCALAR = st.sampled_from(["maron2025oneshot", "2025", "true", "null", "1e5", "0x1f", "yes", "a:b", "a: b", "a#b",
                          "-x", "x-", "é", "openreview:AbC-12_x", "title:" + "w" * 130, "12:30", "2025-01-02",
                          "~", "x.y", "arxiv:2401.01234v2", "NaN", ".inf", "on", "abc/def", "a+b"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(SCALAR, st.fixed_dictionaries({"key": SCALAR, "slug": SCALAR}), min_size=1, max_size=6),
       st.booleans())
def test_any_registry_is_written_as_yaml_writes_it(entries: dict[str, dict[str, str]], extra: bool) -> None:
    if extra:
        entries[next(iter(entries))]["note"] = "x"
    text = Registry(entries).dump()
    assert text == yaml_dump(entries)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "citekeys.yml"
        path.write_text(text, encoding="utf-8")
        assert Registry.load(path, Problems()).entries == entries
