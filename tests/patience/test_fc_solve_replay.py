"""fc-solve's solutions, replayed move by move in the patience engine: every
move fc-solve makes is legal here, and the game ends won, in FreeCell, Baker's
Game, Eight Off and Seahaven Towers (fc-solve's own rules for each: its
``--game`` presets), on PySolFC's deals (the first 32,000 are Microsoft's)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.formats import to_pysol

pytestmark = pytest.mark.skipif(shutil.which("fc-solve") is None,
                                reason="fc-solve is not installed (Debian freecell-solver-bin)")

_MOVE = re.compile(r"Move (?:a card|(\d+) cards) from (stack|freecell) (\d+) "
                   r"to (?:(the foundations)|(stack|freecell) (\d+))")


def _ours(line: str) -> Move:
    m = _MOVE.fullmatch(line.strip())
    assert m is not None, line
    count, kind, index, home, to_kind, to_index = m.groups()
    source = str(int(index) + 1) if kind == "stack" else "abcdefgh"[int(index)]
    target = "F" if home else (str(int(to_index) + 1) if to_kind == "stack" else "abcdefgh"[int(to_index)])
    n = int(count) if count else 1
    return Move.parse(f"{source}>{target}" + (f":{n}" if n > 1 else ""))


@pytest.mark.parametrize(("name", "options"), [
    ("freecell", []), ("bakers-game", ["--game", "bakers_game"]), ("eight-off", ["--game", "eight_off"]),
    ("seahaven-towers", ["--game", "seahaven_towers"]),
])
def test_fc_solve_solutions_replay_to_a_win(name: str, options: list[str], tmp_path: Path) -> None:
    solved = 0
    for number in (1, 2, 3, 617, 1000):
        game = PatienceGame.from_seed(get(name), f"pysol:{number}")
        board = tmp_path / "board.txt"
        board.write_text(to_pysol(game))
        # no "-l looking-glass": that FreeCell preset overrides --game's rules (Seahaven's Kings-only spaces)
        done = subprocess.run(["fc-solve", *options, "-m", "-p", "-t", "-sam", "-sel", str(board)],
                              capture_output=True, text=True, timeout=60)
        if "This game is solveable" not in done.stdout:
            continue  # a deal fc-solve's preset does not solve says nothing about the rules
        solved += 1
        for line in done.stdout.splitlines():
            if line.startswith("Move "):
                game.play(_ours(line))
        assert game.is_won(), number
    assert solved >= 3
