"""Which readinglist a list's Pages workflow installs: the line of `requirements.txt` that names it.

The workflow runs `pip install -r requirements.txt` on a fresh GitHub runner, so the line must
install exactly the readinglist that made (or upgraded) the list, from somewhere that runner can
reach. How the running package was installed tells (PEP 610's direct_url.json):

- from an index (no direct_url.json): the same version from PyPI, by the distribution's own name;
- from a git repository on a server: that repository at the same commit;
- from a wheel file: a copy of that wheel, committed with the list (`wheels/`);
- from a wheel at an http(s) address: that address;
- from a source folder (`pip install -e .`, `pip install .`): a wheel built from that folder now
  (in a temporary copy, so the folder is not touched), committed with the list like the above.

Anything else (a git repository on this machine, a wheel that is gone, a source folder that does
not build) is not reachable from the runner: the line is left unset, and `readinglist upgrade
--requirement SPEC` sets it.
The distribution is `readinglist-site`: the name `readinglist` on PyPI is another project, so a
bare `readinglist` is never written.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
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
    source: Path | None = None  # a source folder a wheel can be built from (see running())
    built: bool = False        # `wheel` was built by running() into a temporary folder

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
    if scheme == "file" and "dir_info" in direct_url:
        where = Path(unquote(urlparse(url).path))
        unset = _unset(f"it runs from the folder {where}, which GitHub's runner cannot reach")
        return Choice(unset.line, unset.why, source=where)
    return _unset(f"it was installed from {url}, which GitHub's runner cannot reach")


def _unset(reason: str) -> Choice:
    return Choice(f"{UNSET} ({reason}); see README.md, Publishing", reason)


# What setuptools reads to build the wheel (pyproject.toml: readme, license-files, packages).
SOURCE_FILES = ("pyproject.toml", "setup.cfg", "README.md", "LICENSE")


def build_wheel(source: Path) -> Choice:
    """A wheel of the readinglist in the source folder `source`, built in a temporary copy of its
    package files (the folder itself is not touched). Unset, with pip's last words, when it fails."""
    work = Path(tempfile.mkdtemp(prefix="readinglist-wheel-"))
    wheels: list[Path] = []
    try:
        copy = work / "src"
        copy.mkdir()
        for name in SOURCE_FILES:
            if (source / name).is_file():
                shutil.copy(source / name, copy / name)
        shutil.copytree(source / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
        # No build isolation: setuptools from this environment, so no index is needed.
        run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                              "-w", str(work / "dist"), str(copy)], capture_output=True, text=True, timeout=600)
        wheels = sorted((work / "dist").glob("readinglist_site-*.whl")) if run.returncode == 0 else []
        said = [line.strip() for line in (run.stderr or run.stdout).splitlines() if line.strip()]
        error = said[-1] if said else f"pip exited with {run.returncode}"
    except (OSError, subprocess.SubprocessError) as exc:
        error = str(exc)
    if not wheels:
        shutil.rmtree(work, ignore_errors=True)
        return _unset(f"it runs from the folder {source}, which GitHub's runner cannot reach, and building a "
                      f"wheel from it failed ({error})")
    wheel = wheels[-1]
    return Choice(f"./{WHEELS}/{wheel.name}", f"a wheel built from the folder it runs from, {source}: "
                  f"{wheel.name}, in {WHEELS}/ (commit it)", wheel, built=True)


def discard(choice: Choice) -> None:
    """Remove the temporary folder of a wheel running() built (once it is copied into the list)."""
    if choice.built and choice.wheel is not None:
        shutil.rmtree(choice.wheel.parent.parent, ignore_errors=True)


def running() -> Choice:
    """The requirement for the readinglist running now."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _unset(f"no installed {DISTRIBUTION} was found (readinglist runs from its source folder)")
    text = dist.read_text("direct_url.json")
    choice = choose(dist.version, json.loads(text) if text else None)
    if choice.source is not None and (choice.source / "generator").is_dir():
        return build_wheel(choice.source)
    return choice


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
