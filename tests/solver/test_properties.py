"""Property tests for the solver: from random positions in every variant,
every solution (of :func:`solve` and of each kind of probe search) replays
to a win in the rules engine, and the searches never contradict one
another."""

from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.solver import relaxation, solve
from cardtable.solver.search import _BestSearch, _Search, _solution

VARIANTS = Variant.every()

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


#: Probe searches as :func:`solve` runs them: best-first of every move or of
#: the three best, depth-first in a shuffled order or of the two best moves.
probes = st.sampled_from([("best", 1, 0), ("best", 1, 3), ("depth", 1, 0), ("depth", 0, 2)])


@given(seed=seeds, variant=variants, picks=choices, probe=probes)
def test_probe_wins_replay_and_their_proofs_agree(seed: int, variant: Variant, picks: list[int],
                                                  probe: tuple[str, int, int]) -> None:
    position = _position(seed, variant, picks)
    kind, order, width = probe
    search = (_BestSearch if kind == "best" else _Search)(position, variant, 60_000, order, width)
    search.advance(60_000, None)
    event(f"{kind} width {width}: " + ("won" if search.won else "exhausted" if search.exhausted else "open"))
    if search.won:
        assert _wins(position, variant, _solution(position, variant, search.winning_path()))
    if width:
        assert not search.exhausted  # a search of some moves of each state proves nothing
    if search.exhausted:
        assert solve(position, variant, max_states=200_000).result != "won"
