"""pybtex's BibTeX writer, made fast enough for ten thousand entries without changing its output.

Two costs dominate when pybtex writes many small bibliographies: `BibliographyData.to_string()`
looks the writer up through the package entry points on every call (a scan of every installed
distribution), and every field goes through latexcodec, a character-by-character encoder. The
writer is created once here, and field encoding skips latexcodec for text it cannot change
(printable ASCII without the five characters latexcodec escapes, checked by the tests) and
remembers the rest.
"""

from __future__ import annotations

import codecs
import io
import re
from functools import lru_cache
from typing import TextIO, cast

from pybtex.database import BibliographyData, Entry, Person
from pybtex.database.output.bibtex import Writer

# Printable ASCII that latexcodec ("ulatex+<encoding>") leaves as it is: all but # % & _ ~.
_NEEDS_CODEC = re.compile(r"[^\x20-\x7e]|[#%&_~]")


@lru_cache(maxsize=1 << 16)
def _encode(text: str, encoding: str) -> str:
    return cast(str, codecs.encode(text, f"ulatex+{encoding}"))  # a text codec: str in, str out


# With a UTF-8 target latexcodec keeps every character UTF-8 can hold, so it changes only these
# (and cannot encode lone surrogates).
_NEEDS_CODEC_UTF8 = re.compile(r"[#%&_~\ud800-\udfff]")
_UTF8 = {"utf-8", "utf8", "utf_8"}


def encode(text: str, encoding: str) -> str:
    """The same as pybtex's `Writer._encode` for `encoding`."""
    fast = _NEEDS_CODEC_UTF8 if encoding.lower() in _UTF8 else _NEEDS_CODEC
    if not fast.search(text):
        return text
    return _encode(text, encoding)


@lru_cache(maxsize=1 << 16)
def _braces_ok(writer: Writer, text: str) -> None:
    Writer.check_braces(writer, text)


def _parts(person: Person) -> tuple[tuple[str, ...], ...]:
    return (tuple(person.first_names), tuple(person.middle_names), tuple(person.prelast_names),
            tuple(person.last_names), tuple(person.lineage_names))


class FastWriter(Writer):
    """pybtex's `Writer` with the same output, remembering what it has encoded and written."""

    def __init__(self, encoding: str | None = None) -> None:
        super().__init__(encoding)
        self._entries: dict[tuple[object, ...], str] = {}

    def _encode(self, text: str) -> str:
        return encode(text, self.encoding)

    def check_braces(self, s: str) -> None:
        if "{" not in s and "}" not in s:
            return  # without braces there is nothing to match
        inner = s[1:-1]
        if s[:1] == "{" and s[-1:] == "}" and "{" not in inner and "}" not in inner:
            return  # one balanced group, as every title is
        _braces_ok(self, s)  # raises BibTeXError like pybtex, and is remembered when it does not

    def _entry(self, key: str, entry: Entry) -> str:
        # Everything the output depends on: the name parts _format_name reads, fields, type, key.
        persons = tuple((role, tuple(_parts(p) for p in people)) for role, people in entry.persons.items())
        sig = (key, entry.original_type, persons, tuple(entry.fields.items()))
        text = self._entries.get(sig)
        if text is None:
            out = io.StringIO()
            out.write(f"@{entry.original_type}")
            out.write(f"{{{key}")
            for role, people in entry.persons.items():
                self._write_persons(out, people, role)
            for type_, value in entry.fields.items():
                self._write_field(out, type_, value)
            out.write("\n}\n")
            text = out.getvalue()
            if len(self._entries) > 100_000:
                self._entries.clear()
            self._entries[sig] = text
        return text

    def write_stream(self, bib_data: BibliographyData, stream: TextIO) -> None:
        # pybtex's own write_stream, one cached entry at a time.
        self._write_preamble(stream, bib_data.preamble)
        first = True
        for key, entry in bib_data.entries.items():
            if not first:
                stream.write("\n")
            first = False
            stream.write(self._entry(key, entry))


_WRITER = FastWriter()


def to_bibtex(data: BibliographyData) -> str:
    """`data.to_string("bibtex")`, without the plugin look-up and with cached field encoding."""
    return str(_WRITER.to_string(data))
