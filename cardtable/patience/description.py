"""A patience game as a description: frozen data that names every rule.

A :class:`Description` says which cards a game uses, which piles it lays
out (by kind: tableau, foundations, free cells, reserve, stock, waste and
the single shared *hole* of Golf and Black Hole), how the cards are dealt,
what builds on what, what may move, what fills an empty pile, what the stock
does and how the game is won. The one engine
(:class:`cardtable.patience.engine.PatienceGame`) plays any description; no
game's name appears in it.

A description is read from JSON (:meth:`Description.from_json`,
:func:`load`) and written back (:meth:`Description.to_json`); reading checks
every field, and an error names the field's path and what is wrong in one
line (:class:`DescriptionError`)::

    >>> import json
    >>> from cardtable.patience.registry import get
    >>> data = get("freecell").to_json()
    >>> data["tableau"]["build"]["suit"] = "reddish"
    >>> Description.from_json(data)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.patience.description.DescriptionError: tableau.build.suit: 'reddish' is not one of alternate-colours, ...
    >>> Description.from_json(get("freecell").to_json()) == get("freecell")
    True

The JSON form, field by field, is in ``docs/games.md``. Rank values are
written ``A 2 .. 9 T J Q K`` (numbers 1 to 13 are read too); a list of one
number per pile may be given as one number for every pile.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from functools import partial
from typing import Any, TypeVar

from cardtable._text import clip
from cardtable.cards import RANK_NAMES, Card, CardError, Colour, Suit
from cardtable.errors import RulesError

__all__ = [
    "NAMING_FIELDS",
    "RULE_REVISIONS",
    "Build",
    "Cards",
    "DealOrder",
    "DealStep",
    "Description",
    "DescriptionError",
    "Direction",
    "Fan",
    "Fill",
    "Foundations",
    "Kind",
    "Layout",
    "MoveOrder",
    "MoveUnit",
    "Option",
    "PileGroup",
    "PysolDeal",
    "Redeals",
    "Stock",
    "StockTo",
    "SuitRule",
    "Tableau",
    "Win",
    "load",
]

#: The fields of a description's JSON form that name the game or say how
#: standard deal numbers are read, not how it is played
#: (:meth:`Description.rules_json` leaves them out).
NAMING_FIELDS = ("name", "title", "family", "description", "options", "applied", "deals", "pysol-deal")

#: The engine's rule revisions: a field's value (``(section, field, value)``
#: in the description's JSON form) whose reading by the engine changed while
#: the description's words stayed the same, and the number of that reading
#: (the first reading is revision 1 and has no entry). A description that
#: uses a revised reading carries ``{"section.field": revision}`` under
#: ``revisions`` in :meth:`Description.rules_json`, so its
#: :attr:`~Description.rules_key` differs from the key of the game the
#: engine played before, and the results store does not mix the two games'
#: runs, studies and figures; every other description's rules JSON and key
#: are as before.
#:
#: - ``tableau.moves: pile``, revision 2 (2026-11-29, after 0.1.0; Accordion):
#:   a pile moved whole goes onto a pile when its *top* card fits there; the
#:   engine and the compiled solver took the moving pile's bottom card before.
RULE_REVISIONS: dict[tuple[str, str, str], int] = {("tableau", "moves", "pile"): 2}


class DescriptionError(RulesError):
    """A game description that cannot be read or cannot be played; the
    message starts with the field's path (``tableau.build.suit: ...``)."""


class Kind(StrEnum):
    """The kinds of pile a game lays out."""

    TABLEAU = "tableau"
    FOUNDATION = "foundations"
    CELL = "cells"
    RESERVE = "reserve"
    STOCK = "stock"
    WASTE = "waste"
    HOLE = "hole"


class Direction(StrEnum):
    """Which rank may go on a card: one lower, one higher, either, none, or
    (``match``) a card of the same rank or, whatever its rank, the same suit
    (Accordion; the suit rule is then not asked)."""

    DOWN = "down"
    UP = "up"
    EITHER = "either"
    NONE = "none"
    MATCH = "match"


class SuitRule(StrEnum):
    """How the suit of a card must relate to the card it goes on."""

    ALTERNATE = "alternate-colours"
    SAME = "same-suit"
    ANY = "any-suit"
    ANY_BUT_SAME = "any-but-same"


class MoveUnit(StrEnum):
    """What may move from a tableau pile at once.

    ``one-card``: the top card only; ``run``: any number of top cards that
    follow the run rule; ``any-face-up``: any face-up cards with what lies on
    them (Yukon); ``supermove``: a run no longer than the free cells and empty
    piles could carry one card at a time (FreeCell); ``whole-pile``: the top
    card, or the whole pile when it is one run; ``pile``: the whole pile
    only, whatever it holds, its top card being the one that must fit where
    it goes (Accordion).
    """

    ONE = "one-card"
    RUN = "run"
    FACE_UP = "any-face-up"
    SUPERMOVE = "supermove"
    WHOLE_PILE = "whole-pile"
    PILE = "pile"


class Fill(StrEnum):
    """What may go on an empty tableau pile: any card, a King (or a run
    headed by one), nothing, or (``reserve``) the reserve's top card at once,
    any card once the reserve is empty."""

    ANY = "any"
    KINGS = "kings"
    NONE = "none"
    RESERVE = "reserve"


class StockTo(StrEnum):
    """Where the stock deals: nowhere, to the waste, one card onto every
    tableau pile, or onto the hole."""

    NONE = "none"
    WASTE = "waste"
    TABLEAU = "tableau"
    HOLE = "hole"


