"""The real tools: a document citing every key compiles with pdflatex + bibtex (plain) and with
biblatex + biber, and every log is free of warnings and errors.

Besides the seeds' `references.bib` the document cites `tricky.bib`: entries built from hostile
input (every LaTeX special, math, Greek, odd names), which must come out just as clean.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

import pytest

from generator.build import BuildResult
from generator.enrich import bibtex
from generator.enrich.bibtex import with_entries
from generator.model import Library, Paper, SourceRef
from tests.conftest import require_tool

pytestmark = pytest.mark.tex

TRICKY = [
    ("100% of $5 & #1_a {b} ~c ^d \\e <f> |g| \"quoted\"", ("Ana Pérez", "Jan van der Berg")),
    ("Learning $\\alpha$-divergences in $O(n^2)$ with \\mathsf{VISTA} and α → β ≤ γ in $\\mathbb{R}^n$ "
     "with $\\operatorname{argmax}_x \\left( x \\leftarrow y \\right)$", ("ORZALESI",)),
    ("Unsafe $\\input{/etc/passwd}$ and broken $a}{b$ math", ("María de los Ángeles Özdemir Çelik",)),
    ("İstanbul Ćwik Ærø: Ünïcödé ‘quotes’ — dashes – and … ellipses, «guillemets» „low“",
     ("İsmail İlkan Ceylan", "Zlatan Ajanović", "Nguyễn Văn Minh", "刘伟", "Иван Петров", "Jose\u0301 Ni\u00f1o")),
    ("R\\&D for TabPFN, LLMs and DeepSeek-R1 via \\emph{Hessian} Markov chains",
     ("Martin Luther King Jr.", "Research and Development Team", "José Ortega y Gasset")),
    # arXiv's math without dollar signs (tests/fixtures/real), which the pages show as ε, L^∞, ≫, ℓ₁/ℓ₂.
    ("Fast (1+\\varepsilon)-Approximation of the L^\\infty Learnability when d \\gg n via "
     "\\frac{\\ell_1}{\\ell_2} Regularized O(n \\log n) & (\\Delta+1) Roman \\{3\\}", ("Ann Lee",)),
]


# Letters that only the T1 font encoding has (Polish, Icelandic, Croatian): the biblatex document
# loads `fontenc` T1, as conference templates do; the plain one stays with LaTeX's default OT1.
TRICKY_T1 = [("Wąs, Þór and Đorđe on ŋ", ("Łukasz Wąs", "Þórunn Ðórsdóttir", "Đorđe Petrović", "Nguyễn Văn Đức"))]


def _tricky_papers(entries: list[tuple[str, tuple[str, ...]]] = TRICKY, prefix: str = "tricky") -> list[Paper]:
    out = []
    for n, (title, authors) in enumerate(entries):
        out.append(Paper(
            id=f"tricky:{n}", title=title, authors=authors, abstract="", origin=SourceRef("x.txt", 1),
            venue="TMLR" if n % 2 else "arXiv", status="accepted" if n % 2 else "preprint",
            labels=("Featured & 50% Certification",) if n % 2 else (), categories=("cs.LG", "stat.ML"),
            authors_complete=n != 2, date=dt.date(2025, 1 + n, 3), key=f"{prefix}{n}",
            url=f"https://example.org/p?id={n}&x=50%25#top", doi=f"10.1000/x_{n}", arxiv_id=f"2501.0000{n}"))
    return with_entries(Library(papers=out)).papers


def _run(cmd: list[str], cwd: Path) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"


@pytest.fixture(scope="module")
def bibdir(seed_build: BuildResult, mixed_build: BuildResult,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    folder = tmp_path_factory.mktemp("tex")
    # The seeds with what researchers receive: entries from arXiv e-mails, feeds, API results and a
    # reference manager's .bib (their own fields) are in the same file and must compile as clean.
    (folder / "references.bib").write_text(mixed_build.files["references.bib"], encoding="utf-8")
    assert {p.key for p in seed_build.library.papers} <= {p.key for p in mixed_build.library.papers}
    tricky, tricky_t1 = _tricky_papers(), _tricky_papers(TRICKY_T1, "trickyt")
    (folder / "tricky.bib").write_text(bibtex.bibliography(tricky), encoding="utf-8")
    (folder / "tricky-t1.bib").write_text(bibtex.bibliography(tricky_t1), encoding="utf-8")
    keys = [p.key for p in mixed_build.library.papers] + [p.key for p in tricky]
    return folder, keys, [p.key for p in tricky_t1]


def _assert_clean_latex_log(log: Path) -> str:
    text = log.read_text(encoding="utf-8", errors="replace")
    assert not re.findall(r".*Warning.*", text), re.findall(r".*Warning.*\n.*", text)
    assert "Missing character" not in text
    assert not re.findall(r"^! .*", text, flags=re.M)
    return text


def test_plain_bibtex_compiles_clean(bibdir: tuple[Path, list[str], list[str]]) -> None:
    pdflatex, bibtex_bin = require_tool("pdflatex"), require_tool("bibtex")
    folder, keys, _t1_keys = bibdir
    (folder / "plain.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\begin{document}\n"
        f"\\cite{{{','.join(keys)}}}\n\\bibliographystyle{{plain}}\n\\bibliography{{references,tricky}}\n"
        "\\end{document}\n", encoding="utf-8")
    latex = [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "plain.tex"]
    _run(latex, folder)
    _run([bibtex_bin, "plain"], folder)
    _run(latex, folder)
    _run(latex, folder)
    blg = (folder / "plain.blg").read_text(encoding="utf-8", errors="replace")
    assert "Warning--" not in blg and "error message" not in blg, blg
    _assert_clean_latex_log(folder / "plain.log")
    bbl = (folder / "plain.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem{") == len(keys)
    # plain lower-cases titles: protected words keep their capitals, names come out right.
    assert "{RelAgent}: {LLM} agents as data scientists for relational learning" in " ".join(bbl.split())
    assert "Aurélien Decelle, Alfonso de~Jesús Navas~Gómez, and Beatriz Seoane." in bbl
    assert "Cedric Maron, Virginie Fresse, and ORZALESI." in bbl
    assert "{$\\mathsf{VISTA}$}: Decentralized machine learning" in " ".join(bbl.split())


def test_biblatex_biber_compiles_clean(bibdir: tuple[Path, list[str], list[str]]) -> None:
    pdflatex, biber = require_tool("pdflatex"), require_tool("biber")
    folder, keys, t1_keys = bibdir
    keys = keys + t1_keys
    (folder / "bl.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{references.bib}\n"
        "\\addbibresource{tricky.bib}\n\\addbibresource{tricky-t1.bib}\n\\begin{document}\n"
        f"\\cite{{{','.join(keys)}}}\n\\printbibliography\n\\end{{document}}\n", encoding="utf-8")
    latex = [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "bl.tex"]
    _run(latex, folder)
    _run([biber, "bl"], folder)
    _run(latex, folder)
    _run(latex, folder)
    blg = (folder / "bl.blg").read_text(encoding="utf-8", errors="replace")
    assert not re.findall(r".*(?:WARN|ERROR).*", blg), blg
    _assert_clean_latex_log(folder / "bl.log")
    bbl = (folder / "bl.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\entry{") == len(keys)
    assert "family={Navas\\bibnamedelima Gómez}" in bbl
    assert "given={Alfonso\\bibnamedelimb de\\bibnamedelima Jesús}" in bbl


def test_tricky_entries_keep_their_meaning() -> None:
    text = bibtex.bibliography(_tricky_papers())
    assert r"title = {100\% of \$5 \& \#1\_a \textbraceleft{}b\textbraceright{}" in text
    assert r"{$\alpha$}-divergences in {$O(n^2)$} with {$\mathsf{VISTA}$}" in text
    assert "author = {{Özdemir Çelik}, María de los Ángeles and others}" in text
    assert (r"title = {Fast (1+{$\varepsilon$})-Approximation of the {$L^\infty$} Learnability when d {$\gg$} n "
            r"via {$\frac{\ell_1}{\ell_2}$} Regularized O(n {$\log$} n) \& ({$\Delta$}+1) Roman "
            r"\textbraceleft{}3\textbraceright{}}") in text
    # Braces keep `Ortega y Gasset` whole: bibtex would take `Ortega y` for a von part.
    assert "King, Jr., Martin Luther and {Research and Development Team} and {Ortega y Gasset}, José" in text
