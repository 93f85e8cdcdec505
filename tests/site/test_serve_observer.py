"""`mkdocs serve` hears of changes from the operating system, not by polling every file."""

from __future__ import annotations

from pathlib import Path

from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from generator.site.plugin import native_observer


def _server(root: Path) -> LiveReloadServer:
    return LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(root))


def _wait_for_rebuild(server: LiveReloadServer, timeout: float) -> bool:
    with server._rebuild_cond:
        return bool(server._rebuild_cond.wait_for(lambda: server._want_rebuild, timeout=timeout))


def test_the_watched_folders_move_to_the_native_observer_and_an_edit_is_heard_at_once(tmp_path: Path) -> None:
    docs, config_file = tmp_path / "docs", tmp_path / "mkdocs.yml"
    (docs / "papers").mkdir(parents=True)
    (docs / "papers" / "a.md").write_text("old\n", encoding="utf-8")
    config_file.write_text("site_name: x\n", encoding="utf-8")
    server = _server(tmp_path / "site")
    server.watch(str(docs))
    server.watch(str(config_file), recursive=False)
    assert isinstance(server.observer, PollingObserver)

    assert native_observer(server) is True
    assert not isinstance(server.observer, PollingObserver)
    assert set(server._watch_refs) == {str(docs), str(config_file)}
    # A watch added afterwards (mkdocs.yml `watch:`) goes to the new observer too.
    extra = tmp_path / "extra"
    extra.mkdir()
    server.watch(str(extra))
    assert str(extra) in server._watch_refs
    server.observer.start()
    try:
        # A build reads every page: reading must not look like a change (or MkDocs would rebuild
        # after every build, for ever).
        assert (docs / "papers" / "a.md").read_text(encoding="utf-8") == "old\n"
        assert not _wait_for_rebuild(server, timeout=1.0)
        # The generator writes a temporary file and renames it over the page.
        tmp = docs / "papers" / ".a.md.tmp"
        tmp.write_text("new\n", encoding="utf-8")
        tmp.replace(docs / "papers" / "a.md")
        assert _wait_for_rebuild(server, timeout=10.0), "the edit never reached the server"
    finally:
        server.observer.stop()
        server.observer.join(timeout=5)


def test_a_running_or_unknown_observer_is_left_alone(tmp_path: Path) -> None:
    server = _server(tmp_path)
    server.watch(str(tmp_path))
    server.observer.start()
    try:
        assert native_observer(server) is False
        assert isinstance(server.observer, PollingObserver)
    finally:
        server.observer.stop()
        server.observer.join(timeout=5)

    class Odd:
        observer = object()

    assert native_observer(Odd()) is False
