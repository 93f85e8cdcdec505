"""The benchmark's output oracle: is a variant's output byte for byte the base variant's?

A speed-up switched off, or the code of another commit, must give the same docs folder and the
same site; a variant that is faster because it writes something else measures nothing. After each
variant's build the benchmark takes the SHA-256 of every file of the docs folder (`build/`) and of
the built site, and compares them with those of the base variant built in the same round.

Left out of the site, and why (checked: two builds of the same project, minutes apart):

- `pagefind/`: Pagefind names its filter chunks by a hash of contents it lays out in a different
  order on every run, so two indexes of the same records differ (`pagefind-entry.json` and the
  `filter/` file names). What it indexes is compared: the docs folder's `.search-records.json`.
- the `<lastmod>` dates of `sitemap.xml` and `sitemap.xml.gz` (and the gzip header's time, which
  MkDocs takes from the same date): MkDocs writes the day of the build, so two builds either side
  of midnight differ. The rest of the sitemap is compared.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
from pathlib import Path

SKIPPED_DIRS = ("pagefind",)  # in the site: see above
_LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")


def _sitemap(name: str, data: bytes) -> bytes:
    """A sitemap without its build dates: `sitemap.xml`, or `sitemap.xml.gz` unpacked."""
    if name.endswith(".gz"):
        data = gzip.decompress(data)
    return _LASTMOD.sub(b"<lastmod/>", data)


def digests(folder: Path, *, site: bool = False) -> dict[str, str]:
    """Relative path -> SHA-256 of every file under `folder`; `site`: a built site, with the
    parts above left out. A missing folder has no files."""
    out: dict[str, str] = {}
    for dirpath, dirs, names in os.walk(folder):
        rel = os.path.relpath(dirpath, folder)
        if site and rel == ".":
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        for name in names:
            path = os.path.join(dirpath, name)
            key = name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")
            with open(path, "rb") as fh:
                data = fh.read()
            if site and key in ("sitemap.xml", "sitemap.xml.gz"):
                data = _sitemap(key, data)
            out[key] = hashlib.sha256(data).hexdigest()
    return out


def first_difference(got: dict[str, str], want: dict[str, str]) -> str | None:
    """The first path (in sorted order) whose file differs, is missing or is new; None if none."""
    for path in sorted(got.keys() | want.keys()):
        if got.get(path) != want.get(path):
            return path
    return None


def compare(got: tuple[dict[str, str], dict[str, str]], base: tuple[dict[str, str], dict[str, str]]) -> str | None:
    """None when (docs folder, site) are the base's; else the first differing path, as
    `build/PATH` or `site/PATH`."""
    for label, mine, theirs in (("build", got[0], base[0]), ("site", got[1], base[1])):
        if (path := first_difference(mine, theirs)) is not None:
            return f"{label}/{path}"
    return None
