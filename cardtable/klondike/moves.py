"""Klondike moves and their notation.

A :class:`Move` is a small immutable value: where the cards come from, where
they go, and how many. Locations are tableau piles ``0..6`` (written ``1..7``,
left to right), :data:`WASTE`, :data:`STOCK` and :data:`FOUNDATION`.

Move notation (case-insensitive when read)::

    D        draw from the stock to the waste (1 or 3 cards, per the variant)
    R        recycle: turn the waste over to make a new stock
    W>F      waste top to its foundation
    W>4      waste top onto tableau pile 4
    2>F      top of pile 2 to its foundation
    Fh>3     top of the hearts foundation back onto pile 3
    2>6      the top card of pile 2 onto pile 6
    2>6:3    the top three cards of pile 2 (a face-up run) onto pile 6

The ``>`` may be left out when reading (``WF``, ``W4``, ``26:3``).

>>> Move.parse("2>6:3")
Move.parse('2>6:3')
>>> str(Move(WASTE, FOUNDATION))
'W>F'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardtable._text import clip
from cardtable.cards import Suit
from cardtable.errors import NotationError

__all__ = [
    "DRAW",
    "FOUNDATION",
    "RECYCLE",
    "STOCK",
    "WASTE",
    "Move",
    "MoveError",
    "location_name",
]

WASTE = 7
STOCK = 8
FOUNDATION = 9


class MoveError(NotationError):
    """A move could not be read from its notation."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``count`` cards from ``source`` to ``target``.

    ``suit`` names the foundation a card comes back from (only when ``source``
    is :data:`FOUNDATION`). A move that cannot exist in any position raises
    :class:`MoveError` when it is built:

    - a draw is exactly ``Move(STOCK, WASTE)`` and a recycle exactly
      ``Move(WASTE, STOCK)``;
    - otherwise the source is a tableau pile (0..6), the waste or a foundation,
      and the target a tableau pile or the foundation, not the source itself;
    - only a tableau-to-tableau move carries more than one card, and at most
      13 (a whole run from king to ace).

    >>> Move(WASTE, 2, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.klondike.moves.MoveError: Move(...): only tableau to tableau moves carry more than one card
    """

    source: int
    target: int
    count: int = 1
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (type(self.source) is int and type(self.target) is int and type(self.count) is int
                and (self.suit is None or type(self.suit) is Suit)
                and (self.source, self.target, self.count, self.suit) in _POSSIBLE):
            return  # the usual case: one set look-up
        reason = _why_impossible(self.source, self.target, self.count, self.suit) or "not a move"
        raise MoveError(f"Move(source={self.source!r}, target={self.target!r}, count={self.count!r}): {reason}")

    @property
    def is_draw(self) -> bool:
        """Stock to waste."""
        return self.source == STOCK

    @property
    def is_recycle(self) -> bool:
        """Waste back to stock."""
        return self.target == STOCK

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in the notation above; :class:`MoveError` says what is wrong."""
        s = text.strip().upper().replace(" ", "")
        if s in ("D", "DRAW"):
            return DRAW
        if s in ("R", "RECYCLE"):
            return RECYCLE
        m = re.fullmatch(_MOVE_PATTERN, s, re.ASCII)
        if m is None:
            raise MoveError(
                f"cannot read move {clip(text)}: write D, R, W>F, W>4, 2>F, Fh>3, 2>6 or 2>6:3")
        src, suit, dst, count = m.group("src"), m.group("suit"), m.group("dst"), m.group("count")
        if src == "W":
            source = WASTE
        elif src == "F":
            source = FOUNDATION
            if suit is None:
                raise MoveError(f"cannot read move {clip(text)}: name the foundation's suit, e.g. Fh>3")
        else:
            source = int(src) - 1
        if src != "F" and suit is not None:
            raise MoveError(f"cannot read move {clip(text)}: only a foundation source takes a suit")
        target = FOUNDATION if dst == "F" else int(dst) - 1
        if source == target:
            raise MoveError(f"cannot read move {clip(text)}: source and target are the same")
        if source == FOUNDATION and target == FOUNDATION:
            raise MoveError(f"cannot read move {clip(text)}: foundation to foundation is not a move")
        n = int(count) if count else 1
        if not 1 <= n <= 13:
            raise MoveError(f"cannot read move {clip(text)}: a move carries 1 to 13 cards, not {n}")
        if n > 1 and (source in (WASTE, FOUNDATION) or target == FOUNDATION):
            raise MoveError(f"cannot read move {clip(text)}: only tableau to tableau moves several cards")
        return cls(source, target, n, Suit.parse(suit) if suit else None)

    def __str__(self) -> str:
        if self.source == STOCK:
            return "D"
        if self.target == STOCK:
            return "R"
        src = "F" + self.suit.letter if self.suit is not None else location_name(self.source)
        text = f"{src}>{location_name(self.target)}"
        return f"{text}:{self.count}" if self.count > 1 else text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _is_index(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _why_impossible(source: object, target: object, count: object, suit: object) -> str | None:
    """Why no position could hold this move, or None when one could."""
    if not _is_index(count, 1, 13):
        return "a move carries 1 to 13 cards"
    if suit is not None and not isinstance(suit, Suit):
        return "suit must be a Suit or None"
    if source == STOCK:
        return None if target == WASTE and count == 1 and suit is None else "the stock only draws to the waste"
    if target == STOCK:
        return None if source == WASTE and count == 1 and suit is None else "only the waste turns over to the stock"
    if not (_is_index(source, 0, 6) or source in (WASTE, FOUNDATION)) or type(source) is not int:
        return "the source is a pile 0..6, WASTE, STOCK or FOUNDATION"
    if not (_is_index(target, 0, 6) or target == FOUNDATION) or type(target) is not int:
        return "the target is a pile 0..6 or FOUNDATION (or STOCK for a recycle)"
    if source == target:
        return "source and target are the same"
    if (source == FOUNDATION) != (suit is not None):
        return "a suit is given exactly when a card comes from a foundation"
    if count > 1 and not (0 <= source <= 6 and 0 <= target <= 6):  # type: ignore[operator]
        return "only tableau to tableau moves carry more than one card"
    return None


#: A move's notation (compiled on first use, and then kept by :mod:`re`'s cache).
_MOVE_PATTERN = r"(?P<src>[1-7]|W|F)(?P<suit>[CDHS♣♦♥♠])?>?(?P<dst>[1-7]|F)(?::(?P<count>\d{1,2}))?"

#: The fields of every move some position could hold (see :class:`Move`):
#: exactly those :func:`_why_impossible` accepts, listed rather than sifted
#: from every combination, so that importing the module stays quick (a test
#: holds the two equal).
_POSSIBLE: frozenset[tuple[int, int, int, Suit | None]] = frozenset((
    (STOCK, WASTE, 1, None), (WASTE, STOCK, 1, None),
    *((source, target, count, None) for source in range(7) for target in range(7) if source != target
      for count in range(1, 14)),
    *((source, FOUNDATION, 1, None) for source in range(7)),
    *((WASTE, target, 1, None) for target in (*range(7), FOUNDATION)),
    *((FOUNDATION, target, 1, suit) for target in range(7) for suit in Suit),
))

#: The possible moves built so far, by their fields (:func:`interned` adds each once).
_INTERNED: dict[tuple[int, int, int, Suit | None], Move] = {}


def interned(source: int, target: int, count: int = 1, suit: Suit | None = None) -> Move:
    """``Move(source, target, count, suit)`` from a table of the possible
    moves: the same value, built and checked once, the same object every
    time after (for hot loops that build moves from integers; anything else
    raises as :class:`Move` does)."""
    fields_ = (source, target, count, suit)
    move = _INTERNED.get(fields_)
    if move is None:
        move = _INTERNED[fields_] = Move(source, target, count, suit)
    return move


DRAW = Move(STOCK, WASTE)
RECYCLE = Move(WASTE, STOCK)


def location_name(location: int) -> str:
    """The written name of a location: ``1``..``7``, ``W``, ``S`` or ``F``."""
    if 0 <= location <= 6:
        return str(location + 1)
    return {WASTE: "W", STOCK: "S", FOUNDATION: "F"}[location]
