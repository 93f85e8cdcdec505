"""`readinglist init` and `add` as a newcomer runs them: the package installed from a wheel into a
virtualenv of its own, in a folder outside this repository, building with stock `mkdocs build`;
then the new list's own `requirements.txt` installed into a second fresh virtualenv, as the Pages
workflow does on a fresh runner, and the workflow's build step run there.

The wheel is built from a copy of the package's files with a `build/` folder as a checkout has
(setup.cfg must keep setuptools' output out of it: checked). No test reaches an index. The test
virtualenvs see the project's dependencies through a path file naming a folder of links to the
.venv's installed packages, all but readinglist itself: pip counts them as installed (so a
requirement that needs anything else fails with --no-index), and `generator` is imported from the
wheel (checked), so a template or asset missing from the wheel fails these tests.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.conftest import page_h1

REPO = Path(__file__).resolve().parents[1]
TMLR_SEED = REPO / "seeds" / "000_1b8355006bbdabc6.txt"
WHEEL = "readinglist_site-0.1.0-py3-none-any.whl"
GIT_SPEC = "readinglist-site @ git+https://github.com/lab/readinglist@0123456789abcdef0123456789abcdef01234567"


def _run(cmd: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # No index and no pip configuration of this machine's (its find-links and extra indexes).
    full = {k: v for k, v in os.environ.items()
            if k not in {"PYTHONPATH", "VIRTUAL_ENV"} and not k.startswith("PIP_")}
    full.update({"NO_MKDOCS_2_WARNING": "1", "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", **env})
    return subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built in a copy of the checkout."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.cfg", "README.md", "LICENSE"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "generator", src / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    (src / "build").mkdir()
    (src / "build" / ".gitignore").write_text("*\n!.gitignore\n")
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                  "-w", str(work / "dist"), str(src)], cwd=work)
    assert built.returncode == 0, built.stderr
    # setuptools wrote into .setuptools-build/, not into build/ (the docs folder).
    assert [p.name for p in (src / "build").iterdir()] == [".gitignore"]
    assert (src / ".setuptools-build" / "lib" / "generator" / "cli.py").is_file()
    assert [p.name for p in (work / "dist").iterdir()] == [WHEEL]
    return work / "dist" / WHEEL


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Links to the .venv's installed packages but readinglist's own."""
    folder = tmp_path_factory.mktemp("deps")
    ours = ("generator", "readinglist", "__editable__", "_readinglist")
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        if not entry.name.lower().startswith(ours) and entry.suffix != ".pth":
            (folder / entry.name).symlink_to(entry)
    return folder


def _venv(where: Path, deps: Path, *, commands: bool = False) -> Path:
    """A fresh virtualenv that sees `deps`; returns its bin/ folder. With `commands`, also the
    `pip` and `mkdocs` commands a runner has (setup-python's pip, MkDocs installed by pip): the
    scripts pip writes, here for the pip and MkDocs linked in from `deps`."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    site = Path(_run([str(where / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     cwd=where).stdout.strip())
    (site / "deps.pth").write_text(f"{deps}\n")
    if commands:
        for name, module, call in (("pip", "pip._internal.cli.main", "main"), ("mkdocs", "mkdocs.__main__", "cli")):
            (where / "bin" / name).write_text(f"#!{where / 'bin' / 'python'}\nimport sys\n"
                                              f"from {module} import {call}\nsys.exit({call}())\n")
            (where / "bin" / name).chmod(0o755)
    return where / "bin"


def _imports_generator_from(bin_dir: Path, cwd: Path) -> str:
    return _run([str(bin_dir / "python"), "-c", "import generator; print(generator.__file__)"], cwd=cwd).stdout.strip()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path, deps: Path) -> Path:
    """A virtualenv with the package installed from its wheel; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("venv")
    bin_dir = _venv(work / "venv", deps)
    done = _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q",
                 "--no-deps", str(wheel)], cwd=work)
    assert done.returncode == 0, done.stderr
    assert _imports_generator_from(bin_dir, work).startswith(str(work / "venv")), done.stderr
    return bin_dir


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
        "requirements.txt", "seeds/README.md", f"wheels/{WHEEL}"]
    assert "SITE_URL: ${{ steps.pages.outputs.base_url }}/" in (lst / ".github/workflows/pages.yml").read_text()
    assert (lst / "requirements.txt").read_text().splitlines()[-1] == f"./wheels/{WHEEL}"

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


