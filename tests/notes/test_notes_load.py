"""Reading one note: front matter field by field, with the file line of every problem."""

from __future__ import annotations

import datetime as dt

from generator.errors import Problems
from generator.notes.load import parse_note
from generator.notes.model import Note


def parse(text: str) -> tuple[Note, list[str]]:
    problems = Problems()
    note = parse_note(text, "content/notes/k.md", "k", problems)
    return note, [str(p) for p in problems]


def test_every_field_is_read() -> None:
    note, found = parse("---\nstatus: skipped\nrating: 1\nadded: 2024-02-29\ntags: one\nremove_tags: [two, 3]\n"
                        "title: '  Spaced   title '\nyear: 1999\ncitekey: 'me:1999x'\nhidden: true\n---\n\nBody\n")
    assert found == []
    assert (note.status, note.rating, note.added, note.tags, note.remove_tags, note.title, note.year,
            note.citekey, note.hidden) == ("skipped", 1, dt.date(2024, 2, 29), ("one",), ("two", "3"),
                                           "Spaced title", 1999, "me:1999x", True)
    assert (note.body, note.body_line) == ("Body\n", 13)
    assert note.line_of("hidden") == 10


def test_crlf_bom_and_no_front_matter() -> None:
    note, found = parse("\ufeff---\r\nstatus: read\r\n---\r\nText\r\n")
    assert (found, note.status, note.body) == ([], "read", "Text\n")
    note, found = parse("Just a body.\n")
    assert (found, note.status, note.body, note.body_line) == ([], None, "Just a body.\n", 1)
    note, found = parse("---\nstatus: read\n")
    assert found == ["content/notes/k.md:1: warning: front matter starts with --- but is never closed by a --- "
                     "line; read the whole file as the note body"]
    assert note.status is None


def test_wrong_types_are_warned_at_their_line() -> None:
    note, found = parse("---\nrating: true\nyear: soon\ncitekey: 'a b'\nhidden: maybe\ntags: {a: 1}\n"
                        "title: [x]\nrating: 0\n---\n")
    assert found == [
        "content/notes/k.md:2: warning: rating should be a whole number from 1 to 5, not True; ignored",
        "content/notes/k.md:3: warning: year should be a four-digit year, not 'soon'; ignored",
        "content/notes/k.md:4: warning: citekey 'a b' is not a usable BibTeX key (letters, digits and _:.+- "
        "only); ignored",
        "content/notes/k.md:5: warning: hidden should be true or false, not 'maybe'; ignored",
        "content/notes/k.md:6: warning: tags should be a list of words, not {'a': 1}; ignored",
        "content/notes/k.md:7: warning: title should be text, not ['x']; ignored",
        "content/notes/k.md:8: warning: rating 0 is out of range (1 to 5); ignored",
    ]
    assert not note.has_overrides and note.rating is None


def test_front_matter_that_is_not_a_mapping() -> None:
    note, found = parse("---\n- a list\n---\nBody\n")
    assert found == ["content/notes/k.md:2: warning: front matter should be `key: value` lines; ignored"]
    assert note.broken and note.body == "Body\n"


def test_a_note_without_its_opening_fence_is_warned_at_its_first_line() -> None:
    note, found = parse("status: read\nrating: 4\n---\nLoved it.\n")
    assert found == ["content/notes/k.md:1: warning: `status: read` looks like front matter without its opening "
                     "--- line; add a --- line above it (until then the lines are read as the note's text)"]
    assert (note.status, note.rating) == (None, None)
    # After blank lines, the warning names the line of the first field.
    _, found = parse("\n\ntags: [gnn]\n---\nText.\n")
    assert [f.split(": warning")[0] for f in found] == ["content/notes/k.md:3"]
    # Prose that merely starts like a field, or a field with no `---` below it, is text.
    for text in ("Status: read twice.\n---\nMore.\n", "status: read\nand liked it.\n", "note: see below\n---\n"):
        assert parse(text)[1] == [], text
