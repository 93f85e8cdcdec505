"""The GitHub Pages workflow builds the same site as the tests: same command, same folder, same pages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from browser_site import Served

from tests.conftest import ROOT, copy_project

pytestmark = pytest.mark.slow

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
BASE_URL = "${{ steps.pages.outputs.base_url }}"
# What actions/configure-pages gives a project site (no trailing slash).
PAGES_URL = "https://lab.github.io/reading-list"


def _workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def _step(job: dict[str, Any], uses: str | None = None, runs: str | None = None) -> dict[str, Any]:
    for step in job["steps"]:
        if (uses and str(step.get("uses", "")).startswith(uses + "@")) or (runs and runs in step.get("run", "")):
            return dict(step)
    raise AssertionError(f"no step {uses or runs!r} in {job['steps']}")


def test_workflow_publishes_on_push_to_main_with_pages_actions() -> None:
    wf = _workflow()
    assert wf["on"]["push"]["branches"] == ["main"]
    # Permissions per job (tests/test_workflow_security.py): none for the workflow as a whole.
    assert wf["permissions"] == {}
    assert wf["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    assert _step(build, uses="actions/setup-python")["with"]["python-version"] == "3.11"
    assert _step(build, uses="actions/checkout")["with"]["fetch-depth"] == 0
    site_dir = re.search(r"(?m)^site_dir:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert site_dir is not None
    assert _step(build, uses="actions/upload-pages-artifact")["with"]["path"] == site_dir.group(1)
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert _step(deploy, uses="actions/deploy-pages")["id"] == "deployment"
    names = [s.get("uses", s.get("run", "")) for s in build["steps"]]
    assert names.index(_step(build, runs="pip install .")["run"]) < names.index("mkdocs build --strict")
    # The site's address comes from GitHub Pages' own configuration, so a fork needs no edit.
    assert _step(build, uses="actions/configure-pages")["id"] == "pages"
    assert names.index(_step(build, uses="actions/configure-pages")["uses"]) < names.index("mkdocs build --strict")
    assert _step(build, runs="mkdocs build")["env"]["SITE_URL"] == BASE_URL + "/"
    assert "!ENV [SITE_URL," in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_workflow_uses_the_current_major_versions_of_the_pages_actions() -> None:
    """Pinned to commits (tests/test_workflow_security.py), with the release tag beside each."""
    used = re.findall(r"uses: ([\w/-]+)@[0-9a-f]{40}  # (v\d+)\.", WORKFLOW.read_text(encoding="utf-8"))
    assert sorted(used) == [("actions/cache", "v5"), ("actions/checkout", "v6"), ("actions/configure-pages", "v5"),
                            ("actions/deploy-pages", "v5"), ("actions/setup-python", "v6"),
                            ("actions/upload-pages-artifact", "v5")]


def test_workflow_restores_the_reference_cache_before_building() -> None:
    """Formatted references are cached in .readinglist-cache/ (a few ms each to make): the
    workflow restores it before the build, so a deploy formats only new papers."""
    build = _workflow()["jobs"]["build"]
    names = [s.get("uses", s.get("run", "")) for s in build["steps"]]
    cache = _step(build, uses="actions/cache")
    assert cache["with"]["path"] == ".readinglist-cache"
    assert cache["with"]["restore-keys"] == "readinglist-"
    assert names.index(cache["uses"]) < names.index("mkdocs build --strict")


def test_workflow_build_step_builds_the_site_the_tests_check(tmp_path: Path,
                                                               served_sites: dict[str, Served]) -> None:
    build = _workflow()["jobs"]["build"]
    step = _step(build, runs="mkdocs build")
    assert step["run"].strip() == "mkdocs build --strict"
    assert "working-directory" not in step  # from the repository root, with its mkdocs.yml
    # A copy of the repository as the runner has it after `pip install .` (setup.cfg keeps
    # setuptools' output out of ./build: tests/test_init_add.py builds the wheel in a copy), then
    # the install step's other commands and the build step, verbatim.
    project = tmp_path / "repo"
    project.mkdir()
    copy_project(project)
    (project / "generator").symlink_to(ROOT / "generator", target_is_directory=True)
    (project / ".setuptools-build" / "lib" / "generator").mkdir(parents=True)
    install = [line for line in _step(build, runs="pip install .")["run"].splitlines()
               if line.strip() and not line.strip().startswith("pip ")]
    # As on the runner: GitHub Actions, and configure-pages' address in place of its expression.
    env = {**os.environ, **{k: str(v).replace(BASE_URL, PAGES_URL) for k, v in (step.get("env") or {}).items()},
           "GITHUB_ACTIONS": "true"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.pop("READINGLIST_HOOK", None)
    for command in [*install, step["run"]]:
        run = subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"{command}:\n{run.stdout}\n{run.stderr}"
    site = project / "site"
    tested = served_sites["root"].site_dir
    assert json.loads((site / "papers.json").read_text("utf-8")) == \
        json.loads((tested / "papers.json").read_text("utf-8"))
    assert (site / "references.bib").read_text("utf-8") == (tested / "references.bib").read_text("utf-8")
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert pages == sorted(p.relative_to(tested).as_posix() for p in tested.rglob("*.html"))
    assert len([p for p in pages if p.startswith("papers/")]) == 41
    # Canonical links and the sitemap name the published address, not localhost.
    home = (site / "index.html").read_text("utf-8")
    assert f'<link rel="canonical" href="{PAGES_URL}/">' in home
    assert f"<loc>{PAGES_URL}/papers/scaling-categorical-flow-maps/</loc>" in (site / "sitemap.xml").read_text("utf-8")


def test_a_build_on_github_actions_with_a_local_site_url_stops_and_says_what_to_do(tmp_path: Path) -> None:
    copy_project(tmp_path)
    env = {**os.environ, "GITHUB_ACTIONS": "true", "NO_MKDOCS_2_WARNING": "1"}
    env.pop("SITE_URL", None)
    env.pop("READINGLIST_HOOK", None)
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert ("readinglist: site_url is http://127.0.0.1:8000/ in a build on GitHub Actions" in run.stderr
            and "Set SITE_URL to the site's address" in run.stderr), run.stderr
    assert not (tmp_path / "site" / "index.html").exists()