def test_add_reads_a_digest_by_its_content_and_refuses_a_file_without_papers(installed: Path,
                                                                             tmp_path: Path) -> None:
    """An arXiv e-mail saved with a `.md` name is read by the next build; a screenshot beside it
    stays out of seeds/, and `add` says so and exits 1."""
    _run([str(installed / "readinglist"), "init", "lst", "--name", "L"], cwd=tmp_path)
    lst = tmp_path / "lst"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    shutil.copy(REPO / "tests" / "fixtures" / "readers" / "arxiv_email.txt", downloads / "nov-digest.md")
    (downloads / "figure.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    added = _run([str(installed / "readinglist"), "add", str(downloads / "nov-digest.md"),
                  str(downloads / "figure.png")], cwd=lst)
    assert added.returncode == 1
    assert added.stdout.splitlines() == [
        "seeds/2023-06-12-nov-digest.md: 3 papers (3 new, 0 already in the list), 2 arXiv replacements: 1 "
        "updating a paper in the list, 1 of a paper not in the list, left out (extra.readinglist.keep_replacements: "
        "true keeps them)",
        f"{downloads / 'figure.png'}: holds no paper; not copied into seeds/"]
    assert added.stderr == f"{downloads / 'figure.png'}: warning: binary file (not text), skipped\n"
    assert sorted(p.name for p in (lst / "seeds").iterdir()) == ["2023-06-12-nov-digest.md", "README.md"]

    checked = _run([str(installed / "readinglist"), "check", "--strict"], cwd=lst)
    assert (checked.returncode, checked.stderr) == (0, "")
    assert checked.stdout.startswith("readinglist: 3 papers from 1 digest, ")
    built = _run([str(installed / "python"), "-m", "mkdocs", "build", "--strict"], cwd=lst, CI="true")
    assert built.returncode == 0, built.stderr
    titles = sorted(page_h1((d / "index.html").read_text()) for d in (lst / "site" / "papers").iterdir()
                    if d.is_dir())
    assert titles == ["A Cross-Listed Paper on Graph Networks",
                      "Robust Federated Learning for Heterogeneous Clients – A Variance-Reduced Approach",
                      "Scaling Laws for Sparse Mixture-of-Experts"]


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
    assert "uses: actions/configure-pages@983d7736d9b0ae728b81ab479565c72886d7745b  # v5.0.0" in uses(ours)
    assert "persist-credentials: false" in theirs and "permissions: {}" in theirs


# What configure-pages gives a project site, in place of its expression on the runner.
PAGES_URL = "https://lab.github.io/reading-list"


