"""topics.yml is read by the read stage (`build.make_library`), once a build, and given to enrich."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from generator.build import make_library
from generator.config import Config
from generator.enrich import Registry, enrich
from generator.enrich.topics import Taxonomy
from generator.errors import Problems
from generator.sources import read_all


def test_enrich_reads_no_topics_file_it_is_given_the_taxonomy(project: Callable[..., Config]) -> None:
    config = project()
    problems = Problems()
    raws = read_all(config.seeds_dir, config.root, problems)
    assert "Reasoning" in config.topics_path.read_text(encoding="utf-8")
    # The project's topics.yml holds topics, but enrich tags with the taxonomy it is given.
    library = enrich(raws, Registry(), problems, config=config, taxonomy=Taxonomy(), taxonomy_problems=Problems())
    assert library.topics == ()
    assert all(t.endswith(")") for p in library.papers for t in p.tags)  # subject tags only: `... (cs.LG)`
    assert any(p.tags for p in library.papers)
    with pytest.raises(TypeError, match="taxonomy"):
        enrich(raws, Registry(), problems, config=config)  # type: ignore[call-arg]


def test_topics_yml_messages_come_once_after_the_keys_and_before_the_notes_tags(
        project: Callable[..., Config]) -> None:
    """With no citekeys.yml, a note named after a paper's key is matched only once the keys are
    given, and enrich runs again (the late path): topics.yml's messages still come once, with
    their lines, where they always came: after the keys' (a note's bad year), before the notes'
    tags' (an unknown topic a note removes)."""
    config = project()
    config.registry_path.unlink()
    topics = config.topics_path.read_text(encoding="utf-8")
    first = len(topics.splitlines()) + 1
    config.topics_path.write_text(topics + "  - phrases: [nameless]\n  - name: Reasoning\n    phrases: [again]\n",
                                  encoding="utf-8")
    note = config.notes_dir / "maron2025oneshot.md"
    note.write_text("---\nyear: 1500\nremove_tags: [No such topic]\ncitekey: maron2025oneshot\n---\nText.\n",
                    encoding="utf-8")
    problems = Problems()
    library, _ = make_library(config, problems)
    assert library.notes is not None and "content/notes/maron2025oneshot.md" in {
        n.path for n in library.notes.by_paper.values()}
    said = [str(p) for p in problems]
    assert [s for s in said if "topics.yml" in s and "note" not in s] == [
        f"content/topics.yml:{first}: warning: a topic needs a `name:`; entry skipped",
        f"content/topics.yml:{first + 1}: warning: topic 'Reasoning' is defined twice; the first one counts"]
    year = next(i for i, s in enumerate(said) if "sets year 1500" in s)
    unknown = next(i for i, s in enumerate(said) if "unknown topic 'No such topic'" in s)
    assert said[year + 1:unknown] == [
        f"content/topics.yml:{first}: warning: a topic needs a `name:`; entry skipped",
        f"content/topics.yml:{first + 1}: warning: topic 'Reasoning' is defined twice; the first one counts"]
    assert said[unknown] == ("content/notes/maron2025oneshot.md:3: warning: unknown topic 'No such topic' in the "
                             "note's tags (ignored); topics are defined in content/topics.yml")
