"""Patience positions as position strings, for every game a description makes.

A position string names every pile of the game, in the engine's order
(tableau, foundations, cells, reserve, stock, waste, hole), as its place in
move notation (:mod:`cardtable.patience.moves`; the stock is ``S``), a colon
and its cards bottom to top, two characters each; the face-down cards come
first and a ``/`` ends them. After the piles, ``pass:N`` (the stock's pass,
when past the first), ``redeals:N`` (redeals used) and ``shuffle:N`` (what
seeds a redeal's shuffle, for the games with redeals)::

    1:Ks/4sJh 2:9s ... F1: F2: S:8d7c/ W: pass:2

A position string holds every card, face down or not: it is the game's own
notation for a deal or a position, as Klondike's position strings are, not
what the player sees.

>>> from cardtable.patience.engine import PatienceGame
>>> from cardtable.patience.registry import get
>>> game = PatienceGame.from_seed(get("golf"), 3)
>>> text = write_position(game)
>>> text.split()[0]
'1:AdAh5c8h9c'
>>> read_position(get("golf"), text).key() == game.key()
True
"""

from __future__ import annotations

from collections import Counter

from cardtable._text import clip
from cardtable.cards import Card, CardError
from cardtable.errors import NotationError
from cardtable.patience.description import Description, Kind
from cardtable.patience.engine import PatienceGame
from cardtable.patience.moves import Place

__all__ = ["PositionError", "read_position", "write_position"]

_KIND_ORDER = (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE)
_COUNTERS = ("pass", "redeals", "shuffle")


class PositionError(NotationError):
    """A position string that cannot be read for the game; the message says why."""


def _places(description: Description) -> list[Place]:
    return [Place(kind, i) for kind in _KIND_ORDER for i in range(description.count(kind))]


def write_position(game: PatienceGame) -> str:
    """The position string of ``game`` (see the module documentation)."""
    tokens = []
    for place in _places(game.description):
        cards, down = game.pile(place), game.face_down(place)
        text = "".join(map(str, cards[:down])) + ("/" if down else "") + "".join(map(str, cards[down:]))
        tokens.append(f"{place}:{text}")
    if game.pass_number != 1:
        tokens.append(f"pass:{game.pass_number}")
    if game.redeals_used:
        tokens.append(f"redeals:{game.redeals_used}")
    if game.description.redeals.count:
        tokens.append(f"shuffle:{game.shuffle_seed}")
    return " ".join(tokens)


def _cards(text: str, where: str) -> list[Card]:
    if len(text) % 2:
        raise PositionError(f"{where}: cards are two characters each (as 4s, Th), not {clip(text, 30)}")
    try:
        return [Card.parse(text[i:i + 2]) for i in range(0, len(text), 2)]
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


def read_position(description: Description, text: str) -> PatienceGame:
    """The game at the position ``text`` describes; a :class:`PositionError`
    names the pile or the card that is wrong. Every pile of the game is named
    once and the cards are exactly the game's."""
    d = description
    places = {str(place): place for place in _places(d)}
    piles: dict[Place, tuple[list[Card], int]] = {}
    counters = {"pass": 1, "redeals": 0, "shuffle": 0}
    if not text.strip():
        raise PositionError(f"an empty position string: {d.title}'s names its piles, e.g. 1:Ks/4sJh")
    for token in text.split():
        name, colon, rest = token.partition(":")
        if not colon:
            raise PositionError(f"position string: {clip(token, 30)} is not PILE:CARDS")
        if name in _COUNTERS:
            if not rest.isascii() or not rest.isdigit() or len(rest) > 20:
                raise PositionError(f"position string: {name}: takes a whole number, not {clip(rest, 30)}")
            counters[name] = int(rest)
            continue
        place = places.get(name)
        if place is None:
            raise PositionError(f"position string: {d.title} has no pile {clip(name, 20)} "
                                f"(its piles: {' '.join(places)})")
        if place in piles:
            raise PositionError(f"position string: pile {name} is given twice")
        down_text, _, up_text = rest.rpartition("/") if "/" in rest else ("", "", rest)
        down, up = _cards(down_text, f"pile {name}"), _cards(up_text, f"pile {name}")
        if place.kind is Kind.STOCK and up:
            raise PositionError("position string: the stock's cards lie face down (S:cards/)")
        piles[place] = (down + up, len(down))
    missing = [name for name, place in places.items() if place not in piles]
    if missing:
        raise PositionError(f"position string: pile {missing[0]} is missing ({d.title} has {' '.join(places)})")
    held = Counter(card for cards, _ in piles.values() for card in cards)
    deck = Counter(d.cards.deck())
    if held != deck:
        short = sorted((deck - held).elements())
        extra = sorted((held - deck).elements())
        what = f"{short[0]} is missing" if short else f"{extra[0]} is there too often"
        raise PositionError(f"position string: not the cards of {d.title}: {what}")
    if d.stock.passes is not None and not 1 <= counters["pass"] <= max(d.stock.passes, 1):
        raise PositionError(f"position string: pass {counters['pass']}, {d.title} allows {d.stock.passes}")
    if counters["redeals"] > d.redeals.count:
        raise PositionError(f"position string: redeals {counters['redeals']}, {d.title} allows {d.redeals.count}")
    ordered = [piles[place] for place in places.values()]
    game = PatienceGame(d, [cards for cards, _ in ordered], [down for _, down in ordered],
                        shuffle_seed=counters["shuffle"])
    game.pass_number = counters["pass"]
    game.redeals_used = counters["redeals"]
    return game
