"""Start-up: building the parser and running the commands that need no
compiled kernel import none of numpy, matplotlib or the solver, so they
answer at once; the commands that do use the compiled core (C, compiled at
install) and never a JIT: no numba, even for a deal hard enough for the
best-first probes. Each check runs in a fresh interpreter."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.klondike import KlondikeGame, KlondikeRecord, Position, Variant

HEAVY = ("numba", "numpy", "matplotlib", "cardtable.solver")

_PROBE = """
import json, sys
from cardtable.cli import main
try:
    status = main({argv!r})
except SystemExit as exit_:
    status = exit_.code
print(json.dumps({{"status": status, "loaded": [m for m in {heavy!r} if m in sys.modules]}}), file=sys.stderr)
"""


def _loaded(argv: list[str], cwd: Path) -> tuple[object, list[str]]:
    """Run ``cardtable ARGV`` in a new interpreter: its exit status and the heavy modules it loaded."""
    result = subprocess.run([sys.executable, "-c", _PROBE.format(argv=argv, heavy=HEAVY)], cwd=cwd,
                            capture_output=True, text=True, check=False)
    data = json.loads(result.stderr.strip().splitlines()[-1])
    return data["status"], data["loaded"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("startup")
    game = KlondikeGame.from_seed(3, Variant.preset("seed-002"))
    for _ in range(10):
        game.play(game.legal_moves()[0])
    (folder / "game.txt").write_text(str(KlondikeRecord.from_game(game)))
    (folder / "deal.txt").write_text(Position.from_seed(4).deal_string())
    return folder


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["variants"],
    ["deal", "--seed", "1"],
    ["deal", "--seed", "1", "--format", "pysol"],
    ["show", "deal.txt", "--ascii"],
    ["replay", "game.txt", "--quiet"],
    ["strategies"],
    ["runs", "--store", "no-runs.db"],
    ["solve", "--help"],
    ["simulate", "--help"],
    ["kings-corner", "record", "--seed", "3"],
    ["kings-corner", "match", "--players", "greedy,random", "--games", "4", "--workers", "1"],
])
def test_commands_without_a_kernel_import_nothing_heavy(argv: list[str], files: Path) -> None:
    status, loaded = _loaded(argv, files)
    assert status in (0, None)
    assert loaded == [], f"cardtable {' '.join(argv)} imported {loaded}"


def test_kings_corner_replay_imports_nothing_heavy(files: Path) -> None:
    record = files / "hand.kc"
    status, loaded = _loaded(["kings-corner", "record", "--seed", "1", "--out", str(record)], files)
    assert status == 0 and loaded == []
    status, loaded = _loaded(["kings-corner", "replay", str(record)], files)
    assert status == 0 and loaded == []


def test_the_probe_sees_a_kernel_when_one_is_used(files: Path) -> None:
    status, loaded = _loaded(["simulate", "--games", "20", "--no-store", "--no-progress"], files)
    assert status == 0 and "cardtable.solver" in loaded and "numba" not in loaded


def test_an_easy_solve_loads_the_solver_but_no_jit(files: Path) -> None:
    # The core is C: a solve loads no JIT, nor numpy. Seed 4200012 needs the
    # best-first probes (over 50,000 states).
    for argv in (["solve", "--seed", "2"], ["deal", "--seed", "5", "--winnable", "--variant", "seed-002"],
                 ["solve", "--seed", "4200012", "--variant", "thoughtful3"]):
        status, loaded = _loaded(argv, files)
        assert status == 0 and loaded == ["cardtable.solver"], (argv, loaded)


# ----- what the solve path imports -----------------------------------------------------------------

#: Run in ``python -S``: no site-packages (so no third-party package can load
#: unnoticed, and no editable-install hook preloads part of the standard
#: library), only the folder holding the package.
_BARE_PROBE = """
import sys
sys.path.insert(0, {root!r})
from cardtable.cli import main
try:
    status = main({argv!r})
except SystemExit as exit_:
    status = exit_.code
