"""Import contracts: the library never reaches out to a face, the rules engine
never reaches out to its clients, and bots never see the full deal.

Every import in every module is read from its source (imports inside
functions count too, and so do ``importlib.import_module("...")`` and
``__import__("...")`` with a literal name), so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cardtable"

#: Faces: the command line, the app, the browser table and the environments, and the file reading and
#: writing they share.
FACES = ("cardtable.cli", "cardtable.app", "cardtable.web", "cardtable.envs", "cardtable._files")
#: Library modules and packages: everything that is not a face.
LIBRARY = ("cardtable.cards", "cardtable.errors", "cardtable.game", "cardtable.stats", "cardtable.klondike",
           "cardtable.kings_corner", "cardtable.bots", "cardtable.sim", "cardtable.solver", "cardtable.runs",
           "cardtable.patience")
#: The rules engines: the cards, Klondike and Kings Corner.
ENGINE = ("cardtable.cards", "cardtable.klondike", "cardtable.kings_corner", "cardtable.patience")
#: What the engine must not import: players, search and simulation.
ENGINE_CLIENTS = ("cardtable.bots", "cardtable.solver", "cardtable.sim", "cardtable.runs")
#: Players that must see only what a player sees.
BOTS = ("cardtable.bots",)
#: The full-information search.
FULL_SEARCH = ("cardtable.solver",)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _imported_by_call(node: ast.Call) -> str | None:
    """The module a call of ``importlib.import_module``, ``import_module`` or
    ``__import__`` imports, when its name is a literal (a relative one resolved
    against a literal ``package``); else None."""
    func = node.func
    if isinstance(func, ast.Name):
        called = func.id
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        called = f"{func.value.id}.{func.attr}"
    else:
        return None
    if called not in ("importlib.import_module", "import_module", "__import__") or not node.args:
        return None
    name = _literal(node.args[0])
    if name is None or not name.startswith("."):
        return name
    package = next((_literal(k.value) for k in node.keywords if k.arg == "package"),
                   _literal(node.args[1]) if len(node.args) > 1 and called != "__import__" else None)
    if package is None:
        return None
    level = len(name) - len(name.lstrip("."))
    anchor = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join([*anchor, name[level:]] if name[level:] else anchor)


def imports(path: Path) -> set[str]:
    """Every module the source imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (by_name := _imported_by_call(node)) is not None:
            found.add(by_name)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            named = {f"{base}.{alias.name}" for alias in node.names}
            found.update(named)
            if not named <= _submodules():  # a name from the package itself, not only its submodules
                found.add(base)
    return found


