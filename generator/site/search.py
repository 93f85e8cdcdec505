"""Search at ten thousand papers: a Pagefind index behind Material's own search box.

Material's built-in search ships one JSON index holding every page's full text and builds a lunr
index from it in the browser: at ten thousand papers that is about 25 MB to fetch and seconds of
work before the first result. Pagefind splits its index into small chunks and fetches only those
a query needs (a few hundred KB), so results come at once however long the list grows.

This module writes that index after MkDocs has built the site (the MkDocs plugin calls
`build_index` into the project's cache, then `publish` links it into the site). It indexes exactly
what a reader searches for — each paper's title, authors, abstract, citation key, arXiv id and
DOI, the curator's notes, pages and tag descriptions — as the build made them
(render/search_records.py, written into the docs folder as `.search-records.json`), and leaves out
page boilerplate and the BibTeX block, which would repeat the same words on every page.
Material's search box stays (generator/theme/partials/search.html,
without Material's own search component), and `static/readinglist-search.js` answers it through
Pagefind's JavaScript API, so typing into `.md-search__input` shows `.md-search-result__item`
results in Material's markup.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.readinglist")

INDEX_DIR = "pagefind"
STAMP = ".readinglist-records"
SCRIPT = "assets/javascripts/readinglist-search.js"


class SearchIndexError(Exception):
    """The Pagefind index could not be written (binary missing or failing)."""


def available() -> bool:
    try:
        from pagefind.service import get_executable
    except ImportError:
        return False
    return get_executable() is not None


def build_index(records_file: Path, out: Path, *, force: bool = False, background: bool = False) -> int | None:
    """(Re)write the Pagefind index `out` from the build's records (`records_file`, the docs
    folder's RECORDS, render/search_records.py); None when `out` already holds it, whole.
    `background`: Pagefind runs at a low scheduling priority (under `mkdocs serve`, where a rebuild
    and a browser are waiting)."""
    if not records_file.is_file():
        raise SearchIndexError(f"{records_file} is missing; was the generator run?")
    raw = records_file.read_bytes()
    # The file's own hash: every rebuild under `serve` asks, and the records are its bytes.
    records = hashlib.sha256(raw).hexdigest()
    if not force:
        damage = _check(out, records)
        if damage is None:
            return None
        if damage:
            log.info(f"readinglist: the search index cache {out.parent.name}/{out.name} is damaged ({damage}); "
                     "making it again")
    recs = []
    for n, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        try:
            if line:
                recs.append(json.loads(line))
        except ValueError as exc:
            raise SearchIndexError(f"{records_file}:{n}: not the records the generator wrote (build again): "
                                   f"{getattr(exc, 'msg', exc)}") from None
    tmp = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        _write_index(recs, tmp, background=background)
    except FileNotFoundError as exc:
        raise SearchIndexError("the Pagefind binary is missing: install the project with "
                               "`pip install -e .` (it depends on pagefind[bin])") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # (no half index left in the cache)
        raise
    stamp = json.dumps({"records": records, "files": _hashes(tmp)}, sort_keys=True)
    try:
        (tmp / STAMP).write_text(stamp, encoding="utf-8")
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise SearchIndexError(f"no space left on the device of {out.parent}/") from None
        raise
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    _checked[str(out)] = stamp
    return len(recs)


# Index folders (by path) whose every file was checked against their stamp in this process, with
# that stamp: a rebuild under `serve` does not hash them again (the index it wrote itself).
_checked: dict[str, str] = {}


def _hashes(folder: Path) -> dict[str, str]:
    """Every file of an index folder (the stamp aside): relative path -> SHA-256 of its bytes."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != STAMP}


def _check(out: Path, records: str) -> str | None:
    """None when `out` holds the index of the records whose hash is `records`, every file as it was
    written; "" when it holds none or another list's (nothing to say); else what is damaged. The
    cache may be restored by CI from an earlier run: a damaged file is never published."""
    stamp_file = out / STAMP
    if not out.is_dir():
        if out.exists() or out.is_symlink():
            out.unlink()  # a file where the index's folder should be: damage, made again
            return "it is not a folder"
        return ""
    try:
        text = stamp_file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return "" if not any(out.iterdir()) else "its stamp is missing"
    except (OSError, UnicodeDecodeError):
        return "its stamp is not readable"
    if re.fullmatch(r"[0-9a-f]{64}\n", text):
        return ""  # an earlier version's stamp (the records' hash alone): made again, nothing damaged
    if _checked.get(str(out)) == text and (out / "pagefind.js").is_file():
        return None if json.loads(text)["records"] == records else ""
    try:
        stamp = json.loads(text)
        files, made_of = stamp["files"], stamp["records"]
        if not isinstance(files, dict) or not isinstance(made_of, str):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return "its stamp is not readable"
    if made_of != records:
        return ""  # another build's records: made again, nothing damaged
    try:
        found = _hashes(out)
    except OSError as exc:
        return f"{exc.strerror or exc}"
    if found != files:
        changed = sorted(set(found) ^ set(files)) + sorted(k for k in found.keys() & files.keys()
                                                            if found[k] != files[k])
        return f"{len(changed)} of its files differ from its stamp, such as {changed[0]}"
    _checked[str(out)] = text
    return None


