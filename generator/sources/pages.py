"""The read stage's other input: the curator's own pages under content/pages/, read as they are.

They are no digests (no reader, no records): each `.md` file is kept whole and put into the site
beside the generated pages (build.py hands them to `build.render`), so render reads no file of
the project and every input of a build is read before the model is rendered.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Problems


def read_pages(pages_dir: Path, root: Path, problems: Problems) -> dict[str, str]:
    """Each `.md` file under `pages_dir`, keyed by its path inside it (`about.md`, `sub/x.md`), in
    path order; a file that cannot be read is left out with a warning naming it (relative to `root`)."""
    pages: dict[str, str] = {}
    if not pages_dir.is_dir():
        return pages
    for path in sorted(pages_dir.rglob("*.md")):
        rel = path.relative_to(pages_dir).as_posix()
        try:
            pages[rel] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.warn(path.relative_to(root).as_posix(), 0, f"cannot read page: {exc}")
    return pages
