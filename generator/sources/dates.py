"""A digest's date when its text carries none: file name, sidecar, git, modification time."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

import yaml

from ..errors import Problems

NAME_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
# Month names as .bib files spell them (pybtex expands `jun` to "June"), January first.
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")


def sidecar_path(path: Path) -> Path | None:
    """The `.yml` beside a digest that gives its date, if there is one."""
    for cand in (path.with_suffix(".yml"), path.with_name(path.name + ".yml"),
                 path.with_suffix(".yaml")):
        if cand != path and cand.is_file():
            return cand
    return None


def resolve_date(path: Path, display: str, problems: Problems) -> tuple[dt.date, str]:
    """The date and a description of where it came from. A sidecar is the curator's own word and
    is taken quietly; every guess after it is a warning, so the curator can see and correct it."""
    side = sidecar_path(path)
    if side is not None:
        side_date = _sidecar_date(side, problems)
        if side_date is not None:
            return side_date, side.name
    m = NAME_DATE.search(path.name)
    if m:
        try:
            date = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            problems.warn(display, 0, f"digest has no date in its text; using {date} from its file name "
                          f"(add `date:` to {path.stem}.yml to confirm it)")
            return date, "file name"
        except ValueError:
            pass
    git_date = _git_added(path)
    if git_date is not None:
        problems.warn(display, 0, f"digest has no date in its text; using {git_date}, the date it was "
                      f"first committed (add `date:` to {path.stem}.yml to set it)")
        return git_date, "git"
    date = dt.date.fromtimestamp(path.stat().st_mtime)
    problems.warn(display, 0, f"digest has no date in its text; using {date}, its modification time "
                  f"(add `date:` to {path.stem}.yml to set it)")
    return date, "modification time"


def _sidecar_date(side: Path, problems: Problems) -> dt.date | None:
    try:
        data = yaml.safe_load(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", -1) + 1
        problems.warn(str(side), line, f"cannot read sidecar: {exc}")
        return None
    value = data.get("date") if isinstance(data, dict) else None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if value is not None:
        try:
            return dt.date.fromisoformat(str(value))
        except ValueError:
            pass
    problems.warn(str(side), 1, f"`date:` should be a date like 2025-08-08, got {value!r}")
    return None


def _git_added(path: Path) -> dt.date | None:
    try:
        out = subprocess.run(
            ["git", "log", "--diff-filter=A", "--follow", "--format=%aI", "--", path.name],
            cwd=path.parent, capture_output=True, text=True, timeout=10, check=False,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if not out:
        return None
    return dt.datetime.fromisoformat(out[-1]).date()