class Fan(StrEnum):
    """How a pile's cards are spread when drawn."""

    NONE = "none"
    DOWN = "down"
    RIGHT = "right"


class DealOrder(StrEnum):
    """``rows``: one card to each pile that still takes one, left to right,
    row after row (Klondike, FreeCell); ``piles``: each pile in full, one
    after the other."""

    ROWS = "rows"
    PILES = "piles"


class MoveOrder(StrEnum):
    """The order in which the engine lists legal moves. ``by-source``: pile
    by pile (tableau, cells, reserve, waste, then foundations), each source's
    moves to the foundations and the hole first, then onto tableau piles by
    target and the fewest cards first, then to cells. ``foundations-first``
    (Klondike's order): every move to the foundations or the hole first (by
    source: tableau, cells, reserve, waste); then pile by pile from the
    waste, the tableau, cells, reserve and last the foundations (by suit:
    clubs, diamonds, hearts, spades), each source's runs the fewest cards
    first, each onto tableau piles left to right, then to cells. The deal
    and the recycle come last in both."""

    BY_SOURCE = "by-source"
    FOUNDATIONS_FIRST = "foundations-first"


class Win(StrEnum):
    """How the game is won: every card on the foundations (and the hole),
    every tableau pile empty (Golf), or every card in one pile (Accordion)."""

    FOUNDATIONS = "all-to-foundations"
    TABLEAU_EMPTY = "tableau-empty"
    ONE_PILE = "one-pile"


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a group of piles is drawn and how each pile fans.

    ``row`` is the group's row of the table (rows are drawn top to bottom,
    each as tall as its tallest pile needs) and ``column`` the x of its first
    pile, in card widths. Without ``places`` the piles stand side by side to
    the right of it (one a line, each under the last, when they fan right);
    ``places`` gives each pile's own ``(x, y)`` instead, in card units from
    the group's corner (halves allowed: Pyramid's rows lie half a card
    apart). :func:`cardtable.patience.layout.table_layout` turns this into
    each pile's place on the table."""

    row: int = 0
    column: int = 0
    fan: Fan = Fan.NONE
    places: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True, slots=True)
class Build:
    """What may go on a card: rank ``direction`` (with ``wrap``, King and Ace
    are one apart) and ``suit`` relation; a card of rank ``closed`` takes
    nothing (Golf's King). With ``from_base`` (a tableau's rule), ranks are
    counted from the foundations' base rank: the base rank is the lowest and
    the rank below it the highest (Solvitaire's Canfield: with base 5, a 4
    goes on a 5 only with ``wrap``, never without; a King on an Ace, yes)."""

    direction: Direction = Direction.DOWN
    suit: SuitRule = SuitRule.ANY
    wrap: bool = False
    closed: int | None = None
    from_base: bool = False

    def fits(self, card: Card, onto: Card, base: int = 1) -> bool:
        """True when ``card`` may go on ``onto`` under this rule; ``base`` is
        the foundations' base rank, which only a rule ``from_base`` reads."""
        if self.direction is Direction.NONE or onto.rank == self.closed:
            return False
        if self.direction is Direction.MATCH:
            return card.rank == onto.rank or card.suit == onto.suit
        suit = self.suit
        if suit is SuitRule.SAME:
            if card.suit != onto.suit:
                return False
        elif suit is SuitRule.ALTERNATE:
            if card.colour == onto.colour:
                return False
        elif suit is SuitRule.ANY_BUT_SAME and card.suit == onto.suit:
            return False
        step = card.rank - onto.rank
        if self.from_base:  # both ranks counted from the base: the step crossing it becomes 12 or -12
            step = (card.rank - base) % 13 - (onto.rank - base) % 13
        if self.wrap and step in (12, -12):
            step = -1 if step == 12 else 1
        if self.direction is Direction.DOWN:
            return step == -1
        if self.direction is Direction.UP:
            return step == 1
        return step in (1, -1)


@dataclass(frozen=True, slots=True)
class Cards:
    """The cards of the game: ``decks`` decks' worth (52 cards each) made of
    the ``suits`` given, each suit repeated equally (Spider's one suit: eight
    copies of spades in two decks' worth)."""

    decks: int = 1
    suits: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

    @property
    def total(self) -> int:
        """How many cards the game has."""
        return 52 * self.decks

    @property
    def copies(self) -> int:
        """How many times each card of the game's suits is in it."""
        return 4 * self.decks // len(self.suits)

    def deck(self) -> list[Card]:
        """Every card of the game in deck order: each copy's suits in order,
        each suit Ace to King."""
        return [Card(rank, suit) for _ in range(self.copies) for suit in self.suits for rank in range(1, 14)]


@dataclass(frozen=True, slots=True)
class PileGroup:
    """A group of piles of one kind (free cells, a reserve, a waste, a hole):
    how many and where."""

    count: int = 0
    layout: Layout = Layout()


@dataclass(frozen=True, slots=True)
class Tableau:
    """The tableau: ``build`` says what goes on a card, ``run`` what counts
    as a run that moves together (the build rule unless given, e.g. Spider
    builds in any suit but moves same-suit runs), ``moves`` what may move
    and ``empty`` what may fill an empty pile. ``covers[i]`` lists the piles
    (by index, each after ``i``) that lie over pile ``i`` (TriPeaks' rows):
    a covered pile's cards neither move nor take cards, and a face-down one
    turns up only once every pile over it is empty. With ``reach``, a pile
    moves only onto the piles that many piles to its left, counting only the
    piles that hold cards (Accordion: 1 and 3). Unless ``pile_to_space``, a
    whole pile with nothing face down under it never moves to an empty pile
    (Klondike: that changes nothing)."""

    count: int
    layout: Layout = Layout(fan=Fan.DOWN)
    build: Build = Build()
    run: Build | None = None
    moves: MoveUnit = MoveUnit.ONE
    empty: Fill = Fill.ANY
    covers: tuple[tuple[int, ...], ...] | None = None
    reach: tuple[int, ...] | None = None
    pile_to_space: bool = True

    @property
    def run_rule(self) -> Build:
        """The rule a run that moves together follows."""
        return self.run if self.run is not None else self.build


