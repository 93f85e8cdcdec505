"""The `readinglist` command line: exit codes, the one-line summary, path:line warnings."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import cli
from generator.build import build
from generator.cli import make_parser
from generator.config import Config
from tests.conftest import ROOT


def run(config: Config, *args: str, ci: bool = False) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "CI": "true" if ci else ""}
    return subprocess.run([sys.executable, "-m", "generator", "-f", str(config.root / "mkdocs.yml"), *args],
                          capture_output=True, text=True, env=env, timeout=120)


def unaccepted(config: Config) -> Config:
    """The project without the note that accepts the untitled record's warning: one warning left."""
    (config.notes_dir / "grunefeld2026untitled.md").unlink()
    return config


def test_build_prints_summary_and_warnings(project: Callable[..., Config]) -> None:
    config = unaccepted(project())
    proc = run(config, "build")
    assert proc.returncode == 0, proc.stderr
    # Singular where there is one: "1 warning".
    assert proc.stdout.strip().splitlines()[-1] == (
        "readinglist: 41 papers from 2 digests, 241 files written, 0 unchanged, 2 notes, 1 warning")
    assert proc.stderr.splitlines() == [
        "seeds/001_68714a788c6fb328.txt:204: warning: record has no title line (the line after the "
        "subject is the author list); using a placeholder title"]
    assert (config.build_dir / "papers.json").is_file()
    again = run(config, "build")
    assert ", 0 files written, " in again.stdout


@pytest.mark.parametrize("args,ci", [(("check", "--strict"), False), (("build",), True)])
def test_warnings_fail_in_strict_and_ci_mode(project: Callable[..., Config], args: tuple[str, ...],
                                             ci: bool) -> None:
    proc = run(unaccepted(project()), *args, ci=ci)
    assert proc.returncode == 1
    assert proc.stdout.endswith(", 1 warning\n")


def test_the_example_list_passes_check_strict() -> None:
    """This repository's own list, as the README says to check it before every commit."""
    proc = subprocess.run([sys.executable, "-m", "generator", "check", "--strict"], cwd=ROOT,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "CI": ""}, timeout=120)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == "readinglist: 41 papers from 2 digests, 241 files checked, 3 notes, 0 warnings\n"


def test_one_note_is_singular(project: Callable[..., Config]) -> None:
    config = project()
    for name in ("casper2025defending.md", "maron2025oneshot.md"):
        (config.notes_dir / name).unlink()
    assert run(config, "check").stdout == (
        "readinglist: 41 papers from 2 digests, 241 files checked, 1 note, 0 warnings\n")


def test_check_writes_nothing(project: Callable[..., Config]) -> None:
    config = project()
    proc = run(config, "check")
    assert proc.returncode == 0
    assert "41 papers from 2 digests" in proc.stdout
    assert sorted(p.name for p in config.build_dir.iterdir()) == [".gitignore"]


def test_errors_exit_non_zero_but_other_files_build(project: Callable[..., Config]) -> None:
    config = project()
    (config.seeds_dir / "notes-to-self.txt").write_text("Buy milk.\nCall Bob.\n", encoding="utf-8")
    proc = run(config, "build")
    assert proc.returncode == 1
    assert ("seeds/notes-to-self.txt:1: error: not a digest format I know (expected a TMLR digest e-mail, text "
            "copied from a paper-listing page, an arXiv mailing-list e-mail, an arXiv feed or a .bib file); "
            "skipped") in proc.stderr
    assert "41 papers from 2 digests" in proc.stdout


