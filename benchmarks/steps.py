"""The timed steps, each a whole command in a child process: `readinglist build` (cold and with no
change) and `mkdocs build`. Nothing here imports the generator: it is measured by what it does,
so the benchmark works on any version of it (and on the commit before the redesign)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from projects import files_changed, snapshot
from variants import Checkout

# A small parent around each command: the wall time of the command alone (not of this wrapper's
# start-up) and the peak resident memory of the command and every process it waited for
# (RUSAGE_CHILDREN: the generator's forked workers count too).
WRAPPER = """\
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
code = subprocess.run(sys.argv[1:]).returncode
wall = time.perf_counter() - t0
c = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": c.ru_utime + c.ru_stime, "peak_mb": c.ru_maxrss / 1024, "code": code}),
      file=sys.stderr)
"""


@dataclass
class Timed:
    wall: float
    cpu: float
    peak_mb: float


def base_env(extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", CI="")
    env.pop("PYTHONPATH", None)  # each checkout imports its own package, from its own venv
    env.update(extra)
    return env


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> Timed:
    """Run `cmd` to completion (failing the benchmark if it fails); its wall, CPU and peak MB."""
    os.sync()  # the kernel writes back the previous step's files 30 s later, on the same 2 cores
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.run([sys.executable, "-c", WRAPPER, *cmd], stdout=out, stderr=err, env=env, cwd=cwd)
        err.seek(0)
        lines = err.read().splitlines()
    figures = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else None
    if proc.returncode != 0 or figures is None or figures["code"] != 0:
        sys.stderr.write("\n".join(lines[-40:]) + "\n")
        raise SystemExit(f"benchmark step failed: {' '.join(cmd)} (in {cwd})")
    return Timed(figures["wall"], figures["cpu"], figures["peak_mb"])


def generator(code: Checkout, config: Path, env: dict[str, str]) -> Timed:
    return timed([*code.readinglist(), "-f", str(config), "build"], base_env(env), config.parent)


def no_change(code: Checkout, config: Path, env: dict[str, str]) -> tuple[Timed, int]:
    """`readinglist build` again with nothing changed: its time and how many files under the
    build folder it wrote, added or removed (seen on disk, not from the generator's report)."""
    build_dir = config.parent / "build"
    before = snapshot(build_dir)
    t = generator(code, config, env)
    return t, files_changed(before, snapshot(build_dir))


def mkdocs_build(code: Checkout, config: Path, env: dict[str, str], *, plugin: bool = True) -> Timed:
    """`mkdocs build` of the project; the readinglist plugin's own run of the generator is switched
    off (READINGLIST_HOOK=off), since the generator was just run and timed on its own."""
    extra = dict(env, READINGLIST_HOOK="off") if plugin else env
    return timed([str(code.python), "-m", "mkdocs", "build", "-q", "-f", str(config)], base_env(extra), config.parent)


def cpu_probe() -> float:
    """CPU seconds of a fixed pure-Python loop (best of three): this shared machine's speed moves
    between hours, and every figure with it."""
    import time

    def once() -> float:
        start = time.process_time()
        total, names = 0, {}
        for i in range(3_000_000):
            total += i
        for i in range(300_000):
            names[str(i)] = i
        return time.process_time() - start

    return min(once() for _ in range(3))