def publish(prepared: Path, site_dir: Path) -> None:
    """Put the index built in `prepared` into the site, as hard links where the file system allows;
    its stamp is the cache's, not the site's, and stays out."""
    target = site_dir / INDEX_DIR
    stamp = (prepared / STAMP).read_bytes()
    if _published.get(str(target)) == stamp and (target / "pagefind.js").is_file():
        return
    tmp = site_dir / f".{INDEX_DIR}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(prepared, tmp, copy_function=link, ignore=shutil.ignore_patterns(STAMP))
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    _published[str(target)] = stamp


# What this process published into each site (`mkdocs serve` publishes after each rebuild).
_published: dict[str, bytes] = {}


class _Service:
    """Pagefind's indexing service (`pagefind --service`), spoken to directly.

    The `pagefind` package's own asyncio client sleeps 0.1 s before reading each reply, which makes
    ten thousand records take a quarter of an hour; the protocol is just base64-encoded JSON
    messages separated by commas, so a thread reading replies as they come keeps it to seconds.
    """

    def __init__(self, *, background: bool = False) -> None:
        from pagefind.service import get_executable

        exe = get_executable()
        if exe is None:
            raise FileNotFoundError("pagefind")
        lower = background and hasattr(os, "nice")
        self.proc = subprocess.Popen([str(exe), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, preexec_fn=_lower_priority if lower else None)
        self.replies: dict[int, dict[str, Any]] = {}
        self.errors: list[str] = []
        self.done = threading.Condition()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        buf = b""
        while chunk := os.read(self.proc.stdout.fileno(), 1 << 16):
            buf += chunk
            *messages, buf = buf.split(b",")
            for raw in messages:
                reply = json.loads(base64.b64decode(raw))
                payload = reply.get("payload") or {}
                with self.done:
                    if payload.get("type") == "Error":
                        self.errors.append(str(payload.get("message")))
                    if reply.get("message_id") is not None:
                        self.replies[reply["message_id"]] = payload
                    self.done.notify_all()
        with self.done:
            self.done.notify_all()

    def send(self, payload: dict[str, Any]) -> int:
        assert self.proc.stdin is not None
        self.next_id += 1
        message = {"message_id": self.next_id, "payload": payload}
        self.proc.stdin.write(base64.b64encode(json.dumps(message).encode("utf-8")) + b",")
        return self.next_id

    def wait(self, message_id: int, timeout: float = 600.0) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.flush()
        with self.done:
            ok = self.done.wait_for(lambda: message_id in self.replies or self.errors
                                    or self.proc.poll() is not None, timeout)
        if self.errors:
            raise SearchIndexError("Pagefind: " + "; ".join(self.errors[:3]))
        if not ok or message_id not in self.replies:
            raise SearchIndexError("Pagefind's indexing service stopped without answering")
        return self.replies[message_id]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _lower_priority() -> None:
    os.nice(10)  # in the Pagefind child only (preexec_fn), not in this process


def _write_index(recs: list[dict[str, Any]], out: Path, *, background: bool = False) -> None:
    service = _Service(background=background)
    try:
        reply = service.wait(service.send({"type": "NewIndex", "config": {"verbose": False}}))
        index_id = reply["index_id"]
        for r in recs:
            service.send({"type": "AddRecord", "index_id": index_id, "filters": None, "sort": None, **r})
        service.wait(service.send({"type": "WriteFiles", "index_id": index_id, "output_path": str(out)}))
        _wait_until_written(out, len(recs))
    finally:
        service.close()


def _full(folder: Path) -> bool:
    """Whether the device of `folder` has (next to) no room left."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _wait_until_written(out: Path, pages: int, timeout: float = 120.0) -> None:
    """The service answers WriteFiles before its last files (the entry file among them) are on
    disk; wait until the entry names all pages and no file is still empty."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            entry = json.loads((out / "pagefind-entry.json").read_text(encoding="utf-8"))
            count = sum(lang.get("page_count", 0) for lang in entry.get("languages", {}).values())
            empty = [p for p in out.rglob("*") if p.is_file() and p.stat().st_size == 0]
            if count == pages and not empty:
                return
        except (OSError, ValueError):
            pass
        if _full(out):
            # Pagefind reports no failed write: a disk with no room left is why its files never come.
            raise SearchIndexError(f"no space left on the device of {out.parent}/")
        if time.monotonic() > deadline:
            raise SearchIndexError(f"Pagefind did not finish writing {out}")
        time.sleep(0.05)