@cache
def _submodules() -> frozenset[str]:
    """Every module of the package: its sources, and its compiled modules (by their type stubs)."""
    return frozenset(module_name(path) for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi")])


def calls(path: Path) -> set[str]:
    """Names of the plain functions the source calls, and ``sys.stdin`` uses."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    if any(isinstance(node, ast.Attribute) and node.attr in ("stdin", "stdout", "stderr")
           and isinstance(node.value, ast.Name) and node.value.id == "sys" for node in ast.walk(tree)):
        names.add("sys.std*")
    return names


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
LIBRARY_MODULES = [name for name in MODULES if within(name, LIBRARY)]


def test_the_contracts_see_the_whole_package() -> None:
    assert "cardtable.klondike.game" in MODULES and "cardtable.cli" in MODULES
    assert len(LIBRARY_MODULES) > 30
    # The reader finds lazy imports inside functions.
    assert "cardtable.solver" in imports(MODULES["cardtable.cli.klondike"]) or any(
        within(name, ("cardtable.solver",)) for name in imports(MODULES["cardtable.cli.solve"]))


@pytest.mark.parametrize("name", LIBRARY_MODULES)
def test_the_library_imports_no_face_and_does_no_terminal_io(name: str) -> None:
    found = imports(MODULES[name])
    bad = sorted(m for m in found if within(m, ("argparse", "rich", "textual", "curses", *FACES)))
    assert not bad, f"{name} imports {bad}"
    used = calls(MODULES[name]) & {"print", "input", "sys.std*"}
    assert not used, f"{name} uses {sorted(used)}"


@pytest.mark.parametrize("name", [name for name in MODULES
                                  if within(name, ("cardtable.app", "cardtable.web", "cardtable.envs"))])
def test_the_app_and_the_environments_do_not_reach_into_the_command_line(name: str) -> None:
    # The command line starts the app (``play``, ``serve``); nothing reaches back into it.
    bad = sorted(m for m in imports(MODULES[name]) if within(m, ("cardtable.cli",)))
    assert not bad, f"{name} imports {bad}"


@pytest.mark.parametrize("name", [name for name in MODULES if within(name, ENGINE)])
def test_the_rules_engine_imports_no_bot_solver_or_simulator(name: str) -> None:
    bad = sorted(m for m in imports(MODULES[name]) if within(m, ENGINE_CLIENTS))
    assert not bad, f"{name} imports {bad}"


@pytest.mark.parametrize("name", [name for name in MODULES if within(name, BOTS)])
def test_bots_never_import_the_full_information_search(name: str) -> None:
    if "hindsight" in name:
        pytest.skip("a hindsight bot samples hidden cards and solves the samples by design")
    bad = sorted(m for m in imports(MODULES[name]) if within(m, FULL_SEARCH))
    assert not bad, f"{name} imports {bad}"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of an import graph: each set of two or more nodes that
    reach one another (Tarjan's strongly connected components), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def part(name: str) -> str:
    """The part of the package a module belongs to: ``cardtable.klondike``, ``cardtable.cards``, ..."""
    return ".".join(name.split(".")[:2])


#: Every import between the package's modules, those inside functions and under TYPE_CHECKING too.
IMPORT_GRAPH = {name: {m for m in imports(path) if m in _submodules() and m != name} for name, path in MODULES.items()}


def test_no_module_imports_itself_round_a_circle() -> None:
    # Not even lazily: a circle (klondike/game.py and klondike/view.py, web/kings_corner.py and
    # web/server.py once) means two modules are one, or one holds what belongs to a third.
    assert circles(IMPORT_GRAPH) == []
    assert "cardtable.klondike.view" in IMPORT_GRAPH["cardtable.klondike.game"]


def test_no_part_of_the_package_imports_itself_round_a_circle() -> None:
    parts = {part(name): set[str]() for name in IMPORT_GRAPH}
    for name, targets in IMPORT_GRAPH.items():
        parts[part(name)] |= {part(m) for m in targets} - {part(name)}
    assert circles(parts) == []
    assert "cardtable.klondike" in parts["cardtable.bots"]


def test_a_circle_is_caught(tmp_path: Path) -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    # A lazy import inside a function and one under TYPE_CHECKING are edges too; a submodule
    # imported from its package is an edge to the submodule alone.
    source = tmp_path / "probe.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cardtable.klondike.game import G\n"
                      "def f():\n    from cardtable.klondike import view\n")
    assert {"cardtable.klondike.game", "cardtable.klondike.view"} <= imports(source)
    assert "cardtable.klondike" not in imports(source)


def test_a_violation_is_caught(tmp_path: Path) -> None:
    # The reader itself: a lazy face import inside a function is found.
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from cardtable.cli import main\n    import argparse\n    print('x')\n")
    assert {"cardtable.cli", "argparse"} <= imports(source)
    assert "print" in calls(source)


def test_an_import_by_name_is_caught(tmp_path: Path) -> None:
    # A module loaded by a literal name counts as imported; a name only known when it runs cannot be read.
    source = tmp_path / "probe.py"
    source.write_text("import importlib\nfrom importlib import import_module\n\n"
                      "def f(name):\n"
                      "    importlib.import_module('cardtable.envs.agents')\n"
                      "    import_module('.kings_corner', package='cardtable.envs')\n"
                      "    __import__('cardtable.app')\n"
                      "    importlib.import_module('..cli', 'cardtable.sim')\n"
                      "    return importlib.import_module(name)\n")
    assert imports(source) == {"importlib", "importlib.import_module", "cardtable.envs.agents",
                               "cardtable.envs.kings_corner", "cardtable.app", "cardtable.cli"}
    # And a real module's lazy import, inside a function, is read too.
    assert "cardtable.solver.batch" in imports(MODULES["cardtable.solver"])


#: The games: what the runs floor must never know.
GAMES = ("cardtable.cards", "cardtable.klondike", "cardtable.kings_corner", "cardtable.bots", "cardtable.solver",
         "cardtable.sim")


@pytest.mark.parametrize("name", [name for name in MODULES if within(name, ("cardtable.runs",))])
def test_the_runs_floor_knows_no_game(name: str) -> None:
    bad = sorted(m for m in imports(MODULES[name]) if within(m, GAMES))
    assert not bad, f"{name} imports {bad}"


@pytest.mark.parametrize("name", [name for name in MODULES
                                  if within(name, ("cardtable.solver", "cardtable.kings_corner"))])
def test_the_solver_and_kings_corner_import_no_simulator(name: str) -> None:
    bad = sorted(m for m in imports(MODULES[name]) if within(m, ("cardtable.sim",)))
    assert not bad, f"{name} imports {bad}"
