"""Read the note files: YAML front matter (validated field by field) and a free Markdown body.

Nothing here writes: a note with problems is reported (file and line of the offending key,
or of the YAML error's mark) and used as far as it is valid.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import Problem, Problems
from .model import FIELDS, STATUSES, Note

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FENCE = re.compile(r"^(---|\.\.\.)[ \t]*$")
_CITEKEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.+-]{0,79}$")


@dataclass
class NoteCache:
    """Parsed notes by path and (mtime, size), so the watcher re-reads only files that changed."""

    entries: dict[Path, tuple[tuple[int, int], Note, list[Problem]]] = field(default_factory=dict)


def note_files(notes_dir: Path) -> list[Path]:
    if not notes_dir.is_dir():
        return []
    return sorted(p for p in notes_dir.glob("*.md") if p.is_file() and not p.name.startswith("."))


def load_notes(notes_dir: Path, root: Path, problems: Problems, cache: NoteCache | None = None) -> list[Note]:
    """Every note under `notes_dir`, in file-name order."""
    out: list[Note] = []
    seen: set[Path] = set()
    for path in note_files(notes_dir):
        seen.add(path)
        try:
            st = path.stat()
        except OSError:
            continue  # removed between listing and reading (an editor's rename)
        stamp = (st.st_mtime_ns, st.st_size)
        hit = cache.entries.get(path) if cache is not None else None
        if hit is not None and hit[0] == stamp:
            note, found = hit[1], hit[2]
        else:
            local = Problems()
            # A note whose front matter breaks is read as in a build, under serve too: its fields
            # ignored (with the warning), its text shown.
            note = read_note(path, _display(path, root), local)
            if cache is not None:
                cache.entries[path] = (stamp, note, local.items)
            found = local.items
        problems.extend(found)
        out.append(note)
    if cache is not None:
        for gone in set(cache.entries) - seen:
            del cache.entries[gone]
    return out


def read_note(path: Path, display: str, problems: Problems) -> Note:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.warn(display, 1, f"not UTF-8 text ({exc.reason} at byte {exc.start}); note ignored")
        return Note(display, path.stem)
    except OSError as exc:
        problems.warn(display, 1, f"cannot read the note: {exc.strerror}")
        return Note(display, path.stem)
    return parse_note(text, display, path.stem, problems)


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """(front matter or None, body, line where the body starts). Lines are 1-based."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None, "\n".join(lines), 1
    for i in range(1, len(lines)):
        if _FENCE.match(lines[i]):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1:]), i + 2
    return None, "\n".join(lines), 1  # no closing fence: it is all body, and we say so


def parse_note(text: str, display: str, stem: str, problems: Problems) -> Note:
    front, body, body_line = split_front_matter(text)
    if front is None and text.lstrip("\ufeff").startswith("---"):
        problems.warn(display, 1, "front matter starts with --- but is never closed by a --- line; "
                      "read the whole file as the note body")
    elif front is None:
        _unopened(body, display, problems)
    values: dict[str, Any] = {"body": body.strip("\n") + "\n" if body.strip() else "",
                              "body_line": body_line + _leading_blank_lines(body)}
    lines: dict[str, int] = {}
    if front is not None and front.strip():
        entries = _mapping(front, display, problems)
        if entries is None:
            values["broken"] = True
        for key, value, line in entries or ():
            lines[key] = line
            _field(key, value, line, display, problems, values)
    return Note(display, stem, lines=tuple(lines.items()), **values)


_FIELD_LINE = re.compile(r"^([a-z_]+)[ \t]*:(?:[ \t]|$)")


def _unopened(body: str, display: str, problems: Problems) -> None:
    """A note that begins with a known field and has a `---` line below it lacks its opening
    `---` (`status: read` on the first line): its front matter would be read as its text."""
    lines = body.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return
    m = _FIELD_LINE.match(lines[first])
    if m and m.group(1) in FIELDS and any(_FENCE.match(line) for line in lines[first + 1:]):
        problems.warn(display, first + 1, f"`{lines[first].strip()}` looks like front matter without its opening "
                      "--- line; add a --- line above it (until then the lines are read as the note's text)")


