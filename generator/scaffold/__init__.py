"""`readinglist init`: a new reading list in a folder, ready to build and to publish.

The files come from `files/` inside the package, so a list can be started anywhere the package
is installed (from a wheel, say), with no copy of this repository. Nothing is ever overwritten:
if any file the list needs already exists, nothing is written at all.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from ..errors import GeneratorError
from . import requirement
from .requirement import Choice

# (file in the new list, template under files/); the folders below are created empty.
TEMPLATES = (
    ("mkdocs.yml", "mkdocs.yml"),
    ("content/topics.yml", "topics.yml"),
    ("README.md", "README.md"),
    (".gitignore", "gitignore"),
    (".github/workflows/pages.yml", "github/pages.yml"),
)
EMPTY = {
    "citekeys.yml": "# Citation keys and page addresses, written by readinglist: commit this file.\n",
    "seeds/README.md": "Put digests here (or run `readinglist add FILE`): TMLR digest e-mails, text copied\n"
                       "from a paper-listing page, and more. Files here are never changed by readinglist.\n"
                       "Every file but this README and the .yml date files beside digests is read as a\n"
                       "digest, whatever its name; one that is no digest is reported by every build.\n",
    "content/notes/.gitkeep": "",
    "overrides/.gitkeep": "",
    # The generated pages (MkDocs' docs_dir, which must exist before any build): kept out of git
    # by this file, which is itself kept so that a fresh clone has the folder.
    "build/.gitignore": "*\n!.gitignore\n",
}


class InitError(GeneratorError):
    """The folder already holds a file the new list would write."""


def default_name(folder: Path) -> str:
    """`my-lab_papers` -> `My lab papers`: the folder's name as a site name."""
    words = folder.resolve().name.replace("-", " ").replace("_", " ").split()
    return " ".join(words).capitalize() if words else "Reading list"


def init_list(dest: Path, site_name: str | None = None, choice: Choice | None = None) -> list[Path]:
    """Write a new list into `dest` (created if missing); returns the files written, in order.
    `choice` is the readinglist its requirements.txt names (default: the one running now).
    Raises InitError, writing nothing, when any of them exists already."""
    name = site_name.strip() if site_name and site_name.strip() else default_name(dest)
    choice = choice or requirement.running()
    texts = {target: _template(source, name) for target, source in TEMPLATES}
    texts.update(EMPTY)
    texts["requirements.txt"] = requirement.requirements_text(choice)
    wheel = f"{requirement.WHEELS}/{choice.wheel.name}" if choice.wheel else None
    taken = [target for target in [*texts, *([wheel] if wheel else [])] if (dest / target).exists()]
    if taken:
        raise InitError(f"{dest / taken[0]} already exists; init never overwrites a file "
                        "(choose an empty folder, or move that file away)")
    written = []
    for target, text in texts.items():
        path = dest / target
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as out:  # "x": never overwrite
            out.write(text)
        written.append(path)
    if choice.wheel is not None and wheel is not None:
        (dest / wheel).parent.mkdir(exist_ok=True)
        with choice.wheel.open("rb") as src, (dest / wheel).open("xb") as out:
            out.write(src.read())
        written.append(dest / wheel)
    return written


def _template(source: str, site_name: str) -> str:
    text = files(__package__).joinpath("files", source).read_text(encoding="utf-8")
    if source == "mkdocs.yml":
        # A JSON string is a YAML string: quotes, colons and `#` in the name stay text.
        return text.replace("__SITE_NAME__", json.dumps(site_name, ensure_ascii=False))
    return text.replace("__SITE_NAME__", site_name)
