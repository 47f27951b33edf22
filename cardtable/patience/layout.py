"""Where every pile of a patience game lies on the table: the one placement
that every face (the text of ``cardtable show``, the browser table, the
terminal app, the docs' pictures) draws from.

:func:`table_layout` reads the description's layouts (:class:`Layout`: a
group's row and column, how it fans, and optionally each pile's own place)
and gives each pile a :class:`PlacedPile`: its :class:`Place` (the same
kind and index as moves use), the top-left corner ``x, y`` of its box and
the box's ``width`` and ``height``. Every number is in card units: x 1.0 is
one card's width plus the gap between two cards, y 1.0 one card's height
plus the gap. A face that draws cards ``w`` by ``h`` pixels with a gap
``g`` puts a pile at ``(x * (w + g), y * (h + g))``.

The contract:

- A pile's first (bottom) card lies at ``x, y``. A pile that does not fan
  shows its top card there and its box is one card (1 by 1).
- A pile that fans (:attr:`PlacedPile.fan`) spreads its cards down or to
  the right, each :data:`FAN_STEP` card units past the last, and its box is
  the room reserved for that: ``height`` (fanning down) or ``width``
  (fanning right) holds :attr:`PlacedPile.room` cards at that step. A face
  whose pile holds more cards than that spreads them closer, so that the
  pile stays inside its box; the room is what the rules let a pile grow to
  in play, not a bound on it.
- Boxes never overlap, except where the description says that one pile lies
  over another (:attr:`PlacedPile.covered_by`, from ``tableau.covers``:
  Pyramid's and TriPeaks' rows). :attr:`TableLayout.piles` lists the piles
  in drawing order, a pile before the piles that lie over it.
- The table is :attr:`TableLayout.width` by :attr:`TableLayout.height` card
  units: every box lies inside it.

How the description's layouts become places: the layout rows are laid top
to bottom, each as tall as its tallest box needs (a fanned row's room, so a
fanned row never runs into the row below it). In a row each group starts at
its column; a group that would overlap a group to its left in the row moves
right (by half cards) until it does not. A group's piles stand side by side
(one card apart), or, when they fan right, one under the other; a group with
``places`` puts each pile at its own ``(x, y)`` from the group's corner, and
its boxes may overlap only where one pile covers the other
(:class:`DescriptionError` otherwise, naming the field).

>>> from cardtable.patience.registry import get
>>> table = table_layout(get("pyramid"))
>>> [(str(p.place), p.x, p.y) for p in table.piles[:3]]
[('1', 3.0, 0.0), ('2', 2.5, 0.5), ('3', 3.5, 0.5)]
>>> [str(place) for place in table.piles[0].covered_by]
['2', '3']
>>> table.width, table.height
(7.0, 5.0)
>>> pile = table_layout(get("klondike")).pile(Place(Kind.TABLEAU, 6))
>>> pile.fan.value, pile.room, pile.height
('down', 19, 5.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardtable.patience.description import Description, DescriptionError, Direction, Fan, Kind
from cardtable.patience.moves import Place

__all__ = ["FAN_STEP", "PlacedPile", "TableLayout", "table_layout"]

#: How far a fanned card lies past the one under it, in card units.
FAN_STEP = 0.25
#: The cards a fanned stock or hole has room for (its last few cards).
_FANNED_FEW = 3
#: Boxes closer than this are taken as touching, not overlapping.
_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class PlacedPile:
    """One pile on the table (see the module documentation): its place,
    the top-left corner and size of its box in card units, how it fans, the
    cards its box has room for, and the piles that lie over it."""

    place: Place
    x: float
    y: float
    width: float
    height: float
    fan: Fan
    room: int
    covered_by: tuple[Place, ...] = ()

    @property
    def name(self) -> str:
        """The pile's name in move notation (``1``, ``a``, ``F1``, ``S``)."""
        return str(self.place)

    @property
    def covered(self) -> bool:
        """True when other piles lie over this one (and overlap its box)."""
        return bool(self.covered_by)

    def overlaps(self, other: PlacedPile) -> bool:
        """True when the two piles' boxes share some area."""
        return (self.x < other.x + other.width - _EPSILON and other.x < self.x + self.width - _EPSILON
                and self.y < other.y + other.height - _EPSILON and other.y < self.y + self.height - _EPSILON)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Every pile of a game on the table, in drawing order, and the size of
    the table in card units."""

    piles: tuple[PlacedPile, ...]
    width: float
    height: float

    def pile(self, place: Place) -> PlacedPile:
        """The placed pile at ``place``; a place the game does not have raises ``KeyError``."""
        for pile in self.piles:
            if pile.place == place:
                return pile
        raise KeyError(str(place))


def _room(description: Description, kind: Kind) -> int:
    """The cards a fanned pile of ``kind`` has room for: the most dealt to one
    pile, and a tableau that builds a whole suit's run on top (12 more); a
    foundation's 13; the waste's deal."""
    dealt = [0] * description.count(kind)
    for step in description.deal:
        if step.to is kind:
            dealt = [have + more for have, more in zip(dealt, step.cards, strict=True)]
    most = max(dealt, default=0)
    if kind is Kind.TABLEAU:
        return max(1, most + (12 if description.tableau.build.direction is not Direction.NONE else 0))
    if kind is Kind.FOUNDATION:
        return 13
    if kind is Kind.WASTE:
        return description.stock.draw
    if kind is Kind.RESERVE:
        return max(1, most)
    if kind is Kind.CELL:
        return 1
    return _FANNED_FEW


def _spread(room: int) -> float:
    return 1 + (room - 1) * FAN_STEP


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return (a[0] < b[0] + b[2] - _EPSILON and b[0] < a[0] + a[2] - _EPSILON
            and a[1] < b[1] + b[3] - _EPSILON and b[1] < a[1] + a[3] - _EPSILON)


def table_layout(description: Description) -> TableLayout:
    """Every pile of ``description`` placed on the table (see the module
    documentation for the contract); places that overlap where no pile
    covers the other raise :class:`DescriptionError` naming the field."""
    covers = description.tableau.covers or ()
    kinds = [kind for kind in Kind if description.count(kind)]
    order = {kind: number for number, kind in enumerate(Kind)}
    rows: dict[int, list[Kind]] = {}
    for kind in kinds:
        rows.setdefault(description.layout(kind).row, []).append(kind)
    placed: dict[Place, PlacedPile] = {}
    top = 0.0
    for row in sorted(rows):
        taken: list[tuple[float, float, float, float]] = []  # x, y, width, height in the row
        bottom = 0.0
        for kind in sorted(rows[row], key=lambda k: (description.layout(k).column, order[k])):
            layout = description.layout(kind)
            count = description.count(kind)
            room = _room(description, kind) if layout.fan is not Fan.NONE else 1
            width = _spread(room) if layout.fan is Fan.RIGHT else 1.0
            height = _spread(room) if layout.fan is Fan.DOWN else 1.0
            if layout.places is not None:
                local = list(layout.places)
                _check_places(description, kind, local, width, height)
            elif layout.fan is Fan.RIGHT:
                local = [(0.0, float(index)) for index in range(count)]
            else:
                local = [(float(index), 0.0) for index in range(count)]
            x0 = float(layout.column)
            while True:  # move right past any group of the row this one would overlap
                boxes = [(x0 + x, y, width, height) for x, y in local]
                push = max((other[0] + other[2] - box[0] for box in boxes for other in taken
                            if _overlap(box, other)), default=0.0)
                if push <= 0:
                    break
                x0 += math.ceil(push * 2 - _EPSILON) / 2
            taken.extend(boxes)
            for index, (x, y, w, h) in enumerate(boxes):
                over = covers[index] if kind is Kind.TABLEAU and covers else ()
                place = Place(kind, index)
                placed[place] = PlacedPile(place, x, top + y, w, h, layout.fan, room,
                                           tuple(Place(Kind.TABLEAU, j) for j in over))
                bottom = max(bottom, y + h)
        top += bottom
    piles = tuple(placed[Place(kind, index)] for kind in kinds for index in range(description.count(kind)))
    return TableLayout(piles, max((p.x + p.width for p in piles), default=0.0),
                       max((p.y + p.height for p in piles), default=0.0))


def _check_places(description: Description, kind: Kind, local: list[tuple[float, float]],
                  width: float, height: float) -> None:
    covers = description.tableau.covers if kind is Kind.TABLEAU else None
    for j, (xj, yj) in enumerate(local):
        for i in range(j):
            xi, yi = local[i]
            if not _overlap((xi, yi, width, height), (xj, yj, width, height)):
                continue
            if covers is not None and (j in covers[i] or i in covers[j]):
                continue
            raise DescriptionError(f"{kind.value}.layout.places[{j}]: pile {Place(kind, j)} overlaps pile "
                                   f"{Place(kind, i)}, and neither covers the other (tableau.covers)")