def _leading_blank_lines(body: str) -> int:
    n = 0
    for line in body.split("\n"):
        if line.strip():
            break
        n += 1
    return n


def _mapping(front: str, display: str, problems: Problems) -> list[tuple[str, Any, int]] | None:
    """Key, value and file line of each top-level front-matter entry; None when it is not YAML."""
    try:
        node = yaml.compose(front, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = 2 + mark.line if mark else 1
        what = exc.problem or "invalid YAML"
        if exc.context and exc.context_mark and exc.context_mark.line != getattr(mark, "line", None):
            what += f" {exc.context} started on line {2 + exc.context_mark.line}"
        problems.warn(display, line, f"front matter is not valid YAML ({what}); its fields are ignored")
        return None
    except yaml.YAMLError as exc:
        problems.warn(display, 1, f"front matter is not valid YAML ({exc}); its fields are ignored")
        return None
    if node is None:
        return []
    if not isinstance(node, yaml.MappingNode):
        problems.warn(display, 2 + node.start_mark.line, "front matter should be `key: value` lines; ignored")
        return None
    constructor = yaml.SafeLoader("")
    out = []
    for key_node, value_node in node.value:
        line = 2 + key_node.start_mark.line
        try:
            key = constructor.construct_object(key_node, deep=True)
            value = constructor.construct_object(value_node, deep=True)
        except yaml.YAMLError as exc:
            problems.warn(display, line, f"cannot read this front-matter value ({exc}); ignored")
            continue
        out.append((str(key), value, line))
    return out


def _field(key: str, value: Any, line: int, display: str, problems: Problems, out: dict[str, Any]) -> None:
    def bad(message: str) -> None:
        problems.warn(display, line, f"{message}; ignored")

    if key not in FIELDS:
        bad(f"unknown front-matter field {key!r} (known: {', '.join(FIELDS)})")
    elif value is None:
        return  # `rating:` left empty in a stub means "not set"
    elif key == "status":
        if value in STATUSES:
            out["status"] = value
        else:
            bad(f"unknown status {value!r} (expected one of {', '.join(STATUSES)})")
    elif key == "rating":
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5:
            out["rating"] = value
        elif isinstance(value, int) and not isinstance(value, bool):
            bad(f"rating {value} is out of range (1 to 5)")
        else:
            bad(f"rating should be a whole number from 1 to 5, not {value!r}")
    elif key == "added":
        date = _date(value)
        if date is None:
            bad(f"added should be a date like 2025-08-08, not {value!r}")
        else:
            out["added"] = date
    elif key in ("tags", "remove_tags"):
        items = [value] if isinstance(value, str) else value
        if isinstance(items, list) and all(isinstance(t, str | int | float) and not isinstance(t, bool)
                                           for t in items):
            out[key] = tuple(dict.fromkeys(str(t).strip() for t in items if str(t).strip()))
        else:
            bad(f"{key} should be a list of words, not {value!r}")
    elif key == "title":
        if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
            out["title"] = " ".join(str(value).split())
        else:
            bad(f"title should be text, not {value!r}")
    elif key == "year":
        if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 2999:
            out["year"] = value
        else:
            bad(f"year should be a four-digit year, not {value!r}")
    elif key == "citekey":
        if isinstance(value, str) and _CITEKEY.match(value.strip()):
            out["citekey"] = value.strip()
        else:
            bad(f"citekey {value!r} is not a usable BibTeX key (letters, digits and _:.+- only)")
    elif key in ("hidden", "accept_warnings"):
        if isinstance(value, bool):
            out[key] = value
        else:
            bad(f"{key} should be true or false, not {value!r}")


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def _display(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
