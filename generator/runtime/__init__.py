"""How a build runs, apart from what it makes: the memo that skips a build when no input changed
(memo.py), the worker processes for formatting references (parallel.py), the garbage collector
paused while a build runs (collector.py), the progress line on a terminal (progress.py) and the
environment switches, parsed in one place (switches.py)."""