@dataclass(frozen=True, slots=True)
class Foundations:
    """The foundations: each starts with ``base`` (``None``: the rank of the
    first card dealt to a foundation, Canfield) and builds by ``build``;
    ``may_return`` lets a card come back to the tableau; with
    ``complete_runs`` only a whole run King to Ace of one suit goes there, at
    once, as soon as it lies on a tableau pile (Spider)."""

    count: int = 4
    layout: Layout = Layout()
    base: int | None = 1
    build: Build = Build(Direction.UP, SuitRule.SAME)
    may_return: bool = False
    complete_runs: bool = False


@dataclass(frozen=True, slots=True)
class Stock:
    """The stock: it deals ``draw`` cards at a time ``to`` the waste, the
    hole, or one card onto each tableau pile (left to right while cards
    last); a waste turns over into a new stock until ``passes`` passes were
    made (``None``: no limit); with ``needs_no_empty_pile`` it may not deal
    onto the tableau while a tableau pile is empty (Spider)."""

    count: int = 0
    layout: Layout = Layout()
    to: StockTo = StockTo.NONE
    draw: int = 1
    passes: int | None = 1
    needs_no_empty_pile: bool = False


@dataclass(frozen=True, slots=True)
class Redeals:
    """Redeals of the tableau (La Belle Lucie): ``count`` times the player may
    gather every tableau card, shuffled, and deal them again ``per_pile`` to a
    pile from the first pile on (the last pile dealt to may get fewer)."""

    count: int = 0
    per_pile: int = 3


@dataclass(frozen=True, slots=True)
class DealStep:
    """One step of the deal: ``cards[i]`` cards to pile ``i`` of kind ``to``,
    of which the first ``face_down[i]`` lie face down, dealt in ``order``;
    ``card`` deals that one card (taken out of the deck first, as Black
    Hole's Ace of Spades); ``kings_to_bottom`` moves each pile's Kings under
    its other cards (Baker's Dozen); with ``right_to_left`` each row (or,
    dealt ``piles``, the piles) goes from the last pile to the first, and
    with ``face_down_first`` every pile's face-down cards are dealt before
    any face-up one (PySolFC's Klondike does both). The stock takes what is
    left, the next card on top."""

    to: Kind
    cards: tuple[int, ...]
    face_down: tuple[int, ...]
    order: DealOrder = DealOrder.ROWS
    card: Card | None = None
    kings_to_bottom: bool = False
    right_to_left: bool = False
    face_down_first: bool = False


