"""The files the curator writes (citekeys.yml, content/topics.yml, content/names.yml, mkdocs.yml) are
read whole or the build stops before writing anything: a YAML error or git's conflict markers cost
no key, no tag page and no published page, and the message names the file and line."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build
from generator.config import Config, load_config
from generator.errors import GeneratorError
from generator.watch import Watcher
from tests.conftest import FIXTURES, copy_project
from tests.waiting import wait_until

CUSTOM = "mycustomkey2025"
STOPPED = ("readinglist: stopped before writing anything (every file is as it was): fix {} and run again")


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="", NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def tree(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder`: its bytes and modification time (a rewrite with the same bytes shows)."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def custom_key_list(root: Path) -> Config:
    """The seeds' list, whose curator changed `cheng2025l2g` to their own key in citekeys.yml and built."""
    config = load_config(copy_project(root))
    registry = config.registry_path
    text = registry.read_text(encoding="utf-8")
    assert "  key: cheng2025l2g\n" in text
    registry.write_text(text.replace("  key: cheng2025l2g\n", f"  key: {CUSTOM}\n"), encoding="utf-8")
    proc = run(root, "build")
    assert proc.returncode == 0, proc.stderr
    pages = {p.relative_to(config.build_dir).as_posix() for p in config.build_dir.rglob("*")
             if p.is_file() and CUSTOM in p.read_text(encoding="utf-8")}
    # Its page, the whole list's downloads and search records, and a tag's and a digest's BibTeX.
    assert {"references.bib", "references.json", "references.ris", "papers.json"} <= pages
    assert any(p.startswith("papers/") for p in pages) and any(p.startswith("tags/") for p in pages)
    return config


def assert_stopped(config: Config, before: dict[str, tuple[bytes, int]], registry: bytes,
                   proc: subprocess.CompletedProcess[str], lines: list[str]) -> None:
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == lines
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert config.registry_path.read_bytes() == registry
    assert tree(config.build_dir) == before


def test_a_registry_with_a_yaml_error_stops_the_build_and_keeps_the_curators_key(tmp_path: Path) -> None:
    config = custom_key_list(tmp_path)
    # A half-finished edit at the end of the file.
    with config.registry_path.open("a", encoding="utf-8") as fh:
        fh.write("arxiv:2599.00001:\n  key: half\n  slug: [unclosed\n")
    registry, before = config.registry_path.read_bytes(), tree(config.build_dir)
    line = ("citekeys.yml:130: error: the key registry is not valid YAML: did not find expected ',' or ']' "
            "at column 1 (while parsing a flow sequence at line 129)")
    for command in ("build", "check"):
        assert_stopped(config, before, registry, run(tmp_path, command), [line, STOPPED.format("citekeys.yml")])
    # Fixed, the build goes on with the curator's key.
    config.registry_path.write_bytes(registry.replace(b"  slug: [unclosed\n", b"  slug: half\n"))
    assert run(tmp_path, "build").returncode == 0
    assert f"  key: {CUSTOM}\n" in config.registry_path.read_text(encoding="utf-8")
    assert "cheng2025l2g" not in (config.build_dir / "all.md").read_text(encoding="utf-8")


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-c", "user.name=Curator", "-c", "user.email=c@example.org", *args],
                          cwd=root, capture_output=True, text=True, timeout=60)


