"""Keep rules (`extra.readinglist.keep` in mkdocs.yml): which papers of a bulk feed the list keeps.

A rule applies to the digests whose file names match its `files` glob and never touches another
digest. It keeps a paper of those digests when any of its positive criteria matches (`keywords`
at word starts in the title or abstract, `categories`, `authors`, `topics`, `interest`) and none
of its negative keywords (`-temporal logic`) does; a rule with no positive criterion keeps every
paper its negative keywords let through. A paper read from several digests is kept when any of
them keeps it (a digest no rule names keeps all of its papers), and a paper the curator has a
note for is always kept.

The filter sits in enrich (enrich/__init__.py) after the merge and the tags and before the citation keys are given:
a paper left out gets no key (it was never published), and a paper that had one keeps it in
citekeys.yml (the registry never forgets a key), so it comes back with the same key and page when
a rule lets it in again.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError
from .model import DigestCount, Paper

FIELDS = ("files", "keywords", "categories", "authors", "topics", "interest")
WHERE = "extra.readinglist.keep"


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def keyword_pattern(phrase: str) -> re.Pattern[str]:
    """`agent` matches Agents and Multi-Agent, not reagent: the phrase at a word start, any case;
    the words of a phrase may be parted by blanks or hyphens (`temporal logic`, temporal-logic)."""
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<!\w)" + r"[\s\-]+".join(words), re.IGNORECASE)


@dataclass(frozen=True)
class KeepRule:
    """One rule, as written (numbered from 1, with its line in mkdocs.yml)."""

    number: int
    line: int
    files: str
    keywords: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    categories: frozenset[str] = frozenset()
    authors: frozenset[str] = frozenset()
    topics: frozenset[str] = frozenset()
    interest: float | None = None
    topics_line: int = 0  # the line of `topics:`, for the warning about a name no paper has
    topic_names: tuple[str, ...] = ()  # as written
    _patterns: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)
    _negative: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)

    def applies(self, digest_path: str) -> bool:
        """Whether the rule speaks for this digest: its file name (or its path under seeds/, for a
        glob with a `/`) matches `files`."""
        name = digest_path.rsplit("/", 1)[-1]
        if "/" in self.files:
            return fnmatch.fnmatchcase(digest_path, self.files) or fnmatch.fnmatchcase(
                digest_path.split("/", 1)[-1], self.files)
        return fnmatch.fnmatchcase(name, self.files)

    def keeps(self, paper: Paper, tags: Sequence[str], interest: float | None) -> bool:
        """Any positive criterion matches (or there is none to match) and no negative keyword does.
        `interest` is None while the curator has given no signals: then the criterion waits."""
        text = "" if not (self._patterns or self._negative) else f"{paper.title}\n{paper.abstract}"
        if any(p.search(text) for p in self._negative):
            return False
        tests: list[Callable[[], bool]] = []
        if self._patterns:
            tests.append(lambda: any(p.search(text) for p in self._patterns))
        if self.categories:
            tests.append(lambda: any(c.casefold() in self.categories for c in paper.categories))
        if self.authors:
            tests.append(lambda: any(_norm(a) in self.authors for a in paper.authors))
        if self.topics:
            tests.append(lambda: any(t.casefold() in self.topics for t in tags))
        if self.interest is not None and interest is not None:
            tests.append(lambda: interest >= self.interest)  # type: ignore[operator]
        return not tests or any(test() for test in tests)

    def describe(self) -> str:
        return f"rule {self.number} ({self.files})"


@dataclass
class KeepResult:
    kept: list[bool]
    counts: list[DigestCount]


def apply_rules(rules: Sequence[KeepRule], papers: Sequence[Paper], tag_lists: Sequence[Sequence[str]],
                digest_papers: Mapping[str, Sequence[str]], noted: set[str],
                interest: Mapping[str, float] | None = None) -> KeepResult:
    """Which of `papers` the list keeps, and the counts per digest. `digest_papers`: each digest's
    path -> the ids of its papers (merged ids); `noted`: the ids of papers with a note;
    `interest`: each paper's score, or None before the curator gave any signal."""
    index = {p.id: i for i, p in enumerate(papers)}
    applying = {path: [r for r in rules if r.applies(path)] for path in digest_papers}
    # Per digest and paper: the first rule that keeps it (0: kept because no rule applies).
    verdict: dict[tuple[str, str], int | None] = {}
    kept = [False] * len(papers)
    for path, ids in digest_papers.items():
        for pid in ids:
            i = index.get(pid)
            if i is None:
                continue
            rules_here = applying[path]
            if not rules_here:
                verdict[path, pid] = 0
                kept[i] = True
                continue
            score = interest.get(pid) if interest is not None else None
            first = next((r.number for r in rules_here if r.keeps(papers[i], tag_lists[i], score)), None)
            verdict[path, pid] = first
            kept[i] = kept[i] or first is not None
    for pid in noted:
        if pid in index:
            kept[index[pid]] = True
    counts = []
    for path, ids in digest_papers.items():
        if not applying[path]:
            continue
        ids = [pid for pid in dict.fromkeys(ids) if pid in index]
        by_rule: dict[int, int] = {r.number: 0 for r in applying[path]}
        by_note = 0
        for pid in ids:
            first = verdict.get((path, pid))
            if first:
                by_rule[first] += 1
            elif kept[index[pid]] and pid in noted:
                by_note += 1
        n_kept = sum(kept[index[pid]] for pid in ids)
        counts.append(DigestCount(path, len(ids), n_kept, tuple(by_rule.items()), by_note))
    return KeepResult(kept, counts)