@dataclass(frozen=True, slots=True)
class PysolDeal:
    """How PySolFC's numbered deals (``pysol:N``) lay a game's cards when
    that differs from its ``deal``: each step of the deal is dealt right to
    left and/or its face-down cards first (Klondike: both), so that the
    piles get the same numbers of cards, in PySolFC's order."""

    right_to_left: bool = False
    face_down_first: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    """A named variant of a description: ``changes`` maps a dotted field path
    of the JSON form to its new value (Golf's ``queens-on-kings``:
    ``{"hole.build.closed": null}``)."""

    name: str
    summary: str
    changes: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Description:
    """A whole patience game (see the module documentation)."""

    name: str
    title: str
    family: str
    summary: str
    tableau: Tableau
    deal: tuple[DealStep, ...]
    cards: Cards = Cards()
    foundations: Foundations = Foundations()
    cells: PileGroup = PileGroup()
    reserve: PileGroup = PileGroup()
    stock: Stock = Stock()
    waste: PileGroup = PileGroup()
    hole: PileGroup = PileGroup()
    hole_build: Build = Build(Direction.EITHER, SuitRule.ANY)
    #: With a number, the hole takes free cards in pairs whose ranks add up
    #: to it (a card of that rank alone), not by ``hole_build`` (Pyramid: 13).
    hole_pairs: int | None = None
    win: Win = Win.FOUNDATIONS
    move_order: MoveOrder = MoveOrder.BY_SOURCE
    redeals: Redeals = Redeals()
    deals: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    applied: tuple[str, ...] = field(default=())
    #: How PySolFC's numbered deals change the order of ``deal`` (Klondike:
    #: right to left, the face-down cards first); ``None``: in the same order.
    pysol_deal: PysolDeal | None = None
    #: Where the rules come from: the address of the page (pagat.com's or
    #: PySolFC's) that the description follows; ``None`` for a game of one's own.
    source: str | None = None

    def _group(self, kind: Kind) -> Tableau | Foundations | PileGroup | Stock:
        groups: dict[Kind, Tableau | Foundations | PileGroup | Stock] = {
            Kind.TABLEAU: self.tableau, Kind.FOUNDATION: self.foundations, Kind.CELL: self.cells,
            Kind.RESERVE: self.reserve, Kind.STOCK: self.stock, Kind.WASTE: self.waste, Kind.HOLE: self.hole,
        }
        return groups[kind]

    def count(self, kind: Kind) -> int:
        """How many piles of ``kind`` the game lays out."""
        return self._group(kind).count

    def layout(self, kind: Kind) -> Layout:
        """Where the piles of ``kind`` are drawn and how they fan."""
        return self._group(kind).layout

    def to_json(self) -> dict[str, Any]:
        """The description as a JSON object, in the form :meth:`from_json` reads."""
        return _write(self)

    @classmethod
    def from_json(cls, data: object) -> Description:
        """Read and check a description from its JSON object; a
        :class:`DescriptionError` names the field and what is wrong."""
        return _read(data)

    def dumps(self) -> str:
        """The JSON text of the description (two-space indent, a final newline)."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def rules_json(self) -> dict[str, Any]:
        """The JSON form of the game's rules alone: :meth:`to_json` without
        what names the game (:data:`NAMING_FIELDS`: its name, title, family,
        summary, options and the options applied) and without how standard
        deal numbers are read (``deals``, ``pysol-deal``), which decide which
        deal a seed gives, not how it is played.

        A description that uses a field the engine reads otherwise than it
        once did (:data:`RULE_REVISIONS`) has ``revisions`` too: each such
        field's ``section.field`` and the revision of its reading. No other
        description has it, and :meth:`to_json` never writes it (it is no
        field of a description, and :meth:`from_json` refuses it).

        >>> from cardtable.patience.registry import get
        >>> get("accordion").rules_json()["revisions"]
        {'tableau.moves': 2}
        >>> "revisions" in get("freecell").rules_json()
        False
        """
        data = self.to_json()
        for key in NAMING_FIELDS:
            del data[key]
        revisions = {f"{section}.{name}": revision for (section, name, value), revision in RULE_REVISIONS.items()
                     if isinstance(data.get(section), dict) and data[section].get(name) == value}
        if revisions:
            data["revisions"] = revisions
        return data

    @property
    def rules_key(self) -> str:
        """A stable identity of the game's rules: ``sha256:`` and the first
        16 hex digits of the SHA-256 of :meth:`rules_json` written compactly
        with its keys sorted. Two descriptions have the same key exactly
        when they play alike, whatever their names (a user's file of
        FreeCell with two cells has another key than FreeCell's). The
        results store keys a game's runs, studies, played games and figures
        by its name and this key.

        When the engine's reading of a field changes (:data:`RULE_REVISIONS`),
        the key of every description using that field changes with it, and
        only theirs: Accordion's key changed when a pile moved whole began to
        go by its top card, so figures and studied deals of the old reading
        are not taken for the new game's.

        >>> from cardtable.patience.registry import get
        >>> get("freecell").rules_key  # doctest: +ELLIPSIS
        'sha256:...'
        >>> get("golf").rules_key != get("golf").with_options("wrap").rules_key
        True
        """
        text = json.dumps(self.rules_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()[:16]

    def option(self, name: str) -> Option:
        """The option called ``name``; an unknown one raises :class:`DescriptionError`."""
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(option.name for option in self.options) or "none"
        raise DescriptionError(f"{self.name} has no option {clip(name, 30)}; its options: {known}")

    def with_options(self, *names: str) -> Description:
        """The description with the named options applied (in order)."""
        data = self.to_json()
        for name in names:
            for path, value in self.option(name).changes:
                _set_path(data, path, value)
        data["applied"] = [*self.applied, *names]
        return _read(data, options=False)


def load(path: str) -> Description:
    """Read a description from a JSON file; errors name the file and the field."""
    from cardtable._json import read_json_object

    try:
        with open(path, "rb") as handle:
            raw = handle.read(_MAX_FILE + 1)
    except OSError as error:
        raise DescriptionError(f"{path}: {(error.strerror or 'cannot be read').lower()}") from None
    if len(raw) > _MAX_FILE:
        raise DescriptionError(f"{path}: longer than {_MAX_FILE // 1024} KiB; not a game description")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DescriptionError(f"{path}: not UTF-8 text; not a game description") from None
    data = read_json_object(text, error=DescriptionError, what=path, nested="a description",
                            not_object=f"{path}: a game description is a JSON object")
    try:
        return Description.from_json(data)
    except DescriptionError as error:
        raise DescriptionError(f"{path}: {error}") from None


#: The longest description file read (a description is a few KiB).
_MAX_FILE = 1 << 20


# ----- writing ---------------------------------------------------------------------


def _rank_text(rank: int | None) -> str | None:
    return None if rank is None else RANK_NAMES[rank]


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _layout(layout: Layout) -> dict[str, Any]:
    places = None if layout.places is None else [[_number(x), _number(y)] for x, y in layout.places]
    return {"row": layout.row, "column": layout.column, "fan": layout.fan.value, "places": places}


def _build(build: Build) -> dict[str, Any]:
    data = {"direction": build.direction.value, "suit": build.suit.value, "wrap": build.wrap,
            "closed": _rank_text(build.closed)}
    if build.from_base:  # written only when set: the rules keys of the games without it stay as they were
        data["from-base"] = True
    return data


def _write(d: Description) -> dict[str, Any]:
    t, f, s = d.tableau, d.foundations, d.stock
    return {
        "name": d.name,
        "title": d.title,
        "family": d.family,
        "description": d.summary,
        "source": d.source,
        "cards": {"decks": d.cards.decks, "suits": "".join(suit.letter for suit in d.cards.suits)},
        "tableau": {"count": t.count, "layout": _layout(t.layout), "build": _build(t.build),
                    "run": None if t.run is None else _build(t.run), "moves": t.moves.value,
                    "empty": t.empty.value,
                    "covers": None if t.covers is None else [[i + 1 for i in over] for over in t.covers],
                    "reach": None if t.reach is None else list(t.reach), "pile-to-space": t.pile_to_space},
        "foundations": {"count": f.count, "layout": _layout(f.layout),
                        "base": "first-card" if f.base is None else _rank_text(f.base),
                        "build": _build(f.build), "may-return": f.may_return,
                        "complete-runs": f.complete_runs},
        "cells": {"count": d.cells.count, "layout": _layout(d.cells.layout)},
        "reserve": {"count": d.reserve.count, "layout": _layout(d.reserve.layout)},
        "stock": {"count": s.count, "layout": _layout(s.layout), "to": s.to.value, "draw": s.draw,
                  "passes": s.passes, "needs-no-empty-pile": s.needs_no_empty_pile},
        "waste": {"count": d.waste.count, "layout": _layout(d.waste.layout)},
        "hole": {"count": d.hole.count, "layout": _layout(d.hole.layout), "build": _build(d.hole_build),
                 "pairs": d.hole_pairs},
        "deal": [{"to": step.to.value, "cards": list(step.cards), "face-down": list(step.face_down),
                  "order": step.order.value, "card": None if step.card is None else str(step.card),
                  "kings-to-bottom": step.kings_to_bottom, "right-to-left": step.right_to_left,
                  "face-down-first": step.face_down_first} for step in d.deal],
        "win": d.win.value,
        "move-order": d.move_order.value,
        "redeals": {"count": d.redeals.count, "per-pile": d.redeals.per_pile},
        "deals": list(d.deals),
        "options": {option.name: {"summary": option.summary, "changes": dict(option.changes)}
                    for option in d.options},
        "applied": list(d.applied),
        "pysol-deal": None if d.pysol_deal is None else {
            "right-to-left": d.pysol_deal.right_to_left, "face-down-first": d.pysol_deal.face_down_first},
    }


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    node: Any = data
    parts = path.split(".")
    for part in parts[:-1]:
        if not isinstance(node, dict) or part not in node:
            raise DescriptionError(f"changes: no field {clip(path, 40)}")
        node = node[part]
    if not isinstance(node, dict) or parts[-1] not in node:
        raise DescriptionError(f"changes: no field {clip(path, 40)}")
    node[parts[-1]] = copy.deepcopy(value)


# ----- reading ---------------------------------------------------------------------

E = TypeVar("E", bound=Enum)
T = TypeVar("T")


class _Object:
    """A JSON object being read, with its path for the messages."""

    def __init__(self, data: object, path: str, fields: tuple[str, ...]) -> None:
        if not isinstance(data, dict):
            raise DescriptionError(f"{path or 'description'}: expected an object, not {_kind(data)}")
        unknown = sorted(set(data) - set(fields))
        if unknown:
            where = f"{path}." if path else ""
            raise DescriptionError(f"{where}{str(unknown[0])[:30]}: unknown field; the fields are "
                                   f"{', '.join(fields)}")
        self.data = data
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, read: Callable[[object, str], T], default: T) -> T:
        if key not in self.data:
            return default
        return read(self.data[key], self.where(key))

    def need(self, key: str, read: Callable[[object, str], T]) -> T:
        if key not in self.data:
            raise DescriptionError(f"{self.where(key)}: missing")
        return read(self.data[key], self.where(key))


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            type(None): "null"}.get(type(value), "a number")


def _int(low: int, high: int | None = None) -> Callable[[object, str], int]:
    def read(value: object, path: str) -> int:
        if type(value) is not int:
            raise DescriptionError(f"{path}: expected a whole number, not {_kind(value)}")
        if value < low or (high is not None and value > high):
            bound = f"{low} to {high}" if high is not None else f"at least {low}"
            raise DescriptionError(f"{path}: {value} is out of range ({bound})")
        return value
    return read


def _bool(value: object, path: str) -> bool:
    if type(value) is not bool:
        raise DescriptionError(f"{path}: expected true or false, not {_kind(value)}")
    return value


def _text(value: object, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DescriptionError(f"{path}: expected a non-empty string")
    return value


def _address(value: object, path: str) -> str:
    if not isinstance(value, str) or not value.startswith(("https://", "http://")) or len(value) > 300 \
            or any(char.isspace() for char in value):
        raise DescriptionError(f"{path}: expected a web address (https://...), not {clip(value, 40)}")
    return value


def _enum(cls: type[E]) -> Callable[[object, str], E]:
    def read(value: object, path: str) -> E:
        for member in cls:
            if member.value == value:
                return member
        names = ", ".join(str(member.value) for member in cls)
        raise DescriptionError(f"{path}: {clip(value, 30)} is not one of {names}")
    return read


def _rank(value: object, path: str) -> int:
    if type(value) is int and 1 <= value <= 13:
        return value
    if isinstance(value, str) and value.upper() in RANK_NAMES[1:]:
        return RANK_NAMES.index(value.upper())
    raise DescriptionError(f"{path}: {clip(value, 30)} is not a rank (A, 2 .. 9, T, J, Q, K)")


def _optional(read: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    def wrapped(value: object, path: str) -> T | None:
        return None if value is None else read(value, path)
    return wrapped


def _read_places(value: object, path: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list):
        raise DescriptionError(f"{path}: expected a list of [x, y] places, one per pile")
    places = []
    for index, place in enumerate(value):
        where = f"{path}[{index}]"
        if not isinstance(place, list) or len(place) != 2:
            raise DescriptionError(f"{where}: expected [x, y], two numbers in card units")
        for axis, number in zip("xy", place, strict=True):
            if type(number) not in (int, float) or not math.isfinite(number):
                raise DescriptionError(f"{where}: {axis} must be a number, not {_kind(number)}")
            if not 0 <= number <= _FARTHEST:
                raise DescriptionError(f"{where}: {axis} {number} is out of range (0 to {_FARTHEST})")
        places.append((float(place[0]), float(place[1])))
    return tuple(places)


#: The farthest a pile may lie from its group's corner, in card units.
_FARTHEST = 99


def _read_layout(value: object, path: str, default: Layout = Layout()) -> Layout:
    obj = _Object(value, path, ("row", "column", "fan", "places"))
    return Layout(obj.get("row", _int(0, 99), default.row), obj.get("column", _int(0, 99), default.column),
                  obj.get("fan", _enum(Fan), default.fan), obj.get("places", _optional(_read_places), None))


def _read_build(value: object, path: str, default: Build = Build()) -> Build:
    obj = _Object(value, path, ("direction", "suit", "wrap", "closed", "from-base"))
    return Build(obj.get("direction", _enum(Direction), default.direction),
                 obj.get("suit", _enum(SuitRule), default.suit),
                 obj.get("wrap", _bool, default.wrap),
                 obj.get("closed", _optional(_rank), default.closed),
                 obj.get("from-base", _bool, default.from_base))


def _read_redeals(value: object, path: str) -> Redeals:
    obj = _Object(value, path, ("count", "per-pile"))
    return Redeals(obj.get("count", _int(0, 10), 0), obj.get("per-pile", _int(1, 52), 3))


def _read_suits(value: object, path: str) -> tuple[Suit, ...]:
    if not isinstance(value, str) or not value:
        raise DescriptionError(f"{path}: expected suit letters, e.g. \"cdhs\" or \"sh\"")
    suits = []
    for char in value:
        try:
            suit = Suit.parse(char)
        except CardError:
            raise DescriptionError(f"{path}: {clip(char)} is not a suit (c, d, h, s)") from None
        if suit in suits:
            raise DescriptionError(f"{path}: {suit.letter} is given twice")
        suits.append(suit)
    return tuple(suits)


def _per_pile(value: object, path: str, count: int) -> tuple[int, ...]:
    if type(value) is int:
        value = [value] * count
    if not isinstance(value, list):
        raise DescriptionError(f"{path}: expected a number or a list of one number per pile")
    if len(value) != count:
        raise DescriptionError(f"{path}: {len(value)} numbers for {count} piles")
    return tuple(_int(0, 200)(item, f"{path}[{index}]") for index, item in enumerate(value))


def _read_card(value: object, path: str) -> Card:
    if not isinstance(value, str):
        raise DescriptionError(f"{path}: expected a card, e.g. \"As\"")
    try:
        return Card.parse(value)
    except CardError as error:
        raise DescriptionError(f"{path}: {error}") from None


_GROUP = ("count", "layout")
_ACE: int | None = 1
_ONE_PASS: int | None = 1


def _read(data: object, *, options: bool = True) -> Description:
    top = _Object(data, "", ("name", "title", "family", "description", "source", "cards", "tableau", "foundations",
                             "cells", "reserve", "stock", "waste", "hole", "deal", "win", "move-order", "redeals",
                             "deals", "options", "applied", "pysol-deal"))
    name = top.need("name", _text)
    cards_obj = _Object(top.data.get("cards", {}), "cards", ("decks", "suits"))
    cards = Cards(cards_obj.get("decks", _int(1, 2), 1), cards_obj.get("suits", _read_suits, Cards().suits))
    if 4 * cards.decks % len(cards.suits):
        raise DescriptionError(f"cards.suits: {len(cards.suits)} suits cannot share {cards.decks * 4} suits' "
                               f"worth of cards equally")

    tab = _Object(top.data.get("tableau"), "tableau",
                  ("count", "layout", "build", "run", "moves", "empty", "covers", "reach", "pile-to-space"))
    build = tab.get("build", _read_build, Build())
    count = tab.need("count", _int(1, 99))

    def read_covers(value: object, path: str) -> tuple[tuple[int, ...], ...]:
        if not isinstance(value, list) or len(value) != count:
            raise DescriptionError(f"{path}: expected a list of {count} lists of pile numbers, one per pile")
        covers = []
        for index, over in enumerate(value):
            where = f"{path}[{index}]"
            if not isinstance(over, list):
                raise DescriptionError(f"{where}: expected a list of pile numbers")
            numbers = tuple(_int(index + 2, count)(number, f"{where}") - 1 for number in over)
            covers.append(numbers)
        return tuple(covers)

    def read_reach(value: object, path: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            raise DescriptionError(f"{path}: expected a list of distances to the left, e.g. [1, 3]")
        reach = tuple(_int(1, count - 1 if count > 1 else 1)(item, f"{path}[{i}]") for i, item in enumerate(value))
        return tuple(sorted(set(reach), reverse=True))

    tableau = Tableau(
        count=count,
        layout=tab.get("layout", lambda v, p: _read_layout(v, p, Layout(fan=Fan.DOWN)), Layout(fan=Fan.DOWN)),
        build=build,
        run=tab.get("run", _optional(_read_build), None),
        moves=tab.get("moves", _enum(MoveUnit), MoveUnit.ONE),
        empty=tab.get("empty", _enum(Fill), Fill.ANY),
        covers=tab.get("covers", _optional(read_covers), None),
        reach=tab.get("reach", _optional(read_reach), None),
        pile_to_space=tab.get("pile-to-space", _bool, True),
    )

    fnd = _Object(top.data.get("foundations", {}), "foundations",
                  ("count", "layout", "base", "build", "may-return", "complete-runs"))

    def read_base(value: object, path: str) -> int | None:
        return None if value == "first-card" else _rank(value, path)

    foundations = Foundations(
        count=fnd.get("count", _int(0, 16), 4),
        layout=fnd.get("layout", _read_layout, Layout()),
        base=fnd.get("base", read_base, _ACE),
        build=fnd.get("build", lambda v, p: _read_build(v, p, Build(Direction.UP, SuitRule.SAME)),
                      Build(Direction.UP, SuitRule.SAME)),
        may_return=fnd.get("may-return", _bool, False),
        complete_runs=fnd.get("complete-runs", _bool, False),
    )

    def group(key: str, high: int, extra: tuple[str, ...] = ()) -> tuple[PileGroup, _Object]:
        obj = _Object(top.data.get(key, {}), key, _GROUP + extra)
        return PileGroup(obj.get("count", _int(0, high), 0), obj.get("layout", _read_layout, Layout())), obj

    cells, _ = group("cells", 16)
    reserve, _ = group("reserve", 16)
    waste, _ = group("waste", 1)
    hole, hole_obj = group("hole", 1, ("build", "pairs"))
    hole_pairs = hole_obj.get("pairs", _optional(_int(2, 26)), None)
    hole_build = hole_obj.get("build", lambda v, p: _read_build(v, p, Build(Direction.EITHER)),
                              Build(Direction.EITHER))

    stk = _Object(top.data.get("stock", {}), "stock",
                  ("count", "layout", "to", "draw", "passes", "needs-no-empty-pile"))
    stock = Stock(
        count=stk.get("count", _int(0, 1), 0),
        layout=stk.get("layout", _read_layout, Layout()),
        to=stk.get("to", _enum(StockTo), StockTo.NONE),
        draw=stk.get("draw", _int(1, 52), 1),
        passes=stk.get("passes", _optional(_int(1, 1000)), _ONE_PASS),
        needs_no_empty_pile=stk.get("needs-no-empty-pile", _bool, False),
    )
    counts = {Kind.TABLEAU: tableau.count, Kind.FOUNDATION: foundations.count, Kind.CELL: cells.count,
              Kind.RESERVE: reserve.count, Kind.STOCK: stock.count, Kind.WASTE: waste.count,
              Kind.HOLE: hole.count}

    raw_deal = top.need("deal", lambda v, p: v)
    if not isinstance(raw_deal, list) or not raw_deal:
        raise DescriptionError("deal: expected a list of steps, e.g. [{\"to\": \"tableau\", \"cards\": 6}]")
    steps = []
    for index, raw in enumerate(raw_deal):
        path = f"deal[{index}]"
        obj = _Object(raw, path, ("to", "cards", "face-down", "order", "card", "kings-to-bottom", "right-to-left",
                                  "face-down-first"))
        to = obj.need("to", _enum(Kind))
        if to in (Kind.STOCK,):
            raise DescriptionError(f"{path}.to: the stock takes the cards left over; deal to another pile")
        if counts[to] == 0:
            raise DescriptionError(f"{path}.to: the game has no {to.value} piles (count 0)")
        per_pile = partial(_per_pile, count=counts[to])
        step_cards = obj.need("cards", per_pile)
        face_down = obj.get("face-down", per_pile, (0,) * counts[to])
        for pile, (dealt, down) in enumerate(zip(step_cards, face_down, strict=True)):
            if down > dealt:
                raise DescriptionError(f"{path}.face-down[{pile}]: {down} face down of {dealt} cards dealt")
            if to is Kind.CELL and dealt > 1:
                raise DescriptionError(f"{path}.cards[{pile}]: a free cell holds one card, not {dealt}")
        card = obj.get("card", _optional(_read_card), None)
        if card is not None and (sum(step_cards) != 1 or card.suit not in cards.suits):
            raise DescriptionError(f"{path}.card: one fixed card of the game's suits goes to exactly one pile")
        steps.append(DealStep(to, step_cards, face_down, obj.get("order", _enum(DealOrder), DealOrder.ROWS),
                              card, obj.get("kings-to-bottom", _bool, False),
                              obj.get("right-to-left", _bool, False), obj.get("face-down-first", _bool, False)))

    def read_pysol_deal(value: object, path: str) -> PysolDeal:
        obj = _Object(value, path, ("right-to-left", "face-down-first"))
        return PysolDeal(obj.get("right-to-left", _bool, False), obj.get("face-down-first", _bool, False))

    pysol_deal = top.get("pysol-deal", _optional(read_pysol_deal), None)

    def read_options(value: object, path: str) -> tuple[Option, ...]:
        if not isinstance(value, dict):
            raise DescriptionError(f"{path}: expected an object of named options")
        options = []
        for option_name, body in value.items():
            obj = _Object(body, f"{path}.{option_name}", ("summary", "changes"))
            changes = obj.need("changes", lambda v, p: v)
            if not isinstance(changes, dict) or not changes:
                raise DescriptionError(f"{path}.{option_name}.changes: expected an object of field: value")
            options.append(Option(option_name, obj.get("summary", _text, option_name),
                                  tuple(changes.items())))
        return tuple(options)

    def read_names(value: object, path: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise DescriptionError(f"{path}: expected a list of names")
        return tuple(_text(item, f"{path}[{index}]") for index, item in enumerate(value))

    description = Description(
        name=name,
        title=top.get("title", _text, name),
        family=top.get("family", _text, "other"),
        summary=top.get("description", _text, name),
        source=top.get("source", _optional(_address), None),
        cards=cards, tableau=tableau, foundations=foundations, cells=cells, reserve=reserve, stock=stock,
        waste=waste, hole=hole, hole_build=hole_build, hole_pairs=hole_pairs, deal=tuple(steps), pysol_deal=pysol_deal,
        win=top.get("win", _enum(Win), Win.FOUNDATIONS),
        move_order=top.get("move-order", _enum(MoveOrder), MoveOrder.BY_SOURCE),
        redeals=top.get("redeals", _read_redeals, Redeals()),
        deals=top.get("deals", read_names, ()),
        options=top.get("options", read_options, ()),
        applied=top.get("applied", read_names, ()),
    )
    _check(description)
    for option in description.options if options else ():  # every option must give a playable game too
        try:
            description.with_options(option.name)
        except DescriptionError as error:
            raise DescriptionError(f"options.{option.name}: {error}") from None
    return description


def _check_build(build: Build, path: str, cards: Cards) -> None:
    colours = {suit.colour for suit in cards.suits}
    if build.direction is Direction.NONE:
        return
    if build.suit is SuitRule.ALTERNATE and colours != {Colour.RED, Colour.BLACK}:
        raise DescriptionError(f"{path}.suit: no card can follow alternate-colours: the game's suits are all "
                               f"{next(iter(colours)).name.lower()}")
    if build.suit is SuitRule.ANY_BUT_SAME and len(cards.suits) < 2:
        raise DescriptionError(f"{path}.suit: no card can follow any-but-same with one suit")


def _check(d: Description) -> None:
    """The checks that need more than one field: every message names the field."""
    cards = d.cards
    _check_build(d.tableau.build, "tableau.build", cards)
    if d.tableau.run is not None:
        _check_build(d.tableau.run, "tableau.run", cards)
    _check_build(d.foundations.build, "foundations.build", cards)
    for path, build in (("foundations.build", d.foundations.build), ("hole.build", d.hole_build)):
        if build.from_base:
            raise DescriptionError(f"{path}.from-base: only the tableau's rules count ranks from the "
                                   f"foundations' base")
    if d.tableau.run_rule.from_base or d.tableau.build.from_base:
        path = "tableau.build" if d.tableau.build.from_base else "tableau.run"
        if not d.foundations.count:
            raise DescriptionError(f"{path}.from-base: the game has no foundations to count ranks from")
        if d.foundations.base is None and not any(step.to is Kind.FOUNDATION for step in d.deal):
            raise DescriptionError(f"{path}.from-base: the foundations' base must be known from the deal "
                                   f"(a base rank, or a card dealt to the foundations)")
    if d.hole.count:
        _check_build(d.hole_build, "hole.build", cards)
        if d.hole_build.direction is Direction.NONE and d.hole_pairs is None:
            raise DescriptionError("hole.build.direction: none: no card could ever go to the hole")
    if d.foundations.count and d.foundations.build.direction is Direction.NONE and not d.foundations.complete_runs:
        raise DescriptionError("foundations.build.direction: none: no card past the first could go there")
    if d.tableau.empty is Fill.RESERVE and not d.reserve.count:
        raise DescriptionError("tableau.empty: reserve needs a reserve pile (reserve.count is 0)")
    if d.tableau.moves is MoveUnit.SUPERMOVE and d.tableau.run_rule.direction is Direction.NONE:
        raise DescriptionError("tableau.moves: supermove needs a build direction to make runs")
    dealt = sum(sum(step.cards) for step in d.deal)
    if dealt > cards.total:
        decks = "1 deck holds" if cards.decks == 1 else f"{cards.decks} decks hold"
        raise DescriptionError(f"deal: the piles take {dealt} cards, {decks} {cards.total}")
    left = cards.total - dealt
    if left and not d.stock.count:
        raise DescriptionError(f"deal: {left} cards are left over and the game has no stock (stock.count 0)")
    if d.stock.count and d.stock.to is StockTo.NONE and left:
        raise DescriptionError("stock.to: none, but the stock holds cards; say where it deals")
    if d.stock.to is StockTo.WASTE and not d.waste.count:
        raise DescriptionError("stock.to: waste needs a waste pile (waste.count is 0)")
    if d.stock.to is StockTo.HOLE and not d.hole.count:
        raise DescriptionError("stock.to: hole needs a hole (hole.count is 0)")
    if d.waste.count and d.stock.to is not StockTo.WASTE:
        raise DescriptionError("waste.count: a waste needs a stock that deals to it (stock.to: waste)")
    if d.redeals.count and d.stock.count:
        raise DescriptionError("redeals.count: a game with a stock deals from it (D); redeals need no stock")
    if d.redeals.count and d.redeals.per_pile * d.tableau.count < cards.total:
        raise DescriptionError(f"redeals.per-pile: {d.tableau.count} piles of {d.redeals.per_pile} hold "
                               f"{d.redeals.per_pile * d.tableau.count} cards, the game has {cards.total}")
    if d.stock.needs_no_empty_pile and d.stock.to is not StockTo.TABLEAU:
        raise DescriptionError("stock.needs-no-empty-pile: only a stock that deals to the tableau has it")
    if d.win is Win.FOUNDATIONS and not d.hole.count:
        capacity = 13 * d.foundations.count
        if capacity != cards.total:
            raise DescriptionError(f"foundations.count: {d.foundations.count} foundations hold {capacity} "
                                   f"cards, the game has {cards.total} to win with")
    for kind in Kind:
        count, layout = d.count(kind), d.layout(kind)
        if layout.places is not None and len(layout.places) != count:
            raise DescriptionError(f"{kind.value}.layout.places: {len(layout.places)} places for {count} "
                                   f"pile{'s' * (count != 1)}")
    for step in d.deal:
        if step.card is not None and step.to not in (Kind.FOUNDATION, Kind.HOLE):
            raise DescriptionError("deal.card: a fixed card goes to a foundation or the hole")
