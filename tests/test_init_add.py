"""`readinglist init` and `add` as a newcomer runs them: the package installed from a wheel into a
virtualenv of its own, in a folder outside this repository, building with stock `mkdocs build`.

The wheel is built from a copy of the package's files (building in the checkout would leave
setuptools' build/lib in build/, the docs folder). The test virtualenv sees the dependencies of
the project's .venv through a path file, but not its editable install: `generator` is imported
from the wheel (checked), so a template or asset missing from the wheel fails these tests.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TMLR_SEED = REPO / "seeds" / "000_1b8355006bbdabc6.txt"


def _run(cmd: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    full.update(NO_MKDOCS_2_WARNING="1", **env)
    return subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with the package installed from its wheel; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "generator", src / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                  "-w", str(work / "dist"), str(src)], cwd=work)
    assert built.returncode == 0, built.stderr
    [wheel] = (work / "dist").glob("readinglist-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(_run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     cwd=work).stdout.strip())
    # The dependencies, from the project's .venv: a plain path line (its own .pth files, the
    # editable install's among them, are not read from there).
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    done = _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                 "--no-deps", str(wheel)], cwd=work)
    assert done.returncode == 0, done.stderr
    where = _run([str(venv / "bin" / "python"), "-c", "import generator; print(generator.__file__)"], cwd=work)
    assert where.stdout.strip().startswith(str(site)), where.stdout + where.stderr
    return venv / "bin"


def _tree_hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_init_build_add_build_outside_the_repository(installed: Path, tmp_path: Path) -> None:
    made = _run([str(installed / "readinglist"), "init", "lab-list", "--name", "Lab: ML papers"], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    lst = tmp_path / "lab-list"
    assert sorted(p.relative_to(lst).as_posix() for p in lst.rglob("*") if p.is_file()) == [
        ".github/workflows/pages.yml", ".gitignore", "README.md", "build/.gitignore", "citekeys.yml",
        "content/notes/.gitkeep", "content/topics.yml", "mkdocs.yml", "overrides/.gitkeep",
        "requirements.txt", "seeds/README.md"]
    assert "SITE_URL: ${{ steps.pages.outputs.base_url }}/" in (lst / ".github/workflows/pages.yml").read_text()
    assert (lst / "requirements.txt").read_text().splitlines()[-1] == "readinglist==0.1.0"

    # An empty list builds at once (strictly, as in CI) and says how to add the first digest.
    empty = _run([str(installed / "python"), "-m", "mkdocs", "build", "--strict"], cwd=lst, CI="true")
    assert empty.returncode == 0, empty.stderr
    home = (lst / "site" / "index.html").read_text()
    assert "<title>Lab: ML papers</title>" in home
    assert "No papers yet: add your first digest" in home
    assert (lst / "site" / "assets" / "stylesheets" / "readinglist-theme.css").is_file()

    added = _run([str(installed / "readinglist"), "add", str(TMLR_SEED)], cwd=lst)
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines() == [
        "seeds/2025-08-08-000_1b8355006bbdabc6.txt: 11 papers (11 new, 0 already in the list)"]
    assert (lst / "seeds" / "2025-08-08-000_1b8355006bbdabc6.txt").read_bytes() == TMLR_SEED.read_bytes()

    full = _run([str(installed / "python"), "-m", "mkdocs", "build", "--strict"], cwd=lst, CI="true")
    assert full.returncode == 0, full.stderr
    pages = sorted(p.name for p in (lst / "site" / "papers").iterdir() if p.is_dir())
    assert len(pages) == 11
    page = (lst / "site" / "papers" / "defending-against-unforeseen-failure-modes-with-latent" / "index.html")
    text = page.read_text()
    # The paper template shipped in the wheel drew the page: its header and the citation block.
    assert "<h1" in text and "Defending Against Unforeseen Failure Modes with Latent Adversarial Training" in text
    assert 'class="rl-header"' in text and "@article{" in text
    assert "No papers yet" not in (lst / "site" / "index.html").read_text()


def test_add_never_changes_seeds_and_reports_known_papers(installed: Path, tmp_path: Path) -> None:
    _run([str(installed / "readinglist"), "init", "lst", "--name", "L"], cwd=tmp_path)
    lst = tmp_path / "lst"
    first = _run([str(installed / "readinglist"), "add", str(TMLR_SEED)], cwd=lst)
    assert first.returncode == 0, first.stderr
    before = _tree_hashes(lst / "seeds")
    # The same bytes again: not copied a second time, all its papers already known.
    again = _run([str(installed / "readinglist"), "add", str(TMLR_SEED)], cwd=lst)
    assert again.stdout.splitlines() == [
        "seeds/2025-08-08-000_1b8355006bbdabc6.txt: 11 papers (0 new, 11 already in the list); "
        "already in seeds/, not copied again"]
    assert _tree_hashes(lst / "seeds") == before
    # Other bytes under a taken name: a new name; the file already there is untouched. The edited
    # copy has one paper the list lacks (another title and forum id) and ten it has.
    edited = tmp_path / "elsewhere" / "2025-08-08-000_1b8355006bbdabc6.txt"
    edited.parent.mkdir()
    edited.write_text(TMLR_SEED.read_text().replace(
        "Defending Against Unforeseen Failure Modes with Latent Adversarial Training", "A Paper Nobody Has Read Yet", 1)
        .replace("id=mVPPhQ8cAd", "id=NewPaper01", 1))
    third = _run([str(installed / "readinglist"), "add", str(edited), str(tmp_path / "missing.txt")], cwd=lst)
    assert third.returncode == 1
    assert third.stdout.splitlines() == [
        "seeds/2025-08-08-000_1b8355006bbdabc6-2.txt: 11 papers (1 new, 10 already in the list)",
        f"{tmp_path / 'missing.txt'}: no such file"]
    assert _tree_hashes(lst / "seeds") == {**before, "2025-08-08-000_1b8355006bbdabc6-2.txt":
                                           hashlib.sha256(edited.read_bytes()).hexdigest()}


def test_init_refuses_to_overwrite(installed: Path, tmp_path: Path) -> None:
    lst = tmp_path / "mine"
    lst.mkdir()
    (lst / "README.md").write_text("my own readme\n")
    refused = _run([str(installed / "readinglist"), "init", str(lst)], cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (f"readinglist: error: {lst / 'README.md'} already exists; init never "
                                      "overwrites a file (choose an empty folder, or move that file away)")
    # Nothing written at all, the file there untouched.
    assert [p.name for p in lst.iterdir()] == ["README.md"]
    assert (lst / "README.md").read_text() == "my own readme\n"


def test_new_lists_publish_with_the_same_actions_as_this_repository() -> None:
    """The workflow `init` writes and this repository's own use the same Pages actions and the
    same SITE_URL from configure-pages (only how readinglist is installed differs)."""
    def uses(text: str) -> list[str]:
        return [line.strip().removeprefix("- ") for line in text.splitlines() if "uses:" in line or "SITE_URL:" in line]

    ours = (REPO / ".github" / "workflows" / "pages.yml").read_text()
    theirs = (REPO / "generator" / "scaffold" / "files" / "github" / "pages.yml").read_text()
    assert uses(theirs) == uses(ours)
    assert "uses: actions/configure-pages@v6" in uses(ours)
