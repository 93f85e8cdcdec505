"""Turn a digest file's bytes into clean text, reporting what had to be repaired.

Digests are pasted from mail clients and web pages, so odd encodings, BOMs,
CR line endings and non-breaking spaces are normal and must not break a reader.
Files that are not text at all (images, archives, a PDF saved by mistake) are
skipped with a message instead of being read as garbage.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Problems

# Characters that mail clients paste in place of plain spaces.
_SPACES = {"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\ufeff": ""}
# Bytes that were not valid UTF-8 (kept by `surrogateescape`), decoded again one run at a time.
_BAD_RUN = re.compile("[\udc80-\udcff]+")
# Signatures of common binary formats that happen to have no NUL byte near the start.
_MAGIC = (b"%PDF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b", b"BZh", b"\x7fELF")
_UTF16 = (b"\xff\xfe", b"\xfe\xff")
# Control characters but tab, line feed, form feed and carriage return.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def decode_bytes(data: bytes, path: str, problems: Problems) -> str | None:
    """Decode a digest; None (with a message) when the file is not text at all."""
    if not data.strip():
        problems.warn(path, 0, "empty file, skipped")
        return None
    if data.startswith(_MAGIC):
        problems.warn(path, 0, "binary file (not text), skipped")
        return None
    if data.startswith(_UTF16):
        return _clean(_utf16(data, path, problems))
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        problems.warn(path, line, "binary file (contains NUL bytes), skipped")
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        # Valid UTF-8 (nearly every file) has no escaped bytes to look for.
        text, first = data.decode("utf-8"), None
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="surrogateescape")
        first = _BAD_RUN.search(text)
    if first is not None:
        line = text.count("\n", 0, first.start()) + 1
        # Runs, not the whole file: a UTF-8 file with one Latin-1 paste keeps its UTF-8 text.
        text = _BAD_RUN.sub(_cp1252, text)
        problems.warn(path, line, "not valid UTF-8; decoded as Windows-1252 (Latin-1)")
    if _looks_binary(text):
        problems.warn(path, 0, "binary file (mostly control characters), skipped")
        return None
    return _clean(text)


def _utf16(data: bytes, path: str, problems: Problems) -> str:
    problems.warn(path, 0, "saved as UTF-16; decoded (save digests as UTF-8)")
    return data.decode("utf-16", errors="replace")


def _cp1252(m: re.Match[str]) -> str:
    raw = bytes(ord(c) - 0xDC00 for c in m.group(0))
    # The five bytes cp1252 leaves undefined are Latin-1 control codes: read them as Latin-1.
    return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in raw)


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Character by character, and only for the characters there are (a search in C each).
    for odd, plain in _SPACES.items():
        if odd in text:
            text = text.replace(odd, plain)
    return text


def read_text(path: Path, display: str, problems: Problems) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.error(display, 0, f"cannot read file: {exc.strerror or exc}")
        return None
    return decode_bytes(data, display, problems)


def _looks_binary(text: str) -> bool:
    sample = text[:4096]
    controls = len(_CONTROLS.findall(sample))
    return controls > max(8, len(sample) // 20)
