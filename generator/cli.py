"""`readinglist` command line: build, check, serve, watch, note."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from .build import BuildResult, build, find_config
from .config import load_config
from .errors import GeneratorError


def _report(result: BuildResult, strict: bool) -> int:
    for problem in result.problems:
        print(problem, file=sys.stderr)
    print(result.summary())
    if result.problems.errors or (strict and result.problems.warnings):
        return 1
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config))
    return _report(build(config, write=True), args.strict or _ci())


def cmd_check(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config))
    return _report(build(config, write=False), args.strict or _ci())


def cmd_serve(args: argparse.Namespace) -> int:
    config_path = Path(args.config).resolve()
    config = load_config(config_path)
    code = _report(build(config, write=True), False)
    if code:
        print("readinglist: serving anyway; fix the errors above and save to rebuild", file=sys.stderr)
    # --dirty: after the first build, MkDocs renders only the pages the generator rewrote (write-if-
    # changed), so an edit shows in seconds at 10,000 papers instead of after a full rebuild.
    cmd = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dirty", "-f", str(config_path),
           "-a", f"{args.host}:{args.port}"]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="readinglist",
        description="Turn paper digests into a searchable reading-list site (MkDocs + Material).",
    )
    parser.add_argument("-f", "--config", default=str(find_config()),
                        help="the site's mkdocs.yml (default: nearest one upwards)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="generate the Markdown pages into the build folder")
    p.add_argument("--strict", action="store_true", help="exit non-zero on any warning (default in CI)")
    p.set_defaults(func=cmd_build)
    p = sub.add_parser("check", help="read and validate the digests and notes; write nothing")
    p.add_argument("--strict", action="store_true", help="exit non-zero on any warning (default in CI)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("serve", help="build, then serve with live reload on http://127.0.0.1:8000")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except GeneratorError as exc:
        print(f"readinglist: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
