"""Talking to a server a test started on 127.0.0.1: a free port for it, and a page from it."""

from __future__ import annotations

import socket
import urllib.request


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the OS's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> bytes | None:
    """The body `url` answers with, or None while the server does not answer it (not yet up,
    rebuilding, or an error status)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return bytes(resp.read())
    except OSError:
        return None
