"""Author names for BibTeX: a display name `First [von] Last` split into pybtex name parts.

BibTeX's own rule for `First von Last` takes the last word as the family name and
any lowercase words before it as the `von` part. That is right for `Ludwig van
Beethoven` but wrong for Hispanic names whose given name itself holds `de X`
(`Alfonso de Jesús Navas Gómez`: given `Alfonso de Jesús`, family `Navas Gómez`).
So entries are always written `von Last, First`, with the split decided here:

1. one word is a family name alone (`ORZALESI`);
2. a trailing `Jr.`, `Sr.`, `II`, `III`, `IV` is the lineage;
3. a run of lowercase particles (`van`, `von der`, `de la`, ...) starts the family name
   (`van der Waals`); the particles become pybtex's `prelast`;
4. except for an Iberian particle (`de`, `del`, `da`, `do`, `dos`, ...) followed by three or
   more capitalised words: then `de X` ends the given name and the rest is a compound
   family name (Spanish and Portuguese names carry two family names), so
   `Alfonso de Jesús Navas Gómez` -> `Navas Gómez, Alfonso de Jesús`;
5. a connector `y`/`e`/`i` joins the words on both sides (`Ortega y Gasset`);
6. a capitalised particle (`De`, `Del`, `Van Der`, `Di`, `Le`, ...) just before the last word is
   part of the family name, as reference managers write it: `Adrian Del Maestro` ->
   `{Del Maestro}, Adrian` (APA "Del Maestro, A."), `Johan De Kleer` -> `{De Kleer}, Johan`;
   not `Van`/`Le`/`Thi` before a Vietnamese family name (`Minh Van Nguyen`: `Van` is a middle name);
7. otherwise the last word is the family name (what BibTeX itself would do).

No rule knows that `Gabi Dreo Rodosek` has the family name `Dreo Rodosek`; for such names the
curator may write `content/names.yml` (read, never written, by the generator):

    "Gabi Dreo Rodosek": "Dreo Rodosek, Gabi"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import yaml
from pybtex.database import Person

from ...curated import compose, yaml_error
from ...errors import ParseError, Problems
from ...model import Paper
from ...sources.bibquirks import braced
from .title import escape_text

PARTICLES = frozenset(
    "van von der den de del della delle dei degli di da das dos do du des la le lo las los "
    "ter ten te zu zum zur af av bin ibn".split()
)
# Particles after which Hispanic and Lusophone given names continue (`María de los Ángeles`).
_IBERIAN = frozenset("de del da das do dos".split())
_CONNECTORS = frozenset("y e i".split())
# Particles that, capitalised, still start the family name (`Del Maestro`, `Van Der Waals`).
_CAPITAL_PARTICLES = frozenset(
    "van von der den de del della delle dei degli di da das dos du des la le lo ter ten zu zur bin".split())
# Vietnamese family names: `Van`, `Le`, `Thi` before one of them are middle names.
_VIETNAMESE = frozenset(
    "nguyen tran le pham hoang huynh phan vu vo dang bui do ho ngo duong ly trinh dinh lam".split())
_LINEAGE = frozenset("jr jr. sr sr. ii iii iv".split())
_ASCII_UPPER = re.compile(r"[A-Z]")


@dataclass(frozen=True)
class NameParts:
    """A name split the BibTeX way; every part is plain text (not yet LaTeX)."""

    first: tuple[str, ...] = ()
    prelast: tuple[str, ...] = ()
    last: tuple[str, ...] = ()
    lineage: tuple[str, ...] = ()

    @property
    def family(self) -> str:
        """The family name without lower-case particles, as used in citation keys (`Navas Gómez`,
        `Del Maestro`)."""
        return " ".join(self.last)

    def bibtex(self) -> str:
        """`von Last, Jr, First` as plain text (for messages and tests)."""
        out = " ".join(self.prelast + self.last)
        if self.lineage:
            out += ", " + " ".join(self.lineage)
        if self.first:
            out += ", " + " ".join(self.first)
        return out


def _is_particle(word: str) -> bool:
    return word in PARTICLES


def split_name(name: str) -> NameParts:
    words = name.split()
    if not words:
        return NameParts()
    if len(words) == 1:
        return NameParts(last=tuple(words))
    lineage: tuple[str, ...] = ()
    if len(words) > 2 and words[-1].lower() in _LINEAGE:
        lineage = (words[-1],)
        words = words[:-1]
    given: list[str] = [words[0]]
    k = 1
    while k < len(words) - 1:
        word = words[k]
        if word in _CONNECTORS and len(given) > 1:
            # `José Ortega y Gasset`: the word before the connector is a family name too.
            return NameParts(tuple(given[:-1]), (), (given[-1], *words[k:]), lineage)
        if not _is_particle(word):
            given.append(word)
            k += 1
            continue
        end = k
        while end < len(words) - 1 and _is_particle(words[end]):
            end += 1
        rest = words[end:]
        if word in _IBERIAN and len(rest) >= 3 and not _is_particle(rest[0]):
            given.extend(words[k:end + 1])
            family = words[end + 1:]
            return _family_with_particles(tuple(given), family, lineage)
        return NameParts(tuple(given), tuple(words[k:end]), tuple(rest), lineage)
    start = _capital_particles(words)
    if start < len(words) - 1:
        return NameParts(tuple(words[:start]), (), tuple(words[start:]), lineage)
    return NameParts(tuple(given), (), (words[-1],), lineage)


def _capital_particles(words: list[str]) -> int:
    """Where a run of capitalised particles before the last word starts (len - 1 when none);
    at least one given name stays before it."""
    start = len(words) - 1
    if words[-1].lower() in _VIETNAMESE:
        return start
    while start > 1 and words[start - 1].lower() in _CAPITAL_PARTICLES and words[start - 1][0].isupper() \
            and words[start - 1][1:].islower():
        start -= 1
    return start


def _family_with_particles(given: tuple[str, ...], family: list[str],
                           lineage: tuple[str, ...]) -> NameParts:
    """The compound family name after an Iberian `de X` given name (may start `de la`)."""
    n = 0
    while n < len(family) - 1 and _is_particle(family[n]):
        n += 1
    return NameParts(given, tuple(family[:n]), tuple(family[n:]), lineage)


def _last_part(words: tuple[str, ...]) -> str:
    text = " ".join(escape_text(w) for w in words)
    # BibTeX decides "von or Last" by the first ASCII letter of each word, so a multi-word
    # family name with a word like `Özdemir` (first ASCII letter `z`) would lose its first
    # word to the von part. One brace group keeps it whole for both bibtex and biber.
    # A capitalised particle is braced with its family name too (`{Del Maestro}`), as reference
    # managers write it, so no style takes `Del` for a particle or a middle name.
    if len(words) > 1 and (words[0].lower() in _CAPITAL_PARTICLES
                           or any(not w[0].isascii() or not _ASCII_UPPER.match(w[0]) for w in words)):
        return "{" + text + "}"
    return text


def to_person(name: str, override: str = "") -> Person:
    """The pybtex `Person` for a display name; pybtex writes it as `von Last, Jr, First`.
    `override` is the curator's `von Last, Jr, First` spelling from `content/names.yml`.
    A build asks for few (0 and 2 at 10,000 papers: `bib_name` writes most names from their parts)."""
    if braced(override):  # a corporate name kept whole (`{IceCube Collaboration}`, sources/bibquirks.py)
        return Person(last="{" + escape_text(" ".join(override.strip()[1:-1].split())) + "}")
    if override:
        # pybtex splits the curator's plain-text spelling; the parts are escaped once, below.
        given = Person(override)
        # A family name kept braced (`du {Mas des Bourboux}`): its words, braced again by _last_part.
        last = tuple(w for part in given.last_names for w in part.strip("{}").split())
        parts = NameParts(tuple(given.first_names + given.middle_names), tuple(given.prelast_names),
                          last, tuple(given.lineage_names))
        return _person(parts)
    if kept_whole(name):
        return Person(last="{" + escape_text(" ".join(name.split())) + "}")
    return _person(split_name(name))


def kept_whole(name: str) -> bool:
    """` and ` separates names in BibTeX and a comma splits name parts: an odd (corporate) name
    with either is kept whole rather than let it become several people."""
    return "," in name or re.search(r"\band\b", name, flags=re.IGNORECASE) is not None


def _person(parts: NameParts) -> Person:
    first, middle, prelast, last, lineage = _fields(parts)
    return Person(first=first, middle=middle, prelast=prelast, last=last, lineage=lineage)


def _fields(parts: NameParts) -> tuple[str, str, str, str, str]:
    """The first, middle, prelast, last and lineage strings (LaTeX) `to_person` gives pybtex."""
    first = [escape_text(w) for w in parts.first]
    return (first[0] if first else "", " ".join(first[1:]), " ".join(escape_text(w) for w in parts.prelast),
            _last_part(parts.last), " ".join(escape_text(w) for w in parts.lineage))


# What pybtex's Person reads specially in a part: braces, a backslash (`\ ` is a space), a tilde.
_TEX_SPECIAL = re.compile(r"[{}\\~]")


def plain_fields(name: str, override: str = "") -> tuple[str, str, str, str, str] | None:
    """`to_person(name, override)`'s parts as strings, when none holds anything pybtex's Person
    reads specially (then its words are the parts split at white space); None otherwise, or for
    a name `to_person` keeps whole or takes from `override`."""
    if override or kept_whole(name):
        return None
    fields = _fields(split_name(name))
    return None if any(_TEX_SPECIAL.search(f) for f in fields) else fields


def override_family(override: str) -> str:
    """The family name (without particles) of a `von Last, First` override."""
    return " ".join(Person(override).last_names).replace("{", "").replace("}", "")


def _override_problem(value: object) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return "should be a name written `Family, Given`"
    if any(ch in value for ch in "{}\\") or re.search(r"\band\b", value) or value.count(",") > 2:
        return "should be one name written `Family, Given` (no braces, no `and`, at most two commas)"
    return None


def load_name_overrides(path: Path, shown: str, problems: Problems) -> dict[str, str]:
    """`content/names.yml`: display name (as in the digests) -> `von Last, Jr, First`. A file that
    cannot be read whole raises ParseError (generator/curated.py); a bad entry is a warning."""
    if not path.is_file():
        return {}
    what = "the name list"
    node = compose(path, shown, what=what)
    if node is None:
        return {}
    if not isinstance(node, yaml.MappingNode):
        raise ParseError(shown, node.start_mark.line + 1,
                         "the name list should map names to `Family, Given`, one `\"Name\": \"Family, Given\"` a line")
    try:
        data = yaml.constructor.SafeConstructor().construct_document(node)
    except yaml.YAMLError as exc:
        raise yaml_error(exc, shown, what) from None
    lines = {str(k.value): k.start_mark.line + 1 for k, _ in node.value}
    out: dict[str, str] = {}
    for name, value in data.items():
        problem = _override_problem(value)
        if problem:
            problems.warn(shown, lines.get(str(name), 0), f"{name!r}: {problem}; using the automatic split")
        else:
            out[" ".join(str(name).split())] = " ".join(str(value).split())
    return out


def apply_name_overrides(papers: list[Paper], names: Mapping[str, str]) -> list[Paper]:
    """Papers with `bib_names` set where the curator spelled an author's name for BibTeX (over a
    .bib entry's own spelling, which is kept for the other names)."""
    if not names:
        return papers
    out = []
    for paper in papers:
        own = paper.bib_names + ("",) * (len(paper.authors) - len(paper.bib_names))
        spelled = tuple(names.get(" ".join(a.split()), "") or o for a, o in zip(paper.authors, own, strict=False))
        out.append(replace(paper, bib_names=spelled) if any(spelled) else paper)
    return out
