"""Every Klondike rule and variant option, including the edge cases players argue about."""

from __future__ import annotations

import pytest
from klondike_helpers import cards, game, new_game

from cardtable.cards import Card, Suit
from cardtable.klondike import (
    DRAW,
    RECYCLE,
    IllegalMoveError,
    KlondikeGame,
    KlondikeOutcome,
    Move,
    Position,
    Variant,
)

M = Move.parse


# ----- the deal ------------------------------------------------------------------------------


def test_deal_follows_seed_002_dealing_order() -> None:
    deck = [Card.from_index(i) for i in range(52)]
    position = Position.from_deal_cards(deck)
    # Round 0 deals cards 1..7 to piles 1..7; round 1 cards 8..13 to piles 2..7; ...
    assert position.tableau[0] == (deck[0],)
    assert position.tableau[1] == (deck[1], deck[7])
    assert position.tableau[6] == (deck[6], deck[12], deck[17], deck[21], deck[24], deck[26], deck[27])
    assert position.face_down == (0, 1, 2, 3, 4, 5, 6)
    # Card 29 (index 28) is the top of the stock, drawn first.
    assert position.stock[-1] == deck[28] and position.stock[0] == deck[51]
    assert len(position.stock) == 24 and position.waste == ()


def test_first_card_of_each_round_is_face_up() -> None:
    deck = [Card.from_index(i) for i in range(52)]
    position = Position.from_deal_cards(deck)
    first_of_round = [deck[0], deck[7], deck[13], deck[18], deck[22], deck[25], deck[27]]
    assert [pile[-1] for pile in position.tableau] == first_of_round


# ----- drawing and recycling -------------------------------------------------------------------


def test_draw_one_moves_the_top_stock_card() -> None:
    g = new_game(5, "draw1")
    top = g.stock[-1]
    g.play(DRAW)
    assert g.waste == [top] and len(g.stock) == 23


def test_draw_three_fans_three_cards_top_card_last() -> None:
    g = new_game(5, "draw3")
    first, second, third = g.stock[-1], g.stock[-2], g.stock[-3]
    g.play(DRAW)
    assert g.waste == [first, second, third]  # the third card drawn is the playable one
    assert len(g.stock) == 21


@pytest.mark.parametrize("left", [1, 2])
def test_draw_three_with_fewer_cards_left_draws_what_remains(left: int) -> None:
    stock = " ".join(["Kh", "Qh"][:left])  # bottom to top
    g = game(["Kc", "Kd"], "draw3", stock=stock, foundation=(12, 12, 13 - left, 13))
    g.play(DRAW)
    assert len(g.waste) == left and not g.stock


def _recycle_game(variant: Variant) -> KlondikeGame:
    """Only the stock can move: black tops that take no stock card, aces buried."""
    piles = ["Ac 2c 3c 4c 5c|Kc", "6c 7c 8c 9c As|Ks", "2s 3s 4s 5s|Qc", "6s 7s 8s 9s|Qs",
             "Ts Ad 9d Td|Jc", "Jd Qd Kd|Js", "Ah 9h Th Jh Qh Kh|Tc"]
    stock = "2d 3d 4d 5d 6d 7d 8d 2h 3h 4h 5h 6h 7h 8h"
    return game(piles, variant, stock=stock)


def _draw_all(g: KlondikeGame) -> None:
    while g.stock:
        g.play(DRAW)


def test_recycle_turns_the_waste_back_in_order() -> None:
    g = _recycle_game(Variant.preset("draw1"))
    order = list(g.stock)
    _draw_all(g)
    assert RECYCLE in g.legal_moves() and DRAW not in g.legal_moves()
    g.play(RECYCLE)
    assert g.stock == order and g.waste == [] and g.pass_number == 2


def test_recycle_not_allowed_while_stock_has_cards() -> None:
    g = _recycle_game(Variant.preset("draw1"))
    g.play(DRAW)
    with pytest.raises(IllegalMoveError, match="stock is not empty"):
        g.play(RECYCLE)


def test_one_pass_means_no_redeal() -> None:
    g = _recycle_game(Variant.preset("draw1").replace(passes=1))
    _draw_all(g)
    assert RECYCLE not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="no passes left"):
        g.play(RECYCLE)


def test_recycling_on_the_last_allowed_pass() -> None:
    g = _recycle_game(Variant.preset("draw1").replace(passes=3))
    for expected_pass in (2, 3):
        _draw_all(g)
        g.play(RECYCLE)
        assert g.pass_number == expected_pass
    # Third pass is the last: the waste may not be turned over again.
    _draw_all(g)
    assert g.passes_left == 0
    assert not g.is_legal(RECYCLE)
    assert g.outcome() is KlondikeOutcome.NO_MOVES


