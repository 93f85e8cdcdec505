"""`readinglist` command line: build, check, serve, watch, note, init, upgrade, add."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .build import BuildResult, build, find_config
from .config import Config, load_config
from .errors import DiskFull, GeneratorError, Problems, Stopped
from .runtime import switches
from .settings import NOT_A_LIST, check_project, uses_readinglist

if TYPE_CHECKING:
    from .scaffold.requirement import Choice
    from .watch import Outcome, Watcher


def _report(result: BuildResult, strict: bool) -> int:
    for problem in result.problems:
        print(problem, file=sys.stderr)
    print(result.summary())
    if result.problems.errors or (strict and result.problems.warnings):
        return 1
    return 0


def _config_path(args: argparse.Namespace) -> Path:
    """The list's mkdocs.yml: `-f FILE`, else the nearest one at or above the current folder."""
    if args.config is not None:
        return Path(args.config)
    found = find_config()
    if found is None:
        raise GeneratorError("no mkdocs.yml here or above; run `readinglist init` to start a list")
    return found


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _load(args: argparse.Namespace, *, mkdocs_keys: bool = True) -> Config:
    """The list's settings, with MkDocs' own checked too (unknown keys unless `mkdocs_keys` is
    false, plugins and theme). A mkdocs.yml that is no reading list's stops here, before anything
    is written."""
    path = _config_path(args)
    config = load_config(path)
    if not uses_readinglist(config.settings):
        raise GeneratorError(f"{_shown(path)} {NOT_A_LIST}")
    problems = Problems()
    check_project(config.settings, config.lines, path.name, problems, keys=mkdocs_keys)
    ordered = sorted([*config.problems, *problems], key=lambda p: p.line)
    return replace(config, problems=tuple(ordered))


def cmd_build(args: argparse.Namespace) -> int:
    config = _load(args, mkdocs_keys=False)  # the quick command: MkDocs' build checks its own keys
    status = _report(build(config, write=True), args.strict or _ci())
    if status != 0 or args.engine != "zensical":
        return status
    from .site.zensical import build_site  # the site too, by Zensical, without the theme's own files

    return build_site(_config_path(args).resolve(), config, strict=args.strict or _ci())


def cmd_check(args: argparse.Namespace) -> int:
    config = _load(args)
    return _report(build(config, write=False), args.strict or _ci())


def cmd_note(args: argparse.Namespace) -> int:
    from .scaffold.note import NoteExists, create_stub

    config = _load(args)
    try:
        path = create_stub(config, " ".join(args.paper))
    except NoteExists as exists:
        # Its path all the same, so that `$EDITOR $(readinglist note KEY)` reopens the note.
        print(f"readinglist: {exists}", file=sys.stderr)
        path = exists.path
    try:
        print(path.relative_to(Path.cwd()))
    except ValueError:
        print(path)
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    from .scaffold import default_name, init_list, requirement

    dest = Path(args.dir)
    choice = requirement.given(args.requirement) if args.requirement else requirement.running()
    name = args.name
    unnamed = False  # nor asked for: said below
    if name is None and sys.stdin is not None and sys.stdin.isatty():
        name = input(f"Site name [{default_name(dest)}]: ").strip() or None
    elif name is None:
        name = _piped_name()  # `echo "Lab papers" | readinglist init lab`
        unnamed = name is None
    try:
        written = init_list(dest, name, choice)
    finally:
        requirement.discard(choice)
    for path in written:
        print(f"created {path}")
    if name is None and unnamed:
        print(f"readinglist init: no site name given (--name NAME, or typed at the prompt); used "
              f"\"{default_name(dest)}\", from the folder's name", file=sys.stderr)
    where = "" if dest.resolve() == Path.cwd().resolve() else f"cd {dest} && "
    print(f"\nNext: {where}readinglist add <digest file>, then readinglist serve "
          "(or push to GitHub: README.md says how to publish).")
    _say_requirement(choice, "init", dest)
    return 0


def _piped_name(wait: float = 1.0) -> str | None:
    """The first line of a piped standard input, if one comes within `wait` seconds (an input
    left open with nothing in it must not hang `init`)."""
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        return None
    try:
        import select

        ready, _, _ = select.select([stdin], [], [], wait)
        line = stdin.readline() if ready else ""
    except (OSError, ValueError):  # no select on this kind of input (Windows pipes)
        return None
    return " ".join(line.split()) or None


def _say_requirement(choice: Choice, command: str, folder: Path) -> None:
    if choice.chosen:
        print(f"requirements.txt: the Pages workflow installs {choice.why}")
    else:
        where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {folder} && "
        state = ("requirements.txt names no readinglist, so the Pages workflow cannot build the site"
                 if command == "init" else
                 "requirements.txt left as it was: the Pages workflow cannot install the readinglist running here")
        print(f"readinglist {command}: warning: {state}: {choice.why}. Set it with: {where}readinglist upgrade "
              "--requirement 'readinglist-site @ git+https://github.com/OWNER/REPO@COMMIT' (or a "
              "readinglist_site-*.whl file, copied into wheels/)", file=sys.stderr)