modules = sorted(sys.modules)
import json
print(json.dumps({{"status": status, "modules": modules}}), file=sys.stderr)
"""

#: What a single solve must not load: the other games, players, runners and
#: faces, the file formats and records, the results store, and the heavy or
#: third-party libraries; nor the standard library's file, process, network
#: and database modules, which only other commands need.
_NOT_ON_THE_SOLVE_PATH = (
    "cardtable.kings_corner", "cardtable.sim", "cardtable.app", "cardtable.web", "cardtable.envs",
    "cardtable.bots", "cardtable._files", "cardtable._json", "cardtable.klondike.formats",
    "cardtable.klondike.record", "cardtable.klondike.narrate", "cardtable.runs.store", "cardtable.runs.stored",
    "cardtable.runs.cluster", "cardtable.solver.batch", "cardtable.solver.study", "cardtable.solver.winnable",
    "cardtable.cli.kings_corner", "cardtable.cli.simulate", "cardtable.cli.play", "cardtable.cli.klondike",
    "textual", "rich", "aiohttp", "matplotlib", "numpy", "numba", "gymnasium", "pettingzoo", "dask",
    "pathlib", "tempfile", "json", "hashlib", "pickle", "sqlite3", "multiprocessing", "subprocess", "asyncio",
    "logging", "urllib", "random",
)


def _bare_modules(argv: list[str], cwd: Path) -> list[str]:
    """The modules ``cardtable ARGV`` loads in ``python -S``, with the package's folder on the path."""
    import cardtable

    root = str(Path(cardtable.__file__).resolve().parents[1])
    result = subprocess.run([sys.executable, "-S", "-c", _BARE_PROBE.format(root=root, argv=argv)], cwd=cwd,
                            capture_output=True, text=True, check=False)
    data = json.loads(result.stderr.strip().splitlines()[-1])
    assert data["status"] in (0, None), result.stderr
    return list(data["modules"])


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@pytest.mark.parametrize("argv", [["solve", "--seed", "1"], ["solve", "--seed", "4200012", "--variant", "thoughtful3"]])
def test_a_single_solve_loads_only_the_solver_path(argv: list[str], files: Path) -> None:
    modules = _bare_modules(argv, files)
    assert "cardtable.solver._ccore" in modules and "cardtable.cli.solve" in modules  # the probe sees the path
    loaded = [name for name in modules if _within(name, _NOT_ON_THE_SOLVE_PATH)]
    assert loaded == [], f"cardtable {' '.join(argv)} imported {loaded}"


def test_the_bare_probe_sees_what_a_command_loads(files: Path) -> None:
    modules = _bare_modules(["deal", "--seed", "1", "--format", "pysol"], files)
    assert "cardtable.klondike.formats" in modules and "cardtable.solver" not in modules


def test_help_builds_every_group_without_the_games(files: Path) -> None:
    modules = _bare_modules(["--help"], files)
    assert {f"cardtable.cli.{group}" for group in ("klondike", "simulate", "solve", "kings_corner", "play",
                                                   "stats", "study", "review")} <= set(modules)
    loaded = [name for name in modules if _within(name, ("cardtable.klondike.game", "cardtable.kings_corner",
                                                         "cardtable.bots", "cardtable._files", "cardtable.solver",
                                                         "cardtable.sim", "cardtable.runs.store"))]
    assert loaded == []


# ----- the parser of one command is the full parser's ---------------------------------------------


