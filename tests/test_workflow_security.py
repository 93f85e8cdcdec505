"""The Pages workflows, ours and the one `readinglist init` writes, pass zizmor (a static checker
for GitHub Actions) offline, and give each job only the permissions it needs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = {
    "ours": REPO / ".github" / "workflows" / "pages.yml",
    "init": REPO / "generator" / "scaffold" / "files" / "github" / "pages.yml",
}
ZIZMOR = Path(sys.executable).parent / "zizmor"
# High findings accepted, with the reason in docs/developer-guide/testing.md: none today.
DOCUMENTED_HIGH: set[str] = set()
# Each release tag's commit, read from the action's repository (`git rev-parse vX.Y.Z^{commit}`).
PINS = {
    "actions/checkout": ("d23441a48e516b6c34aea4fa41551a30e30af803", "v6.1.0"),
    "actions/setup-python": ("ece7cb06caefa5fff74198d8649806c4678c61a1", "v6.3.0"),
    "actions/configure-pages": ("983d7736d9b0ae728b81ab479565c72886d7745b", "v5.0.0"),
    "actions/cache": ("27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    "actions/upload-pages-artifact": ("fc324d3547104276b827a68afc52ff2a11cc49c9", "v5.0.0"),
    "actions/deploy-pages": ("cd2ce8fcbc39b97be8ca5fce6e763baed58fa128", "v5.0.0"),
}


def _zizmor(path: Path) -> list[dict[str, Any]]:
    # A missing zizmor is a failure, not a skip: it is in the test extra (make deps installs it).
    assert ZIZMOR.is_file(), f"zizmor is not installed in {ZIZMOR.parent}: run make deps"
    run = subprocess.run([str(ZIZMOR), "--offline", "--no-progress", "--format=json", "--persona=auditor",
                          str(path)], capture_output=True, text=True, timeout=120)
    # Exit codes 10-14 mean findings (by highest severity); anything else with no JSON is a failure.
    assert run.returncode == 0 or 10 <= run.returncode <= 14, run.stderr
    return list(json.loads(run.stdout))


@pytest.mark.parametrize("which", sorted(WORKFLOWS))
def test_zizmor_finds_nothing_high(which: str) -> None:
    findings = _zizmor(WORKFLOWS[which])
    high = sorted({(f["ident"], loc["symbolic"]["annotation"]) for f in findings
                   if f["determinations"]["severity"] == "High" and f["ident"] not in DOCUMENTED_HIGH
                   for loc in f["locations"][:1]})
    assert high == []


def test_zizmor_reports_what_the_old_workflow_did_wrong(tmp_path: Path) -> None:
    """The check can fail: the workflow as it was (permissions for the whole workflow, tags)."""
    old = WORKFLOWS["init"].read_text(encoding="utf-8")
    for action, (sha, tag) in PINS.items():
        old = old.replace(f"{action}@{sha}  # {tag}", f"{action}@{tag.split('.')[0]}")
    old = old.replace("permissions: {}", "permissions:\n  contents: read\n  pages: write\n  id-token: write")
    path = tmp_path / "pages.yml"
    path.write_text(old, encoding="utf-8")
    high = {(f["ident"], f["locations"][-1]["symbolic"]["annotation"]) for f in _zizmor(path)
            if f["determinations"]["severity"] == "High"}
    assert ("excessive-permissions", "pages: write is overly broad at the workflow level") in high
    assert ("excessive-permissions", "id-token: write is overly broad at the workflow level") in high
    assert {a for ident, a in high if ident == "unpinned-uses"} == {
        "action is not pinned to a hash (required by blanket policy)"}


@pytest.mark.parametrize("which", sorted(WORKFLOWS))
def test_only_the_deploy_job_can_deploy(which: str) -> None:
    text = WORKFLOWS[which].read_text(encoding="utf-8")
    wf = yaml.safe_load(text)
    assert wf["permissions"] == {}
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    assert build["permissions"] == {"contents": "read", "pages": "read"}
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    checkout = next(s for s in build["steps"] if str(s.get("uses", "")).startswith("actions/checkout@"))
    assert checkout["with"]["persist-credentials"] is False
    # Every action at the full commit of a release tag, the tag in a comment beside it.
    uses = re.findall(r"uses: (\S+)@(\S+)(?:  # (\S+))?", text)
    assert sorted((a, ref, tag) for a, ref, tag in uses) == sorted((a, *PINS[a]) for a in PINS)
