"""Klondike as a patience description, and back.

Every one of Klondike's rule combinations (draw 1 or 3, one, three or any
number of passes, kings or any card in an empty pile, foundation cards
coming back or not) is the shipped ``klondike`` description with some of its
options: :func:`klondike_description` builds it from a :class:`Variant`, and
:func:`variant_of` finds the :class:`Variant` of a description that is
Klondike's (``None`` for any other game, a user's eight-column Klondike
included). That is how a caller picks Klondike's compiled core for a
description: when :func:`variant_of` gives a variant, the core plays it.

The two engines write moves alike but for one: a card coming back from a
foundation names the foundation by its suit in Klondike (``Fh>3``) and by
its place in the patience engine (``F2>3``: foundations fill left to right
in the order their aces arrive). :func:`to_klondike_move` and
:func:`from_klondike_move` translate, given the patience game the move is
played in; every other move is the same value in both notations.

>>> variant = Variant(draw=3, passes=3)
>>> description = klondike_description(variant)
>>> description.stock.draw, description.stock.passes, description.applied
(3, 3, ('draw-3', 'three-passes'))
>>> variant_of(description) == variant
True
>>> from cardtable.patience import get
>>> variant_of(get("freecell")) is None
True
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cardtable.cards import Suit
from cardtable.errors import IllegalMoveError
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE
from cardtable.klondike.moves import Move as KlondikeMove
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.patience.description import Description, Kind
from cardtable.patience.engine import PatienceGame
from cardtable.patience.moves import ANY_FOUNDATION, DEAL, Place
from cardtable.patience.moves import RECYCLE as PATIENCE_RECYCLE
from cardtable.patience.moves import Move as PatienceMove
from cardtable.patience.registry import get

__all__ = ["from_klondike_move", "game_key", "klondike_description", "klondike_position", "plain_preset",
           "to_klondike_move", "variant_of"]

#: The shipped description's option for each rule value that is not the description's own.
_OPTIONS: dict[tuple[str, object], str] = {
    ("draw", 3): "draw-3",
    ("passes", 1): "one-pass",
    ("passes", 3): "three-passes",
    ("empty", "any"): "any-in-space",
    ("foundation_return", True): "foundation-return",
}



def klondike_description(variant: Variant) -> Description:
    """The patience description of ``variant``'s rules (draw, passes, what
    fills an empty pile, foundation return): the shipped ``klondike``
    description with the options that say so (a pass limit that no option
    names, such as 2, is written into the description itself). Scoring is
    no rule of play and is left out."""
    base = get("klondike")
    names = [_OPTIONS[field, getattr(variant, field)] for field in ("draw", "passes", "empty", "foundation_return")
             if (field, getattr(variant, field)) in _OPTIONS]
    described = base.with_options(*names) if names else base
    if described.stock.passes != variant.passes:  # a pass limit no option names
        data = described.to_json()
        data["stock"]["passes"] = variant.passes
        described = Description.from_json(data)
    return described


def _rules(description: Description) -> str:
    data: dict[str, Any] = description.rules_json()
    data["stock"].pop("draw")
    data["stock"].pop("passes")
    data["tableau"].pop("empty")
    data["foundations"].pop("may-return")
    return repr(sorted(data.items()))


@cache
def _klondike_rules() -> str:
    return _rules(get("klondike"))


def variant_of(description: Description) -> Variant | None:
    """The Klondike :class:`Variant` whose rules ``description`` gives (its
    draw, passes, empty-pile and foundation-return rules; no scoring), or
    ``None`` when the description is not Klondike's: any other field that
    differs from the shipped ``klondike`` description (eight columns, another
    build rule, another deal) makes another game."""
    stock, tableau = description.stock, description.tableau
    empty = {"kings": "king", "any": "any"}.get(tableau.empty.value)
    if stock.draw not in (1, 3) or empty is None or _rules(description) != _klondike_rules():
        return None
    return Variant(draw=stock.draw, passes=stock.passes, empty=empty,
                   foundation_return=description.foundations.may_return)


def plain_preset(variant: Variant) -> str | None:
    """The name of the preset without scoring that plays by ``variant``'s
    rules (draw, passes, empty piles, foundation return), or None.

    >>> plain_preset(Variant(draw=3)), plain_preset(Variant(draw=1, passes=2))
    ('draw3', None)
    """
    from cardtable.klondike.variant import PRESETS

    return next((name for name, known in PRESETS.items() if known.scoring.kind == "none"
                 and not name.startswith("seed-") and known.winnability_key == variant.winnability_key), None)


def game_key(description: Description) -> tuple[str, str]:
    """The game and rules the results store keeps ``description``'s runs
    under: Klondike's (:attr:`Variant.game_key`) when its rules are
    Klondike's, whatever it is called; else its name and
    :attr:`~cardtable.patience.description.Description.rules_key`, so that
    a user's ``freecell`` with two cells is not the registry's FreeCell.

    >>> game_key(get("klondike").with_options("draw-3")) == Variant(draw=3).game_key
    True
    >>> game_key(get("golf"))[0], game_key(get("golf"))[1].startswith("sha256:")
    ('golf', True)
    """
    variant = variant_of(description)
    if variant is not None:
        return variant.game_key
    return description.name, description.rules_key


def klondike_position(game: PatienceGame) -> Position:
    """The Klondike :class:`Position` of a game whose description is
    Klondike's (see :func:`variant_of`); what Klondike's engine and its
    compiled core read. A game not laid out as Klondike (seven columns,
    four foundations, a stock and a waste, nothing else) raises
    :class:`IllegalMoveError`."""
    d = game.description
    if (d.count(Kind.TABLEAU), d.count(Kind.FOUNDATION), d.count(Kind.STOCK), d.count(Kind.WASTE),
            d.count(Kind.CELL) + d.count(Kind.RESERVE) + d.count(Kind.HOLE)) != (7, 4, 1, 1, 0):
        raise IllegalMoveError(f"{d.title} is not laid out as Klondike: it has no Klondike position")
    tableau = tuple(tuple(game.pile(place)) for place in game.places(Kind.TABLEAU))
    face_down = tuple(game.face_down(place) for place in game.places(Kind.TABLEAU))
    foundation = [0, 0, 0, 0]
    for place in game.places(Kind.FOUNDATION):
        cards = game.pile(place)
        if cards:
            foundation[cards[-1].suit] = len(cards)
    (stock,), (waste,) = game.places(Kind.STOCK), game.places(Kind.WASTE)
    return Position(tableau, face_down, tuple(game.pile(stock)), tuple(game.pile(waste)),
                    (foundation[0], foundation[1], foundation[2], foundation[3]), game.pass_number)


def to_klondike_move(game: PatienceGame, move: PatienceMove) -> KlondikeMove:
    """``move`` of the patience ``game`` (a Klondike description) in
    Klondike's notation: a foundation named by place (``F2>3``) becomes the
    suit of the cards it holds now (``Fh>3``)."""
    if move.is_deal:
        return DRAW
    if move.is_recycle:
        return RECYCLE
    source, target = move.source, move.target
    assert target is not None  # only the deal has none
    to = FOUNDATION if target == ANY_FOUNDATION else _klondike_pile(target)
    if source.kind is Kind.FOUNDATION:
        cards = game.pile(source)
        if not cards:
            raise IllegalMoveError(f"foundation {source} is empty: no card comes back from it")
        return KlondikeMove(FOUNDATION, to, 1, cards[-1].suit)
    return KlondikeMove(_klondike_pile(source), to, move.count)


def from_klondike_move(game: PatienceGame, move: KlondikeMove) -> PatienceMove:
    """Klondike's ``move`` as a move of the patience ``game``: a foundation
    named by suit (``Fh>3``) becomes the place of the foundation that holds
    that suit now (``F2>3``)."""
    if move.source == STOCK:
        return DEAL
    if move.target == STOCK:
        return PATIENCE_RECYCLE
    target = ANY_FOUNDATION if move.target == FOUNDATION else Place(Kind.TABLEAU, move.target)
    if move.source == FOUNDATION:
        assert move.suit is not None
        for place in game.places(Kind.FOUNDATION):
            cards = game.pile(place)
            if cards and cards[-1].suit == move.suit:
                return PatienceMove(place, target)
        raise IllegalMoveError(f"no foundation holds {Suit(move.suit).name.lower()}: no card comes back from it")
    source = Place(Kind.WASTE) if move.source == WASTE else Place(Kind.TABLEAU, move.source)
    return PatienceMove(source, target, move.count)


def _klondike_pile(place: Place) -> int:
    if place.kind is Kind.WASTE:
        return WASTE
    if place.kind is not Kind.TABLEAU:
        raise IllegalMoveError(f"Klondike has no {place.kind.value} pile ({place})")
    return place.index