def _helps(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> dict[str, str]:
    """The help of a parser and of each of its sub-commands, by command line."""
    found = {" ".join(words): parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update(_helps(sub, (*words, name)))
    return found


def test_the_groups_are_the_commands_the_parser_registers() -> None:
    from cardtable.cli import _GROUPS, build_parser

    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(commands.choices) == [name for names in _GROUPS.values() for name in names]


def test_a_command_named_first_gets_the_full_parsers_own_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli import _GROUPS, _parser_for, build_parser

    monkeypatch.setenv("COLUMNS", "100")
    full = _helps(build_parser(), ("cardtable",))
    for names in _GROUPS.values():
        for name in names:
            alone = _helps(_parser_for([name, "--help"]), ("cardtable",))
            shared = [line for line in alone if line.split()[1:2] == [name]]
            assert shared and all(alone[line] == full[line] for line in shared), name
    assert _helps(_parser_for(["--help"]), ("cardtable",)) == full
    assert _helps(_parser_for(["no-such-command"]), ("cardtable",)) == full


@pytest.mark.parametrize("argv", [
    ["solve", "--seed", "1", "extra"],
    ["solve", "--seed", "x"],
    ["solve"],
    ["kings-corner", "match", "--games", "0"],
    ["no-such-command"],
    ["--no-such-option", "solve"],
])
def test_errors_read_as_with_the_full_parser(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable import cli

    monkeypatch.setenv("COLUMNS", "100")
    said = []
    for parser in (cli.build_parser(), cli._parser_for(argv)):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(argv)
        said.append((exit_.value.code, capsys.readouterr().err))
    assert said[0] == said[1] and said[0][0] == 2


# ----- the light copies and the lazy packages ------------------------------------------------------


def test_the_parsers_light_copies_are_the_librarys() -> None:
    from cardtable.bots.klondike import STRATEGIES
    from cardtable.cli import klondike as klondike_cli
    from cardtable.cli import simulate as simulate_cli
    from cardtable.klondike.formats import FORMATS

    assert klondike_cli.FORMATS == FORMATS
    assert tuple(STRATEGIES) == simulate_cli.STRATEGY_NAMES


@pytest.mark.parametrize("package", ["cardtable.klondike", "cardtable.solver"])
def test_a_lazy_package_gives_every_name_from_its_home(package: str) -> None:
    # In a new interpreter, so that no name is bound before its first use; the
    # modules that share a name with a function (render, hint) are imported first.
    code = f"""
import importlib, inspect, sys
import cardtable.klondike.render, cardtable.solver.hint
package = importlib.import_module({package!r})
for name in package.__all__:
    value = getattr(package, name)
    assert not inspect.ismodule(value), name
    homes = [m for m in list(sys.modules.values()) if m is not None and m.__name__.startswith({package!r} + ".")
             and getattr(m, name, None) is value]
    assert homes, name
    assert name in dir(package), name
try:
    package.no_such_name
except AttributeError as error:
    assert "no_such_name" in str(error)
else:
    raise AssertionError("no AttributeError")
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "ok", result.stderr


def test_the_possible_moves_are_those_no_rule_forbids() -> None:
    import itertools

    from cardtable.cards import Suit
    from cardtable.klondike import moves

    places = (*range(7), moves.WASTE, moves.STOCK, moves.FOUNDATION)
    sifted = {fields for fields in itertools.product(places, places, range(1, 14), (None, *Suit))
              if moves._why_impossible(*fields) is None}
    assert sifted == moves._POSSIBLE and len(sifted) == 591
    move = moves.interned(2, 5, 3)
    assert move == moves.Move(2, 5, 3) and moves.interned(2, 5, 3) is move
    with pytest.raises(moves.MoveError):
        moves.interned(2, 2)


# ----- the start-up benchmark ------------------------------------------------------------------------

_BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "startup.py"


def _benchmark(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(_BENCHMARK.parents[1]),
                                                                      os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, str(_BENCHMARK), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False, timeout=120)


def test_the_benchmark_times_each_command_in_each_checkout(tmp_path: Path) -> None:
    out = tmp_path / "startup.md"
    root = _BENCHMARK.parents[1]
    result = _benchmark(["--runs", "2", "--command", "variants", "--tree", f"a={root}", "--tree", f"b={root}",
                         "--markdown", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [line.split(" | ") for line in result.stdout.splitlines() if line.startswith("| ") and "ms" not in line]
    assert [(row[0], row[1]) for row in rows] == [("| python -c pass", ""), ("| cardtable variants", "a"),
                                                  ("| cardtable variants", "b")]
    for row in rows:
        wall, cpu = float(row[2]), float(row[3])
        assert wall > 0 and cpu > 0
    text = out.read_text()
    assert text.startswith("## Start-up\n") and "| cardtable variants | b |" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--runs", "0"], "--runs: 0 is not a positive number"),
    (["--tree", "nowhere"], "'nowhere' is not LABEL=PATH"),
    (["--tree", "a=/no/such/folder"], "no cardtable checkout there"),
])
def test_the_benchmark_refuses_bad_options_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = _benchmark(args, tmp_path)
    assert result.returncode == 2 and message in result.stderr.strip().splitlines()[-1]
    assert "Traceback" not in result.stderr


def test_a_failing_command_stops_the_benchmark(tmp_path: Path) -> None:
    result = _benchmark(["--runs", "1", "--command", "solve --seed x"], tmp_path)
    assert result.returncode == 1 and "failed with status 2" in result.stderr and "Traceback" not in result.stderr