def cmd_upgrade(args: argparse.Namespace) -> int:
    from .scaffold import requirement

    folder = _config_path(args).resolve().parent
    if not (folder / "mkdocs.yml").is_file():
        raise GeneratorError(f"no mkdocs.yml in {folder}: run readinglist upgrade in a list's folder")
    choice = requirement.given(args.requirement) if args.requirement else requirement.running()
    if choice.chosen:  # else the line the list has stays: it may work where this one cannot
        try:
            for path in requirement.apply(choice, folder):
                print(f"wrote {path}")
        finally:
            requirement.discard(choice)
    _say_requirement(choice, "upgrade", folder)
    return 0 if choice.chosen else 1


def cmd_add(args: argparse.Namespace) -> int:
    from .add import add_digests
    from .fetch import add_identifiers, split

    config = _load(args)
    # Identifiers (arXiv ids, DOIs, OpenReview links) are fetched once into seeds/ (generator/fetch/).
    identifiers, args.files = split(args.files)
    fetched = add_identifiers(config, identifiers) if identifiers else 0
    if not args.files:
        return fetched
    report = add_digests(config, [Path(f) for f in args.files])
    for problem in report.problems:
        print(problem, file=sys.stderr)
    for line in report.lines(config.root):
        print(line)
    return 1 if fetched or report.problems.errors or report.failed else 0


def _watcher(args: argparse.Namespace, on_rebuild: Callable[[Outcome], None] | None = None) -> Watcher:
    from .watch import Watcher

    watcher = Watcher(_config_path(args), debounce=args.debounce, on_rebuild=on_rebuild)
    watcher.start()
    return watcher


def _until_interrupted() -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    while True:
        time.sleep(3600)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def cmd_watch(args: argparse.Namespace) -> int:
    config = _load(args)  # a plain MkDocs project stops here
    own = load_config(_config_path(args)).problems  # the watcher's builds print these
    for problem in config.problems:
        if problem not in own:
            print(problem, file=sys.stderr)
    watcher = _watcher(args)
    print("readinglist: watching seeds/, content/ and mkdocs.yml; Ctrl-C stops", file=sys.stderr)
    try:
        _until_interrupted()
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .site import serve_signal

    config = _load(args)
    # Warnings are the watcher's first build's to print (extra.readinglist) and MkDocs' (its own keys).
    if any(p.severity == "error" for p in config.problems):
        for problem in config.problems:
            print(problem, file=sys.stderr)
        print("readinglist: error: not serving until mkdocs.yml is corrected (above)", file=sys.stderr)
        return 1
    # Before the first build, which takes a while on a big list; MkDocs binds only after its own.
    busy = _port_in_use(args.host, args.port)
    if busy:
        print(busy, file=sys.stderr)
        return 1
    config_path = _config_path(args).resolve()
    # The watcher tells MkDocs what it wrote, and MkDocs stops polling the build folder.
    signal_file = serve_signal.start(config_path.parent)
    watcher = _watcher(args, None if signal_file is None else
                       lambda outcome: serve_signal.rebuilt(signal_file, outcome.written))
    cmd = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-f", str(config_path),
           "-a", f"{args.host}:{args.port}"]
    if args.dirty:
        cmd.append("--dirty")
    # The watcher regenerates the pages; the MkDocs hook must not do it a second time.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_HOOK="off")
    if signal_file is not None:
        env[serve_signal.ENV] = str(signal_file)
    signal.signal(signal.SIGTERM, _interrupt)
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True, bufsize=1)
    relay = _Relay(proc, _busy_message(args.host, args.port))
    try:
        code = proc.wait()
        relay.join()
        return 1 if relay.busy else code
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0
    finally:
        watcher.stop()


def _busy_message(host: str, port: int) -> str:
    return (f"readinglist: error: port {port} on {host} is already in use (another serve?); "
            f"stop that one, or choose another port: readinglist serve --port {port + 1}")


def _port_in_use(host: str, port: int) -> str | None:
    """The one-line message when `host:port` cannot be bound now, as MkDocs' server would bind it
    (with SO_REUSEADDR, so a port a server just left is free); None when it is free."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except OSError:
        return None  # MkDocs says what is wrong with the address
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            return _busy_message(host, port) if exc.errno == errno.EADDRINUSE else None
    return None


class _Relay:
    """`mkdocs serve`'s messages, passed on line by line; a traceback that ends in "Address already
    in use" (another server took the port after our check) becomes one line."""

    _BUSY = ("[Errno 98] Address already in use", "[Errno 48] Address already in use", "EADDRINUSE")

    def __init__(self, proc: subprocess.Popen[str], message: str) -> None:
        import threading

        self.busy = False
        self._message = message
        self._thread = threading.Thread(target=self._run, args=(proc.stderr,), daemon=True)
        self._thread.start()

    def join(self) -> None:
        self._thread.join(timeout=5)

    def _run(self, stream: object) -> None:
        held: list[str] = []
        for line in stream:  # type: ignore[attr-defined]
            if self.busy:
                continue  # the rest of that traceback
            if held or line.startswith("Traceback (most recent call last):"):
                held.append(line)
                if line[:1].isspace() or line.startswith("Traceback") or not line.strip():
                    continue
                if any(text in line for text in self._BUSY):
                    self.busy = True
                    print(self._message, file=sys.stderr, flush=True)
                    continue
                if line.startswith(("During handling", "The above exception")):
                    continue
                sys.stderr.write("".join(held))
                held = []
            else:
                sys.stderr.write(line)
            sys.stderr.flush()
        if held and not self.busy:
            sys.stderr.write("".join(held))


