"""The BibTeX that CSL-JSON and OpenReview records become (their own TeX, sources/textex.py)
compiles with the real tools: pdflatex + bibtex (plain) and biblatex + biber, without a warning,
hostile text included."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config
from tests.conftest import require_tool
from tests.fetch.replay import IDENT

pytestmark = pytest.mark.tex

PLAIN = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
\begin{document}
\nocite{%s}
\bibliographystyle{plain}
\bibliography{references}
\end{document}
"""
BIBLATEX = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage[backend=biber]{biblatex}
\addbibresource{references.bib}
\begin{document}
\nocite{%s}
\printbibliography
\end{document}
"""


def _run(cmd: list[str], cwd: Path) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"


def test_csl_json_and_openreview_entries_compile(project: Callable[..., Config], tmp_path: Path) -> None:
    pdflatex, bibtex, biber = require_tool("pdflatex"), require_tool("bibtex"), require_tool("biber")
    config = project(seeds=False)
    shutil.rmtree(config.notes_dir)
    for path in [*IDENT.glob("*.json"), *(IDENT / "hostile").glob("*.json")]:
        shutil.copy(path, config.seeds_dir / path.name)
    build(config)
    text = (config.build_dir / "references.bib").read_text(encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,]+),", text, re.M)
    assert len(keys) == 8
    for name, document, tool in (("plain", PLAIN, bibtex), ("biblatex", BIBLATEX, biber)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "references.bib").write_text(text, encoding="utf-8")
        (folder / "doc.tex").write_text(document % ",".join(keys), encoding="utf-8")
        _run([pdflatex, "-interaction=nonstopmode", "doc"], folder)
        _run([tool, "doc"], folder)
        _run([pdflatex, "-interaction=nonstopmode", "doc"], folder)
        _run([pdflatex, "-interaction=nonstopmode", "doc"], folder)
        log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
        assert re.findall(r".*Warning.*", log) == []
        tool_log = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
        # bibtex says `Warning--...`, biber `WARN - ...`.
        assert [line for line in tool_log.splitlines() if "Warning--" in line or "WARN" in line] == []
