"""Under `readinglist serve`, the watcher tells MkDocs when it has written pages, instead of MkDocs
polling the build folder for changes.

MkDocs' live-reload server finds changes by polling every watched folder (watchdog's
PollingObserver, every 0.5 s): each poll stats every file and folder of the docs folder, 21,500 at
10,000 papers (`papers/<slug>/index.md`), which took 1.1 s of a core on the benchmark machine. A
note save was seen 1-4 s after the watcher had written its page, and the polls held the GIL and the
CPU that MkDocs' rebuild and the generator needed. Under `readinglist serve` nothing but the
watcher writes the build folder, so MkDocs watches one small file instead (`server.unwatch` and
`server.watch` in the plugin's `on_serve`, MkDocs' public interface): the watcher appends a line to
it after each rebuild that wrote something, naming the files it wrote, so that MkDocs starts its
rebuild at the next poll (at most 0.5 s later) and `serve_rebuilds.prune` knows the pages that
changed without comparing the times of 10,000 pages with their built files.

`readinglist serve` turns it on for its MkDocs process through READINGLIST_REBUILT (the file's
path); `mkdocs serve` run by hand keeps watching the docs folder. READINGLIST_SERVE_SIGNAL=off
turns it off (benchmarks/variants.py's `serve-polls-docs`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..runtime import switches

SWITCH = "READINGLIST_SERVE_SIGNAL"
ENV = "READINGLIST_REBUILT"  # the file's path, set by `readinglist serve` for the MkDocs it starts


def signal_file(root: Path) -> Path:
    """Beside mkdocs.yml, with the other caches: not in the docs folder, which MkDocs lists."""
    return root / ".readinglist-cache" / "serve-rebuilt.jsonl"


def start(root: Path) -> Path | None:
    """The file for a new `readinglist serve` (emptied), or None when the switch is off."""
    if not switches.on(SWITCH):
        return None
    path = signal_file(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("", encoding="utf-8")
    return path


def rebuilt(path: Path, written: list[str]) -> None:
    """After a rebuild of the watcher: one line naming the docs folder's files it wrote (relative to
    it), appended. Nothing written, nothing to tell: MkDocs would rebuild the same pages."""
    if written:
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(sorted(written)) + "\n")


def watch(server: Any, config: Any, state: dict[str, Any]) -> None:
    """In `on_serve`: watch the file instead of the docs folder, when `readinglist serve` asked."""
    path = os.environ.get(ENV, "")
    if path and Path(path).is_file():
        server.unwatch(config.docs_dir)
        server.watch(path, recursive=False)
        state["signal"] = path


def written_since(state: dict[str, Any]) -> set[str] | None:
    """The docs folder's files the watcher wrote since the last finished MkDocs build (its lines
    after `state["signal_read"]`), or None when MkDocs watches the docs folder itself. The lines
    read are marked done only by `done` after the build, so a build that fails leaves them for the
    next one."""
    path = state.get("signal")
    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            fh.seek(state.get("signal_read", 0))
            data = fh.read()
        complete = data[:data.rfind(b"\n") + 1]  # a line being appended is read by the next build
        state["signal_pending"] = state.get("signal_read", 0) + len(complete)
        return {rel for line in complete.decode("utf-8").splitlines() if line for rel in json.loads(line)}
    except (OSError, ValueError, TypeError):
        # Not the watcher's lines (a damaged cache file): the pages' own times say what changed.
        return None


def done(state: dict[str, Any]) -> None:
    """After a finished build: the lines it read are done."""
    if "signal_pending" in state:
        state["signal_read"] = state.pop("signal_pending")
