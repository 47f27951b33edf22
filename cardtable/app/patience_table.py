"""Any patience game's table as one Textual widget, drawn from the game's
layout (:func:`cardtable.patience.layout.table_layout`) and the player's
view (:meth:`PatienceGame.view <cardtable.patience.PatienceGame.view>`): the
widget never holds a face-down card, so it cannot draw one.

Cards look as at Klondike's table (:mod:`cardtable.app.table`, whose
:class:`~cardtable.app.table.Canvas`, :func:`~cardtable.app.table.draw_column`
and :class:`~cardtable.app.table.PointerTable` draw and click here too): one
row a card, rank and suit on a white face, backs in blue. Above each pile
is its key, the pile's name in move notation (``1``..``9`` and ``0`` for
the tenth pile when there are ten or fewer, else the pile's number; ``a``..
for free cells; ``F``, ``W``, ``H``, ``R``; ``D`` over the stock, the key
that deals).

A card unit of the layout is a column of the table across (a seventh of
the width or so, within bounds) and four rows down: a fanned card is a
row, as the layout's fan step is a quarter card. Rows that no pile uses
are dropped but one, so Klondike's rows come out as Klondike's app draws
them, and Pyramid's rows two apart, the key over each card.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.reactive import reactive

from cardtable.app.table import Canvas, PointerTable, column_width, draw_column
from cardtable.cards import Card
from cardtable.patience.description import Description, Fan, Kind
from cardtable.patience.engine import PatienceView, PileView
from cardtable.patience.layout import FAN_STEP, PlacedPile, TableLayout
from cardtable.patience.moves import RECYCLE, Move, Place

__all__ = ["PatienceMarks", "PatienceTable", "PileSpot", "hint_marks", "pile_key"]

#: Text rows a card unit of the layout takes down the screen (a fanned card a row).
ROWS_PER_UNIT = round(1 / FAN_STEP)

_LABEL = Style(color="grey58")
_BACK = Style(color="bright_white", bgcolor="blue")


@dataclass(frozen=True)
class PileSpot:
    """A place on the table: a pile and the index of a card in it
    (``depth``, from the bottom; -1 for the pile as a whole)."""

    place: Place
    depth: int = -1


@dataclass
class PatienceMarks:
    """What the table highlights: the cards picked up, and the cards a hint
    moves with the piles they go to. Cards are marked where they lie (two
    decks hold two of a card)."""

    held: frozenset[PileSpot] = frozenset()
    hinted: frozenset[PileSpot] = frozenset()
    hint_places: frozenset[Place] = field(default_factory=frozenset)

    @property
    def cursor(self) -> Hashable | None:
        """No keyboard cursor: keys name piles."""
        return None

    def is_held(self, spot: Hashable, card: Card | None) -> bool:
        """True when the card at ``spot`` is picked up."""
        return spot in self.held

    def is_hinted(self, spot: Hashable, card: Card | None) -> bool:
        """True when the hint moves the card at ``spot``, or ``spot`` is where it goes."""
        return spot in self.hinted or (isinstance(spot, PileSpot) and spot.place in self.hint_places)


def pile_key(place: Place, description: Description) -> str:
    """The key that names ``place`` (shown over it): the move notation's
    name, but ``0`` for the tenth of ten or fewer tableau piles, ``F`` for
    every foundation, ``R`` for a lone reserve pile and ``D`` for the stock.

    >>> from cardtable.patience.registry import get
    >>> tableau = Place(Kind.TABLEAU, 9)
    >>> pile_key(tableau, get("spider")), pile_key(tableau, get("pyramid"))
    ('0', '10')
    >>> pile_key(Place(Kind.RESERVE), get("canfield"))
    'R'
    """
    if place.kind is Kind.TABLEAU and place.index == 9 and description.tableau.count <= 10:
        return "0"
    if place.kind is Kind.RESERVE and description.reserve.count == 1:
        return "R"
    if place.kind is Kind.FOUNDATION:
        return "F"
    if place.kind is Kind.STOCK:
        return "D"
    return str(place)


def _row_map(layout: TableLayout, *, gaps: bool = True, sizes: dict[Place, int] | None = None) -> dict[int, int]:
    """Text row of the layout's rows (a card unit is :data:`ROWS_PER_UNIT`
    rows) to text row on the screen: rows no pile draws on are dropped, but
    one between two piles one above the other (with ``gaps``). A pile that
    fans down keeps the rows of its whole box, or, given the ``sizes`` of
    the piles, the rows its cards take now."""
    used: set[int] = set()
    last = 0
    for pile in layout.piles:
        top = round(pile.y * ROWS_PER_UNIT)
        box = round(pile.height * ROWS_PER_UNIT)
        if pile.fan is Fan.DOWN and sizes is not None:
            box = min(box, 1 + max(1, sizes[pile.place]))
        bottom = top + (box if pile.fan is Fan.DOWN else 2)
        last = max(last, top + round(pile.height * ROWS_PER_UNIT))
        used.update(range(top, bottom))
    rows: dict[int, int] = {}
    screen, blank = 0, False
    for row in range(last + 1):
        if row in used:
            rows[row] = screen
            screen += 1
            blank = False
        elif gaps and not blank and screen:
            rows[row] = screen
            screen += 1
            blank = True
        else:
            rows[row] = screen
    return rows


class PatienceTable(PointerTable):
    """Draws ``view`` on ``layout`` with ``marks``, and posts
    :class:`PatienceTable.Clicked` for every click on a place and
    :class:`PatienceTable.Dragged` for every drag (see
    :class:`~cardtable.app.table.PointerTable`)."""

    DEFAULT_CSS = "PatienceTable { height: 1fr; width: 1fr; }"

    #: What the player sees; every assignment redraws.
    view: reactive[PatienceView | None] = reactive(None, always_update=True)
    #: What is highlighted.
    marks: reactive[PatienceMarks] = reactive(PatienceMarks)

    class Clicked(Message):
        """A click on ``spot``; ``clicks`` is 2 for a double click."""

        def __init__(self, spot: PileSpot, clicks: int) -> None:
            super().__init__()
            self.spot = spot
            self.clicks = clicks

    class Dragged(Message):
        """A drag from ``source`` to ``target`` (None: off the places)."""

        def __init__(self, source: PileSpot, target: PileSpot | None) -> None:
            super().__init__()
            self.source = source
            self.target = target

    def __init__(self, layout: TableLayout, view: PatienceView, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.table_layout = layout
        self.set_reactive(PatienceTable.view, view)
        self.ascii_only = ascii_only
        self._roomy_rows = _row_map(layout)
        self._rows = self._roomy_rows
        self._room_right = {p.place: _room_right(layout, p) for p in layout.piles if p.fan is Fan.RIGHT}
        self._bottom = max((p.y + p.height for p in layout.piles), default=0.0)
        self._halves = any(p.x % 1 for p in layout.piles)

    def clicked(self, spot: Hashable, clicks: int) -> None:
        assert isinstance(spot, PileSpot)
        self.post_message(self.Clicked(spot, clicks))

    def dragged(self, source: Hashable, target: Hashable | None) -> None:
        assert isinstance(source, PileSpot) and (target is None or isinstance(target, PileSpot))
        self.post_message(self.Dragged(source, target))

    def render(self) -> Text:
        width, height = max(1, self.size.width), max(1, self.size.height)
        column = column_width(width - 1, max(1.0, self.table_layout.width))
        if self._halves:  # piles half a column apart (Pyramid's rows) stand evenly on an even column
            column -= column % 2
        canvas = Canvas(width, height, self.marks, ascii_only=self.ascii_only, column=column)
        view = self.view
        self._rows = self._roomy_rows
        if view is not None and max(self._rows.values(), default=0) >= height:  # too short: as the cards lie
            sizes = {pile.place: len(pile) for pile in view.piles}
            self._rows = _row_map(self.table_layout, sizes=sizes)
            if max(self._rows.values(), default=0) >= height:
                self._rows = _row_map(self.table_layout, gaps=False, sizes=sizes)
        if view is not None:
            piles = {pile.place: pile for pile in view.piles}
            # the empty stock's sign: turn the waste over now, or never again (a bare slot: nothing to turn yet)
            if RECYCLE in view.legal_moves:
                sign = "R" if canvas.ascii_only else "↻"
            else:
                sign = ("X" if canvas.ascii_only else "✕") if view.passes_left == 0 else "--"
            for placed in self.table_layout.piles:
                self._draw(canvas, placed, piles[placed.place], view.description, sign)
        self._hits = canvas.hits
        return canvas.picture()

    def _draw(self, canvas: Canvas, placed: PlacedPile, pile: PileView, description: Description,
              stock_sign: str) -> None:
        place = placed.place
        x = 1 + round(placed.x * canvas.column)
        top = round(placed.y * ROWS_PER_UNIT)
        y = self._rows[top]
        canvas.put(x, y, f" {pile_key(place, description)}".ljust(canvas.cell), _LABEL, PileSpot(place))
        y += 1
        cards: list[Card | None] = [None] * pile.face_down + list(pile.cards)
        if place.kind is Kind.STOCK:
            self._draw_stock(canvas, x, y, pile, stock_sign)
        elif placed.fan is Fan.DOWN:
            bottom = round((placed.y + placed.height) * ROWS_PER_UNIT)
            last = placed.y + placed.height >= self._bottom - 1e-9
            rows = canvas.height - y if last else max(1, self._rows[bottom] - y)
            draw_column(canvas, x, y, rows, cards, pile.face_down, lambda index: PileSpot(place, index))
            for row in range(y + len(cards), y + rows):  # a click below the cards is a click on the pile
                canvas.hits.append((row, x, x + canvas.cell, PileSpot(place)))
        elif placed.fan is Fan.RIGHT:
            self._draw_fanned_right(canvas, x, y, placed, cards)
        elif not cards:
            canvas.empty(x, y, "--", PileSpot(place))
        else:
            self._draw_one(canvas, x, y, cards, len(cards) - 1, place)

    def _draw_one(self, canvas: Canvas, x: int, y: int, cards: list[Card | None], index: int, place: Place) -> None:
        card, spot = cards[index], PileSpot(place, index)
        if card is None:
            canvas.put(x, y, canvas.back * canvas.cell, canvas.mark(_BACK, spot, None), spot)
        else:
            canvas.card(x, y, card, spot)

    def _draw_stock(self, canvas: Canvas, x: int, y: int, pile: PileView, sign: str) -> None:
        """The stock: a back with its count, or, empty, ``sign``: turn the waste over, no pass left, or none."""
        spot = PileSpot(pile.place)
        if len(pile):
            canvas.put(x, y, f"{canvas.back}{len(pile):>2} ".ljust(canvas.cell), canvas.mark(_BACK, spot, None), spot)
        else:
            canvas.empty(x, y, sign, spot)

    def _draw_fanned_right(self, canvas: Canvas, x: int, y: int, placed: PlacedPile, cards: list[Card | None]) -> None:
        """A pile fanned to the right: its cards a few characters apart, the
        top one whole, in the room up to the next pile on its right (closer
        when they would not fit; the bottom ones left out when even then)."""
        place = placed.place
        if not cards:
            canvas.empty(x, y, "--", PileSpot(place))
            return
        room_right = self._room_right[place]
        width = canvas.width - x - 1 if room_right is None else round(room_right * canvas.column) - 1
        step = max(3, round(FAN_STEP * canvas.column))
        if (len(cards) - 1) * step + canvas.cell > width:
            step = 3
        room = max(1, (width - canvas.cell) // step + 1)
        first = max(0, len(cards) - room)
        for index in range(first, len(cards) - 1):
            card, spot = cards[index], PileSpot(place, index)
            if card is None:
                canvas.put(x, y, canvas.back * step, canvas.mark(_BACK, spot, None), spot)
            else:
                text, style = canvas.face(card)
                canvas.put(x, y, f" {text}".ljust(step)[:step], canvas.mark(style, spot, card), spot)
            x += step
        self._draw_one(canvas, x, y, cards, len(cards) - 1, place)


def _room_right(layout: TableLayout, placed: PlacedPile) -> float | None:
    """The room, in card units, a pile fanned to the right may take: up to the
    next pile on its right in the same rows (None: none, the screen's edge)."""
    right = [p.x - placed.x for p in layout.piles if p.x > placed.x + 1e-9
             and p.y < placed.y + placed.height - 1e-9 and placed.y < p.y + p.height - 1e-9]
    return min(right) if right else None


def hint_marks(view: PatienceView, move: Move | None) -> PatienceMarks:
    """The marks of a hint: the cards ``move`` takes where they lie (the stock
    for a deal), and the pile they go to."""
    if move is None:
        return PatienceMarks()
    piles = {pile.place: pile for pile in view.piles}
    if move.is_deal or move.is_recycle:
        return PatienceMarks(hint_places=frozenset({Place(Kind.STOCK)}))
    spots: set[PileSpot] = set()
    for source, count in ((move.source, move.count), (move.pair, 1)):
        if source is not None:
            size = len(piles[source])
            spots.update(PileSpot(source, index) for index in range(size - count, size))
    assert move.target is not None
    targets = {p for p in piles if p.kind is Kind.FOUNDATION} if move.target.index < 0 else {move.target}
    return PatienceMarks(hinted=frozenset(spots), hint_places=frozenset(targets))
