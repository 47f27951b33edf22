"""Patience moves and their notation, for every game a description makes.

A :class:`Move` is a small immutable value: ``count`` cards from one
:class:`Place` to another. A place is a pile kind and the pile's index
within its kind. The notation names piles the way Klondike's does::

    1 2 .. 13    tableau piles, left to right
    a b .. p     free cells
    F            the foundations, as a target: the first one that takes the card
    F1 F2 ..     one foundation, as a source
    R1 R2 ..     reserve piles
    W            the waste
    H            the hole (Golf, Black Hole)
    D            deal: the stock deals (to the waste, the tableau or the hole)
    R            recycle: the waste turns over into a new stock

    3>F   1>a   a>4   W>2   R1>F   2>7:3   4>H   D   R

A pair that goes to the hole together (Pyramid's two cards that make 13)
is written with a ``+``: ``19+W>H``.

Letters are case-sensitive: cells are lower case, the other places upper
case.

>>> Move.parse("2>7:3")
Move.parse('2>7:3')
>>> str(Move(Place(Kind.CELL, 0), Place(Kind.TABLEAU, 3)))
'a>4'
>>> Move.parse("1>F").target
Place(kind=<Kind.FOUNDATION: 'foundations'>, index=-1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardtable._text import clip
from cardtable.errors import NotationError
from cardtable.patience.description import Kind

__all__ = ["ANY_FOUNDATION", "DEAL", "RECYCLE", "Move", "MoveError", "Place"]

_CELL_LETTERS = "abcdefghijklmnop"


class MoveError(NotationError):
    """A patience move that cannot be read, or cannot exist in any position."""


@dataclass(frozen=True, slots=True)
class Place:
    """A pile: its kind and its index within the kind (0 = the first).
    Index -1 stands for "the foundations" as a move's target."""

    kind: Kind
    index: int = 0

    def __str__(self) -> str:
        kind, index = self.kind, self.index
        if kind is Kind.TABLEAU:
            return str(index + 1)
        if kind is Kind.CELL:
            return _CELL_LETTERS[index]
        if kind is Kind.FOUNDATION:
            return "F" if index < 0 else f"F{index + 1}"
        if kind is Kind.RESERVE:
            return f"R{index + 1}"
        return {Kind.WASTE: "W", Kind.HOLE: "H", Kind.STOCK: "S"}[kind]


