"""`for-you/`, the digest pages' order by interest and the All papers filter's sort by interest,
on real papers (tests/enrich/test_interest.py's list: the curator read three physics papers)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from generator.build import build
from generator.config import load_config
from generator.render.foryou import one_line
from tests.enrich.test_interest import READ, THEME, _project, _records


def test_for_you_lists_the_newest_digests_papers_by_interest_with_why_and_a_line(tmp_path: Path) -> None:
    config = _project(tmp_path)
    build(load_config(config))
    page = (tmp_path / "build" / "for-you" / "index.md").read_text("utf-8")
    # No signals yet: the page says so.
    assert "there are no signals yet" in page
    keys = {title: record["key"] for title, record in _records(tmp_path).items()}
    for title in READ:
        (tmp_path / "content" / "notes" / f"{keys[title]}.md").write_text("---\nstatus: read\n---\n", "utf-8")
    result = build(load_config(config))
    page = html.unescape((tmp_path / "build" / "for-you" / "index.md").read_text("utf-8"))
    # The week up to the newest digest: the two new ones and the seeds' listing of 2026-12-01.
    assert "<p>The papers of the newest digests (2026-12-01 to 2026-12-03), most like the papers you read first" in page
    items = re.findall(r'<li><a href="\.\./papers/[^"]+/">(.*?)</a> — (.*?) · <span class="rl-interest">([0-9.]+)'
                       r"</span><br><small>(.*?)</small><br>(.*?)</li>", page)
    week = [d for d in result.library.digests if d.date and d.date.isoformat() >= "2026-12-01"]
    assert len(items) == sum(len(d.paper_ids) for d in week) == 30 + 19
    scores = [float(s) for _, _, s, _, _ in items]
    assert scores == sorted(scores, reverse=True)
    # The physics papers the curator never saw come first.
    assert {title for title, *_ in items[:4]} == THEME
    records = _records(tmp_path)
    abstracts = {p.key: p.abstract for p in result.library.papers}  # (papers.json carries none: references.json)
    for title, _, score, why, line in items:
        assert records[title]["interest"] == float(score) and records[title]["why"] == why and why
        assert line == one_line(abstracts[records[title]["key"]]) and len(line) <= 202
    # The digest of the physics papers, sorted by interest in the browser: the scores are there.
    digest = (tmp_path / "build" / "digests" / "2026-12-03-arxiv-mixed" / "index.md").read_text("utf-8")
    assert '<button type="button" class="md-button" data-rl-by="interest">most interesting first</button>' in digest
    scores = re.search(r'<p class="rl-order" data-rl-order data-interest="([0-9. ]+)" hidden>', digest)
    assert scores is not None
    listed = re.findall(r'<li><a [^>]*>(.*?)</a>', html.unescape(digest))
    by_title = dict(zip(listed, map(float, scores.group(1).split()), strict=True))
    assert set(by_title) >= THEME and all(by_title[t] == records[t]["interest"] for t in by_title)
    # The All papers filter sorts by interest: the option and every paper's sort key.
    assert '<option value="interest">Most interesting</option>' in (tmp_path / "build" / "all.md").read_text("utf-8")
    search = [json.loads(line) for line in (tmp_path / "build" / ".search-records.json").read_text().splitlines()]
    sorts = {r["meta"]["title"]: r["sort"]["interest"] for r in search if "interest" in r.get("sort", {})}
    assert sorts["Quantum Monte Carlo measurement of the chemical potential of helium-4"] == \
        f"{records['Quantum Monte Carlo measurement of the chemical potential of helium-4']['interest']:.2f}"


def test_one_line_is_the_first_sentence_cut_at_a_word() -> None:
    assert one_line("We study X.  Then we show Y.") == "We study X."
    long = "Word " * 60
    assert one_line(long).endswith(" …") and len(one_line(long)) <= 202
