"""The environment numpy starts with: set when the generator is imported, before any stage imports
numpy (generator/__init__.py). numpy reads these variables once, when it is imported; a user's own
setting of either one stands.

- `OPENBLAS_NUM_THREADS=1`. The build uses numpy and scipy for sparse products and element-wise
  work, never for a dense BLAS routine. Imported with more than one core, numpy's OpenBLAS starts
  a thread per extra core, which spins for about 0.1 s of CPU (measured here, on both cores the
  build is using) and then waits for work that never comes.
- `NPY_DISABLE_CPU_FEATURES=X86_V4` on AMD's Zen 4 with numpy 2.4 or later. numpy sorts with
  x86-simd-sort, whose AVX-512 code stores through `vpcompress`, which Zen 4 runs in microcode:
  on the EPYC of these machines (family 25, model 17) a million int32 took 31 ms to sort with it
  and 5.5 ms with numpy's AVX2 code, int64 51 → 10 ms, float64 83 → 14 ms, an argsort of float64
  144 → 51 ms. A cold 10,000-paper build sorts tens of millions of numbers (word hashes, term
  counts, candidate links): about 0.5 s of its CPU went to sorting, and with the setting it took
  0.66 s less CPU (six interleaved pairs, README, Performance). The setting turns numpy's
  AVX-512 code off as a whole; on Zen 4 it runs at the width of AVX2 anyway. These keep numpy's
  choice: Intel's CPUs (x86-simd-sort reports its AVX-512 code faster than its AVX2 code there;
  not measured here), numpy before 2.4, which has no AVX2 sort to fall back on (1.26, 2.2 and 2.3
  measured: no faster without AVX-512), and Zen 5 (not measured).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import MutableMapping

BLAS_THREADS = "OPENBLAS_NUM_THREADS"
CPU_FEATURES = "NPY_DISABLE_CPU_FEATURES"
_AVX512 = "X86_V4"  # numpy 2.4's name for its AVX-512 code (Skylake-X and later)


def settings(cpuinfo: str, numpy_version: tuple[int, int] | None) -> dict[str, str]:
    """The variables to give numpy, on a machine with this `/proc/cpuinfo` and numpy version."""
    out = {BLAS_THREADS: "1"}
    if numpy_version is not None and numpy_version >= (2, 4) and zen4_avx512(cpuinfo):
        out[CPU_FEATURES] = _AVX512
    return out


def zen4_avx512(cpuinfo: str) -> bool:
    """Whether the first processor of `/proc/cpuinfo` is an AMD Zen 4 (family 25) with AVX-512."""
    first = cpuinfo.split("\n\n", 1)[0]
    fields: dict[str, str] = {}
    for line in first.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    return (fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"
            and "avx512f" in fields.get("flags", "").split())


def installed_numpy() -> tuple[int, int] | None:
    """(major, minor) of the numpy that `import numpy` would load, read from its `version.py`
    without importing it (its import reads the variables); None when not found."""
    try:
        spec = importlib.util.find_spec("numpy")
        if spec is None or not spec.submodule_search_locations:
            return None
        with open(os.path.join(next(iter(spec.submodule_search_locations)), "version.py"), encoding="utf-8") as fh:
            text = fh.read()
    except (ImportError, OSError, ValueError, UnicodeDecodeError):
        return None
    return numpy_version(text)


def numpy_version(text: str) -> tuple[int, int] | None:
    """(major, minor) from the text of numpy's `version.py` (`version = "2.4.6"`)."""
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.split(":")[0].strip() == "version":
            parts = value.strip().strip("\"'").split(".")
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
                return int(parts[0]), int(parts[1])
            return None
    return None


def _cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            return fh.read(16384)  # the first processor's block is all that is read
    except OSError:
        return ""


def apply(environ: MutableMapping[str, str]) -> None:
    """Add the settings to `environ` (os.environ) where the user has not set them (they reach the
    processes the generator starts too, `mkdocs serve` under `readinglist serve`)."""
    info = _cpuinfo() if sys.platform.startswith("linux") and CPU_FEATURES not in environ else ""
    version = installed_numpy() if zen4_avx512(info) else None
    for name, value in settings(info, version).items():
        environ.setdefault(name, value)