def test_unlimited_passes_recycle_forever_but_game_is_over() -> None:
    g = _recycle_game(Variant.preset("draw1"))
    for _ in range(10):
        _draw_all(g)
        g.play(RECYCLE)
    assert g.pass_number == 11
    # Moves are left (draw, recycle), but they only cycle the stock.
    assert g.legal_moves() and g.outcome() is KlondikeOutcome.NO_PROGRESS


def test_no_progress_waits_until_the_player_has_seen_the_stock_s_order() -> None:
    # The engine knows no stock card can help; the player, who has not seen them, cannot.
    g = _recycle_game(Variant.preset("draw1"))
    assert g.progress_possible() is False
    assert g.outcome() is None and g.seen_stock() == ()
    _draw_all(g)  # every card seen, but in the waste: the stock is empty, nothing is hidden
    assert g.outcome() is KlondikeOutcome.NO_PROGRESS
    g.undo()  # a card back in the stock: the moves played no longer show its order, so nothing is said
    assert g.seen_stock() == () and g.outcome() is None
    _draw_all(g)
    g.play(RECYCLE)  # the whole stock again, its order known from the pass before
    assert g.seen_stock() == tuple(g.stock) and g.outcome() is KlondikeOutcome.NO_PROGRESS


def test_draw_on_empty_stock_is_illegal() -> None:
    g = game(["Kc", "Kd"], "draw1", stock="", waste="Qc Qd", foundation=(11, 11, 13, 13))
    with pytest.raises(IllegalMoveError, match="stock is empty"):
        g.play(DRAW)


# ----- building in the tableau --------------------------------------------------------------------


def test_build_down_in_alternating_colours() -> None:
    g = game(["9s", "8h", "8c", "Jd|Ts"])
    assert g.is_legal(M("2>1"))  # 8h on 9s
    assert not g.is_legal(M("3>1"))  # 8c on 9s: same colour
    with pytest.raises(IllegalMoveError, match="colours must alternate"):
        g.play(M("3>1"))
    with pytest.raises(IllegalMoveError, match="one rank lower"):
        g.play(M("1>3"))  # 9s on 8c
    with pytest.raises(IllegalMoveError, match="colours must alternate"):
        g.play(M("1>4"))  # 9s on Ts


def test_moving_a_face_up_run_and_part_of_one() -> None:
    g = game(["5c|9s 8h 7c", "Td", "9h"])
    assert g.is_legal(M("1>2:3"))  # whole run 9s 8h 7c onto Td
    assert not g.is_legal(M("1>3:2"))  # 8h on 9h: same colour
    g2 = game(["5c|9s 8h 7c", "Td", "9c"])
    assert g2.is_legal(M("1>3:2"))  # 8h 7c onto 9c
    g2.play(M("1>3:2"))
    assert g2.tableau[2] == cards("9c 8h 7c") and g2.tableau[0] == cards("5c 9s")


def test_cannot_move_more_cards_than_are_face_up() -> None:
    g = game(["5c 4h|9s 8h", "Td"])
    with pytest.raises(IllegalMoveError, match="2 face-up cards"):
        g.play(M("1>2:3"))


def test_face_down_card_is_turned_up_as_part_of_the_move() -> None:
    g = game(["5c 4h|9s", "Th"])
    g.play(M("1>2"))
    assert g.face_down[0] == 1 and g.top(0) == Card.parse("4h")
    assert g.face_up(0) == cards("4h")
    assert len(g.moves) == 1  # turning up is not a move of its own
    g.undo()
    assert g.face_down[0] == 2 and g.top(0) == Card.parse("9s")


def test_king_to_empty_pile_with_cards_under_it() -> None:
    g = game(["Qs|Kd", ""])
    assert g.is_legal(M("1>2"))
    g.play(M("1>2"))
    assert g.tableau[1] == cards("Kd") and g.face_down[0] == 0 and g.tableau[0] == cards("Qs")


def test_king_alone_moving_to_empty_pile_is_not_a_move() -> None:
    g = game(["Kd", ""])
    assert M("1>2") not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        g.play(M("1>2"))


def test_only_kings_fill_empty_piles_by_default() -> None:
    g = game(["Qs|Jd", ""])
    with pytest.raises(IllegalMoveError, match="only a king"):
        g.play(M("1>2"))


