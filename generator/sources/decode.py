"""Turn a digest file's bytes into clean text, reporting what had to be repaired.

Digests are pasted from mail clients and web pages, so odd encodings, BOMs,
CR line endings and non-breaking spaces are normal and must not break a reader.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Problems

# Characters that mail clients paste in place of plain spaces.
_SPACES = {"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\ufeff": ""}


def decode_bytes(data: bytes, path: str, problems: Problems) -> str | None:
    """Decode a digest; None (with a message) when the file is not text at all."""
    if not data.strip():
        problems.warn(path, 0, "empty file, skipped")
        return None
    if b"\x00" in data:
        problems.warn(path, 0, "binary file (contains NUL bytes), skipped")
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        text = data.decode("cp1252", errors="replace")
        problems.warn(path, line, "not valid UTF-8; decoded as Windows-1252 (Latin-1)")
    if _looks_binary(text):
        problems.warn(path, 0, "binary file (mostly control characters), skipped")
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for bad, good in _SPACES.items():
        text = text.replace(bad, good)
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
    controls = sum(1 for c in sample if ord(c) < 32 and c not in "\n\r\t\f")
    return controls > max(8, len(sample) // 20)
