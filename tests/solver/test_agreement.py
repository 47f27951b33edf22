"""Agreement with Klondike-Solver (PyPI ``pyksolve``) on a sample of deals.

Klondike-Solver plays unlimited passes, kings only in empty piles, and lets
foundation cards come back: our ``thoughtful1`` and ``thoughtful3``. Its
solutions must replay in our engine, and we must never call unwinnable a deal
it wins (nor the other way round when both decide).
"""

from __future__ import annotations

import pytest
from pyksolve import solver as pyksolve

from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.klondike.formats import moves_from_klondike_solver, to_pysol
from cardtable.solver import solve


def _peer(position: Position, draw: int, max_states: int) -> tuple[str, list[Move]]:
    lines = to_pysol(position).strip().splitlines()
    solitaire = pyksolve.Solitaire()
    assert solitaire.load_pysol("\n".join([lines[0]] + [": " + line for line in lines[1:]]))
    solitaire.reset_game(draw)
    outcome = solitaire.solve_fast(max_closed_count=max_states)
    if outcome in (pyksolve.SolveResult.SolvedMinimal, pyksolve.SolveResult.SolvedMayNotBeMinimal):
        return "won", [Move.parse(m) for m in moves_from_klondike_solver(solitaire.moves_made())]
    if outcome == pyksolve.SolveResult.Impossible:
        return "unwinnable", []
    return "unknown", []


@pytest.mark.slow
@pytest.mark.parametrize("draw", [1, 3])
def test_agrees_with_klondike_solver(draw: int) -> None:
    variant = Variant.preset(f"thoughtful{draw}")
    compared = 0
    for seed in range(100, 112):
        position = Position.from_seed(seed)
        theirs, their_moves = _peer(position, draw, 200_000)
        ours = solve(position, variant, timeout=5)
        if theirs == "won":
            game = KlondikeGame(position, variant)
            for move in their_moves:
                game.play(move)
            assert game.is_won()
            assert ours.result != "unwinnable", seed
        if ours.decided and theirs != "unknown":
            assert ours.result == theirs, seed
            compared += 1
    assert compared >= 6
