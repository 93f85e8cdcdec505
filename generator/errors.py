"""Errors as data: problems are collected during a build and reported together at the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

# A note says what the build did about something that is not the input's fault (a damaged cache
# made again): it is printed, never counted, and never fails a strict build.
Severity = Literal["note", "warning", "error"]


def count(n: int, thing: str) -> str:
    """`1 warning`, `2 warnings`: a number and its noun, in messages and summaries."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


class GeneratorError(Exception):
    """Base of every error the generator raises on purpose."""


class ParseError(GeneratorError):
    """Input that could not be read, with the file and line it came from."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = str(path)
        self.line = line
        self.message = message


class Stopped(GeneratorError):
    """A file the curator writes could not be read whole (generator/curated.py): the build stopped
    before writing anything, so every file is as it was."""

    def __init__(self, causes: list[ParseError]) -> None:
        self.causes = causes
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """One `path:line: error: message` line per cause (as `Problem` prints them)."""
        return [str(Problem(c.path, c.line, c.message, "error")) for c in self.causes]

    def files(self) -> list[str]:
        return list(dict.fromkeys(c.path for c in self.causes))

    def advice(self) -> str:
        """The line after the causes: what happened to the files, and what to do."""
        return (f"stopped before writing anything (every file is as it was): fix {' and '.join(self.files())} "
                "and run again")


class DiskFull(GeneratorError):
    """No space left where a build writes: `folder` names it."""

    def __init__(self, folder: Path | str, outcome: str) -> None:
        super().__init__(f"no space left on the device of {shown(folder)}: {outcome}; free some space and "
                         "build again")
        self.folder = str(folder)


def shown(folder: Path | str) -> str:
    """A folder as a message names it: relative to the current folder when inside it."""
    path = Path(folder)
    try:
        return f"{path.resolve().relative_to(Path.cwd().resolve()).as_posix()}/"
    except (ValueError, OSError):
        return f"{path}/"


class ConfigError(GeneratorError):
    """A configuration value that is not what was expected."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input; never fatal on its own."""

    path: str
    line: int
    message: str
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}: {self.message}"


@dataclass
class Problems:
    """Collects problems from every stage so the build can report them all at once."""

    items: list[Problem] = field(default_factory=list)

    def warn(self, path: str | Path, line: int, message: str) -> None:
        self.items.append(Problem(str(path), line, message, "warning"))

    def error(self, path: str | Path, line: int, message: str) -> None:
        self.items.append(Problem(str(path), line, message, "error"))

    def note(self, path: str | Path, message: str) -> None:
        self.items.append(Problem(str(path), 0, message, "note"))

    def extend(self, other: Problems | list[Problem]) -> None:
        self.items.extend(other.items if isinstance(other, Problems) else other)

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    @property
    def notes(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "note"]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.items)
