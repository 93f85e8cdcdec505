"""`readinglist build --engine zensical`: the site built by Zensical from the docs folder the
generator has just written, without the theme's own files.

Zensical runs no MkDocs plugin, so the generator runs first (as `readinglist build` always does),
then `zensical build` with the same mkdocs.yml. Zensical (0.0.73 to 0.1.2, read in its
workflow.rs: `process_theme_assets`) copies every file of a theme's folder that is not HTML into
the site's root, with no setting to leave one out; and the readinglist theme's folder must hold
`mkdocs_theme.yml` (its `extends: material`, which both engines read) and `__init__.py` (the
`mkdocs.themes` entry point is a module, and both engines take the theme's folder from its file).
So the two copies are removed from the site after the build, when they are the theme's files
byte for byte (a file of the list's own by that name stays).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from ..config import Config
from ..errors import GeneratorError

# The theme's files that Zensical copies to the site's root (generator/theme/).
THEME_FILES = ("__init__.py", "mkdocs_theme.yml")


def command() -> str | None:
    """Zensical's command in this Python's environment (where it finds the readinglist theme
    through the entry point), else the first on PATH."""
    beside = Path(sys.executable).with_name("zensical")
    return str(beside) if beside.is_file() else shutil.which("zensical")


def site_dir(config: Config) -> Path:
    """mkdocs.yml's `site_dir` (default `site`), relative to the file, as MkDocs and Zensical read it."""
    return (config.root / str(config.settings.get("site_dir") or "site")).resolve()


def remove_theme_files(site: Path) -> list[str]:
    """Delete the copies of the theme's own files from `site`'s root; the names removed."""
    theme = Path(__file__).resolve().parent.parent / "theme"
    removed = []
    for name in THEME_FILES:
        copy = site / name
        if copy.is_file() and copy.read_bytes() == (theme / name).read_bytes():
            copy.unlink()
            removed.append(name)
    # Python's byte code of the theme's module (an installed wheel is compiled; so is any folder
    # the module was imported from): copied as a folder, taken out when it is only that.
    cache, own = site / "__pycache__", theme / "__pycache__"
    if cache.is_dir() and all(p.is_file() and (own / p.name).is_file() and p.read_bytes() == (own / p.name).read_bytes()
                              for p in cache.iterdir()):
        shutil.rmtree(cache)
        removed.append("__pycache__")
    return removed


def build_site(config_file: Path, config: Config, *, strict: bool) -> int:
    """`zensical build -f config_file` (`--strict` when `strict`; `config` is that file as read),
    then the theme's files out of the site. Zensical's exit status; its own output goes to the
    terminal as it comes."""
    exe = command()
    if exe is None:
        raise GeneratorError("Zensical is not installed here: `pip install zensical` beside readinglist "
                             "(docs/user-guide/zensical.md)")
    run = subprocess.run([exe, "build", "-f", str(config_file), *(["--strict"] if strict else [])],
                         cwd=config.root, check=False)
    if run.returncode != 0:
        return run.returncode
    remove_theme_files(site_dir(config))
    return 0