def unknown_topics(rules: Sequence[KeepRule], tag_lists: Sequence[Sequence[str]],
                   topics: Sequence[str]) -> list[tuple[KeepRule, str]]:
    """(rule, name) for each name in a rule's `topics` that is no topic of the taxonomy and no
    paper's tag: a misspelt name would keep nothing, without a word."""
    known = {t.casefold() for t in topics} | {t.casefold() for tags in tag_lists for t in tags}
    return [(rule, name) for rule in rules for name in rule.topic_names if name.casefold() not in known]


# Reading the rules, with the line of each value in mkdocs.yml for the messages.

def _node_at(node: yaml.Node | None, *keys: str) -> yaml.Node | None:
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            return None
        node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)
    return node


def _lines(config_text: str, loader: type[yaml.SafeLoader]) -> list[tuple[int, dict[str, int]]]:
    """Each rule's line and its fields' lines (1-based), as far as the YAML says."""
    try:
        root = yaml.compose(config_text, Loader=loader)
    except yaml.YAMLError:
        return []
    keep = _node_at(root, "extra", "readinglist", "keep")
    if not isinstance(keep, yaml.SequenceNode):
        return [(keep.start_mark.line + 1, {})] if keep is not None else []
    out = []
    for item in keep.value:
        fields = ({k.value: k.start_mark.line + 1 for k, _ in item.value if isinstance(k, yaml.ScalarNode)}
                  if isinstance(item, yaml.MappingNode) else {})
        out.append((item.start_mark.line + 1, fields))
    return out


def parse_rules(value: Any, config_file: Path, config_text: str,
                loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> tuple[KeepRule, ...]:
    """The rules of `extra.readinglist.keep`; every mistake in them is named at once, with
    mkdocs.yml's path and line, in one ConfigError."""
    if value is None:
        return ()
    shown = config_file.name
    lines = _lines(config_text, loader)
    errors: list[str] = []

    def where(i: int, key: str = "") -> str:
        line, fields = lines[i] if i < len(lines) else (0, {})
        at = fields.get(key, line) if key else line
        return f"{shown}:{at}: {WHERE}[{i + 1}]" + (f".{key}" if key else "")

    if not isinstance(value, list):
        line = lines[0][0] if lines else 0
        raise ConfigError(f"{shown}:{line}: {WHERE}: expected a list of rules (each with `files` and the "
                          f"criteria to keep a paper by), got {value!r}")
    rules = []
    for i, raw in enumerate(value):
        if not isinstance(raw, dict):
            errors.append(f"{where(i)}: expected a rule (files, keywords, categories, authors, topics, "
                          f"interest), got {raw!r}")
            continue
        unknown = [k for k in raw if k not in FIELDS]
        for key in unknown:
            errors.append(f"{where(i, str(key))}: unknown field {key!r}; a rule has {', '.join(FIELDS)}")
        files = raw.get("files")
        if "files" not in raw:
            errors.append(f"{where(i)}: every rule needs `files`, a glob of the digest file names it applies "
                          "to (e.g. '*arxiv*'); rules never touch other digests")
            files = ""
        elif not isinstance(files, str) or not files.strip():
            errors.append(f"{where(i, 'files')}: expected a glob of digest file names (e.g. '*arxiv*'), "
                          f"got {files!r}")
            files = ""
        lists: dict[str, list[str]] = {}
        for key in ("keywords", "categories", "authors", "topics"):
            got = raw.get(key, [])
            got = [got] if isinstance(got, str) else got
            if not isinstance(got, list) or not all(isinstance(x, str) and x.strip().lstrip("-").strip()
                                                    for x in got):
                errors.append(f"{where(i, key)}: expected a list of {key} (words or names), got {raw.get(key)!r}")
                got = []
            lists[key] = [x.strip() for x in got]
        interest = raw.get("interest")
        if interest is not None and (isinstance(interest, bool) or not isinstance(interest, int | float)
                                     or not 0 <= interest <= 1):
            errors.append(f"{where(i, 'interest')}: expected a number between 0 and 1, got {interest!r}")
            interest = None
        for key in ("categories", "authors", "topics"):
            if any(x.startswith("-") for x in lists[key]):
                errors.append(f"{where(i, key)}: a leading `-` excludes only in `keywords`")
        positive = tuple(k for k in lists["keywords"] if not k.startswith("-"))
        negative = tuple(k[1:].strip() for k in lists["keywords"] if k.startswith("-"))
        rules.append(KeepRule(
            number=i + 1, line=lines[i][0] if i < len(lines) else 0, files=files.strip(),
            keywords=positive, excluded=negative,
            categories=frozenset(c.casefold() for c in lists["categories"]),
            authors=frozenset(_norm(a) for a in lists["authors"]),
            topics=frozenset(t.casefold() for t in lists["topics"]),
            interest=float(interest) if interest is not None else None,
            topics_line=(lines[i][1].get("topics", lines[i][0]) if i < len(lines) else 0),
            topic_names=tuple(lists["topics"]),
            _patterns=tuple(map(keyword_pattern, positive)), _negative=tuple(map(keyword_pattern, negative))))
    if errors:
        raise ConfigError("\n".join(errors))
    return tuple(rules)
