"""mkdocs.yml checked for a first hour's mistakes, each reported with the file and line: a misspelt
setting (with the closest known one, as MkDocs names its own), a plugin or theme that is not
installed (with those that are), and a plain MkDocs project that is no reading list at all.

`config.py` checks the keys under `extra.readinglist` on every load (the plugin's builds too);
the rest is for the command line (`check_project`), since MkDocs reports its own settings and
names itself when it builds.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from typing import Any

import yaml

from .errors import Problems

# The settings under extra.readinglist (docs/user-guide/configuration.md): a key not here is
# reported. A new setting is added here and in that page.
READINGLIST_KEYS = ("seeds", "content", "registry", "related", "page_size", "feed_entries",
                    "keep_replacements", "citation_styles", "edit_url", "contact", "keep",
                    "tag_feeds", "tag_downloads", "size_warning_mb")
RELATED_KEYS = ("count", "min_score")

NOT_A_LIST = ("uses no readinglist plugin, theme or settings: it is a plain MkDocs project, not a reading list; "
              "nothing was written. Start a list in a new folder: readinglist init my-list")


def key_lines(node: yaml.Node | None, prefix: str = "") -> dict[str, int]:
    """The 1-based line of every mapping key and list item of a composed YAML document, by dotted
    path (`extra.readinglist.seeds`, `plugins[0]`)."""
    out: dict[str, int] = {}
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            path = f"{prefix.removesuffix('.')}[{i}]"
            out[path] = item.start_mark.line + 1
            out.update((k, v) for k, v in key_lines(item, path + ".").items() if k not in out)
    if not isinstance(node, yaml.MappingNode):
        return out
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        path = f"{prefix}{key_node.value}"
        out.setdefault(path, key_node.start_mark.line + 1)
        out.update((k, v) for k, v in key_lines(value_node, path + ".").items() if k not in out)
    return out


def closest(name: str, known: Iterable[str]) -> str:
    """` (did you mean `related`?)`, or the known names when none is close."""
    known = list(known)
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean `{near[0]}`?)" if near else f" (known: {', '.join(known)})"


def unknown_keys(values: Mapping[str, Any], known: Iterable[str], where: str, lines: Mapping[str, int],
                 shown: str, problems: Problems) -> None:
    """A warning for each key of `values` (the mapping at dotted path `where`) not in `known`."""
    known = tuple(known)
    for key in values:
        if str(key) not in known:
            path = f"{where}.{key}" if where else str(key)
            under = f" under {where}" if where else ""
            problems.warn(shown, lines.get(path, 0),
                          f"unknown setting `{key}`{under}, ignored{closest(str(key), known)}")


def uses_readinglist(raw: Mapping[str, Any]) -> bool:
    """Whether mkdocs.yml is a reading list's: the readinglist plugin, theme or settings."""
    extra = raw.get("extra")
    return ("readinglist" in _plugin_names(raw.get("plugins"))
            or _theme_name(raw.get("theme")) == "readinglist"
            or (isinstance(extra, dict) and "readinglist" in extra))


def check_project(raw: Mapping[str, Any], lines: Mapping[str, int], shown: str, problems: Problems, *,
                  keys: bool = True) -> None:
    """MkDocs' own settings: unknown top-level keys (warnings; `keys=False` leaves them out), and
    plugins and a theme that are not installed (errors: MkDocs would stop on them, and `mkdocs
    serve` would seem stuck)."""
    if keys:
        # MkDocs' settings, as it checks them itself. Its import takes a quarter of a second, as
        # long as a whole no-change `readinglist build`: that command leaves them to MkDocs' build.
        from mkdocs.config.defaults import get_schema

        unknown_keys(raw, [name for name, _ in get_schema() if name != "config_file_path"], "", lines, shown,
                     problems)
    theme = _theme_name(raw.get("theme"))
    themes = sorted(ep.name for ep in entry_points(group="mkdocs.themes"))
    if theme is not None and theme not in themes:
        line = lines.get("theme.name", lines.get("theme", 0))
        problems.error(shown, line, f"theme `{theme}` is not installed{_near(theme, themes)}; installed themes: "
                                    f"{', '.join(themes)}")
    plugins = sorted(ep.name for ep in entry_points(group="mkdocs.plugins"))
    for name, line in _plugin_lines(raw.get("plugins"), lines):
        # MkDocs looks a short name up under the theme first (`search` -> `material/search`).
        if name not in plugins and f"{theme}/{name}" not in plugins:
            problems.error(shown, line, f"plugin `{name}` is not installed{_near(name, plugins)}; installed "
                                        f"plugins: {', '.join(plugins)}")


def _near(name: str, known: list[str]) -> str:
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean `{near[0]}`?)" if near else ""


def _theme_name(theme: Any) -> str | None:
    if isinstance(theme, str):
        return theme
    if isinstance(theme, dict) and isinstance(theme.get("name"), str):
        return str(theme["name"])
    return None


def _plugin_names(plugins: Any) -> list[str]:
    return [name for name, _ in _plugin_lines(plugins, {})]


def _plugin_lines(plugins: Any, lines: Mapping[str, int]) -> list[tuple[str, int]]:
    """(name, line) of each plugin: a list of names or of `{name: options}`, or a mapping."""
    base = lines.get("plugins", 0)
    if isinstance(plugins, dict):
        return [(str(name), lines.get(f"plugins.{name}", base)) for name in plugins]
    out: list[tuple[str, int]] = []
    for i, item in enumerate(plugins if isinstance(plugins, list) else ()):
        names = [item] if isinstance(item, str) else list(item) if isinstance(item, dict) else []
        out += [(str(name), lines.get(f"plugins[{i}]", base)) for name in names]
    return out
