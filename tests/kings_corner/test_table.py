"""The seed's object model: card, deck, pile and player behave as its spec says."""

from __future__ import annotations

import pytest

from cardtable.cards import RANK_NAMES, Card, CardError, Colour, Suit, new_deck
from cardtable.kings_corner import DeckError, IllegalActionError, Pile, PilePosition, Player
from cardtable.kings_corner.table import Deck, penalty_points

C = Card.parse


# -- card (the shared cardtable Card) ---------------------------------------------

def test_card_knows_suit_value_colour_and_rank() -> None:
    card = C("Qh")
    assert card.suit is Suit.HEARTS
    assert RANK_NAMES[card.rank] == "Q"
    assert card.colour is Colour.RED and card.is_red
    assert card.rank == 12
    assert C("Ac").rank == 1 and C("Kc").rank == 13
    assert C("As").colour is Colour.BLACK


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (5, 4), (5, -1)])
def test_card_outside_the_suits_and_values_raises(rank: int, suit: int) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


def test_card_parse_rejects_unknown_text() -> None:
    with pytest.raises(CardError, match="'1x'"):
        C("1x")


# -- deck ------------------------------------------------------------------------

def test_deck_starts_with_52_distinct_cards() -> None:
    deck = Deck()
    assert len(deck) == 52
    assert set(deck.cards) == set(new_deck())


def test_deck_of_given_cards() -> None:
    deck = Deck([C("Ah"), C("2s")])
    assert len(deck) == 2
    assert deck.cards == (C("Ah"), C("2s"))


def test_deck_rejects_repeated_cards() -> None:
    with pytest.raises(DeckError, match="Ah appears twice"):
        Deck([C("Ah"), C("2s"), C("Ah")])


def test_deck_takes_from_the_top_in_order() -> None:
    deck = Deck(new_deck())
    assert deck.take(3) == new_deck()[:3]
    assert len(deck) == 49
    assert deck.take(1) == [new_deck()[3]]


def test_deck_raises_not_enough_cards() -> None:
    deck = Deck([C("Ah"), C("2s")])
    with pytest.raises(DeckError, match="not enough cards"):
        deck.take(3)
    assert len(deck) == 2  # unchanged


def test_deck_deals_a_hand_of_seven() -> None:
    deck = Deck()
    player = Player("Ann")
    deck.deal_hand(player)
    assert player.hand == tuple(new_deck()[:7])
    assert len(deck) == 45


def test_deck_knows_when_it_is_empty() -> None:
    deck = Deck([C("Ah")])
    assert not deck.is_empty
    assert deck.draw() == C("Ah")
    assert deck.is_empty
    assert deck.draw() is None


# -- pile ------------------------------------------------------------------------

def test_pile_is_corner_or_regular() -> None:
    assert Pile(PilePosition.NE).is_corner
    assert not Pile(PilePosition.N).is_corner
    assert [p.is_corner for p in map(Pile, PilePosition)] == [False] * 4 + [True] * 4


def test_pile_keeps_cards_bottom_to_top() -> None:
    pile = Pile(PilePosition.W, [C("9s"), C("8h")])
    pile.place(C("7c"))
    assert pile.cards == (C("9s"), C("8h"), C("7c"))
    assert pile.bottom == C("9s") and pile.top == C("7c")


def test_empty_pile_has_no_top_or_bottom() -> None:
    pile = Pile(PilePosition.S)
    assert pile.top is None and pile.bottom is None and pile.is_empty


def test_pile_accepts_one_lower_other_colour() -> None:
    pile = Pile(PilePosition.N, [C("9s")])
    assert pile.accepts(C("8h")) and pile.accepts(C("8d"))
    assert not pile.accepts(C("8c"))  # same colour
    assert not pile.accepts(C("7h"))  # two lower
    assert not pile.accepts(C("Th"))  # higher


def test_nothing_goes_on_an_ace() -> None:
    pile = Pile(PilePosition.N, [C("Ah")])
    assert not any(pile.accepts(card) for card in new_deck())


def test_empty_corner_takes_only_a_king() -> None:
    corner = Pile(PilePosition.SW)
    assert [card for card in new_deck() if corner.accepts(card)] == [
        C("Kc"), C("Kd"), C("Kh"), C("Ks")
    ]


