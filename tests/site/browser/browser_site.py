"""Build the seed site with `mkdocs build` and serve it over http on 127.0.0.1, as Pages would.

Each variant gets its own server on its own free port, so a link that wrongly climbs out of
`/reading-list/` hits a 404 instead of quietly landing on the root copy of the site.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit


class _Handler(SimpleHTTPRequestHandler):
    """Static files under `prefix`; anything else, or a missing file, gets the site's 404 page
    with status 404 (what GitHub Pages does)."""

    prefix = "/"

    def __init__(self, *args: Any, directory: str, prefix: str, **kwargs: Any) -> None:
        self.prefix = prefix
        super().__init__(*args, directory=directory, **kwargs)

    def translate_path(self, path: str) -> str:
        clean = unquote(urlsplit(path).path)
        if not clean.startswith(self.prefix):
            return str(Path(self.directory) / "\0outside")  # never exists
        return super().translate_path("/" + clean[len(self.prefix):])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass


@dataclass
class Served:
    name: str          # "root" or "subpath": used in test ids and screenshot names
    prefix: str        # "/" or "/reading-list/"
    site_dir: Path
    server: ThreadingHTTPServer

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base(self) -> str:
        """The site's root URL, ending in a slash (what `site_url` is set to)."""
        return self.origin + self.prefix

    def url(self, path: str = "") -> str:
        """URL of `path` relative to the site root (`papers/x/`, `all/`, `papers.json`)."""
        return self.base + path.lstrip("/")

    def file(self, path: str) -> Path:
        return self.site_dir / path

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve(name: str, site_dir: Path, prefix: str) -> Served:
    """Start a threaded server for `site_dir` under `prefix` on a free port of 127.0.0.1."""
    handler = partial(_Handler, directory=str(site_dir), prefix=prefix)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name=f"site-{name}", daemon=True).start()
    return Served(name, prefix, site_dir, server)


EDIT_URL = "https://github.com/example/reading-list/edit/main/"


def variant_config(project: Path, served: Served) -> Path:
    """The project's own mkdocs.yml with two test settings: `site_url` = where `served` serves
    it, and an edit link base so "Edit this note" is drawn (a link only; never followed).
    Edited as text so every other setting (and any `!!python/name` tag) stays as it is."""
    text = (project / "mkdocs.yml").read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^site_url:.*$", f"site_url: {served.base}", text)
    if n != 1:
        text = f"site_url: {served.base}\n" + text
    text, n = re.subn(r"(?m)^  readinglist:\n", f"  readinglist:\n    edit_url: {EDIT_URL}\n", text)
    if n != 1:
        raise RuntimeError("mkdocs.yml has no `extra: readinglist:` section")
    config = project / f"mkdocs-{served.name}.yml"
    config.write_text(text, encoding="utf-8")
    return config


def mkdocs_build(project: Path, served: Served) -> None:
    """`mkdocs build --strict` of the project copy into `served.site_dir` (the hook runs the generator)."""
    build_site(project, served.site_dir, variant_config(project, served))


def build_site(project: Path, site_dir: Path, config: Path | None = None, *, hook: bool = True) -> None:
    """`mkdocs build --strict` in `project` (its mkdocs.yml unless `config`) into `site_dir`;
    `hook=False` renders the Markdown already in the build folder without regenerating it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("READINGLIST_HOOK", None)
    if not hook:
        env["READINGLIST_HOOK"] = "off"
    config = config or project / "mkdocs.yml"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config), "-d", str(site_dir)],
        cwd=project, env=env, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"mkdocs build failed in {project}:\n{run.stdout}\n{run.stderr}")


def stock_build(project: Path, served: Served) -> None:
    """`readinglist build`, then a stock `mkdocs build --strict` without the readinglist plugin
    (its line taken out of mkdocs.yml): the docs folder alone, as any MkDocs would build it."""
    config = variant_config(project, served)
    text, n = re.subn(r"(?m)^  - readinglist\n", "", config.read_text(encoding="utf-8"))
    if n != 1:
        raise RuntimeError("mkdocs.yml lists no `readinglist` plugin")
    config.write_text(text, encoding="utf-8")
    _generate(project, config)
    build_site(project, served.site_dir, config, hook=False)


def _generate(project: Path, config: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("CI", None)  # in CI `readinglist build` fails on any warning, and the seeds have two
    run = subprocess.run([sys.executable, "-m", "generator", "-f", str(config), "build"],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"readinglist build failed in {project}:\n{run.stdout}\n{run.stderr}")


def zensical_build(project: Path, served: Served, zensical: Path | None = None) -> None:
    """`readinglist build --engine zensical` (the generator, then `zensical build` of the same docs
    folder, the theme's own files taken out of the site) into `served.site_dir`. Zensical reads
    mkdocs.yml and runs no MkDocs plugin (ours included): the pages must stand without the plugin
    (plain templates, no readinglist Jinja). `zensical`: the Zensical command of another
    environment (its readinglist runs the build), else the one beside this Python."""
    config = variant_config(project, served)
    text = config.read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^site_dir:.*$", f"site_dir: {served.site_dir}", text)
    if n != 1:
        raise RuntimeError("mkdocs.yml has no site_dir")
    config.write_text(text, encoding="utf-8")
    python = zensical.with_name("python") if zensical else Path(sys.executable)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("CI", None)  # in CI `readinglist build` fails on any warning, and the seeds have two
    run = subprocess.run([str(python), "-m", "generator", "-f", str(config), "build", "--engine", "zensical"],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"readinglist build --engine zensical failed in {project}:\n{run.stdout}\n{run.stderr}")