def test_git_conflict_markers_in_the_registry_stop_the_build_and_say_how_to_resolve_them(tmp_path: Path) -> None:
    """Two branches each add a digest and build: the merge leaves conflict markers in citekeys.yml."""
    config = custom_key_list(tmp_path)
    (tmp_path / ".gitignore").write_text(".readinglist-cache/\n", encoding="utf-8")
    assert git(tmp_path, "init", "-q", "-b", "main").returncode == 0
    git(tmp_path, "add", "-A")
    assert git(tmp_path, "commit", "-qm", "the list").returncode == 0
    for branch, digest in (("email", "2023-06-12-arxiv-cs.txt"), ("bib", "my-library.bib")):
        git(tmp_path, "checkout", "-q", "-b", branch, "main")
        shutil.copy(FIXTURES / "mixed" / digest, config.seeds_dir / digest)
        assert run(tmp_path, "build").returncode == 0
        git(tmp_path, "add", "-A")
        assert git(tmp_path, "commit", "-qm", digest).returncode == 0
    merge = git(tmp_path, "merge", "email")
    assert "CONFLICT (content): Merge conflict in citekeys.yml" in merge.stdout
    registry, before = config.registry_path.read_bytes(), tree(config.build_dir)
    assert registry.splitlines()[3] == b"<<<<<<< HEAD"
    line = "citekeys.yml:4: error: resolve the merge conflict at line 4; keep both sides' entries"
    assert_stopped(config, before, registry, run(tmp_path, "build"), [line, STOPPED.format("citekeys.yml")])

    # Resolved as the message says: both sides' entries kept. Every key stays.
    text = registry.decode("utf-8")
    resolved = "".join(line for line in text.splitlines(keepends=True)
                       if not line.startswith(("<<<<<<< ", "=======", ">>>>>>> ")))
    config.registry_path.write_text(resolved, encoding="utf-8")
    proc = run(tmp_path, "build")
    assert proc.returncode == 0, proc.stderr
    after = config.registry_path.read_text(encoding="utf-8")
    for key in (CUSTOM, "vaswani2017attention", "dubois2023crosslisted", "martinez2023robust"):
        assert f"  key: {key}\n" in after
    # Both sides hold arxiv:2306.06130, with the same key: no warning about it.
    assert proc.stderr.splitlines() == ["seeds/my-library.bib:35: warning: entry 'notitle2024' has no title; kept, "
                                        "with a placeholder title on its page"]


