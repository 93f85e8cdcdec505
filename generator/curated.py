"""The files the curator writes by hand (citekeys.yml, content/topics.yml, content/names.yml,
mkdocs.yml): read whole, or the build stops before it writes anything.

A file read in part costs the curator what the rest of it held: a key registry read as empty was
written again from nothing (every key the curator chose lost, published keys changed), a taxonomy
read as empty removed every tag page. So a YAML error, git's conflict markers or bytes that are not
UTF-8 raise `ParseError` with the file and line, and the build stops (`errors.Stopped`). One entry
that is wrong stays a warning with its line: the rest of the file is read. The notes are the
documented exception (docs/user-guide/notes.md): a note whose front matter cannot be read has its
fields ignored, and its paper stays.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from .errors import ParseError

# git's conflict markers (`|||||||` with merge.conflictStyle diff3), each at the start of a line.
_CONFLICT = re.compile(r"^(?:<{7}|\|{7}|={7}|>{7})(?:[ \t].*)?$", re.M)


def read_text(path: Path, shown: str, *, what: str, keep: str = "keep both sides' entries") -> str:
    """The file's text, or ParseError: unreadable, not UTF-8, or holding git's conflict markers.
    `what` names the file in messages ("the key registry"); `keep` says how to resolve a conflict."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ParseError(shown, 0, f"cannot read {what}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ParseError(shown, line, f"{what} is not UTF-8 text (byte {raw[exc.start]:#04x} on this line); "
                         "save it as UTF-8") from None
    check_conflicts(text, shown, keep)
    return text


def check_conflicts(text: str, shown: str, keep: str = "keep both sides' entries") -> None:
    """ParseError at the first of git's conflict markers in `text`, if it holds one."""
    conflict = _CONFLICT.search(text)
    if conflict is not None:
        line = text.count("\n", 0, conflict.start()) + 1
        raise ParseError(shown, line, f"resolve the merge conflict at line {line}; {keep}")


def yaml_error(exc: yaml.YAMLError, shown: str, what: str) -> ParseError:
    """A YAML error as `file:line: what is not valid YAML: problem at column C`, without PyYAML's
    own `in "<unicode string>"` lines."""
    problem = getattr(exc, "problem", None) or str(exc)
    context, where = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    mark = getattr(exc, "problem_mark", None) or where
    if "end of stream" in problem and where is not None:
        mark = where  # (the end of the file is no place to look: where the unclosed thing starts is)
    line = mark.line + 1 if mark is not None else 0
    column = f" at column {mark.column + 1}" if mark is not None and mark is not where else ""
    detail = f" ({context} at line {where.line + 1})" if context and where is not None else ""
    return ParseError(shown, line, f"{what} is not valid YAML: {problem}{column}{detail}")


def compose(path: Path, shown: str, *, what: str, keep: str = "keep both sides' entries") -> yaml.Node | None:
    """The file's YAML node tree (None for an empty file), or ParseError."""
    text = read_text(path, shown, what=what, keep=keep)
    try:
        # libyaml's parser where PyYAML has it (fifteen times faster than its own).
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise yaml_error(exc, shown, what) from None
