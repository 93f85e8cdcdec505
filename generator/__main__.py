"""`readinglist` and `python -m generator`: the command line."""

from __future__ import annotations


def run() -> None:
    from .cli import main

    raise SystemExit(main())


if __name__ == "__main__":
    run()
