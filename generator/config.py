"""Typed settings, read from `mkdocs.yml` (top level and `extra.readinglist`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml_env_tag import construct_env_tag

from .curated import check_conflicts, yaml_error
from .errors import ConfigError, ParseError, Problem, Problems
from .settings import READINGLIST_KEYS, RELATED_KEYS, key_lines, unknown_keys

if TYPE_CHECKING:
    from .keep import KeepRule


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml as MkDocs does where it matters: `!ENV` takes the environment's value
    (`site_url: !ENV [SITE_URL, ...]`, which the Pages workflow sets); other tags, such as
    `!!python/name:`, are read as plain values and ignored."""


def _ignore_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_Loader.add_multi_constructor("", _ignore_tag)
_Loader.add_constructor("!ENV", construct_env_tag)  # MkDocs' own reading of the tag (pyyaml-env-tag)


@dataclass(frozen=True)
class Config:
    root: Path
    build_dir: Path
    seeds_dir: Path
    content_dir: Path
    registry_path: Path
    site_name: str = "Reading list"
    site_description: str = ""
    site_url: str = ""
    repo_url: str = ""
    edit_uri: str = ""
    use_directory_urls: bool = True
    related_count: int = 5
    related_min_score: float = 0.08
    # Past this many MB the built site is reported by part (site/size.py); 0: never.
    size_warning_mb: float = 800.0
    extra: dict[str, Any] = field(default_factory=dict)
    # The whole of mkdocs.yml as read, the line of each of its keys (`extra.readinglist.seeds`),
    # and what is wrong with it (unknown keys): every build reports these first.
    settings: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    lines: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    problems: tuple[Problem, ...] = ()
    keep: tuple[KeepRule, ...] = ()  # extra.readinglist.keep (keep.py)

    @property
    def notes_dir(self) -> Path:
        return self.content_dir / "notes"

    @property
    def topics_path(self) -> Path:
        return self.content_dir / "topics.yml"

    @property
    def pages_dir(self) -> Path:
        return self.content_dir / "pages"


def _expect(value: Any, kind: type | tuple[type, ...], where: str, expected: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ConfigError(f"mkdocs.yml: {where}: expected {expected}, got {value!r}")
    return value


def load_config(config_file: Path, **overrides: Any) -> Config:
    """Settings from `config_file`; keyword overrides (paths) win, for tests and the CLI."""
    config_file = config_file.resolve()
    try:
        text = config_file.read_text(encoding="utf-8")
        # Read whole or not at all, with the line (generator/curated.py), as MkDocs would refuse it.
        check_conflicts(text, str(config_file), "keep what both sides need")
        loader = _Loader(text)
        try:
            node = loader.get_single_node()  # composed first, for the lines of the keys
            raw = (loader.construct_document(node) if node is not None else None) or {}
        finally:
            loader.dispose()
    except OSError as exc:
        raise ConfigError(f"{config_file}: cannot read: {exc.strerror}") from exc
    except ParseError as exc:
        raise ConfigError(str(exc)) from None
    except yaml.YAMLError as exc:
        raise ConfigError(str(yaml_error(exc, str(config_file), "mkdocs.yml"))) from exc
    _expect(raw, dict, "top level", "a mapping")
    root = config_file.parent
    extra = _expect(raw.get("extra") or {}, dict, "extra", "a mapping")
    rl = _expect(extra.get("readinglist") or {}, dict, "extra.readinglist", "a mapping")
    related = _expect(rl.get("related") or {}, dict, "extra.readinglist.related", "a mapping")
    count = _expect(related.get("count", 5), int, "extra.readinglist.related.count", "a whole number")
    min_score = _expect(related.get("min_score", 0.08), (int, float),
                        "extra.readinglist.related.min_score", "a number between 0 and 1")
    size_mb = _expect(rl.get("size_warning_mb", 800), (int, float), "extra.readinglist.size_warning_mb",
                      "a number of megabytes (0: no warning)")

    lines = key_lines(node)
    problems = Problems()
    unknown_keys(rl, READINGLIST_KEYS, "extra.readinglist", lines, config_file.name, problems)
    unknown_keys(related, RELATED_KEYS, "extra.readinglist.related", lines, config_file.name, problems)

    def path(key: str, default: str, source: dict[str, Any] = rl) -> Path:
        value = overrides.get(key) or source.get(key) or default
        _expect(value, (str, Path), key, "a path")
        return (root / value).resolve()

    return Config(
        root=root,
        build_dir=path("docs_dir", "build", raw),
        seeds_dir=path("seeds", "seeds"),
        content_dir=path("content", "content"),
        registry_path=path("registry", "citekeys.yml"),
        site_name=str(raw.get("site_name") or "Reading list"),
        site_description=str(raw.get("site_description") or ""),
        site_url=str(raw.get("site_url") or ""),
        repo_url=str(raw.get("repo_url") or ""),
        edit_uri=str(raw.get("edit_uri") or ""),
        use_directory_urls=bool(raw.get("use_directory_urls", True)),
        related_count=count,
        related_min_score=float(min_score),
        size_warning_mb=float(size_mb),
        extra=rl,
        settings=raw,
        lines=lines,
        problems=tuple(problems),
        keep=_keep_rules(rl, config_file, text),
    )


def missing_seeds(config: Config) -> str | None:
    """What to say when the seeds folder does not exist, naming the setting; None when it does."""
    if config.seeds_dir.is_dir():
        return None
    try:
        shown = config.seeds_dir.relative_to(config.root).as_posix()
    except ValueError:
        shown = config.seeds_dir.as_posix()
    state = "is not a folder" if config.seeds_dir.exists() else "does not exist"
    line = config.lines.get("extra.readinglist.seeds")
    if line:
        return (f"mkdocs.yml:{line}: extra.readinglist.seeds: the folder {shown}/ {state}; "
                "correct the setting, or create the folder")
    return (f"mkdocs.yml: the seeds folder {shown}/ {state} (extra.readinglist.seeds, by default seeds); "
            f"create it (mkdir {shown}), or set extra.readinglist.seeds")


def _keep_rules(rl: dict[str, Any], config_file: Path, text: str) -> tuple[KeepRule, ...]:
    if rl.get("keep") is None:
        return ()
    from .keep import parse_rules

    return parse_rules(rl["keep"], config_file, text, _Loader)
