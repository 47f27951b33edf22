"""Undo, redo, scoring and the game's bookkeeping."""

from __future__ import annotations

import pytest
from klondike_helpers import game, new_game

from cardtable.errors import IllegalMoveError
from cardtable.klondike import DRAW, RECYCLE, KlondikeGame, Move, Scoring, Variant

M = Move.parse


def test_undo_restores_a_turned_up_card_face_down() -> None:
    g = game(["5c 4h|9s", "Th"])
    before = g.position()
    g.play(M("1>2"))
    assert g.position() != before
    assert g.undo() == M("1>2")
    assert g.position() == before


def test_undo_of_recycle_restores_pass_count_and_order() -> None:
    g = game(["Kc"], "draw3", foundation=(12, 1, 13, 13))
    while g.stock:
        g.play(DRAW)
    before = g.position()
    g.play(RECYCLE)
    assert g.pass_number == 2
    g.undo()
    assert g.position() == before and g.pass_number == 1


def test_redo_replays_undone_moves_and_new_move_clears_redo() -> None:
    g = new_game(3)
    g.play(DRAW)
    g.play(DRAW)
    after_two = g.position()
    g.undo()
    g.undo()
    assert g.can_redo
    assert g.redo() == DRAW and g.redo() == DRAW
    assert g.position() == after_two and not g.can_redo


def test_a_different_move_clears_redo() -> None:
    g = game(["5c 4h|9s", "Th"])
    g.play(M("1>2"))
    g.undo()
    g.play(DRAW)
    assert not g.can_redo


def test_undo_and_redo_on_empty_stacks_raise() -> None:
    g = new_game(3)
    with pytest.raises(IllegalMoveError):
        g.undo()
    with pytest.raises(IllegalMoveError):
        g.redo()


def test_clone_is_independent() -> None:
    g = new_game(9)
    other = g.clone()
    other.play(DRAW)
    assert g.moves == [] and other.moves == [DRAW]
    assert g.position() != other.position()


def test_vegas_money_per_foundation_card() -> None:
    g = game(["Ah", "2h"], Variant.preset("seed-002"))
    assert g.score == -52
    g.play(M("1>F"))
    g.play(M("2>F"))
    assert g.score == -52 + 10


def test_vegas_amounts_are_configurable() -> None:
    v = Variant.preset("seed-002").replace(scoring=Scoring(kind="vegas", ante=10, per_card=2))
    g = game(["Ah"], v)
    g.play(M("1>F"))
    assert g.score == -10 + 2


def test_vegas_loses_money_when_a_card_comes_back() -> None:
    v = Variant.preset("seed-001").replace(scoring="vegas")
    g = game(["8s"], v, foundation=(0, 0, 7, 0))
    assert g.score == -52 + 35
    g.play(M("Fh>1"))
    assert g.score == -52 + 30


def test_standard_scoring() -> None:
    v = Variant.preset("standard1")
    g = game(["5c 4h|9s", "Th", "Ac"], v, waste="8d")
    g.play(M("1>2"))  # turns up 4h: +5
    assert g.score == 5
    g.play(M("3>F"))  # +10
    assert g.score == 15
    g.play(M("W>2"))  # waste to tableau +5
    assert g.score == 20
    g.undo()
    assert g.score == 15


def test_standard_recycle_penalty_never_below_zero() -> None:
    v = Variant.preset("standard1")
    g = game(["Kc"], v, foundation=(12, 1, 13, 13))
    while g.stock:
        g.play(DRAW)
    g.play(RECYCLE)
    assert g.score == 0


def test_standard_foundation_return_costs_points() -> None:
    v = Variant.preset("standard1").replace(foundation_return=True)
    g = game(["8s"], v, foundation=(0, 0, 7, 0))
    g.play(M("Fh>1"))
    assert g.score == 0  # -15, floored at zero


def test_no_scoring_keeps_zero() -> None:
    g = game(["Ah"], "draw1")
    g.play(M("1>F"))
    assert g.score == 0


def test_moved_cards() -> None:
    g = game(["5c|9s 8h 7c", "Td"], waste="Kh")
    assert [str(c) for c in g.moved_cards(M("1>2:3"))] == ["9s", "8h", "7c"]
    assert [str(c) for c in g.moved_cards(M("W>3"))] == ["Kh"]


def test_game_defaults() -> None:
    g = KlondikeGame()
    assert g.variant == Variant() and len(g.stock) == 24


def test_move_count_and_moves_from_follow_play_and_undo() -> None:
    from cardtable.klondike import KlondikeGame

    game = KlondikeGame.from_seed(3)
    played = []
    for _ in range(5):
        move = game.legal_moves()[0]
        game.play(move)
        played.append(move)
    assert game.move_count == 5 and game.moves_from(0) == played and game.moves_from(3) == played[3:]
    game.undo()
    assert game.move_count == 4 and game.moves_from(2) == played[2:4]