def _workflow_steps(lst: Path) -> list[dict[str, object]]:
    wf = yaml.safe_load((lst / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    return list(wf["jobs"]["build"]["steps"])


def _run_step(step: dict[str, object], lst: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    """A `run:` step of the workflow, verbatim, with `bin_dir` first on PATH as setup-python's is."""
    env = {str(k): str(v).replace("${{ steps.pages.outputs.base_url }}", PAGES_URL)
           for k, v in dict(step.get("env") or {}).items()}  # type: ignore[call-overload]
    return _run(["bash", "-e", "-c", str(step["run"])], cwd=lst, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                GITHUB_ACTIONS="true", CI="true", **env)


def test_a_new_list_builds_on_a_fresh_runner_from_its_own_requirements(installed: Path, wheel: Path, deps: Path,
                                                                        tmp_path: Path) -> None:
    made = _run([str(installed / "readinglist"), "init", "lab-list", "--name", "Lab"], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""
    assert made.stdout.splitlines()[-1] == (
        f"requirements.txt: the Pages workflow installs a copy of the wheel it was installed from, {WHEEL}, "
        "in wheels/ (commit it)")
    lst = tmp_path / "lab-list"
    assert (lst / "wheels" / WHEEL).read_bytes() == wheel.read_bytes()
    # No placeholder addresses in what init wrote.
    for path in lst.rglob("*"):
        if path.is_file() and path.suffix != ".whl":
            assert "https://github.com/)" not in path.read_text(encoding="utf-8"), path

    # The runner: a fresh virtualenv, no index, the list's own install step and build step as
    # the workflow has them.
    runner = _venv(tmp_path / "runner", deps, commands=True)
    steps = _workflow_steps(lst)
    install = next(s for s in steps if "requirements.txt" in str(s.get("run", "")))
    assert str(install["run"]).startswith("pip install -r requirements.txt\n")
    done = _run_step(install, lst, runner)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _imports_generator_from(runner, lst).startswith(str(tmp_path / "runner")), done.stdout
    build = next(s for s in steps if "mkdocs build" in str(s.get("run", "")))
    assert shutil.which("readinglist", path=f"{runner}{os.pathsep}{os.environ['PATH']}") == str(runner / "readinglist")
    built = _run_step(build, lst, runner)
    assert built.returncode == 0, built.stderr
    home = (lst / "site" / "index.html").read_text(encoding="utf-8")
    assert "<title>Lab</title>" in home and "No papers yet: add your first digest" in home
    assert f'<link rel="canonical" href="{PAGES_URL}/">' in home


def test_the_install_step_fails_with_a_message_when_no_readinglist_is_named(installed: Path, deps: Path,
                                                                           tmp_path: Path) -> None:
    lst = tmp_path / "lst"
    _run([str(installed / "readinglist"), "init", str(lst), "--name", "L"], cwd=tmp_path)
    # What init writes when it cannot tell where the runner gets readinglist (from a checkout).
    (lst / "requirements.txt").write_text("# readinglist-site: not set (it runs from the folder /src)\n")
    runner = _venv(tmp_path / "runner", deps, commands=True)
    install = next(s for s in _workflow_steps(lst) if "requirements.txt" in str(s.get("run", "")))
    done = _run_step(install, lst, runner)
    assert done.returncode == 1
    assert done.stdout.strip() == ("::error file=requirements.txt::requirements.txt names no readinglist: run "
                                   "readinglist upgrade --requirement SPEC (README.md, Publishing)")


def test_upgrade_points_the_list_at_the_installed_readinglist_and_keeps_other_lines(
        installed: Path, tmp_path: Path) -> None:
    made = _run([str(installed / "readinglist"), "init", "lst", "--name", "L", "--requirement", GIT_SPEC],
                cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[-1] == (
        f"requirements.txt: the Pages workflow installs {GIT_SPEC} (given with --requirement)")
    lst = tmp_path / "lst"
    assert not (lst / "wheels").exists()
    req = lst / "requirements.txt"
    assert req.read_text().splitlines()[-1] == GIT_SPEC
    req.write_text(req.read_text() + "mkdocs-minify-plugin>=0.8\n")

    up = _run([str(installed / "readinglist"), "upgrade"], cwd=lst)
    assert up.returncode == 0, up.stderr
    assert up.stdout.splitlines() == [
        f"wrote {lst / 'wheels' / WHEEL}", f"wrote {req}",
        f"requirements.txt: the Pages workflow installs a copy of the wheel it was installed from, {WHEEL}, "
        "in wheels/ (commit it)"]
    assert req.read_text().splitlines()[2:] == [f"./wheels/{WHEEL}", "mkdocs-minify-plugin>=0.8"]
    assert (lst / "wheels" / WHEEL).is_file()

    # Back to a git commit: the wheel it no longer names goes.
    back = _run([str(installed / "readinglist"), "upgrade", "--requirement", GIT_SPEC], cwd=lst / "content")
    assert back.returncode == 0, back.stderr
    assert req.read_text().splitlines()[2:] == [GIT_SPEC, "mkdocs-minify-plugin>=0.8"]
    assert list((lst / "wheels").iterdir()) == []

    # The other project's name is refused, and nothing changes.
    before = req.read_text()
    bare = _run([str(installed / "readinglist"), "upgrade", "--requirement", "readinglist==2.0.0"], cwd=lst)
    assert bare.returncode == 2
    assert bare.stderr.startswith("readinglist: error: --requirement 'readinglist==2.0.0': it must name "
                                  "readinglist-site")
    assert req.read_text() == before


def test_init_from_a_checkout_commits_a_wheel_built_from_it(tmp_path: Path) -> None:
    """This repository's .venv runs readinglist from the checkout (an editable install), which
    GitHub's runner cannot get: init builds a wheel from it (in a copy: the checkout is not
    touched) for the list to commit."""
    before = sorted(p.name for p in REPO.iterdir())
    made = _run([sys.executable, "-m", "generator", "init", "lst", "--name", "L"], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""
    assert made.stdout.splitlines()[-1] == (
        f"requirements.txt: the Pages workflow installs a wheel built from the folder it runs from, {REPO}: "
        f"{WHEEL}, in wheels/ (commit it)")
    lst = tmp_path / "lst"
    assert (lst / "requirements.txt").read_text().splitlines()[-1] == f"./wheels/{WHEEL}"
    with zipfile.ZipFile(lst / "wheels" / WHEEL) as built:
        assert built.read("generator/scaffold/requirement.py") == \
            (REPO / "generator" / "scaffold" / "requirement.py").read_bytes()
    assert sorted(p.name for p in REPO.iterdir()) == before

    # upgrade from here: the same, over the line the list had.
    (lst / "requirements.txt").write_text(f"{GIT_SPEC}\n")
    (lst / "wheels" / WHEEL).unlink()
    up = _run([sys.executable, "-m", "generator", "upgrade"], cwd=lst)
    assert up.returncode == 0, up.stderr
    assert (lst / "requirements.txt").read_text() == f"./wheels/{WHEEL}\n"
    assert (lst / "wheels" / WHEEL).is_file()


def test_init_says_how_to_set_the_requirement_when_it_cannot_choose(wheel: Path, deps: Path, tmp_path: Path) -> None:
    """Installed from a wheel file that is gone since: nothing the runner can get. init writes
    the list with the line unset and says how to set it; upgrade then changes nothing."""
    gone = tmp_path / "Downloads" / WHEEL
    gone.parent.mkdir()
    shutil.copy(wheel, gone)
    bin_dir = _venv(tmp_path / "venv", deps)
    done = _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q", "--no-deps",
                 str(gone)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    gone.unlink()
    made = _run([str(bin_dir / "readinglist"), "init", "lst", "--name", "L"], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    reason = f"it was installed from the wheel {gone}, which is no longer there"
    assert made.stderr == (
        f"readinglist init: warning: requirements.txt names no readinglist, so the Pages workflow cannot build "
        f"the site: {reason}. Set it with: cd lst && readinglist upgrade --requirement "
        "'readinglist-site @ git+https://github.com/OWNER/REPO@COMMIT' (or a readinglist_site-*.whl file, "
        "copied into wheels/)\n")
    lst = tmp_path / "lst"
    assert (lst / "requirements.txt").read_text().splitlines()[-1] == (
        f"# readinglist-site: not set ({reason}); see README.md, Publishing")
    assert not (lst / "wheels").exists()

    (lst / "requirements.txt").write_text(f"{GIT_SPEC}\n")
    up = _run([str(bin_dir / "readinglist"), "upgrade"], cwd=lst)
    assert up.returncode == 1
    assert up.stdout == ""
    assert up.stderr.startswith(f"readinglist upgrade: warning: requirements.txt left as it was: the Pages "
                                f"workflow cannot install the readinglist running here: {reason}. Set it with: "
                                "readinglist upgrade --requirement 'readinglist-site @ git+https://")
    assert (lst / "requirements.txt").read_text() == f"{GIT_SPEC}\n"
