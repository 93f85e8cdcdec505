"""Titles and other text as BibTeX field values: escaped, math kept, capitals protected."""

from __future__ import annotations

import pytest
from pybtex.database.output.bibtex import Writer

from generator.enrich.bibtex.title import escape_text, latex_title, needs_protection


@pytest.mark.parametrize(("title", "expected"), [
    # Seed titles.
    (r"\mathsf{VISTA}: Decentralized Machine Learning in Adversary Dominated Environments",
     r"{$\mathsf{VISTA}$}: Decentralized Machine Learning in Adversary Dominated Environments"),
    ("DeepSeek-R1 Thoughtology: Let’s think about LLM reasoning",
     "{DeepSeek-R1} Thoughtology: Let’s think about {LLM} reasoning"),
    ("ASkDAgger: Active Skill-level Data Aggregation for Interactive Imitation Learning",
     "{ASkDAgger}: Active Skill-level Data Aggregation for Interactive Imitation Learning"),
    ("L2G: Repurposing Language Models for Genomics Tasks",
     "{L2G}: Repurposing Language Models for Genomics Tasks"),
    ("Toward Privileged Foundation Models:LUPI for Accelerated and Improved Learning",
     "Toward Privileged Foundation Models:{LUPI} for Accelerated and Improved Learning"),
    ("Hessian Surgery: Class-Targeted Post-Hoc Rebalancing via Hessian Spike Perturbation",
     "{Hessian} Surgery: Class-Targeted Post-Hoc Rebalancing via {Hessian} Spike Perturbation"),
    ("Generative Feature Training of Thin 2-Layer Networks",
     "Generative Feature Training of Thin 2-Layer Networks"),
    ("Pre-trained TabPFN Summary Networks", "Pre-trained {TabPFN} Summary Networks"),
    # Abstract-style math kept as math and protected.
    ("Learning $\\alpha$-divergences in $O(n^2)$ time", r"Learning {$\alpha$}-divergences in {$O(n^2)$} time"),
    (r"Bounds via \frac{1}{2}-Lipschitz maps", r"Bounds via {$\frac{1}{2}$}-{Lipschitz} maps"),
    # Specials outside math.
    ("100% & #1: a_b {c} ~ ^ \\ x",
     r"100\% \& \#1: a\_b \textbraceleft{}c\textbraceright{} \textasciitilde{} \textasciicircum{} "
     r"\textbackslash{} x"),
    ("Costs in $ and <tags> | pipes", r"Costs in \$ and \textless{}tags\textgreater{} \textbar{} pipes"),
    # Already-escaped specials mean the character.
    (r"R\&D at 50\%", r"{R\&D} at 50\%"),
    # Unicode math symbols that inputenc does not know go to math mode.
    ("From α to ω: x ≤ y → z", r"From {$\alpha$} to {$\omega$}: x {$\leq$} y {$\rightarrow$} z"),
    ('The "reasoning" trap', "The ``reasoning'' trap"),
])
def test_latex_title(title: str, expected: str) -> None:
    assert latex_title(title) == expected


def test_unsafe_or_broken_math_becomes_text() -> None:
    assert latex_title(r"A $\input{/etc/passwd}$ b") == (
        r"A \$\textbackslash{}input\textbraceleft{}/etc/passwd\textbraceright{}\$ b")
    assert latex_title("Odd $a}{b$ c") == r"Odd \$a\textbraceright{}\textbraceleft{}b\$ c"
    assert latex_title("Money $5 and $6") == r"Money \$5 and \$6"


def test_math_uses_only_base_latex_commands() -> None:
    # amsmath/amssymb commands map to base LaTeX, so the entry compiles in a bare document.
    assert latex_title(r"Bounds in $\mathbb{R}^n$ via $\operatorname{argmax}_x f$") == (
        r"Bounds in {$\mathbf{R}^n$} via {$\mathrm{argmax}_x f$}")
    assert latex_title(r"$x \leftarrow y$ and $\left( x \right)$") == r"{$x \leftarrow y$} and {$\left( x \right)$}"
    # Unknown macros, `^^` tricks, dangling scripts or `\left` without `\right`: escaped text.
    assert latex_title(r"$\foo{x}$") == r"\$\textbackslash{}foo\textbraceleft{}x\textbraceright{}\$"
    assert latex_title(r"$^^5cinput x$") == r"\$\textasciicircum{}\textasciicircum{}5cinput x\$"
    assert latex_title(r"$x^$ b") == r"\$x\textasciicircum{}\$ b"
    assert latex_title(r"$\left( x$") == r"\$\textbackslash{}left( x\$"


def test_text_commands_are_kept_and_unknown_ones_are_escaped() -> None:
    assert latex_title(r"\emph{Deep} Nets") == r"\emph{Deep} Nets"
    assert latex_title(r"\foo bar") == r"\textbackslash{}foo bar"


@pytest.mark.parametrize(("word", "protect"), [
    ("LLM", True), ("LLMs", True), ("DeepSeek-R1", True), ("CVaR", True), ("3D", True),
    ("Markov", True), ("Gaussians", True), ("Self-Distillation", False), ("One-Shot", False),
    ("Q-Learning", True), ("K-Means", True), ("A", False), ("Transformers", False), ("2-Layer", False),
    ("Self-Supervised", False), ("Let’s", False),
])
def test_needs_protection(word: str, protect: bool) -> None:
    assert needs_protection(word) is protect


def test_every_output_has_balanced_braces() -> None:
    nasty = ["}{", "{{{", r"\mathsf{", "$}$", r"\emph{a", "a}b{c", "$$", r"\\\\", "~~^^"]
    for title in nasty:
        Writer().check_braces(latex_title(title))  # raises on unbalanced braces


@pytest.mark.parametrize(("text", "tex"), [
    ("Gómez Kujanpää Ajanović İsmail Łukasz Dvořák", "Gómez Kujanpää Ajanović İsmail Łukasz Dvořák"),
    ("Wąs Þór Đorđe", "Wąs Þór Đorđe"),  # need T1, and have no OT1 spelling at all
    ("Nguyễn Văn Đức", r"Nguy{\~{\^{e}}}n Văn Đ{\'{u}}c"),  # accents every encoding has
    ("e\u0301te\u0301", "été"),  # decomposed input is composed first
    ("«x» „y“", "``x'' ``y“"),
    ("刘伟 Иван Ħal", "Liu Wei Ivan Hal"),  # no LaTeX spelling without extra packages
    ("a\u200bb\x9fc\x85d", "abc d"),
])
def test_non_ascii_characters(text: str, tex: str) -> None:
    assert escape_text(text) == tex


def test_escape_text_keeps_accents_and_drops_controls() -> None:
    assert escape_text("Gómez\u200b\x07 Ćwik İnan") == "Gómez Ćwik İnan"
    assert escape_text("Fish & Chips_") == r"Fish \& Chips\_"
