"""Which readinglist a list's Pages workflow installs: the line of `requirements.txt` that names it.

The workflow runs `pip install -r requirements.txt` on a fresh GitHub runner, so the line must
install exactly the readinglist that made (or upgraded) the list, from somewhere that runner can
reach. How the running package was installed tells (PEP 610's direct_url.json):

- from an index (no direct_url.json): the same version from PyPI, by the distribution's own name;
- from a git repository on a server: that repository at the same commit;
- from a wheel file: a copy of that wheel, committed with the list (`wheels/`);
- from a wheel at an http(s) address: that address.

Anything else (an editable or plain checkout, a git repository on this machine) is not reachable
from the runner: the line is left unset, and `readinglist upgrade --requirement SPEC` sets it.
The distribution is `readinglist-site`: the name `readinglist` on PyPI is another project, so a
bare `readinglist` is never written.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from .. import DISTRIBUTION
from ..errors import GeneratorError

WHEELS = "wheels"  # the list's folder for a committed wheel
UNSET = f"# {DISTRIBUTION}: not set"
HEADER = ("# What the Pages workflow installs to build this list: the readinglist that made it.\n"
          "# `readinglist upgrade` rewrites the readinglist line; other lines are yours.\n")
# A line of requirements.txt that names readinglist (by name, as a wheel file, or unset).
_OURS = re.compile(rf"^\s*(readinglist[-_.]site\b|{re.escape(UNSET)}|\S*readinglist_site-[^/\s]*\.whl)", re.IGNORECASE)


class RequirementError(GeneratorError):
    """A --requirement that cannot be used."""


@dataclass(frozen=True)
class Choice:
    line: str        # the requirements.txt line (UNSET... when none could be chosen)
    why: str         # one sentence for the user: what was chosen and from what
    wheel: Path | None = None  # a wheel to copy into the list's wheels/ folder

    @property
    def chosen(self) -> bool:
        return not self.line.startswith("#")


def choose(version: str, direct_url: dict | None) -> Choice:
    """The requirement for readinglist `version` installed as `direct_url` describes (None: from
    an index)."""
    if direct_url is None:
        return Choice(f"{DISTRIBUTION}=={version}",
                      f"{DISTRIBUTION} {version} from PyPI (it was installed here from a package index)")
    url = str(direct_url.get("url", ""))
    scheme = urlparse(url).scheme
    vcs = direct_url.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("commit_id"):
        if scheme in {"https", "http", "ssh", "git"}:
            return Choice(f"{DISTRIBUTION} @ {vcs.get('vcs', 'git')}+{url}@{vcs['commit_id']}",
                          f"{DISTRIBUTION} from {url} at commit {vcs['commit_id']} (as installed here)")
        return _unset(f"it was installed from the repository {url}, which GitHub's runner cannot reach")
    if "archive_info" in direct_url:
        if scheme == "file" and url.endswith(".whl"):
            wheel = Path(unquote(urlparse(url).path))
            if wheel.is_file():
                return Choice(f"./{WHEELS}/{wheel.name}",
                              f"a copy of the wheel it was installed from, {wheel.name}, in {WHEELS}/ "
                              "(commit it)", wheel)
            return _unset(f"it was installed from the wheel {wheel}, which is no longer there")
        if scheme in {"https", "http"}:
            hashes = direct_url["archive_info"].get("hashes") or {}
            fragment = f"#sha256={hashes['sha256']}" if "sha256" in hashes else ""
            return Choice(f"{DISTRIBUTION} @ {url.split('#')[0]}{fragment}", f"{DISTRIBUTION} from {url}")
        return _unset(f"it was installed from {url}, which GitHub's runner cannot reach")
    where = unquote(urlparse(url).path) if scheme == "file" else url
    return _unset(f"it runs from the folder {where}, which GitHub's runner cannot reach")


def _unset(reason: str) -> Choice:
    return Choice(f"{UNSET} ({reason}); see README.md, Publishing", reason)


def running() -> Choice:
    """The requirement for the readinglist running now."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _unset(f"no installed {DISTRIBUTION} was found (readinglist runs from its source folder)")
    text = dist.read_text("direct_url.json")
    return choose(dist.version, json.loads(text) if text else None)


def given(spec: str) -> Choice:
    """The requirement a user gave with --requirement: a wheel file (copied into the list) or a
    requirement line, which must name readinglist-site."""
    path = Path(spec).expanduser()
    if spec.endswith(".whl"):
        if not path.is_file():
            raise RequirementError(f"--requirement {spec}: no such wheel file")
        if not path.name.lower().startswith("readinglist_site-"):
            raise RequirementError(f"--requirement {spec}: not a {DISTRIBUTION} wheel")
        return Choice(f"./{WHEELS}/{path.name}", f"a copy of {path.name} in {WHEELS}/ (commit it)", path)
    if not re.match(r"^readinglist[-_.]site\b", spec.strip(), re.IGNORECASE):
        raise RequirementError(f"--requirement {spec!r}: it must name {DISTRIBUTION} (e.g. "
                               f"'{DISTRIBUTION} @ git+https://github.com/OWNER/REPO@COMMIT' or a "
                               f"{DISTRIBUTION} wheel file); the name readinglist on PyPI is another project")
    return Choice(spec.strip(), f"{spec.strip()} (given with --requirement)")


def requirements_text(choice: Choice, old: str | None = None) -> str:
    """requirements.txt with `choice` as its readinglist line; the other lines of `old` kept."""
    if old is None:
        return HEADER + choice.line + "\n"
    lines = old.splitlines()
    out: list[str] = []
    placed = False
    for line in lines:
        if _OURS.match(line):
            if not placed:
                out.append(choice.line)
                placed = True
            continue
        out.append(line)
    if not placed:
        out.append(choice.line)
    return "\n".join(out) + "\n"


def apply(choice: Choice, folder: Path) -> list[Path]:
    """Write `choice` into the list in `folder`: requirements.txt (created or rewritten) and the
    wheel it names, if any, in wheels/ (wheels of readinglist it no longer names are removed).
    Returns the files written."""
    req = folder / "requirements.txt"
    old = req.read_text(encoding="utf-8") if req.exists() else None
    written = []
    if choice.wheel is not None:
        (folder / WHEELS).mkdir(exist_ok=True)
        target = folder / WHEELS / choice.wheel.name
        if choice.wheel.resolve() != target.resolve():
            shutil.copyfile(choice.wheel, target)
        written.append(target)
    if (folder / WHEELS).is_dir():
        for stale in (folder / WHEELS).glob("readinglist_site-*.whl"):
            if choice.wheel is None or stale.name != choice.wheel.name:
                stale.unlink()
    req.write_text(requirements_text(choice, old), encoding="utf-8", newline="\n")
    written.append(req)
    return written
