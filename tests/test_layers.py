"""The package's imports point down, through the stages, and never in a circle.

Every import of every module counts: at the top, inside a function (imported late to
start faster) or under TYPE_CHECKING (a type is a dependency too). Layers, top first:

    cli -> api -> examples -> scale -> site -> pipeline -> request -> render -> report
        -> analyse -> load -> measure -> schema -> core

each a folder of reportgen/ (the api layer is the package's top-level modules). A module may
import its own layer or any layer below. ``python tests/test_layers.py`` prints the
figures the refactor issue tracks: cycles, levels of imports, upward imports.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "reportgen"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cli", ("reportgen.__main__", "reportgen.cli")),
    # the package itself (reportgen.evaluate), the API and what it is asked
    ("api", ("reportgen", "reportgen.api", "reportgen.notebook")),
    ("demo", ("reportgen.examples",)),
    ("scale", ("reportgen.scale",)),
    ("site", ("reportgen.site",)),
    # from what was measured to a written report: the path report and merge share
    ("pipeline", ("reportgen.pipeline",)),
    # what a report is asked to do
    ("request", ("reportgen.request",)),
    ("render", ("reportgen.render",)),
    ("report", ("reportgen.report",)),
    ("analyse", ("reportgen.analyse",)),
    ("load", ("reportgen.load",)),
    ("measure", ("reportgen.measure",)),
    ("schema", ("reportgen.schema",)),
    ("core", ("reportgen.core", "reportgen.errors", "reportgen.version")),
)
"""Each layer and the folders (packages: everything under them) or modules it holds."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path) -> Iterator[str]:
    """Every reportgen module ``name`` imports, wherever in the file the import is."""
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            # ``from reportgen.analyse import paired`` imports the module paired; the
            # package itself counts when a name is taken from it
            names = [f"{base}.{alias.name}" for alias in node.names]
            targets = [*names, *([base] if any(n not in known for n in names) else [])]
        else:
            continue
        for target in targets:
            if target in known and target != name:
                yield target


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the reportgen modules it imports."""
    return {name: frozenset(imported(name, path)) for name, path in modules().items()}


def layer_of(name: str) -> int:
    """The index of the layer holding ``name`` (0 is the top); the longest prefix wins."""
    best, depth = -1, -1
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if (name == member or name.startswith(member + ".")) and member.count(".") > depth:
                best, depth = index, member.count(".")
    return best


def upward_imports(edges: dict[str, frozenset[str]] | None = None) -> list[tuple[str, str]]:
    """(importer, imported) for every import of a higher layer (default: the package's)."""
    return sorted(
        (name, target)
        for name, targets in (graph() if edges is None else edges).items()
        for target in targets
        if layer_of(target) < layer_of(name)
    )


def strongly_connected(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """Every strongly connected group of modules, singletons too (Tarjan, iterative),
    each group after the groups it imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                found.append(sorted(group))
    return found


def cycles(edges: dict[str, frozenset[str]] | None = None) -> list[list[str]]:
    """The import cycles: groups of modules that import each other, round and round."""
    found = strongly_connected(graph() if edges is None else edges)
    return sorted(group for group in found if len(group) > 1)


def levels() -> int:
    """Floors of imports: 1 for a module importing nothing of reportgen, else one more
    than the highest module it imports; a cycle's modules share one floor."""
    edges = graph()
    floor: dict[str, int] = {}
    for group in strongly_connected(edges):  # imported groups come first
        below = {target for name in group for target in edges[name]} - set(group)
        height = 1 + max((floor[target] for target in below), default=0)
        floor.update(dict.fromkeys(group, height))
    return max(floor.values())


def test_the_import_graph_is_read_from_every_module() -> None:
    # guards the walker itself: a known import at each kind of place is found
    edges = graph()
    assert "reportgen.measure.measures" in edges["reportgen.measure.scoring"]  # top level
    assert "reportgen.render.page_files" in edges["reportgen.pipeline"]  # inside a function
    assert "reportgen.analyse.paired" in edges["reportgen.analyse.compare"]  # TYPE_CHECKING
    assert len(edges) > 50


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(name for name in modules() if layer_of(name) < 0)
    assert not unplaced, f"place these modules in a layer of LAYERS: {unplaced}"


def test_there_is_no_import_cycle() -> None:
    assert cycles() == []


def test_imports_point_down() -> None:
    upward = upward_imports()
    assert not upward, "imports that point up a layer (importer, imported): " + ", ".join(
        f"{a} -> {b}" for a, b in upward
    )


def test_the_checks_see_a_violation() -> None:
    # not vacuous: the two cycles the refactor broke, and an import up the stages
    before = {
        "reportgen.analyse.compare": frozenset({"reportgen.analyse.paired"}),
        "reportgen.analyse.paired": frozenset({"reportgen.analyse.compare"}),
        "reportgen.measure.scoring": frozenset({"reportgen.analyse.hygiene"}),
        "reportgen.analyse.hygiene": frozenset({"reportgen.measure.scoring"}),
        "reportgen.render.pages": frozenset(),
        "reportgen.load.inputs.gold": frozenset({"reportgen.render.pages"}),
    }
    assert cycles(before) == [
        ["reportgen.analyse.compare", "reportgen.analyse.paired"],
        ["reportgen.analyse.hygiene", "reportgen.measure.scoring"],
    ]
    assert upward_imports(before) == [
        ("reportgen.load.inputs.gold", "reportgen.render.pages"),
        ("reportgen.measure.scoring", "reportgen.analyse.hygiene"),
    ]
    assert layer_of("reportgen.schema") > layer_of("reportgen.analyse.gate")


if __name__ == "__main__":
    found = cycles()
    print(f"modules: {len(modules())}")
    print(f"cycles, every import counted: {len(found)} {found}")
    print(f"levels of imports, every import counted (a cycle is one level): {levels()}")
    upward = upward_imports()
    print(f"upward imports: {len(upward)}")
    for a, b in upward:
        print(f"  {a} -> {b}")
    sys.exit(1 if found or upward else 0)
