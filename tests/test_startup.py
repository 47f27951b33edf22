"""Start-up: building the parser and running the commands that need no
compiled kernel import none of numpy, matplotlib or the solver, so they
answer at once; the commands that do use the compiled core (C, compiled at
install) and never a JIT: no numba, even for a deal hard enough for the
best-first probes. Each check runs in a fresh interpreter."""

from __future__ import annotations

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
