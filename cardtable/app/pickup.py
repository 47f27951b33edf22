"""Picking cards up and putting them down on the Klondike table: which
cards a place gives, what to call them, and which move a place to put them
on makes (the engine, not this module, says whether it is legal)."""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.app.table import Spot
from cardtable.cards import Card, Suit
from cardtable.klondike import FOUNDATION, WASTE, KlondikeGame, Move
from cardtable.klondike.moves import location_name

__all__ = ["Held", "describe", "held_cards", "pick_up", "put_down"]


@dataclass(frozen=True)
class Held:
    """Cards picked up: ``count`` from ``source`` (a pile, the waste or the
    foundation of ``suit``). ``grown`` says the player chose the run's length."""

    source: int
    count: int = 1
    suit: Suit | None = None
    grown: bool = False


def held_cards(game: KlondikeGame, held: Held) -> list[Card]:
    """The cards ``held`` names in ``game``, bottom first.

    >>> held_cards(KlondikeGame.from_seed(7), Held(6))
    [Card.parse('Ac')]
    """
    if held.source == WASTE:
        return game.waste[-1:]
    if held.source == FOUNDATION:
        assert held.suit is not None
        return [Card(game.foundation[held.suit], held.suit)]
    return game.tableau[held.source][-held.count:]


def describe(game: KlondikeGame, held: Held, *, ascii_only: bool = False) -> str:
    """The cards picked up, in words.

    >>> describe(KlondikeGame.from_seed(7), Held(6), ascii_only=True)
    'Ac from pile 7'
    """
    cards = held_cards(game, held)
    names = " ".join(str(c) if ascii_only else c.symbol() for c in cards)
    if held.source == WASTE:
        return f"{names} from the waste"
    return f"{names} from pile {location_name(held.source)}" if held.source != FOUNDATION else names


def pick_up(game: KlondikeGame, spot: Spot) -> Held | str:
    """What picking up at ``spot`` takes (a pile's card and every card on
    it), or why nothing can be picked up there.

    >>> game = KlondikeGame.from_seed(7)
    >>> pick_up(game, Spot(6))
    Held(source=6, count=1, suit=None, grown=False)
    >>> pick_up(game, Spot(WASTE))
    'The waste is empty: press d to draw.'
    """
    if spot.place == WASTE:
        return Held(WASTE) if game.waste else "The waste is empty: press d to draw."
    if spot.place == FOUNDATION:
        assert spot.suit is not None
        if not game.foundation[spot.suit]:
            return "That foundation is empty."
        if not game.variant.foundation_return:
            return "Cards may not come back from the foundations in this variant."
        return Held(FOUNDATION, suit=spot.suit)
    cards, down = game.tableau[spot.place], game.face_down[spot.place]
    depth = len(cards) - 1 if spot.depth < 0 else spot.depth
    if not cards or depth < down:
        return "Nothing to pick up there."
    count = len(cards) - depth
    return Held(spot.place, count, grown=count > 1)


def put_down(game: KlondikeGame, held: Held, spot: Spot) -> Move | str | None:
    """The move that puts ``held`` at ``spot``: None when that puts the
    cards back where they came from, a string when it cannot be a move (why
    not; the cards stay picked up). A single card picked up from a pile
    takes the run above it when only that run fits.

    >>> game = KlondikeGame.from_seed(7)
    >>> put_down(game, Held(6), Spot(FOUNDATION, suit=Suit.CLUBS))
    Move.parse('7>F')
    >>> put_down(game, Held(6), Spot(6)) is None, put_down(game, Held(6), Spot(WASTE))
    (True, 'Cards cannot go onto the waste.')
    """
    if spot.place == held.source and (held.source != FOUNDATION or spot.suit == held.suit):
        return None
    if spot.place == WASTE:
        return "Cards cannot go onto the waste."
    target = FOUNDATION if spot.place == FOUNDATION else spot.place
    if target == FOUNDATION and held.count > 1:
        return "Only one card at a time goes to a foundation."
    if held.source == FOUNDATION and target == FOUNDATION:
        return None
    move = Move(held.source, target, held.count, held.suit)
    if not game.is_legal(move) and not held.grown:
        fits = [m for m in game.legal_moves()
                if m.source == move.source and m.target == target and m.suit == move.suit]
        if len(fits) == 1:
            move = fits[0]
    return move