def test_help_lists_the_commands() -> None:
    proc = subprocess.run([sys.executable, "-m", "generator", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for command in ("build", "check", "serve"):
        assert command in proc.stdout


def test_bad_config_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  readinglist:\n    related:\n      count: many\n")
    proc = subprocess.run([sys.executable, "-m", "generator", "-f", str(tmp_path / "mkdocs.yml"), "build"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("readinglist: error: mkdocs.yml: extra.readinglist.related.count: expected "
                                   "a whole number, got 'many'")


def test_version() -> None:
    proc = subprocess.run([sys.executable, "-m", "generator", "--version"], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "readinglist 0.1.0\n")


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What `readinglist ARGS --help` prints."""
    with pytest.raises(SystemExit) as done:
        make_parser().parse_args([*args, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_every_option_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    """As a user reads it: every option in every command's --help has a line that says what it does."""
    top = help_text(capsys)
    commands = re.findall(r"^    ([a-z]+)  ", top, re.M)
    assert commands == ["build", "check", "serve", "watch", "note", "init", "upgrade", "add"]
    seen = []
    for name in ["", *commands]:
        lines = help_text(capsys, *([name] if name else [])).split("options:\n", 1)[1].splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^  (-\S.*?)(?:\s{2,}(\S.*))?$", line)
            if m is None:
                continue
            option = m.group(1).split(", ")[-1].split()[0]
            seen.append(f"{name} {option}".strip())
            # The help is on the option's line, or (a long option) indented on the next.
            following = lines[i + 1] if i + 1 < len(lines) else ""
            assert m.group(2) or re.match(r"^ {4,}\S", following), f"{name} {option} has no help"
    assert {"serve --host", "serve --port", "serve --debounce", "build --config", "add --config",
            "--version"} <= set(seen)
    shown = subprocess.run([sys.executable, "-m", "generator", "serve", "--help"], capture_output=True, text=True)
    assert "--host HOST           the address to serve on (default 127.0.0.1: this" in shown.stdout


def test_config_file_after_the_command_as_in_mkdocs(project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run([sys.executable, "-m", "generator", "check", "-f", str(config.root / "mkdocs.yml")],
                          cwd=elsewhere, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "CI": ""})
    assert (proc.returncode, proc.stdout) == (
        0, "readinglist: 41 papers from 2 digests, 241 files checked, 3 notes, 0 warnings\n")


@pytest.mark.parametrize("command", [["build"], ["check"], ["add", "x.txt"], ["note", "x"]])
def test_outside_a_list_says_how_to_start_one(tmp_path: Path, command: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "generator", *command], cwd=tmp_path, capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin", "CI": ""})
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("readinglist: error: no mkdocs.yml here or above; run `readinglist init` to "
                           "start a list\n")


def _listening() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1, as another server would hold it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_serve_on_a_busy_port_says_so_in_one_line_before_building(project: Callable[..., Config]) -> None:
    config = project()
    with _listening() as taken:
        port = taken.getsockname()[1]
        proc = run(config, "serve", "--port", str(port))
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (f"readinglist: error: port {port} on 127.0.0.1 is already in use (another serve?); stop "
                           f"that one, or choose another port: readinglist serve --port {port + 1}\n")
    assert [p.name for p in (config.root / "build").iterdir()] == [".gitignore"]  # nothing was built


def test_a_port_taken_while_serve_builds_is_one_line_too(project: Callable[..., Config],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capfd: pytest.CaptureFixture[str]) -> None:
    """Another server takes the port after the check (while the first build runs): MkDocs' bind
    error, a traceback, becomes the same line."""
    config = project()
    monkeypatch.setattr(cli, "_port_in_use", lambda host, port: None)
    with _listening() as taken:
        port = taken.getsockname()[1]
        code = cli.main(["-f", str(config.root / "mkdocs.yml"), "serve", "--port", str(port)])
    err = capfd.readouterr().err
    assert code == 1
    assert "Traceback" not in err and "OSError" not in err
    assert err.splitlines()[-1] == (f"readinglist: error: port {port} on 127.0.0.1 is already in use (another "
                                    f"serve?); stop that one, or choose another port: readinglist serve --port "
                                    f"{port + 1}")


def test_init_takes_the_site_name_from_a_pipe_or_says_it_had_none(tmp_path: Path) -> None:
    def init(folder: str, stdin: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "generator", "init", folder, "--requirement",
                               "readinglist-site==0.1.0"], cwd=tmp_path, input=stdin, capture_output=True,
                              text=True, env={"PATH": "/usr/bin:/bin", "CI": ""}, timeout=120)

    piped = init("my-list", "Lab papers\n")
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == ""
    assert (tmp_path / "my-list" / "mkdocs.yml").read_text().startswith('site_name: "Lab papers"\n')
    empty = init("other-list", "")
    assert empty.returncode == 0
    assert empty.stderr == ('readinglist init: no site name given (--name NAME, or typed at the prompt); used '
                            '"Other list", from the folder\'s name\n')
    assert (tmp_path / "other-list" / "mkdocs.yml").read_text().startswith('site_name: "Other list"\n')


def test_an_empty_lists_home_page_names_every_input_format(project: Callable[..., Config]) -> None:
    home = build(project(seeds=False), write=False).files["index.md"]
    assert ("<p>Copy a digest into <code>seeds/</code> with <code>readinglist add digest.txt</code> (a TMLR digest "
            "e-mail, text copied from a paper-listing page, an arXiv e-mail, an arXiv RSS or Atom feed or API "
            "result, or a <code>.bib</code> file), then run <code>readinglist serve</code>: this page lists its "
            "papers.</p>") in home


def _make_dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands `make TARGET` would run on a fresh machine (no .venv yet)."""
    proc = subprocess.run(["make", "-n", "-C", str(ROOT), target, f"VENV={tmp_path / 'venv'}"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_make_serve_installs_only_the_package_and_make_test_the_test_tools(tmp_path: Path) -> None:
    serve = [line for line in _make_dry_run("serve", tmp_path) if " install " in line]
    assert [line.split("/bin/")[-1] for line in serve] == ["pip install -q --upgrade pip", "pip install -q -e ."]
    # (The lines of the test venv only: `make test` may also set up Zensical's own venv.)
    test = [line for line in _make_dry_run("test", tmp_path) if "pip install" in line and str(tmp_path) in line]
    assert test[-1].split("/bin/")[-1] == "pip install -q -e '.[test]'"


def test_the_readme_opens_with_the_two_commands_and_stays_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    # The first block of code (the first the page shows) is the two commands.
    start = lines.index("```sh")
    block = lines[start + 1:lines.index("```", start)]
    assert [line.split("#")[0].strip() for line in block] == ["make serve", "make test"]
    assert "dist/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines() or \
        "/dist/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
