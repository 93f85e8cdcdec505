"""The readinglist a new list's requirements.txt names, from how the running one was installed
(PEP 610's direct_url.json), and how `readinglist upgrade` rewrites that line. The whole path
(a wheel installed, init, the list's requirements installed with no index) is in
tests/test_init_add.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.scaffold.requirement import RequirementError, apply, build_wheel, choose, given, requirements_text

SHA = "0123456789abcdef0123456789abcdef01234567"


def test_installed_from_an_index_means_the_same_version_by_the_new_name() -> None:
    choice = choose("1.2.0", None)
    assert choice.chosen and choice.line == "readinglist-site==1.2.0"
    assert choice.why == "readinglist-site 1.2.0 from PyPI (it was installed here from a package index)"


def test_installed_from_a_git_server_means_that_commit() -> None:
    choice = choose("0.1.0", {"url": "https://github.com/lab/readinglist.git",
                              "vcs_info": {"vcs": "git", "commit_id": SHA, "requested_revision": "main"}})
    assert choice.line == f"readinglist-site @ git+https://github.com/lab/readinglist.git@{SHA}"
    assert choice.why == (f"readinglist-site from https://github.com/lab/readinglist.git at commit {SHA} "
                          "(as installed here)")


def test_a_git_repository_on_this_machine_cannot_be_reached_from_the_runner() -> None:
    choice = choose("0.1.0", {"url": "file:///home/me/readinglist", "vcs_info": {"vcs": "git", "commit_id": SHA}})
    assert not choice.chosen
    assert choice.line == ("# readinglist-site: not set (it was installed from the repository "
                           "file:///home/me/readinglist, which GitHub's runner cannot reach); "
                           "see README.md, Publishing")


def test_a_wheel_file_is_copied_into_the_list(tmp_path: Path) -> None:
    wheel = tmp_path / "dist" / "readinglist_site-0.3.0-py3-none-any.whl"
    wheel.parent.mkdir()
    wheel.write_bytes(b"PK wheel")
    choice = choose("0.3.0", {"url": wheel.as_uri(), "archive_info": {"hashes": {"sha256": "ab"}}})
    assert (choice.line, choice.wheel) == ("./wheels/readinglist_site-0.3.0-py3-none-any.whl", wheel)
    wheel.unlink()
    gone = choose("0.3.0", {"url": wheel.as_uri(), "archive_info": {}})
    assert not gone.chosen and f"the wheel {wheel}, which is no longer there" in gone.line


def test_a_wheel_from_an_address_is_pinned_by_its_hash() -> None:
    url = "https://example.org/dist/readinglist_site-0.3.0-py3-none-any.whl"
    choice = choose("0.3.0", {"url": url, "archive_info": {"hash": "sha256=ab", "hashes": {"sha256": "ab"}}})
    assert choice.line == f"readinglist-site @ {url}#sha256=ab"


@pytest.mark.parametrize("direct_url", [
    {"url": "file:///home/me/readinglist", "dir_info": {"editable": True}},
    {"url": "file:///home/me/readinglist", "dir_info": {}},
])
def test_a_source_folder_cannot_be_reached_from_the_runner(direct_url: dict) -> None:
    choice = choose("0.1.0", direct_url)
    assert not choice.chosen
    assert choice.why == "it runs from the folder /home/me/readinglist, which GitHub's runner cannot reach"


@pytest.mark.parametrize("spec", ["readinglist", "readinglist==2.0.0", "readinglist @ git+https://x/y@1",
                                  "mkdocs"])
def test_a_requirement_given_must_name_readinglist_site(spec: str) -> None:
    with pytest.raises(RequirementError, match=r"it must name readinglist-site .*another project"):
        given(spec)


def test_a_wheel_given_must_exist_and_be_ours(tmp_path: Path) -> None:
    with pytest.raises(RequirementError, match="no such wheel file"):
        given(str(tmp_path / "readinglist_site-1.0-py3-none-any.whl"))
    other = tmp_path / "readinglist-2.0.0-py3-none-any.whl"
    other.write_bytes(b"")
    with pytest.raises(RequirementError, match="not a readinglist-site wheel"):
        given(str(other))


def test_upgrade_replaces_only_the_readinglist_line(tmp_path: Path) -> None:
    old = requirements_text(choose("0.1.0", None)) + "mkdocs-minify-plugin>=0.8  # mine\n"
    assert requirements_text(given(f"readinglist-site @ git+https://github.com/lab/rl@{SHA}"), old).splitlines() == [
        *old.splitlines()[:2], f"readinglist-site @ git+https://github.com/lab/rl@{SHA}",
        "mkdocs-minify-plugin>=0.8  # mine"]
    # A file with no readinglist line gets one at the end.
    assert requirements_text(choose("0.2.0", None), "mkdocs-minify-plugin\n") == \
        "mkdocs-minify-plugin\nreadinglist-site==0.2.0\n"
    # The unset line is replaced too.
    unset = requirements_text(choose("0.1.0", {"url": "file:///src", "dir_info": {"editable": True}}))
    assert requirements_text(choose("0.2.0", None), unset).splitlines()[2:] == ["readinglist-site==0.2.0"]


def test_apply_copies_the_wheel_and_removes_the_old_one(tmp_path: Path) -> None:
    lst = tmp_path / "lst"
    (lst / "wheels").mkdir(parents=True)
    (lst / "wheels" / "readinglist_site-0.1.0-py3-none-any.whl").write_bytes(b"old")
    (lst / "wheels" / "other_plugin-1.0-py3-none-any.whl").write_bytes(b"theirs")
    (lst / "requirements.txt").write_text("./wheels/readinglist_site-0.1.0-py3-none-any.whl\n")
    new = tmp_path / "readinglist_site-0.2.0-py3-none-any.whl"
    new.write_bytes(b"new")
    assert apply(given(str(new)), lst) == [lst / "wheels" / new.name, lst / "requirements.txt"]
    assert sorted(p.name for p in (lst / "wheels").iterdir()) == [
        "other_plugin-1.0-py3-none-any.whl", "readinglist_site-0.2.0-py3-none-any.whl"]
    assert (lst / "requirements.txt").read_text() == "./wheels/readinglist_site-0.2.0-py3-none-any.whl\n"


def test_a_source_folder_that_does_not_build_leaves_the_line_unset(tmp_path: Path) -> None:
    (tmp_path / "generator").mkdir()
    (tmp_path / "generator" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text("[project\nname = broken\n")
    choice = build_wheel(tmp_path)
    assert not choice.chosen and choice.wheel is None
    assert choice.why.startswith(f"it runs from the folder {tmp_path}, which GitHub's runner cannot reach, and "
                                 "building a wheel from it failed (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generator", "pyproject.toml"]