def test_empty_regular_pile_takes_anything() -> None:
    assert all(Pile(PilePosition.E).accepts(card) for card in new_deck())


def test_place_refuses_a_card_that_does_not_fit() -> None:
    pile = Pile(PilePosition.N, [C("9s")])
    with pytest.raises(IllegalActionError, match="8c does not fit on 9s"):
        pile.place(C("8c"))
    assert pile.cards == (C("9s"),)


def test_pile_moves_all_its_cards_onto_another() -> None:
    source = Pile(PilePosition.W, [C("8h"), C("7s")])
    target = Pile(PilePosition.E, [C("Th"), C("9s")])
    source.move_onto(target)
    assert target.cards == (C("Th"), C("9s"), C("8h"), C("7s"))
    assert source.is_empty


def test_pile_move_raises_invalid_pile_move() -> None:
    source = Pile(PilePosition.W, [C("8h"), C("7s")])
    target = Pile(PilePosition.E, [C("9h")])
    with pytest.raises(IllegalActionError, match="Invalid pile move"):
        source.move_onto(target)
    assert source.cards == (C("8h"), C("7s")) and target.cards == (C("9h"),)


def test_king_pile_moves_onto_empty_corner_only() -> None:
    kings = Pile(PilePosition.N, [C("Kh"), C("Qs")])
    with pytest.raises(IllegalActionError, match="Invalid pile move"):
        kings.move_onto(Pile(PilePosition.S))  # an empty regular pile is no target
    corner = Pile(PilePosition.NW)
    kings.move_onto(corner)
    assert corner.cards == (C("Kh"), C("Qs")) and kings.is_empty
    queens = Pile(PilePosition.E, [C("Qd")])
    with pytest.raises(IllegalActionError, match="Invalid pile move"):
        queens.move_onto(Pile(PilePosition.SE))


# -- player ----------------------------------------------------------------------

def test_player_takes_cards_and_draws_one() -> None:
    player = Player("Bo")
    player.take([C("Ah"), C("2s")])
    deck = Deck([C("3d"), C("4c")])
    assert player.draw(deck) == C("3d")
    assert player.hand == (C("Ah"), C("2s"), C("3d"))
    assert len(deck) == 1
    assert player.draw(Deck([])) is None


def test_player_plays_a_card_onto_a_pile() -> None:
    player = Player("Bo", [C("8h"), C("Kd")])
    pile = Pile(PilePosition.N, [C("9s")])
    player.play(C("8h"), pile)
    assert player.hand == (C("Kd"),) and pile.top == C("8h")


def test_player_play_is_checked() -> None:
    player = Player("Bo", [C("8c"), C("Qd")])
    pile = Pile(PilePosition.N, [C("9s")])
    with pytest.raises(IllegalActionError, match="8c does not fit"):
        player.play(C("8c"), pile)
    with pytest.raises(IllegalActionError, match="not in"):
        player.play(C("8h"), pile)
    with pytest.raises(IllegalActionError, match="only a king"):
        player.play(C("Qd"), Pile(PilePosition.NE))
    assert player.hand == (C("8c"), C("Qd")) and pile.cards == (C("9s"),)


def test_player_moves_a_pile_but_not_a_corner() -> None:
    player = Player("Bo")
    corner = Pile(PilePosition.NE, [C("Kh")])
    with pytest.raises(IllegalActionError, match="Can't move a corner pile"):
        player.move_pile(corner, Pile(PilePosition.N))
    west, east = Pile(PilePosition.W, [C("Qs")]), Pile(PilePosition.E, [C("Kd")])
    player.move_pile(west, east)
    assert east.cards == (C("Kd"), C("Qs")) and west.is_empty


def test_player_has_won_when_the_hand_is_empty() -> None:
    player = Player("Bo", [C("8h")])
    assert not player.has_won
    player.play(C("8h"), Pile(PilePosition.S))
    assert player.has_won


def test_penalty_points() -> None:
    assert penalty_points([C("Kh"), C("Ks"), C("2c"), C("Qd")]) == 22
    assert penalty_points([]) == 0