BROKEN = {
    # what the curator left, where, and the line the build stops with
    "topics-yaml": ("content/topics.yml", lambda t: t.replace("  - name: ", "  - name: [", 1),
                    "content/topics.yml:28: error: the topic taxonomy is not valid YAML: did not find expected ',' "
                    "or ']' at column 16 (while parsing a flow sequence at line 27)"),
    "topics-conflict": ("content/topics.yml", lambda t: f"<<<<<<< HEAD\n{t}=======\n>>>>>>> theirs\n",
                        "content/topics.yml:1: error: resolve the merge conflict at line 1; keep both sides' entries"),
    "topics-shape": ("content/topics.yml", lambda t: t.replace("topics:\n", "topic:\n", 1),
                     "content/topics.yml:19: error: expected `topics:` with a list of topics; the file has "
                     "`learning:` (line 19), `topic:` (line 26)"),
    "names-yaml": ("content/names.yml", lambda t: t + '"Ann Other": "Other, Ann\n',
                   "content/names.yml:7: error: the name list is not valid YAML: found unexpected end of stream "
                   "(while scanning a quoted scalar at line 7)"),
    "names-latin1": ("content/names.yml", lambda t: t + '"Jos\xe9 P\xe9rez": "P\xe9rez, Jos\xe9"\n',
                     "content/names.yml:7: error: the name list is not UTF-8 text (byte 0xe9 on this line); "
                     "save it as UTF-8"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_curated_file_stops_the_build_with_its_line(tmp_path: Path, case: str) -> None:
    name, edit, line = BROKEN[case]
    config = load_config(copy_project(tmp_path))
    build(config)
    path = tmp_path / name
    broken = edit(path.read_text(encoding="utf-8"))
    path.write_bytes(broken.encode("latin-1") if case.endswith("latin1") else broken.encode("utf-8"))
    registry, before = config.registry_path.read_bytes(), tree(config.build_dir)
    with pytest.raises(GeneratorError):
        build(config)
    assert_stopped(config, before, registry, run(tmp_path, "build"), [line, STOPPED.format(name)])
    assert_stopped(config, before, registry, run(tmp_path, "check"), [line, STOPPED.format(name)])


def test_mkdocs_build_fails_on_a_broken_taxonomy(tmp_path: Path) -> None:
    """Before, a YAML error in topics.yml was a warning: every tag page was removed, exit 0."""
    config = load_config(copy_project(tmp_path))
    build(config)
    topics = config.topics_path
    topics.write_text(topics.read_text(encoding="utf-8").replace("  - name: ", "  - name: [", 1), encoding="utf-8")
    before = tree(config.build_dir)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode == 1
    assert f"ERROR   -  readinglist: {BROKEN['topics-yaml'][2]}\n" in proc.stderr
    assert STOPPED.format("content/topics.yml") in proc.stderr
    assert "Traceback" not in proc.stderr
    assert tree(config.build_dir) == before
    assert not (tmp_path / "site").exists()


def test_mkdocs_yml_with_conflict_markers_names_the_line(tmp_path: Path) -> None:
    config_file = copy_project(tmp_path)
    text = config_file.read_text(encoding="utf-8")
    config_file.write_text(text.replace("site_name:", "<<<<<<< HEAD\nsite_name:", 1), encoding="utf-8")
    line = 1 + text[:text.index("site_name:")].count("\n")
    proc = run(tmp_path, "build")
    assert proc.returncode == 2
    assert proc.stderr == (f"readinglist: error: {config_file.resolve()}:{line}: resolve the merge conflict at line "
                           f"{line}; keep what both sides need\n")


def test_watch_keeps_the_last_good_build_and_builds_once_the_registry_is_fixed(tmp_path: Path) -> None:
    config = custom_key_list(tmp_path)
    good = config.registry_path.read_bytes()
    config.registry_path.write_bytes(good.replace(b"  key: hertrich2025generative\n",
                                                  b"<<<<<<< HEAD\n  key: hertrich2025generative\n"))
    before = tree(config.build_dir)
    out = io.StringIO()
    watcher = Watcher(tmp_path / "mkdocs.yml", debounce=0.1, out=out)
    watcher.start()  # `readinglist serve` starts with the last good build's pages
    try:
        assert out.getvalue().splitlines() == [
            "citekeys.yml:8: error: resolve the merge conflict at line 8; keep both sides' entries",
            f"readinglist: error: {STOPPED.format('citekeys.yml').removeprefix('readinglist: ')}",
            "readinglist: still serving the last good build; fix it and save again"]
        assert tree(config.build_dir) == before
        config.registry_path.write_bytes(good)
        wait_until(lambda: "readinglist: rebuilt after citekeys.yml" in out.getvalue(), 60, out.getvalue)
        assert f"  key: {CUSTOM}\n" in config.registry_path.read_text(encoding="utf-8")
    finally:
        watcher.stop()


def test_mkdocs_serve_keeps_serving_the_last_good_site_and_shows_the_error(tmp_path: Path) -> None:
    from tests.servers import fetch, free_port

    config = load_config(copy_project(tmp_path))
    port = free_port()
    log = (tmp_path / "serve.log").open("a+")

    def text() -> str:
        log.flush()
        log.seek(0)
        return log.read()

    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{port}"],
                            cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    tag = f"http://127.0.0.1:{port}/tags/federated-learning/"
    try:
        wait_until(lambda: b"Federated learning" in (fetch(tag) or b""), 90, text)
        before = tree(config.build_dir)
        topics = config.topics_path
        topics.write_text(topics.read_text(encoding="utf-8").replace("topics:\n", "topics:\n<<<<<<< HEAD\n", 1),
                          encoding="utf-8")
        wait_until(lambda: "serving the last good build until then" in text(), 60, text)
        shown = text()
        assert ("ERROR   -  content/topics.yml:27: error: resolve the merge conflict at line 27; keep both sides' "
                "entries") in shown
        assert "Traceback" not in shown
        assert proc.poll() is None
        assert b"Federated learning" in (fetch(tag) or b"")  # every tag page is still there
        assert tree(config.build_dir) == before
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_a_paper_id_kept_from_both_sides_with_two_keys_is_a_warning_with_both_lines(tmp_path: Path) -> None:
    from generator.enrich.registry import Registry
    from generator.errors import Problems

    path = tmp_path / "citekeys.yml"
    path.write_text("arxiv:2306.06130:\n  key: martinez2023robust\n  slug: robust\n"
                    "arxiv:2306.06201:\n  key: lee2023scaling\n  slug: scaling\n"
                    "arxiv:2306.06130:\n  key: martinez2023robusta\n  slug: robust\n"
                    "arxiv:2306.06201:\n  key: lee2023scaling\n  slug: scaling\n", encoding="utf-8")
    problems = Problems()
    registry = Registry.load(path, problems)
    assert [str(p) for p in problems] == [
        "citekeys.yml:7: warning: arxiv:2306.06130 is given twice (lines 1 and 7), differently; the later one counts"]
    assert registry.entries["arxiv:2306.06130"]["key"] == "martinez2023robusta"
