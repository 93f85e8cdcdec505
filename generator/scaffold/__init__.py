"""`readinglist init`: a new reading list in a folder, ready to build and to publish.

The files come from `files/` inside the package, so a list can be started anywhere the package
is installed (from a wheel, say), with no copy of this repository. Nothing is ever overwritten:
if any file the list needs already exists, nothing is written at all.
"""

from __future__ import annotations

import json
from importlib import metadata
from importlib.resources import files
from pathlib import Path

from ..errors import GeneratorError

# (file in the new list, template under files/); the folders below are created empty.
TEMPLATES = (
    ("mkdocs.yml", "mkdocs.yml"),
    ("content/topics.yml", "topics.yml"),
    ("README.md", "README.md"),
    (".gitignore", "gitignore"),
    ("requirements.txt", "requirements.txt"),
    (".github/workflows/pages.yml", "github/pages.yml"),
)
EMPTY = {
    "citekeys.yml": "# Citation keys and page addresses, written by readinglist: commit this file.\n",
    "seeds/README.md": "Put digests here (or run `readinglist add FILE`): TMLR digest e-mails, text copied\n"
                       "from a paper-listing page, and more. Files here are never changed by readinglist.\n",
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


def requirement() -> str:
    """How the Pages workflow installs the readinglist running now: the same git commit when it
    was installed from git, else the same version (with a note when that came from a local file)."""
    try:
        dist = metadata.distribution("readinglist")
    except metadata.PackageNotFoundError:
        return "readinglist"
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    vcs = direct.get("vcs_info")
    if vcs and direct.get("url"):
        return f"readinglist @ git+{direct['url']}@{vcs.get('commit_id', '')}".rstrip("@")
    line = f"readinglist=={dist.version}"
    if str(direct.get("url", "")).startswith("file:"):
        line = ("# Installed here from a local file: point this at where the workflow can get it,\n"
                "# e.g. readinglist @ git+https://github.com/<owner>/readinglist@<commit>\n" + line)
    return line


def init_list(dest: Path, site_name: str | None = None) -> list[Path]:
    """Write a new list into `dest` (created if missing); returns the files written, in order.
    Raises InitError, writing nothing, when any of them exists already."""
    name = site_name.strip() if site_name and site_name.strip() else default_name(dest)
    texts = {target: _template(source, name) for target, source in TEMPLATES}
    texts.update(EMPTY)
    taken = [target for target in texts if (dest / target).exists()]
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
    return written


def _template(source: str, site_name: str) -> str:
    text = files(__package__).joinpath("files", source).read_text(encoding="utf-8")
    if source == "mkdocs.yml":
        # A JSON string is a YAML string: quotes, colons and `#` in the name stay text.
        return text.replace("__SITE_NAME__", json.dumps(site_name, ensure_ascii=False))
    if source == "requirements.txt":
        return text.replace("__REQUIREMENT__", requirement())
    return text.replace("__SITE_NAME__", site_name)
