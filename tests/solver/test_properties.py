"""Property tests for the solver: from random positions in every variant,
every solution replays to a win in the rules engine, and the searches never
contradict one another."""

from __future__ import annotations

import itertools

from hypothesis import event, given
from hypothesis import strategies as st

from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.solver import relaxation, solve
from cardtable.solver.search import _BestSearch, _solution

VARIANTS = [
    Variant(draw=draw, passes=passes, empty=empty, foundation_return=back)
    for draw, passes, empty, back in itertools.product((1, 3), (1, 3, None), ("king", "any"), (False, True))
]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(VARIANTS)
choices = st.lists(st.integers(min_value=0, max_value=10_000), max_size=60)


def _position(seed: int, variant: Variant, picks: list[int]) -> Position:
    """The position after random legal moves from the deal of ``seed``."""
    game = KlondikeGame.from_seed(seed, variant)
    for pick in picks:
        moves = game.legal_moves()
        if not moves or game.is_won():
            break
        game.play(moves[pick % len(moves)])
    return game.position()


def _wins(position: Position, variant: Variant, moves: list[Move]) -> bool:
    game = KlondikeGame(position, variant)
    for move in moves:
        game.play(move)
    return game.is_won()


@given(seed=seeds, variant=variants, picks=choices)
def test_every_solution_replays_and_the_relaxation_agrees(seed: int, variant: Variant, picks: list[int]) -> None:
    position = _position(seed, variant, picks)
    result = solve(position, variant, max_states=60_000)
    event(result.result)
    if result.result == "won":
        assert _wins(position, variant, result.moves)
    else:
        assert result.moves == []
    easier = relaxation(variant)
    if easier is not None:
        relaxed = solve(position, easier, max_states=60_000)
        # Every line under the variant plays under its relaxation too.
        assert not (result.result == "won" and relaxed.result == "unwinnable")
        if relaxed.result == "won":
            assert _wins(position, easier, relaxed.moves)


@given(seed=seeds, variant=variants, picks=choices, width=st.sampled_from([0, 3]))
def test_best_first_wins_replay_and_its_proofs_agree(seed: int, variant: Variant, picks: list[int],
                                                     width: int) -> None:
    position = _position(seed, variant, picks)
    best = _BestSearch(position, variant, 60_000, 1, width)
    best.advance(60_000, None)
    event("won" if best.won else "exhausted" if best.exhausted else "open")
    if best.won:
        assert _wins(position, variant, _solution(position, variant, best.ctx))
    if best.exhausted:
        assert solve(position, variant, max_states=200_000).result != "won"
