"""`readinglist` and `python -m generator`: the command line, started with huge pages (memory.py)."""

from __future__ import annotations


def run() -> None:
    from .memory import restart_tuned

    restart_tuned()  # before the build's modules are imported: a restart then costs least
    from .cli import main

    raise SystemExit(main())


if __name__ == "__main__":
    run()
