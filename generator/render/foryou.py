"""`for-you/`: the newest digests' papers, the most interesting first, each with its why and the
first line of its abstract (the interest model: enrich/interest.py).

"Newest" is the week up to the newest digest's date (not today's: the same inputs give the same
page whatever the day of the build); papers the curator has given a signal already (read,
reading, skipped, rated) are left out, since they need no recommending.
"""

from __future__ import annotations

import datetime as dt
import re

from ..model import Library, Paper
from ..notes.model import signal_of
from . import escape
from .html import FLAG, Ids, heading
from .rows import Entry, anchor, prefix

FOR_YOU_MD = "for-you/index.md"
WINDOW = dt.timedelta(days=7)
LIMIT = 100
ONE_LINE = 200  # characters of the abstract's first sentence at most
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def newest_papers(library: Library) -> tuple[list[Paper], dt.date | None, dt.date | None]:
    """The papers of the digests of the newest week (all digests, if none is dated), each once,
    without the papers a note gave a signal, with the first and last digest date."""
    dated = [d.date for d in library.digests if d.date]
    last = max(dated) if dated else None
    first = last - WINDOW + dt.timedelta(days=1) if last else None
    digests = [d for d in library.digests if last is None or (d.date and d.date >= first)]  # type: ignore[operator]
    notes = library.notes.by_paper if library.notes else {}
    by_id = library.by_id()
    order: dict[str, Paper] = {}
    for d in sorted(digests, key=lambda d: (d.date or dt.date.min, d.path), reverse=True):
        for pid in d.paper_ids:
            note = notes.get(pid)
            if pid in by_id and pid not in order and (note is None or signal_of(note.status, note.rating) is None):
                order[pid] = by_id[pid]
    return list(order.values()), (min(d.date for d in digests if d.date) if dated else None), last


def one_line(abstract: str) -> str:
    """The abstract's first sentence, cut at a word near ONE_LINE characters."""
    text = " ".join(abstract.split())
    sentence = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(sentence) <= ONE_LINE:
        return sentence
    return sentence[:ONE_LINE].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def render_for_you(library: Library) -> str:
    """The page's text; it says whether the scores were learned from the curator's signals or
    are the topics' fallback (`Library.interest_learned`)."""
    learned = library.interest_learned
    me = FOR_YOU_MD
    papers, first, last = newest_papers(library)
    ranked = sorted(papers, key=lambda p: -p.interest)[:LIMIT]
    span = (f"{first}" if first == last else f"{first} to {last}") if last else "every digest"
    lines = ["---", "title: For you", f"{FLAG}: true", "---", "", heading(1, "For you", Ids())]
    how = ("most like the papers you read first: the interest model learns from your notes "
           "(<code>status: read</code>, <code>reading</code> and ratings of 4–5 for a paper, "
           "<code>skipped</code> and ratings of 1–2 against it, and your own tags)"
           if learned else
           "ordered by how many of your topics (<code>content/topics.yml</code>) each matches: there are no "
           "signals yet. Mark papers <code>status: read</code>, <code>reading</code> or <code>skipped</code>, "
           "or rate them, in their notes, and this page learns what you like")
    lines.append(f"<p>The papers of the newest digests ({escape.text(span)}), {how}. "
                 f"Papers you have read, skipped or rated are not listed.</p>")
    if not ranked:
        lines.append("<p>No papers to recommend.</p>")
        return "\n".join(lines) + "\n"
    lines.append('<ol class="rl-for-you">')
    lead = prefix(me)
    for paper in ranked:
        e = Entry(paper)
        lines.append(f"<li>{anchor(e, me, lead)} — {e.author} · <span class=\"rl-interest\">{paper.interest:.2f}</span>"
                     f"<br><small>{escape.text(paper.why)}</small>"
                     f"<br>{escape.text(one_line(paper.abstract))}</li>")
    lines.append("</ol>")
    return "\n".join(lines) + "\n"


