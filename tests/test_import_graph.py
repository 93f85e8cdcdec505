"""No import circle inside the package: the module import graph of generator/ has no cycle.

The graph is read from the source with `ast`, not by importing. Every `import` and `from ... import`
in a module counts, wherever it is:

- at module level, inside a function (a function-level import is how a circle gets hidden, and it
  is still a circle of dependence), and under `if TYPE_CHECKING:` (a circle that only the type
  checker sees is still two modules that cannot be understood one without the other);
- as an edge to the module it names (`from pkg import name` names `pkg.name` when that is a module
  of the package, else `pkg` itself), and to every package on the way whose `__init__.py` the
  import runs: `from ..pkg.sub import y` and `import generator.a.b` run `pkg/__init__.py` and
  `generator/a/__init__.py` too. Except a module's own ancestors: a module is only ever imported
  from inside its packages' imports, so their `__init__` has run (or is running) already, and
  counting it would make every `__init__` that gathers its submodules a circle. An explicit
  `from . import x` of something defined in the package's `__init__.py` does count.

Run as a script (`.venv/bin/python tests/test_import_graph.py`) it prints the circles it finds.
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "generator"


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> its file, for every .py file of the package (`__init__.py` names the package)."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (functions, `if TYPE_CHECKING:` blocks, `try:`)."""
    return (node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom))


def _longest_module(name: str, modules: dict[str, Path]) -> str | None:
    """`name` or its longest prefix that is a module of the package (`import a.b.c` imports a.b.c)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _runs(target: str, modules: dict[str, Path], ancestors: set[str]) -> set[str]:
    """`target` and the packages on the way to it whose `__init__` importing it runs (all but the
    importing module's own ancestors)."""
    parts = target.split(".")
    packages = {".".join(parts[:i]) for i in range(1, len(parts))}
    return {target} | {p for p in packages if p in modules and p not in ancestors}


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (see the module docstring for what counts)."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        parts = name.split(".")
        ancestors = {".".join(parts[:i]) for i in range(1, len(parts))}
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [_longest_module(alias.name, modules) for alias in node.names]
            else:
                if node.level:
                    base_parts = here[:len(here) - (node.level - 1)]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                targets = []
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else _longest_module(base, modules))
            for target in targets:
                if target is not None:
                    graph[name].update(_runs(target, modules, ancestors) - {name})
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of each strongly connected component of more than one module (Tarjan's
    algorithm, iterative), each as the list of modules round it, the first one repeated at the
    end. A component may hold several circles that share modules: the shortest circle through
    each of its modules is found, and the shortest of those that shares no import with one named
    already is named too, so two circles that meet in one component are both named."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return [circle for component in sorted(components) for circle in _circles(graph, component)]


def _circles(graph: dict[str, set[str]], component: list[str]) -> list[list[str]]:
    """The component's circles that share no import, shortest first (see `cycles`)."""
    found = sorted({tuple(_circle(graph, [m, *(x for x in component if x != m)])) for m in component},
                   key=lambda c: (len(c), c))
    named: list[list[str]] = []
    used: set[tuple[str, str]] = set()
    for circle in found:
        edges = set(itertools.pairwise(circle))
        if not edges & used:
            named.append(list(circle))
            used |= edges
    return named


def _circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """The shortest circle through the component's first module (breadth-first inside it)."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle in the component {component}")  # Tarjan found one


def test_the_package_has_no_import_circle() -> None:
    found = cycles(import_graph())
    assert found == [], "import circles in generator/:\n" + "\n".join(" → ".join(c) for c in found)


def test_the_notes_stage_imports_nothing_from_render() -> None:
    # The notes stage parses (front matter, Markdown, wiki-links); the render stage makes all HTML.
    graph = import_graph()
    notes = sorted(m for m in graph if m == "generator.notes" or m.startswith("generator.notes."))
    assert "generator.notes.markdown" in notes and "generator.notes.apply" in notes
    found = {m: sorted(t for t in graph[m] if t == "generator.render" or t.startswith("generator.render."))
             for m in notes}
    assert {m: ts for m, ts in found.items() if ts} == {}
    # and the render stage does read the notes' parse (the check sees edges across the two)
    assert "generator.notes.markdown" in graph["generator.render.notebody"]


def test_the_graph_counts_packages_whose_init_runs_function_level_and_type_checking_imports(
        tmp_path: Path) -> None:
    # A circle closed only by a package's __init__ that an import runs, one closed by an import
    # under TYPE_CHECKING and a function-level import: both found. A module's own packages are
    # no edge of its (pkg.sub.b imports pkg.c, not pkg or pkg.sub).
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from ..a import f\n")
    (pkg / "sub" / "b.py").write_text("import pkg.c\n\ndef g():\n    return 1\n")
    (pkg / "a.py").write_text("from .sub.b import g\n\ndef f():\n    return g()\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import h\n")
    (pkg / "d.py").write_text("def h():\n    import pkg.c\n    return pkg.c\n")
    (pkg / "e.py").write_text("import pkg.sub.b\nfrom . import a\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": set(), "pkg.a": {"pkg.sub", "pkg.sub.b"}, "pkg.c": {"pkg.d"}, "pkg.d": {"pkg.c"},
                     "pkg.e": {"pkg.a", "pkg.sub", "pkg.sub.b"}, "pkg.sub": {"pkg.a"}, "pkg.sub.b": {"pkg.c"}}
    assert cycles(graph) == [["pkg.a", "pkg.sub", "pkg.a"], ["pkg.c", "pkg.d", "pkg.c"]]
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "d.py").write_text("def h():\n    return 1\n")
    assert cycles(import_graph(tmp_path, "pkg")) == []


def test_two_circles_in_one_component_are_both_named() -> None:
    # x ↔ y and x → z → w → x share the module x: one component, two circles.
    graph = {"x": {"y", "z"}, "y": {"x"}, "z": {"w"}, "w": {"x"}}
    assert cycles(graph) == [["x", "y", "x"], ["w", "x", "z", "w"]]


if __name__ == "__main__":
    graph = import_graph()
    found = cycles(graph)
    print(f"{len(graph)} modules, {sum(map(len, graph.values()))} imports, {len(found)} circle(s)")
    for circle in found:
        print("  " + " → ".join(circle))
    sys.exit(1 if found else 0)
