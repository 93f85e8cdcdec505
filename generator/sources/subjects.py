"""arXiv subject names as listing pages print them, and their class codes; and the names of all
arXiv categories (generator/data/arxiv_categories.tsv, arXiv's own taxonomy)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

TAXONOMY_FILE = Path(__file__).resolve().parent.parent / "data" / "arxiv_categories.tsv"

# Name on the listing page -> arXiv class. `Machine Learning` is both cs.LG and stat.ML;
# listing pages of the cs archive mean cs.LG. The taxonomy adds every other category (below).
SUBJECTS: dict[str, str] = {
    "Machine Learning": "cs.LG",
    "Artificial Intelligence": "cs.AI",
    "Computation and Language": "cs.CL",
    "Computer Vision and Pattern Recognition": "cs.CV",
    "Cryptography and Security": "cs.CR",
    "Formal Languages and Automata Theory": "cs.FL",
    "Information Retrieval": "cs.IR",
    "Neural and Evolutionary Computing": "cs.NE",
    "Robotics": "cs.RO",
    "Multiagent Systems": "cs.MA",
    "Distributed, Parallel, and Cluster Computing": "cs.DC",
    "Data Structures and Algorithms": "cs.DS",
    "Computer Science and Game Theory": "cs.GT",
    "Human-Computer Interaction": "cs.HC",
    "Logic in Computer Science": "cs.LO",
    "Programming Languages": "cs.PL",
    "Software Engineering": "cs.SE",
    "Sound": "cs.SD",
    "Systems and Control": "eess.SY",
    "Signal Processing": "eess.SP",
    "Image and Video Processing": "eess.IV",
    "Audio and Speech Processing": "eess.AS",
    "Numerical Analysis": "math.NA",
    "Optimization and Control": "math.OC",
    "Statistics Theory": "math.ST",
    "Information Theory": "cs.IT",
    "Methodology": "stat.ME",
    "Applications": "stat.AP",
    "Computation": "stat.CO",
    "Quantitative Methods": "q-bio.QM",
    "Neurons and Cognition": "q-bio.NC",
    "Computational Physics": "physics.comp-ph",
    "Chemical Physics": "physics.chem-ph",
    "Disordered Systems and Neural Networks": "cond-mat.dis-nn",
    "Statistical Mechanics": "cond-mat.stat-mech",
    "Quantum Physics": "quant-ph",
    "Econometrics": "econ.EM",
}


# Load once (not a speed-up with a switch): the data file read once per process.
@cache
def taxonomy() -> dict[str, tuple[str, bool, str]]:
    """Every arXiv category: code -> (name, active, canonical code of an alias or "")."""
    out: dict[str, tuple[str, bool, str]] = {}
    for line in TAXONOMY_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, name, active, canonical, _archive = line.split("\t")
            out[code] = (name, active == "1", canonical)
    return out


# Readable names for classes met as codes (cross-lists print the code only): arXiv's own names,
# so `stat.ML` and `cs.LG` are both "Machine Learning" and their code tells them apart.
CLASS_NAMES: dict[str, str] = {code: name for code, (name, _, _) in taxonomy().items()}

# A listing page of any archive names its subjects as arXiv does: every active category's name is
# a subject line too (`Strongly Correlated Electrons` -> cond-mat.str-el), an alias never (the
# names above choose between cs.LG and stat.ML).
for _code, (_name, _active, _canonical) in taxonomy().items():
    if _active and not _canonical:
        SUBJECTS.setdefault(_name, _code)

_CROSS = re.compile(r"^(?P<name>.+?)\s*·\s*Cross-listed from\s+(?P<code>[a-z-]+(?:\.[A-Za-z-]+)?)\s*$")


def _names_pattern(names: list[str]) -> str:
    """The names as one alternation, any whitespace between their words, grouped by their first
    letter: the regex engine tries the alternatives one by one, so a line that starts with a letter
    no name starts with is rejected at once, and one that does is tried against that letter's
    names only (a third of the time of the plain list of 148 names over a listing's lines)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        words = name.split()
        escaped = r"\s+".join(map(re.escape, words))
        # re.escape works character by character: the first letter's escape starts the pattern.
        first = re.escape(words[0][0])
        groups.setdefault(first, []).append(escaped[len(first):])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


# The names alone, any whitespace between their words: one match rejects an ordinary line (most
# lines of a listing are abstract text) without first normalising its spaces.
SUBJECT_NAME = _NAME = re.compile(r"^\s*(?:" + _names_pattern(list(SUBJECTS)) + r")\s*$")


def parse_subject(line: str) -> tuple[str, str | None] | None:
    """(primary class, cross-listed-from class) for a subject line, or None if it is not one."""
    if "Cross-listed" not in line:
        return (SUBJECTS[" ".join(line.split())], None) if _NAME.match(line) else None
    text = " ".join(line.split())
    m = _CROSS.match(text)
    name, cross = (m.group("name"), m.group("code")) if m else (text, None)
    code = SUBJECTS.get(name)
    if code is None:
        return None
    return code, cross


def class_name(code: str) -> str:
    return CLASS_NAMES.get(code, code)


# An archive and its subject class, each may have a hyphen: `cs.LG`, `hep-th`, `cond-mat.quant-gas`,
# `physics.comp-ph`. MSC and ACM classes, which arXiv's API lists as categories too (`35J20, 35B38`,
# `I.2.6`), never match.
_CATEGORY = re.compile(r"^[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]+(?:-[a-z]+)?)?$")


def is_category(code: str) -> bool:
    """Whether `code` is an arXiv category: one of the taxonomy, or written as one (a class
    newer than the taxonomy file)."""
    return code in CLASS_NAMES or bool(_CATEGORY.match(code))


def distinct_categories(codes: tuple[str, ...]) -> tuple[str, ...]:
    """`codes` without repeats, and without a second name of one category: arXiv lists a paper in
    `math.NA` under its alias `cs.NA` too (and `math.ST` as `stat.TH`); the first one named stays."""
    seen: set[str] = set()
    out: list[str] = []
    for code in codes:
        entry = taxonomy().get(code)
        same = entry[2] if entry and entry[2] else code
        if code not in seen and same not in seen:
            out.append(code)
            seen.update((code, same))
    return tuple(out)
