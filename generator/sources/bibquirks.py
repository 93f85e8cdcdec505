"""What real .bib files hold that BibTeX reads in its own way, read the same way here (issue 45).

- **A repeated field or an undefined `@string` macro**: BibTeX warns and keeps the entry, with
  the first value of the repeated field and the macro as empty text. `LenientParser` (pybtex's
  parser, through its documented `handle_error` hook) does the same and collects what it kept, so
  the reader can warn with the field's own line.
- **A corporate author in braces** (`{IceCube Collaboration}`, `{GitHub Inc.}`): one name that
  BibTeX never splits. `corporate` tells such a pybtex Person; its spelling is kept braced, and
  every later stage (CSL `literal`, the BibTeX writer, the key's family name) keeps it whole.
- **Ambiguous author lists** (`ambiguous_names`): a whole list in one brace group (`{Hamano,
  Junio and Torvalds, Linus and others}`) is one name to BibTeX; `K. A. Olive et al.` is one
  person whose family name is `al.`, `{Vlah}, Z. et al.` (NASA ADS) one whose given name is
  `Z. et al.`; a trailing comma (`Niedoba, Matthew,`) makes the given
  name a `Jr` part. They are read as BibTeX reads them, with a warning that says how to write
  them.
- **AASTeX's dashes** (`ELUCID{\\mdash}Exploring`, `mass{\\ndash}concentration`, in NASA ADS's
  titles): `---` and `--`, which every TeX knows (`aas_dashes`): the title reads "ELUCID—Exploring"
  (the macro was dropped, joining the words) and the published BibTeX compiles without AASTeX.
- **Journals written as AASTeX macros** (`journal = {\\apj}`, NASA ADS's exports): read as the
  journal's full name (generator/data/ads_journal_macros.tsv), which the published BibTeX then
  carries, so that it compiles without `aas_macros.sty`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pybtex.database import Person
from pybtex.database.input.bibtex import DuplicateField, Parser, UndefinedMacro

ADS_MACROS_FILE = Path(__file__).resolve().parent.parent / "data" / "ads_journal_macros.tsv"
# The fields ADS (and the authors who copy its entries) write a journal macro in.
JOURNAL_FIELDS = ("journal", "journaltitle", "booktitle", "series")
_MACRO = re.compile(r"^\s*\{?\s*\\([A-Za-z]+)\s*\}?\s*$")


class LenientParser(Parser):
    """pybtex's parser, keeping an entry with a repeated field (its first value) or an undefined
    macro (empty), as BibTeX does; `kept` lists each such problem."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[DuplicateField | UndefinedMacro] = []

    def handle_error(self, error: Exception) -> None:
        if isinstance(error, (DuplicateField, UndefinedMacro)):
            self.kept.append(error)
            return
        raise error


def duplicate_field_name(error: DuplicateField) -> str:
    match = re.search(r"has a duplicate (\S+) field", str(error))
    return match.group(1) if match else ""


def field_line(chunk: str, field: str, nth: int) -> int:
    """The line (from 0, within `chunk`) of the `nth` (from 0) `field = ...` of the entry."""
    found = list(re.finditer(rf"(?i)(?<![\w\-:]){re.escape(field)}\s*=", chunk))
    at = found[nth].start() if len(found) > nth else (found[-1].start() if found else 0)
    return chunk.count("\n", 0, at)


def one_group(text: str) -> bool:
    """`{...}` whose first brace closes at its end."""
    if not (text.startswith("{") and text.endswith("}")):
        return False
    depth = 0
    for i, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def corporate(person: Person) -> bool:
    """A name that is one brace group and nothing else (`{IceCube Collaboration}`)."""
    others = person.first_names + person.middle_names + person.prelast_names + person.lineage_names
    return not others and len(person.last_names) == 1 and one_group(person.last_names[0])


def braced(name: str) -> bool:
    """A spelling (`Paper.bib_names`) that keeps a corporate name whole: `{IceCube Collaboration}`."""
    return one_group(name.strip())


def ambiguous_names(people: list[Person]) -> list[str]:
    """What BibTeX reads differently from how an author list seems meant, one phrase each."""
    out = []
    for person in people:
        text = " ".join(str(person).split())
        if corporate(person) and (re.search(r"\band\b", text[1:-1]) or "," in text[1:-1]):
            out.append(f"is one brace group ({text[:60]}{'…' if len(text) > 60 else ''}), which BibTeX reads as one "
                       "name; kept as one name (write the names without the outer braces, joined by `and`)")
        elif person.prelast_names[-1:] == ["et"] and person.last_names in (["al."], ["al"]):
            given = " ".join(person.first_names + person.middle_names)
            out.append(f"has `{given} et al.`, which BibTeX reads as one person with the family name `al.`; kept "
                       "so (write `and others` for a truncated list)")
        elif (person.first_names + person.middle_names)[-2:] in (["et", "al."], ["et", "al"]):
            given = " ".join(person.first_names + person.middle_names)
            out.append(f"has `{' '.join(person.last_names)}, {given}`, which BibTeX reads as one person with the "
                       f"given name `{given}`; kept so (write `and others` for a truncated list)")
        elif person.lineage_names and not person.first_names and not person.middle_names:
            out.append(f"has `{text},`, whose trailing comma BibTeX reads as a name with no given name and "
                       f"`{' '.join(person.lineage_names)}` as its `Jr` part; kept so (remove the comma)")
    return out


_DASH = re.compile(r"\\([mn])dash(?![A-Za-z])\s*")


def aas_dashes(value: str) -> str:
    """`\\mdash` and `\\ndash` (AASTeX) as TeX's own `---` and `--`."""
    return _DASH.sub(lambda m: "---" if m.group(1) == "m" else "--", value) if "dash" in value else value


@lru_cache(maxsize=1)
def ads_journals() -> dict[str, str]:
    """AASTeX journal macro (without the backslash) -> the journal's full name."""
    table = {}
    for line in ADS_MACROS_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            macro, _abbreviation, name = line.split("\t")
            table[macro] = name
    return table


def journal_macro(value: str) -> str | None:
    """The macro name of a field that is one TeX macro alone (`\\apj`, `{\\mnras}`), else None."""
    match = _MACRO.match(value)
    return match.group(1) if match else None
