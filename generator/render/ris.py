"""A paper as an RIS record (`references.ris`), made from its CSL-JSON item (render/csl.py).

TMLR accepted papers are `JOUR` (journal in `T2`, ISSN in `SN`); submissions and preprints are
`UNPB` with their repository as publisher (`PB`: arXiv or OpenReview), what they are in `M3`
("Under review at ...") and the arXiv id in `AN`. One `AU` per author, `Family, Given` (with the
particle: `van der Waals, Johannes`); RIS has no "et al.", so a truncated list ends with the last
name the digest gave. A paper read from a .bib file has its entry's type (`CPAPER`, `BOOK`, `CHAP`,
`RPRT`, `THES`, ...; `GEN` for a `document`) and fields: editors (`A2`), pages (`SP`/`EP`),
series (`T3`), volume (`VL`), issue (`IS`), edition (`ET`), ISBN (`SN`), place (`CY`). Every
value is one line: RIS is line-based.
"""

from __future__ import annotations

from typing import Any

from .csl import OTHERS

# The line that ends every record.
END = "ER  - \n\n"

_TYPES = {"article-journal": "JOUR", "article": "UNPB", "paper-conference": "CPAPER", "book": "BOOK",
          "chapter": "CHAP", "report": "RPRT", "thesis": "THES", "webpage": "ELEC", "manuscript": "UNPB",
          "pamphlet": "PAMP"}


def ris_from_item(item: dict[str, Any]) -> str:
    """The RIS record of a paper's CSL item (`csl.csl_item`), ending with `ER  - ` and a blank line."""
    lines = [f"TY  - {_TYPES.get(item['type'], 'GEN')}", f"ID  - {item['id']}"]
    if "title" in item:
        lines.append(f"TI  - {_one_line(item['title'])}")
    lines += [f"AU  - {_one_line(ris_name(name))}" for name in item.get("author", []) if name != OTHERS]
    issued = item.get("issued", {}).get("date-parts", [[]])[0]
    if issued:
        lines.append(f"PY  - {issued[0]}")
        lines.append("DA  - " + "/".join(f"{part:02d}" for part in issued))
    lines += [f"A2  - {_one_line(ris_name(name))}" for name in item.get("editor", [])]
    first, _, last = str(item.get("page", "")).partition("-")
    for tag, value in (("SP", first), ("EP", last)):
        if value:
            lines.append(f"{tag}  - {_one_line(value)}")
    for tag, key in (("T2", "container-title"), ("T3", "collection-title"), ("VL", "volume"), ("IS", "issue"),
                     ("ET", "edition"), ("SN", "ISSN"), ("SN", "ISBN"), ("PB", "publisher"), ("CY", "publisher-place"),
                     ("M3", "genre"), ("AN", "number"), ("N1", "note"), ("DO", "DOI"), ("UR", "URL"),
                     ("AB", "abstract")):
        if key in item:
            lines.append(f"{tag}  - {_one_line(str(item[key]))}")
    return "\n".join(lines) + "\n" + END


def ris_name(name: dict[str, str]) -> str:
    """`van der Waals, Johannes, Jr.` from CSL name parts; a literal name as it is."""
    if "literal" in name:
        return name["literal"]
    particle = name.get("non-dropping-particle", "")
    if not particle:  # most names
        family = name.get("family") or ""
    # A particle ending in an apostrophe is written against the family name: `d'Alché-Buc`.
    elif particle.endswith(("'", "’")):
        family = particle + name.get("family", "")
    else:
        family = " ".join(filter(None, (particle, name.get("family"))))
    return ", ".join(filter(None, (family, name.get("given"), name.get("suffix"))))


def _one_line(value: str) -> str:
    """A value on one line: white space (line breaks, and any other unprintable character) folded."""
    return value if value.isprintable() else " ".join("".join(c if c.isprintable() else " " for c in value).split())
