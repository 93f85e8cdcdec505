"""The environment numpy starts with in a process that imported the generator (generator/numpyenv.py):
OpenBLAS starts no threads, and on AMD's Zen 4 numpy sorts with its AVX2 code."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator import numpyenv

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

_COUNT = """
import os, time
import generator, numpy, scipy.sparse
numpy.ones((300, 300)) @ numpy.ones((300, 300))  # a dense product: BLAS threads would take part
time.sleep(0.2)
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
"""

# What numpy does with the AVX-512 code (X86_V4) in a process that imported the generator first.
_FEATURES = """
import os
import generator, numpy
from numpy._core._multiarray_umath import __cpu_features__ as features
print(features.get("X86_V4"), repr(os.environ.get("NPY_DISABLE_CPU_FEATURES")))
"""

_ZEN4 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC
flags\t\t: fpu vme sse sse2 avx avx2 avx512f avx512dq avx512bw avx512vl avx512_vbmi2

processor\t: 1
vendor_id\t: AuthenticAMD
"""


def _clean_env(*prefixes: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}


def _threads(env: dict[str, str]) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-c", _COUNT], env=env, capture_output=True, text=True, check=True)
    count, setting = out.stdout.split()
    return int(count), setting


@linux_only
def test_numpy_starts_no_blas_threads() -> None:
    assert _threads(_clean_env("OPENBLAS_", "OMP_")) == (1, "1")


@linux_only
def test_a_users_own_blas_setting_stands() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("OpenBLAS starts no thread on one core")
    env = _clean_env("OPENBLAS_", "OMP_")
    env["OPENBLAS_NUM_THREADS"] = "2"
    assert _threads(env) == (2, "2")


@pytest.mark.parametrize(("cpuinfo", "version", "features"), [
    (_ZEN4, (2, 4), "X86_V4"),
    (_ZEN4, (3, 0), "X86_V4"),
    (_ZEN4, (2, 3), None),   # numpy before 2.4: no AVX2 sort to fall back on
    (_ZEN4, None, None),     # numpy not found
    (_ZEN4.replace("AuthenticAMD", "GenuineIntel", 1).replace("25", "6", 1), (2, 4), None),  # Intel AVX-512
    (_ZEN4.replace(" avx512f", "", 1), (2, 4), None),       # no AVX-512 (Zen 3 is family 25 too)
    (_ZEN4.replace("family\t: 25", "family\t: 26", 1), (2, 4), None),  # Zen 5: not measured
    ("", (2, 4), None),      # no /proc/cpuinfo
])
def test_settings_by_cpu_and_numpy(cpuinfo: str, version: tuple[int, int] | None, features: str | None) -> None:
    want = {"OPENBLAS_NUM_THREADS": "1"}
    if features:
        want["NPY_DISABLE_CPU_FEATURES"] = features
    assert numpyenv.settings(cpuinfo, version) == want


def test_only_the_first_processor_is_read() -> None:
    second_only = "processor\t: 0\nvendor_id\t: GenuineIntel\n\n" + _ZEN4
    assert numpyenv.zen4_avx512(_ZEN4) and not numpyenv.zen4_avx512(second_only)


@pytest.mark.parametrize(("text", "version"), [
    ('"""\nModule to expose more detailed version info\n"""\nversion = "2.4.6"\n__version__ = version\n', (2, 4)),
    ('version: str = "2.10.0rc1"\nfull_version = version\n', (2, 10)),
    ('version = "1.26.4"\n__version__ = version\nshort_version = version.split("+")[0]\n', (1, 26)),
    ("__version__ = get_versions()\n", None),
    ('version = "unknown"\n', None),
])
def test_numpy_version_from_its_version_file(text: str, version: tuple[int, int] | None) -> None:
    assert numpyenv.numpy_version(text) == version


def test_the_installed_numpy_is_found_without_importing_it() -> None:
    import numpy

    assert numpyenv.installed_numpy() == tuple(int(x) for x in numpy.__version__.split(".")[:2])


def _features(env: dict[str, str], *, generator: bool = True) -> tuple[str, str]:
    """numpy's X86_V4 flag ("True": its AVX-512 code runs) and the setting, in a new process that
    imports the generator first (or not at all)."""
    script = _FEATURES if generator else _FEATURES.replace("import generator, numpy", "import numpy")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    avx512, setting = out.stdout.split()
    return avx512, setting


@linux_only
def test_numpy_keeps_or_leaves_its_avx512_code_as_the_cpu_asks() -> None:
    with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
        cpuinfo = fh.read()
    version = numpyenv.installed_numpy()
    env = _clean_env("NPY_")
    alone = _features(env, generator=False)
    if numpyenv.zen4_avx512(cpuinfo) and version is not None and version >= (2, 4):
        # This machine (Zen 4, numpy 2.4+): numpy alone runs its AVX-512 code; after the generator
        # is imported, its AVX2 code.
        assert alone == ("True", "None")
        assert _features(env) == ("False", "'X86_V4'")
    else:
        assert _features(env) == alone


@linux_only
def test_a_users_own_cpu_setting_stands() -> None:
    env = _clean_env("NPY_")
    hardware, _ = _features(env, generator=False)
    env["NPY_DISABLE_CPU_FEATURES"] = ""  # numpy's own choice, whatever the CPU
    assert _features(env) == (hardware, "''")