def test_any_card_fills_empty_piles_when_the_variant_says_so() -> None:
    g = game(["Qs|Jd", ""], Variant.preset("draw1").replace(empty="any"))
    assert g.is_legal(M("1>2"))
    g.play(M("1>2"))
    assert g.tableau[1] == cards("Jd")


def test_king_led_run_moves_to_empty_pile() -> None:
    g = game(["2c|Kd Qs Jh", ""])
    g.play(M("1>2:3"))
    assert g.tableau[1] == cards("Kd Qs Jh") and g.top(0) == Card.parse("2c")


# ----- waste ----------------------------------------------------------------------------------------


def test_waste_top_to_tableau_and_only_the_top() -> None:
    g = game(["9s"], waste="8d 8h")
    assert g.is_legal(M("W>1"))
    g.play(M("W>1"))
    assert g.top(0) == Card.parse("8h") and g.waste == cards("8d")


def test_empty_waste_cannot_play() -> None:
    g = game(["9s"])
    with pytest.raises(IllegalMoveError, match="waste is empty"):
        g.play(M("W>1"))


def test_king_from_waste_to_empty_pile() -> None:
    g = game(["9s", ""], waste="Kh")
    assert g.is_legal(M("W>2"))


# ----- foundations ----------------------------------------------------------------------------------------


def test_foundation_starts_with_ace_and_builds_up_in_suit() -> None:
    g = game(["Ah", "2h", "2s"], foundation=(0, 0, 0, 0))
    with pytest.raises(IllegalMoveError, match="needs an ace"):
        g.play(M("2>F"))
    g.play(M("1>F"))
    g.play(M("2>F"))
    assert g.foundation[Suit.HEARTS] == 2
    with pytest.raises(IllegalMoveError, match="needs an ace"):
        g.play(M("3>F"))


def test_only_one_card_at_a_time_to_foundation() -> None:
    with pytest.raises(ValueError):
        M("1>F:2")


def test_foundation_cards_never_come_back_in_seed_002() -> None:
    g = game(["8s"], Variant.preset("seed-002"), foundation=(0, 0, 7, 0))
    assert not any(m.source == 9 for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="never lets a card come back"):
        g.play(M("Fh>1"))


def test_foundation_cards_come_back_where_allowed() -> None:
    g = game(["8s"], Variant.preset("seed-001"), foundation=(0, 0, 7, 0))
    assert M("Fh>1") in g.legal_moves()
    g.play(M("Fh>1"))
    assert g.foundation[Suit.HEARTS] == 6 and g.top(0) == Card.parse("7h")
    with pytest.raises(IllegalMoveError, match="cannot go on"):
        g.play(M("Fh>1"))  # 6h on 7h


def test_foundation_return_needs_a_fitting_place() -> None:
    g = game(["8d"], Variant.preset("seed-001"), foundation=(0, 0, 7, 0))
    assert not g.is_legal(M("Fh>1"))


# ----- the end -------------------------------------------------------------------------------------


def test_won_when_all_cards_are_on_foundations() -> None:
    g = game(["Ks"], foundation=(13, 13, 13, 12), stock="")
    assert g.outcome() is None
    g.play(M("1>F"))
    assert g.is_won() and g.outcome() is KlondikeOutcome.WON


def test_lost_when_no_move_is_left() -> None:
    # Ac lies face down under 2c; 3c is stuck on a pile of face-down clubs; no king is free.
    g = game(["Ac|2c", "Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c|3c"], stock="", foundation=(0, 13, 13, 13))
    assert g.legal_moves() == []
    assert g.outcome() is KlondikeOutcome.NO_MOVES


def test_no_progress_when_cards_only_shuffle_back_and_forth() -> None:
    # The red jack can hop between the two black queens forever; nothing else moves.
    g = game(["Ac|Qs Jh", "2c|Qc", "3c 4c 5c 6c 7c 8c 9c Tc Kc Th Js Jd Qd Kd Qh Kh Ks|Jc"],
             stock="", foundation=(0, 10, 9, 10))
    assert g.legal_moves() == [M("1>2")]
    g.play(M("1>2"))
    assert g.legal_moves() == [M("2>1")]
    assert g.outcome() is KlondikeOutcome.NO_PROGRESS
    assert g.progress_possible() is False


def test_progress_search_sees_a_card_turned_up_later() -> None:
    v = Variant.preset("draw1")
    g = game(["5d|Qs Jh", "Kc"], v)
    assert g.progress_possible() is True
