"""Importing the package (as MkDocs imports the plugin, inside the user's own process) changes no
global setting: no environment variable, no garbage-collector state, no numpy setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import gc, json, os, sys
before = dict(os.environ)
import generator, generator.build, generator.cli, generator.site.plugin, generator.enrich, generator.render
import numpy
after = dict(os.environ)
print(json.dumps({"changed": sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)),
                  "gc": gc.isenabled(), "frozen": gc.get_freeze_count()}))
"""


def test_importing_the_package_changes_no_global_setting() -> None:
    # Without the variables the package once set for itself at import (numpy's CPU features, its
    # BLAS threads, glibc's tunables): were any set now, `changed` would name it.
    env = {k: v for k, v in os.environ.items()
           if k not in {"OPENBLAS_NUM_THREADS", "NPY_DISABLE_CPU_FEATURES", "GLIBC_TUNABLES"}}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout
    seen = json.loads(out)
    assert seen["changed"] == []
    assert seen["gc"] is True and seen["frozen"] == 0
