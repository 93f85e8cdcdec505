"""The build's process keeps freed memory while it enriches and gives it back before the render
forks (generator/heap.py), seen in glibc's own accounting (mallinfo2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

import generator.build as gb
from generator import heap
from generator.config import Config
from tests.conftest import IN_CI

# heap.py tunes glibc's malloc and does nothing elsewhere: a skip there, a failure in CI (Debian).
pytestmark = pytest.mark.skipif(not IN_CI and (not sys.platform.startswith("linux") or not heap.glibc()),
                                reason="heap.py tunes glibc's malloc; elsewhere it does nothing")

# In a process of its own: glibc's thresholds are process-wide, and this one's builds set them.
PROBE = r"""
import ctypes, json
from generator import heap

class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
MB = 1 << 20

def block():
    # An 8 MB block, as a word-count or score block is: where it comes from, and what stays after.
    before = libc.mallinfo2()
    p = libc.malloc(8 * MB)
    during = libc.mallinfo2()
    libc.free(p)
    after = libc.mallinfo2()
    return {"mapped": (during.hblkhd - before.hblkhd) // MB, "heap_kept": (after.arena - before.arena) // MB}

import os
# glibc raises its threshold once a mapped block is freed: a fresh process shows the first block.
out = {"default": block()} if os.environ.get("PROBE_DEFAULT_FIRST") else {}
with heap.kept() as held:
    out["keeping"] = held.keeping
    out["kept"] = block()
    # A fork while it holds: what is free goes back first (the child would share it), and the
    # heap keeps what is freed after.
    p = libc.malloc(8 * MB)
    libc.free(p)
    arena = libc.mallinfo2().arena
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    out["fork_trimmed"] = (arena - libc.mallinfo2().arena) // MB
    out["after_fork"] = block()
    arena = libc.mallinfo2().arena
    held.release()
    out["released"] = (arena - libc.mallinfo2().arena) // MB
    out["after"] = held.keeping
print(json.dumps(out))
"""


def _probe(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if k != heap.SWITCH}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                          env={**clean, **env})
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_blocks_come_from_the_heap_and_stay_until_released() -> None:
    out = _probe(PROBE_DEFAULT_FIRST="1")
    # glibc's default: an 8 MB block gets pages of its own, handed back when freed.
    assert out["default"] == {"mapped": 8, "heap_kept": 0}
    # Kept: it comes from the heap, and the heap keeps it for the next block ...
    assert out["keeping"] is True
    assert out["kept"] == {"mapped": 0, "heap_kept": 8}
    # Before a fork what is free goes back to the kernel, and after it the heap keeps again.
    assert out["fork_trimmed"] >= 8
    assert out["after_fork"] == {"mapped": 0, "heap_kept": 8}
    # ... until release() trims it off, before the render worker forks.
    assert out["released"] >= 8
    assert out["after"] is False


def test_the_switch_leaves_malloc_as_it_is() -> None:
    out = _probe(READINGLIST_MALLOC="default")  # the first large block of the process inside kept()
    assert out["keeping"] is False
    assert out["kept"] == {"mapped": 8, "heap_kept": 0}
    assert out["released"] == 0
    assert out["fork_trimmed"] == 0
    assert _probe()["kept"] == {"mapped": 0, "heap_kept": 8}  # the same probe without the switch


def test_the_build_releases_before_it_renders(project: Callable[..., Config],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    release, render_site = heap.Heap.release, gb.render_site

    def recorded_release(self: heap.Heap) -> None:
        events.append(f"release (keeping={self.keeping})")
        release(self)

    def recorded_render(*args: object, **kwargs: object) -> object:
        events.append("render")
        return render_site(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delenv(heap.SWITCH, raising=False)
    monkeypatch.setattr(heap.Heap, "release", recorded_release)
    monkeypatch.setattr(gb, "render_site", recorded_render)
    result = gb.build(project())
    assert len(result.library.papers) == 41
    # Released once before the render; the second call, leaving the block, finds nothing kept.
    assert events == ["release (keeping=True)", "render", "release (keeping=False)"]
