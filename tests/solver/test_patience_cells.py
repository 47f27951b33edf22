"""A winning line names the free cells as a player would.

The core sorts the cells in its keys, so the line it finds may put a card
in cell d while cell a is empty (Microsoft FreeCell 28 did, from its first
move). ``solve_game`` renames the cells along the line so that a card goes
into the first empty cell, and every later move out of that cell follows;
the renamed line is the one replayed and returned.
"""

from __future__ import annotations

import pytest

from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.description import Kind
from cardtable.solver.patience import solve_game


def _late_cells(game: PatienceGame, moves: list[Move]) -> list[str]:
    """The moves of ``moves`` (played from ``game``) into a cell while an earlier cell is empty."""
    cells = game.places(Kind.CELL)
    late = []
    for move in moves:
        target = move.target
        if target is not None and target.kind is Kind.CELL and any(not game.pile(c) for c in cells[:target.index]):
            late.append(str(move))
        game.play(move)
    return late


@pytest.mark.parametrize(("name", "seeds"), [("freecell", range(26, 31)), ("freecell", [71]),
                                             ("eight-off", range(1, 4)), ("seahaven-towers", [1, 2, 4])])
def test_a_card_goes_into_the_first_empty_cell(name: str, seeds: range | list[int]) -> None:
    for seed in seeds:
        game = PatienceGame.from_seed(get(name), seed)
        result = solve_game(game, max_states=200_000)
        assert result.result == "won" and result.replays(game)
        assert any(m.target is not None and m.target.kind is Kind.CELL for m in result.moves)
        assert _late_cells(game.clone(), result.moves) == [], (name, seed)
