"""A Move keeps its invariants: raw field values, not only parsed text.

Every combination of source, target, count and suit either raises at
construction or builds a move that ``is_legal`` accepts exactly when the
engine lists it, and playing then undoing it restores the exact state.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_klondike_properties import VARIANTS

from cardtable.cards import Suit
from cardtable.errors import CardtableError, IllegalMoveError
from cardtable.klondike import FOUNDATION, STOCK, WASTE, KlondikeGame, Move, MoveError, Variant

LOCATIONS = [-1, *range(7), WASTE, STOCK, FOUNDATION, 10, True]
SUITS: list[Suit | None] = [None, *Suit]


def raw_moves() -> list[Move]:
    """Every move that can be built from these raw fields (the rest must raise MoveError)."""
    built = []
    for source, target, count, suit in itertools.product(LOCATIONS, LOCATIONS, range(0, 15), SUITS):
        try:
            built.append(Move(source, target, count, suit))
        except MoveError:
            continue
    return built


RAW_MOVES = raw_moves()


def snapshot(game: KlondikeGame) -> tuple[object, ...]:
    return (game.position(), game.score, game.pass_number, tuple(game.moves))


def test_raw_fields_build_only_possible_moves() -> None:
    # Draw and recycle each have one form; every other move is pile/waste/foundation to pile/foundation.
    assert Move(STOCK, WASTE) in RAW_MOVES and Move(WASTE, STOCK) in RAW_MOVES
    for move in RAW_MOVES:
        assert type(move.source) is int and type(move.target) is int
        assert 1 <= move.count <= 13
        if STOCK in (move.source, move.target):
            fields_ = (move.source, move.target, move.count, move.suit)
            assert fields_ in ((STOCK, WASTE, 1, None), (WASTE, STOCK, 1, None))
            continue
        assert move.source != move.target and move.target != WASTE
        assert (move.suit is not None) == (move.source == FOUNDATION)
        if move.count > 1:
            assert 0 <= move.source <= 6 and 0 <= move.target <= 6
        assert Move.parse(str(move)) == move  # every buildable move round-trips through notation


@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS),
       picks=st.lists(st.integers(0, 10_000), max_size=80))
def test_is_legal_is_exactly_membership_and_undo_restores(seed: int, variant: Variant, picks: list[int]) -> None:
    game = KlondikeGame.from_seed(seed, variant)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    legal = set(game.legal_moves())
    before = snapshot(game)
    for move in RAW_MOVES:
        assert game.is_legal(move) == (move in legal), move
        if move in legal:
            probe = game.clone()
            probe.play(move)
            if move.source == STOCK and variant.undo_rule is not None:  # Vegas keeps its draws
                assert not probe.can_undo
                with pytest.raises(IllegalMoveError, match=variant.undo_rule):
                    probe.undo()
            else:
                probe.undo()
                assert snapshot(probe) == before, move
        else:
            with pytest.raises(IllegalMoveError):
                game.play(move)
            assert snapshot(game) == before, move


# The three failures that opened the issue, kept as regressions.

def test_waste_move_of_two_cards_cannot_be_built() -> None:
    with pytest.raises(MoveError):
        Move(WASTE, 0, 2)


def test_stock_to_a_pile_cannot_be_built() -> None:
    with pytest.raises(MoveError):
        Move(STOCK, 3)


def test_move_to_the_waste_cannot_be_built() -> None:
    with pytest.raises(MoveError):
        Move(0, WASTE)


def test_move_errors_are_cardtable_errors() -> None:
    with pytest.raises(CardtableError):
        Move(0, 0)
