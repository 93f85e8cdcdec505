"""The command line restarts itself once with glibc's huge-page tunable (generator/memory.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator import memory


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(memory, "glibc", lambda: True)
    monkeypatch.setattr(memory, "_thp_available", lambda: True)


def test_the_tunable_is_added_once_to_what_is_set_already(applies: None) -> None:
    assert memory.tuned_environ({"PATH": "/bin"}) == {"PATH": "/bin", "GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}
    tuned = memory.tuned_environ({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"})
    assert tuned == {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"}
    assert memory.tuned_environ(tuned) is None  # the restarted process does not restart again
    assert memory.tuned_environ({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}) is None  # the user's choice


def test_nothing_happens_where_it_does_not_apply(applies: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert memory.tuned_environ({"READINGLIST_HUGEPAGES": "off"}) is None
    monkeypatch.setattr(memory, "_thp_available", lambda: False)  # the kernel says [never]
    assert memory.tuned_environ({}) is None
    monkeypatch.setattr(memory, "_thp_available", lambda: True)
    monkeypatch.setattr(memory, "glibc", lambda: False)  # musl, or no C library to ask
    assert memory.tuned_environ({}) is None
    monkeypatch.setattr(memory, "glibc", lambda: True)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert memory.tuned_environ({}) is None


def test_the_restart_is_the_same_command_with_the_tunable(applies: None, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, list[str], dict[str, str]]] = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((path, list(argv), dict(env))))
    monkeypatch.setattr(sys, "orig_argv", ["/venv/bin/python", "/venv/bin/readinglist", "build"])
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    monkeypatch.delenv("READINGLIST_HUGEPAGES", raising=False)
    memory.restart_tuned()
    assert [(path, argv) for path, argv, _ in calls] == [(sys.executable, sys.orig_argv)]
    assert calls[0][2]["GLIBC_TUNABLES"] == "glibc.malloc.hugetlb=1"
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1")
    memory.restart_tuned()
    assert len(calls) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the tunable is glibc's, on Linux")
def test_the_installed_command_runs_with_the_tunable_where_it_applies() -> None:
    probe = ("import os, sys\n"
             "from generator import memory\n"
             "sys.argv = ['readinglist', '--help']\n"
             "if os.environ.get('GLIBC_TUNABLES'): print('tuned:', os.environ['GLIBC_TUNABLES'])\n"
             "memory.restart_tuned()\n"
             "print('as started')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "READINGLIST_HUGEPAGES")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True).stdout
    if memory.tuned_environ(env) is None:  # not glibc, or huge pages off here: started once, as it is
        assert out == "as started\n"
    else:
        assert out == "tuned: glibc.malloc.hugetlb=1\nas started\n"
    off = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={**env, "READINGLIST_HUGEPAGES": "off"}).stdout
    assert off == "as started\n"
