"""Property tests: any text given to a reader ends as papers or reported problems, never an exception.

Inputs are the real seed digests mutated the way people break them (lines deleted,
duplicated, swapped, truncated, random Unicode, hostile lines), plus raw bytes for decoding.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.enrich import Registry, enrich
from generator.enrich.topics import Taxonomy
from generator.errors import Problems
from generator.model import Paper
from generator.sources import listing, tmlr
from generator.sources.decode import decode_bytes
from generator.sources.records import RawDigest
from generator.sources.rejoin import rejoin
from tests.conftest import SEEDS, render_context
from tests.sources.test_oracle_readers import plain_glue

TMLR_LINES = (SEEDS / "000_1b8355006bbdabc6.txt").read_text(encoding="utf-8").split("\n")
LISTING_LINES = (SEEDS / "001_68714a788c6fb328.txt").read_text(encoding="utf-8").split("\n")
HOSTILE_LINES = [
    "---", "===", "Title:", "Title: x", "Authors:", "Abstract:", "URL:", "URL: javascript:alert(1)",
    "Accepted papers", "New submissions", "Machine Learning", "Machine Learning · Cross-listed from cs.CL",
    "Read the full abstract ▾", "All authors", "All authors A B, C D", "A, B et al. (+2 more)",
    "Daily TMLR digest for Feb 30, 2025", "TMLR", "<script>alert(1)</script>", "$x$", "$\\text{<b>}$",
    "{{ config }}", "{% include 'x' %}", "--8<-- 'x'", "{: onclick=x }", "et al.", "and", ",", "· ·",
]
FAST = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw: st.DrawFn, lines: list[str]) -> str:
    """A window of a seed, then a few of the edits people make by accident."""
    start = draw(st.integers(0, len(lines) - 1))
    out = list(lines[start : start + draw(st.integers(1, 40))])
    if draw(st.booleans()):
        out = lines[:4] + out  # keep the header sometimes
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "unicode", "cut", "hostile"]))
        i = draw(st.integers(0, max(0, len(out) - 1)))
        if not out:
            out = [""]
        if op == "delete":
            del out[i]
        elif op == "duplicate":
            out.insert(i, out[i])
        elif op == "swap":
            j = draw(st.integers(0, len(out) - 1))
            out[i], out[j] = out[j], out[i]
        elif op == "insert":
            out.insert(i, draw(st.sampled_from(HOSTILE_LINES)))
        elif op == "unicode":
            pos = draw(st.integers(0, len(out[i])))
            out[i] = out[i][:pos] + draw(st.text(max_size=20)) + out[i][pos:]
        elif op == "cut":
            out[i] = out[i][: draw(st.integers(0, len(out[i])))]
            out = out[: i + 1]
        else:
            out[i] = draw(st.sampled_from(HOSTILE_LINES)) + " " + out[i]
    return "\n".join(out)


def check(raw: RawDigest, text: str, problems: Problems) -> None:
    """What any outcome must look like: papers with origins inside the file, located problems."""
    nlines = text.count("\n") + 1
    assert isinstance(raw, RawDigest)
    for paper in raw.papers:
        assert isinstance(paper, Paper)
        assert paper.title.strip()
        assert 1 <= paper.origin.line <= nlines
        assert paper.url is None or paper.url.startswith(("http://", "https://", "HTTP", "Http"))
    for problem in problems:
        assert problem.path == "fuzz.txt"
        assert 0 <= problem.line <= nlines
        assert problem.message


@FAST
@given(mutated(TMLR_LINES))
def test_tmlr_reader_never_raises_on_mutated_seeds(text: str) -> None:
    problems = Problems()
    check(tmlr.read("fuzz.txt", text, problems), text, problems)


@FAST
@given(mutated(LISTING_LINES))
def test_listing_reader_never_raises_on_mutated_seeds(text: str) -> None:
    problems = Problems()
    check(listing.read("fuzz.txt", text, problems), text, problems)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HOSTILE_LINES), st.text(max_size=40)), max_size=30),
       st.sampled_from([tmlr, listing]))
def test_readers_never_raise_on_generated_lines(lines: list[str], reader: object) -> None:
    text = "\n".join(lines)
    problems = Problems()
    check(reader.read("fuzz.txt", text, problems), text, problems)  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400) | mutated(TMLR_LINES).map(lambda t: t.encode("utf-8")),
       st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\xe9", b"\r\n"]))
def test_decoding_gives_text_or_a_message(data: bytes, prefix: bytes) -> None:
    problems = Problems()
    text = decode_bytes(prefix + data, "fuzz.txt", problems)
    if text is None:
        assert problems.items and "skipped" in problems.items[-1].message
    else:
        assert "\r" not in text and "\ufeff" not in text and "\u00a0" not in text


@settings(max_examples=40, deadline=None)
@given(st.lists(mutated(TMLR_LINES) | mutated(LISTING_LINES), min_size=1, max_size=3))
def test_whole_pipeline_to_pages_never_raises(texts: list[str]) -> None:
    from generator.config import Config
    from generator.enrich.bibtex import with_entries
    from generator.render import render_site

    problems = Problems()
    raws = []
    for n, text in enumerate(texts):
        reader = tmlr if tmlr.detect(text) else listing
        raw = reader.read(f"seeds/{n}.txt", text, problems)
        raw.date = raw.date or dt.date(2025, 1, 1)
        raws.append(raw)
    library = with_entries(enrich(raws, Registry(), problems, taxonomy=Taxonomy(), taxonomy_problems=Problems()))
    config = Config(root=SEEDS, build_dir=SEEDS, seeds_dir=SEEDS, content_dir=SEEDS,
                    registry_path=SEEDS / "citekeys.yml")
    files = render_site(render_context(library, config))
    slugs = [p.slug for p in library.papers]
    assert len(set(slugs)) == len(slugs)
    for paper in library.papers:
        assert f"papers/{paper.slug}/index.md" in files


def naive_rejoin(lines: list[str]) -> str:
    """The rule written the obvious (quadratic) way: the reference the linear version must match."""
    out = ""
    for raw in lines:
        piece = " ".join(raw.split())
        if piece:
            out = f"{out}{plain_glue(out, piece)}{piece}" if out else piece
    return out


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab \"'(-—,.)/:%")), max_size=6), max_size=12))
def test_linear_rejoin_gives_the_same_prose(lines: list[str]) -> None:
    assert rejoin(lines) == naive_rejoin(lines)