def _ci() -> bool:
    return switches.ci()


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="readinglist",
        description="Turn paper digests into a searchable reading-list site (MkDocs + Material).",
    )
    parser.add_argument("--version", action="version", version=f"readinglist {__version__}")
    config_help = "the list's mkdocs.yml, as in `mkdocs -f` (default: the nearest one here or above)"
    parser.add_argument("-f", "--config", metavar="FILE", default=None, help=config_help)
    # Each command takes -f too (`readinglist build -f FILE`); SUPPRESS keeps a -f given before
    # the command from being reset by the command's own default.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-f", "--config", metavar="FILE", default=argparse.SUPPRESS, help=config_help)
    strict = argparse.ArgumentParser(add_help=False)
    strict.add_argument("--strict", action="store_true", help="exit non-zero on any warning (the default in CI)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str, *parents: argparse.ArgumentParser) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, parents=[common, *parents])

    p = command("build", "generate the Markdown pages into the build folder", strict)
    p.add_argument("--engine", choices=["zensical"], default=None,
                   help="then build the site from them with Zensical (docs/user-guide/zensical.md)")
    p.set_defaults(func=cmd_build)
    p = command("check", "read and validate the digests and notes; write nothing", strict)
    p.set_defaults(func=cmd_check)
    p = command("serve", "build, watch and serve with live reload on http://127.0.0.1:8000")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to serve on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=8000, help="the port to serve on (default 8000)")
    p.add_argument("--no-dirty", dest="dirty", action="store_false",
                   help="let MkDocs rebuild every page on each change (slow on big lists; "
                        "by default it rebuilds only the pages whose Markdown changed)")
    p.add_argument("--debounce", type=float, default=0.05,
                   help="seconds of quiet after a save before rebuilding (default 0.05)")
    p.set_defaults(func=cmd_serve)
    p = command("watch", "build, then rebuild the Markdown whenever seeds/, content/ or mkdocs.yml change")
    p.add_argument("--debounce", type=float, default=0.05,
                   help="seconds of quiet after a save before rebuilding (default 0.05)")
    p.set_defaults(func=cmd_watch)
    p = command("note", "create content/notes/<key>.md for a paper and print its path (never overwrites)")
    p.add_argument("paper", nargs="+", help="citation key, slug, arXiv id, DOI or (part of) the title")
    p.set_defaults(func=cmd_note)
    p = sub.add_parser("init", help="start a new reading list in DIR (default: here); never overwrites",
                       description="start a new reading list in DIR (default: here); never overwrites")
    p.add_argument("dir", nargs="?", default=".", help="the new list's folder (created if missing)")
    p.add_argument("--name", help="the site's name (default: asked, or made from the folder's name)")
    p.add_argument("--requirement", metavar="SPEC",
                   help="what the Pages workflow installs: a readinglist-site requirement (e.g. "
                        "'readinglist-site @ git+https://github.com/OWNER/REPO@COMMIT') or a readinglist_site-*.whl "
                        "file to commit with the list (default: the readinglist running now, when GitHub can get it)")
    p.set_defaults(func=cmd_init)
    p = command("upgrade", "point the list's requirements.txt at the readinglist running now "
                           "(after pip install -U), or at --requirement SPEC")
    p.add_argument("--requirement", metavar="SPEC", help="as for init")
    p.set_defaults(func=cmd_upgrade)
    p = command("add", "copy digests into seeds/ and say what they hold (new papers, papers already in "
                       "the list, warnings); a file that holds no paper is not copied; an arXiv id, DOI or "
                       "OpenReview link is fetched once and kept in seeds/")
    p.add_argument("files", nargs="+", metavar="FILE|ID",
                   help="a digest file, or a folder: the digests inside it; or an identifier: 2306.06130, "
                        "arXiv:hep-th/9901001v2, 10.1145/3442188.3445922, an arXiv, doi.org or OpenReview link")
    p.set_defaults(func=cmd_add)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except Stopped as exc:
        # A file the curator writes could not be read whole: its lines, then what to do.
        for line in exc.lines():
            print(line, file=sys.stderr)
        print(f"readinglist: {exc.advice()}", file=sys.stderr)
        return 1
    except DiskFull as exc:
        print(f"readinglist: error: {exc}", file=sys.stderr)
        return 1
    except GeneratorError as exc:
        print(f"readinglist: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
