"""arXiv subject names as listing pages print them, and their class codes."""

from __future__ import annotations

import re

# Name on the listing page -> arXiv class. `Machine Learning` is both cs.LG and stat.ML;
# listing pages of the cs archive mean cs.LG.
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

# Readable names for classes met as codes (cross-lists print the code only).
CLASS_NAMES: dict[str, str] = {code: name for name, code in SUBJECTS.items()}
CLASS_NAMES.update({"stat.ML": "Machine Learning (stat)", "math.PR": "Probability"})

_CROSS = re.compile(r"^(?P<name>.+?)\s*·\s*Cross-listed from\s+(?P<code>[a-z-]+(?:\.[A-Za-z-]+)?)\s*$")


# The names alone, any whitespace between their words: one match rejects an ordinary line (most
# lines of a listing are abstract text) without first normalising its spaces.
SUBJECT_NAME = _NAME = re.compile(
    r"^\s*(?:" + "|".join(r"\s+".join(map(re.escape, n.split())) for n in SUBJECTS) + r")\s*$")


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

