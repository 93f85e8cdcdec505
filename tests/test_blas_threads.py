"""numpy's OpenBLAS starts no threads in a process that imported the generator (generator/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")

_COUNT = """
import os, time
import generator, numpy, scipy.sparse
numpy.ones((300, 300)) @ numpy.ones((300, 300))  # a dense product: BLAS threads would take part
time.sleep(0.2)
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def _threads(env: dict[str, str]) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-c", _COUNT], env=env, capture_output=True, text=True, check=True)
    count, setting = out.stdout.split()
    return int(count), setting


def test_numpy_starts_no_blas_threads() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS_", "OMP_"))}
    assert _threads(env) == (1, "1")


def test_a_users_own_setting_stands() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("OpenBLAS starts no thread on one core")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS_", "OMP_"))}
    env["OPENBLAS_NUM_THREADS"] = "2"
    assert _threads(env) == (2, "2")