ANY_FOUNDATION = Place(Kind.FOUNDATION, -1)
_STOCK = Place(Kind.STOCK)
_WASTE = Place(Kind.WASTE)


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` cards from ``source`` to ``target``.

    The stock's deal is ``Move(Place(Kind.STOCK), None)`` (:data:`DEAL`), the
    recycle ``Move(Place(Kind.WASTE), Place(Kind.STOCK))`` (:data:`RECYCLE`).
    A move no position could hold raises :class:`MoveError` when built: only
    tableau to tableau moves carry more than one card; nothing goes to the
    stock but the recycle, nor comes from the hole; a foundation source names
    its foundation; a ``pair`` (a second card that goes with the first) goes
    only to the hole, from another pile.

    >>> Move(Place(Kind.CELL, 0), Place(Kind.CELL, 1), 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.patience.moves.MoveError: Move(a>b:2): only tableau to tableau moves carry more than one card
    """

    source: Place
    target: Place | None
    count: int = 1
    pair: Place | None = None
    #: The move in the notation, written once (a solver prints lines of hundreds of moves).
    _notation: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        reason = _why_impossible(self.source, self.target, self.count)
        if reason is None and self.pair is not None:
            reason = _why_no_pair(self.source, self.target, self.count, self.pair)
        if reason:
            raise MoveError(f"Move({_text(self.source, self.target, self.count, self.pair)}): {reason}")
        if self.source.kind is Kind.STOCK:
            text = "D"
        elif self.target is not None and self.target.kind is Kind.STOCK:
            text = "R"
        else:
            text = _text(self.source, self.target, self.count, self.pair)
        object.__setattr__(self, "_notation", text)

    @property
    def is_deal(self) -> bool:
        """The stock deals."""
        return self.source.kind is Kind.STOCK

    @property
    def is_recycle(self) -> bool:
        """The waste turns over into a new stock."""
        return self.target is not None and self.target.kind is Kind.STOCK

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in the notation above; :class:`MoveError` says what is wrong."""
        s = text.strip().replace(" ", "")
        if s == "D":
            return DEAL
        if s == "R":
            return RECYCLE
        m = re.fullmatch(r"(?P<src>\d{1,2}|[a-p]|F\d{1,2}|R\d{1,2}|W)(?:\+(?P<pair>\d{1,2}|[a-p]|R\d{1,2}|W))?"
                         r">(?P<dst>\d{1,2}|[a-p]|F|H)"
                         r"(?::(?P<count>\d{1,3}))?", s, re.ASCII)
        if m is None:
            raise MoveError(f"cannot read move {clip(text)}: write e.g. 3>F, 1>a, a>4, W>2, R1>F, 2>7:3, 4>H, "
                            f"D or R (cells lower case)")
        try:
            source = _place(m.group("src"))
            target = _place(m.group("dst"))
            pair = _place(m.group("pair")) if m.group("pair") else None
        except ValueError:
            raise MoveError(f"cannot read move {clip(text)}: piles are numbered from 1") from None
        if source.kind is Kind.FOUNDATION and source.index < 0:
            raise MoveError(f"cannot read move {clip(text)}: name the foundation, e.g. F2>3")
        try:
            return cls(source, target, int(m.group("count") or 1), pair)
        except MoveError as error:
            raise MoveError(f"cannot read move {clip(text)}: {str(error).split(': ', 1)[1]}") from None

    def __str__(self) -> str:
        return self._notation

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _text(source: Place, target: Place | None, count: int, pair: Place | None = None) -> str:
    text = f"{source}+{pair}>{target}" if pair is not None else f"{source}>{target}"
    return f"{text}:{count}" if count != 1 else text


def _place(text: str) -> Place:
    if text.isdigit():
        index = int(text) - 1
        if index < 0:
            raise ValueError(text)
        return Place(Kind.TABLEAU, index)
    if text in _CELL_LETTERS:
        return Place(Kind.CELL, _CELL_LETTERS.index(text))
    head, rest = text[0], text[1:]
    if head == "F":
        return ANY_FOUNDATION if not rest else Place(Kind.FOUNDATION, _number(rest))
    if head == "R":
        return Place(Kind.RESERVE, _number(rest))
    return {"W": _WASTE, "H": Place(Kind.HOLE)}[head]


def _number(text: str) -> int:
    if int(text) < 1:
        raise ValueError(text)
    return int(text) - 1


def _why_impossible(source: object, target: object, count: object) -> str | None:
    if not isinstance(source, Place) or not (target is None or isinstance(target, Place)):
        return "source and target are places"
    if type(count) is not int or count < 1:
        return "a move carries at least one card"
    limit = len(_CELL_LETTERS) if source.kind is Kind.CELL else 99
    if source.index < 0 or source.index >= limit or (target is not None and target.index >= limit
                                                       and target.kind is Kind.CELL):
        return "no such pile"
    if source.kind is Kind.STOCK:
        return None if target is None and count == 1 else "the stock only deals (D)"
    if target is None:
        return "a move has a target"
    if target.kind is Kind.STOCK:
        return None if source.kind is Kind.WASTE and count == 1 else "only the waste turns over to the stock"
    if target.index < -1 or (target.index == -1 and target.kind is not Kind.FOUNDATION):
        return "no such pile"
    if target.kind is Kind.FOUNDATION and target.index != -1:
        return "a card goes to the foundations as F: the first one that takes it"
    if source == target:
        return "source and target are the same"
    if source.kind is Kind.HOLE:
        return "nothing comes back from the hole"
    if target.kind in (Kind.RESERVE, Kind.WASTE):
        return f"nothing is moved onto the {target.kind.value}"
    if source.kind is Kind.FOUNDATION and target.kind is Kind.FOUNDATION:
        return "foundation to foundation is not a move"
    if count > 1 and not (source.kind is Kind.TABLEAU and target.kind is Kind.TABLEAU):
        return "only tableau to tableau moves carry more than one card"
    return None


def _why_no_pair(source: Place, target: Place | None, count: int, pair: object) -> str | None:
    if not isinstance(pair, Place) or pair.index < 0:
        return "a pair is a place"
    if target is None or target.kind is not Kind.HOLE:
        return "only the hole takes a pair"
    if count != 1 or pair == source:
        return "a pair is one card from each of two piles"
    if pair.kind in (Kind.FOUNDATION, Kind.STOCK, Kind.HOLE):
        return f"no pair comes from the {pair.kind.value}"
    return None


DEAL = Move(_STOCK, None)
RECYCLE = Move(_WASTE, _STOCK)
