"""A polite HTTP client for `readinglist add`: the standard library's urllib, one request at a time.

- A User-Agent naming readinglist, its version and the curator's contact (`mailto:`, from
  `extra.readinglist.contact` in mkdocs.yml), as Crossref's polite pool and arXiv ask.
- A pause between two requests to the same host (arXiv's terms: one request every three seconds,
  one connection at a time; requests here never overlap, and each closes its connection).
- A timeout on every request; HTTP 429 and 503 (and other 5xx) tried again after the time the
  server's `Retry-After` asks (seconds or a date), else after a doubling backoff; at most `tries`
  times, and never a wait longer than `max_wait` (then: rate limited, try later).
- Every failure is a `FetchError` with a one-line message; the caller names the identifier.
"""

from __future__ import annotations

import email.utils
import re
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlparse

from .. import __version__


class FetchError(Exception):
    """A request that did not give an answer to use (offline, refused, rate limited, an error status)."""


def user_agent(contact: str) -> str:
    """`readinglist/0.1.0 (mailto:you@example.org)`, or without the contact when none is set."""
    return f"readinglist/{__version__}" + (f" (mailto:{contact})" if contact else "")


@dataclass
class Client:
    agent: str
    timeout: float = 30.0
    tries: int = 4
    backoff: float = 2.0  # seconds before the second try when the server gives no Retry-After
    max_wait: float = 120.0
    spacing: dict[str, float] = field(default_factory=dict)  # host -> seconds between two requests
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    _last: dict[str, float] = field(default_factory=dict)

    def get(self, url: str, accept: str) -> tuple[int, bytes]:
        """(status, body) of a GET that the server answered: 200, or a 4xx other than 429 (the
        caller says what it means). A 429 or 5xx that stays after the retries, a timeout twice, or
        no connection is a FetchError."""
        host = urlparse(url).hostname or url
        wait = self.backoff
        for attempt in range(1, self.tries + 1):
            self._pause(host)
            try:
                status, body, retry_after = self._once(url, accept)
            except TimeoutError:
                if attempt >= 2:  # a service that did not answer twice will not answer a third time soon
                    raise FetchError(f"no answer from {host} within {self.timeout:g} s") from None
                self._wait(wait)
                wait *= 2
                continue
            if status != 429 and status < 500:
                return (404 if status == 410 else status), body
            delay = retry_after if retry_after is not None else wait
            if attempt == self.tries or delay > self.max_wait:
                what = "rate limited" if status == 429 else f"unavailable (HTTP {status})"
                later = f" (it asks to wait {delay:g} s)" if retry_after is not None else ""
                raise FetchError(f"{host} is {what} after {attempt} "
                                 f"{'try' if attempt == 1 else 'tries'}{later}; try again later")
            self._wait(delay)
            wait *= 2
        raise FetchError(f"no answer from {host}")  # not reached: the loop returns or raises

    def _pause(self, host: str) -> None:
        gap = self.spacing.get(host, 0.0)
        last = self._last.get(host)
        if last is not None and gap > 0:
            left = last + gap - self.clock()
            if left > 0:
                self.sleep(left)
        self._last[host] = self.clock()

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self.sleep(seconds)

    def _once(self, url: str, accept: str) -> tuple[int, bytes, float | None]:
        request = urllib.request.Request(url, headers={"User-Agent": self.agent, "Accept": accept})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                return int(resp.status), resp.read(), None
        except urllib.error.HTTPError as exc:
            with exc:
                body = exc.read() if exc.fp is not None else b""
                return exc.code, body, retry_after(exc.headers.get("Retry-After"), time.time())
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise TimeoutError from None
            raise FetchError(_unreachable(url, exc.reason)) from None
        except TimeoutError:
            raise TimeoutError from None
        except (ConnectionError, OSError) as exc:
            raise FetchError(_unreachable(url, exc)) from None


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header (`120` or an HTTP date), None when it says nothing."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def _unreachable(url: str, reason: object) -> str:
    host = urlparse(url).netloc or url
    if isinstance(reason, ConnectionRefusedError):
        why = "connection refused"
    elif isinstance(reason, socket.gaierror):
        why = "name not found: offline?"
    else:
        why = str(getattr(reason, "strerror", None) or reason)
    return f"cannot reach {host} ({why})"


def refused(url: str, status: int, body: bytes) -> FetchError:
    """The error for an answer with status `status` that the caller cannot use."""
    text = " ".join(re.sub(r"<[^>]*>", " ", body[:2000].decode("utf-8", "replace")).split())[:120]
    return FetchError(f"{urlparse(url).netloc} answered HTTP {status}" + (f": {text}" if text else ""))
