"""Fixtures for the Kings Corner tests: deals built to order."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable.cards import Card, new_deck, parse_cards
from cardtable.kings_corner import KingsCornerGame


def _stacked_deck(hands: list[str], cross: str, top: str = "") -> list[Card]:
    chosen = [card for text in [*hands, cross, top] for card in parse_cards(text)]
    assert all(len(parse_cards(hand)) == 7 for hand in hands)
    assert len(parse_cards(cross)) == 4
    return chosen + [card for card in new_deck() if card not in chosen]


@pytest.fixture
def stacked_deck() -> Callable[..., list[Card]]:
    """``stacked_deck(hands, cross, top="")``: a 52-card deck (top first) dealing
    ``hands`` (seven cards each, seat order), then ``cross`` onto N E S W, then
    ``top`` as the next cards to draw; the other cards follow in deck order."""
    return _stacked_deck


@pytest.fixture
def make_game() -> Callable[..., KingsCornerGame]:
    """``make_game(hands, cross, top="")``: a game with that deal."""
    return lambda hands, cross, top="": KingsCornerGame(len(hands), _stacked_deck(hands, cross, top))
