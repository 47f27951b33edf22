"""The Klondike table as one Textual widget: it draws a game and says which
place (a pile and a card in it, the stock, the waste, a foundation) lies
under a point, so the app can turn clicks into moves.

Every card is one row: its rank and suit in red or black on a white face,
face-down cards as backs. A pile too tall for the screen shows its face-down
cards as one row with their count. Columns widen with the terminal.

The keyboard cursor walks the same places: :func:`step_cursor` and
:func:`clamp_cursor` say where it goes.

The drawing and the mouse are shared with every patience game's table
(:mod:`cardtable.app.patience_table`): :class:`Canvas` draws cards, backs
and empty places with their marks, :func:`draw_column` a pile that fans
down, and :class:`PointerTable` turns presses, releases and clicks into
clicks on places and drags between them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cardtable.cards import Card, Suit
from cardtable.klondike import FOUNDATION, STOCK, WASTE, KlondikeGame, Move

__all__ = ["Canvas", "CardMarks", "Marks", "PointerTable", "Spot", "TableView", "clamp_cursor", "column_width",
           "draw_column", "step_cursor"]

#: Rows above the piles: the stock, waste and foundations row, a gap, the pile numbers.
PILE_TOP = 3


@dataclass(frozen=True)
class Spot:
    """A place on the table: a pile (0..6) and the index of a card in it
    (``depth``; -1 for the empty space of a pile), the stock, the waste, or
    the foundation of ``suit``."""

    place: int
    depth: int = -1
    suit: Suit | None = None


@dataclass
class Marks:
    """What the table highlights: the keyboard cursor, the cards picked up
    and the cards a hint names (with the place they go)."""

    cursor: Spot | None = None
    held: set[Card] = field(default_factory=set)
    hinted: set[Card] = field(default_factory=set)
    hint_places: set[Spot] = field(default_factory=set)

    @classmethod
    def of(cls, game: KlondikeGame, *, cursor: Spot, held: Iterable[Card] = (), hint: Move | None = None) -> Marks:
        """The marks of ``game`` with the cursor at ``cursor``, the ``held``
        cards picked up and ``hint`` lit up (when still legal: the cards it
        moves and where they go, or the stock for a draw).

        >>> game = KlondikeGame.from_seed(7)
        >>> marks = Marks.of(game, cursor=Spot(0, 0), hint=Move.parse("D"))
        >>> marks.hint_places == {Spot(STOCK)}, marks.hinted
        (True, set())
        """
        marks = cls(cursor=cursor, held=set(held))
        if hint is not None and game.is_legal(hint):
            if hint.is_draw or hint.is_recycle:
                marks.hint_places.add(Spot(STOCK))
            else:
                marks.hinted = set(game.moved_cards(hint))
                marks.hint_places.add(_target_spot(game, hint))
        return marks

    def is_held(self, spot: Hashable, card: Card | None) -> bool:
        """True when ``card`` is picked up."""
        return card is not None and card in self.held

    def is_hinted(self, spot: Hashable, card: Card | None) -> bool:
        """True when the hint names ``card``, or ``spot`` is where it goes."""
        return (card is not None and card in self.hinted) or spot in self.hint_places


class CardMarks(Protocol):
    """What a table highlights, as :class:`Canvas` asks it: the cursor's
    place, and whether a card (at a place) is picked up or named by a hint."""

    @property
    def cursor(self) -> Hashable | None: ...

    def is_held(self, spot: Hashable, card: Card | None) -> bool: ...

    def is_hinted(self, spot: Hashable, card: Card | None) -> bool: ...


def _target_spot(game: KlondikeGame, move: Move) -> Spot:
    """Where ``move`` puts its cards: a foundation, or the top of a pile."""
    if move.target == FOUNDATION:
        card = game.moved_cards(move)[0]
        return Spot(FOUNDATION, suit=card.suit)
    pile = game.tableau[move.target]
    return Spot(move.target, len(pile) - 1)


# ----- the cursor --------------------------------------------------------------------------------


def _top_row() -> list[Spot]:
    """The top row, left to right: the stock, the waste and the four foundations."""
    return [Spot(STOCK), Spot(WASTE), *(Spot(FOUNDATION, suit=s) for s in Suit)]


def step_cursor(game: KlondikeGame, spot: Spot, across: int, down: int) -> Spot:
    """Where the cursor at ``spot`` goes ``across`` columns (-1, 0, 1) or
    ``down`` rows: the top row is stock, waste and the four foundations;
    below are the piles, where up and down walk the face-up run (up from a
    pile's first face-up card goes to the top row).

    >>> game = KlondikeGame.from_seed(7)
    >>> step_cursor(game, Spot(0, 0), 1, 0)
    Spot(place=1, depth=1, suit=None)
    >>> step_cursor(game, Spot(1, 1), 0, -1) == Spot(WASTE)
    True
    """
    top_row = _top_row()
    if spot.place in (STOCK, WASTE, FOUNDATION):
        column = top_row.index(spot) if spot in top_row else 0
        pile = column if column < 2 else column + 1
        if across:
            return top_row[(column + across) % len(top_row)]
        if down > 0:
            return Spot(pile, len(game.tableau[pile]) - 1)
        return spot
    pile = spot.place
    cards, down_count = game.tableau[pile], game.face_down[pile]
    if across:
        pile = (pile + across) % 7
        return Spot(pile, len(game.tableau[pile]) - 1)
    if down < 0:
        if spot.depth > down_count:
            return Spot(pile, spot.depth - 1)
        return top_row[pile if pile < 2 else min(pile - 1, 5)]
    if spot.depth < len(cards) - 1:
        return Spot(pile, spot.depth + 1)
    return spot


def clamp_cursor(game: KlondikeGame, spot: Spot) -> Spot:
    """``spot``, or the top of its pile when the card it was on is gone or face down.

    >>> clamp_cursor(KlondikeGame.from_seed(7), Spot(6, 2))
    Spot(place=6, depth=6, suit=None)
    """
    if 0 <= spot.place < 7:
        cards, down = game.tableau[spot.place], game.face_down[spot.place]
        if not down <= spot.depth < len(cards):
            return Spot(spot.place, len(cards) - 1)
    return spot


# ----- drawing -----------------------------------------------------------------------------------

_RED = Style(color="red3", bgcolor="white", bold=True)
_BLACK = Style(color="black", bgcolor="white", bold=True)
_BACK = Style(color="bright_white", bgcolor="blue")
_EMPTY = Style(color="grey50", bgcolor="grey19")
_LABEL = Style(color="grey58")
_CURSOR = Style(reverse=True, underline=True)
_HELD = Style(bgcolor="yellow")
_HINT = Style(bgcolor="green3")


class Canvas:
    """A grid of styled characters the size of the widget, the places drawn
    on it (for clicks), and the measures and marks every area draws with:
    ``column`` is the width of a column of the table (default: a seventh of
    the width, within bounds), a card is ``cell`` characters wide."""

    def __init__(self, width: int, height: int, marks: CardMarks, *, ascii_only: bool,
                 column: int | None = None) -> None:
        self.width, self.height = width, height
        self.grid: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]
        self.hits: list[tuple[int, int, int, Hashable]] = []  # (y, x0, x1, spot)
        self.marks = marks
        self.ascii_only = ascii_only
        self.column = column_width(width) if column is None else column
        self.cell = max(4, min(8, self.column - 2))
        self.back = "#" if ascii_only else "░"

    def x(self, column: int) -> int:
        """The first cell of a column of the table."""
        return 1 + column * self.column

    def put(self, x: int, y: int, text: str, style: Style | None, spot: Hashable | None = None) -> None:
        """Write ``text`` at (x, y), clipped to the grid; ``spot`` is what a click there means."""
        if not 0 <= y < self.height:
            return
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                self.grid[y][x + i] = (char, style)
        if spot is not None:
            self.hits.append((y, x, x + len(text), spot))

    def mark(self, style: Style, spot: Hashable, card: Card | None) -> Style:
        """``style`` with the marks of ``card`` at ``spot``: picked up, hinted, under the cursor."""
        marks = self.marks
        if marks.is_held(spot, card):
            style = style + _HELD
        elif marks.is_hinted(spot, card):
            style = style + _HINT
        if marks.cursor == spot:
            style = style + _CURSOR
        return style

    def face(self, card: Card) -> tuple[str, Style]:
        """A card's face: its name and its colour."""
        text = str(card) if self.ascii_only else card.symbol()
        return text, _RED if card.is_red else _BLACK

    def card(self, x: int, y: int, card: Card, spot: Hashable) -> None:
        """A whole card, face up, with its marks."""
        text, style = self.face(card)
        self.put(x, y, f" {text}".ljust(self.cell)[:self.cell], self.mark(style, spot, card), spot)

    def empty(self, x: int, y: int, label: str, spot: Hashable) -> None:
        """An empty place, with ``label`` in it."""
        self.put(x, y, f" {label}".ljust(self.cell), self.mark(_EMPTY, spot, None), spot)

    def picture(self) -> Text:
        """The grid as text, runs of one style in one span."""
        picture = Text()
        for y, row in enumerate(self.grid):
            if y:
                picture.append("\n")
            run, run_style = "", row[0][1]
            for char, char_style in row:
                if char_style != run_style:
                    picture.append(run, run_style or "")
                    run, run_style = "", char_style
                run += char
            picture.append(run, run_style or "")
        return picture


def column_width(width: int, columns: float = 7) -> int:
    """The width of a column of the table, for a widget ``width`` cells wide
    and a table ``columns`` columns wide.

    >>> column_width(120), column_width(120, 10), column_width(40, 10)
    (16, 12, 6)
    """
    return max(6, min(16, int(width // columns)))


def _draw_stock(canvas: Canvas, game: KlondikeGame) -> None:
    """The stock: a back with the count; when it is empty, the recycle mark if
    the waste can be turned over now, a cross if no pass is left, else a bare
    slot (nothing to turn yet), as the patience table draws it."""
    spot = Spot(STOCK)
    if game.stock:
        text = f"{canvas.back}{len(game.stock):>2} ".ljust(canvas.cell)
        canvas.put(canvas.x(0), 0, text, canvas.mark(_BACK, spot, None), spot)
        return
    passes_left = game.passes_left
    if passes_left == 0:
        sign = "X" if canvas.ascii_only else "✕"
    elif game.waste:
        sign = "R" if canvas.ascii_only else "↻"
    else:
        sign = " "
    canvas.empty(canvas.x(0), 0, sign, spot)


def _draw_waste(canvas: Canvas, game: KlondikeGame) -> None:
    """The waste: its top card, with the two beneath fanned in draw 3."""
    spot = Spot(WASTE)
    fan = game.waste[-3:] if game.variant.draw == 3 else game.waste[-1:]
    x = canvas.x(1)
    if not fan:
        canvas.empty(x, 0, "--", spot)
        return
    for card in fan[:-1]:
        text, style = canvas.face(card)
        canvas.put(x, 0, f" {text}", style)
        x += 3
    canvas.card(x, 0, fan[-1], spot)


def _draw_foundations(canvas: Canvas, game: KlondikeGame) -> None:
    """The four foundations: the top card of each, or its suit when empty."""
    for suit in Suit:
        spot = Spot(FOUNDATION, suit=suit)
        rank = game.foundation[suit]
        x = canvas.x(3 + suit)
        if rank:
            canvas.card(x, 0, Card(rank, suit), spot)
        else:
            canvas.empty(x, 0, suit.letter if canvas.ascii_only else suit.symbol, spot)


def _draw_pile(canvas: Canvas, game: KlondikeGame, pile: int) -> None:
    """A pile under its number (the key that picks it)."""
    x = canvas.x(pile)
    canvas.put(x, PILE_TOP - 1, f" {pile + 1}", _LABEL)
    draw_column(canvas, x, PILE_TOP, canvas.height - PILE_TOP, game.tableau[pile], game.face_down[pile],
                lambda index: Spot(pile, index))


def draw_column(canvas: Canvas, x: int, y: int, rows: int, cards: Sequence[Card | None], down: int,
                spot_of: Callable[[int], Hashable]) -> None:
    """A pile fanned down from (x, y), a card a row, in at most ``rows``
    rows: its first ``down`` cards face down (their entries are not read,
    and may be None), the place of card ``index`` being ``spot_of(index)``
    (-1: the empty pile). A pile too tall for its rows shows its face-down
    cards as one row with their count, and then its top cards."""
    cell, back = canvas.cell, canvas.back
    if not cards:
        canvas.empty(x, y, "--", spot_of(-1))
        return
    top = y
    first_up = down
    if len(cards) > rows and down:
        canvas.put(x, y, f"{back}x{down}".ljust(cell), _BACK, spot_of(0))
        y += 1
    else:
        first_up = 0
    start = max(first_up, len(cards) - (rows - (y - top)))
    for index in range(start, len(cards)):
        spot = spot_of(index)
        card = cards[index]
        if index < down or card is None:
            canvas.put(x, y, back * cell, canvas.mark(_BACK, spot, None), spot)
        else:
            canvas.card(x, y, card, spot)
        y += 1


class PointerTable(Widget):
    """A table drawn as one widget that knows which place lies under each
    point (:meth:`spot_at`), and turns the mouse into clicks on places
    (:meth:`clicked`) and drags between them (:meth:`dragged`): the mouse
    pressed on one place and released on another, or off them (then no
    click follows, though Textual reports one)."""

    def __init__(self) -> None:
        super().__init__()
        self._hits: list[tuple[int, int, int, Hashable]] = []  # (y, x0, x1, spot), as last drawn
        self._pressed: Hashable | None = None  # where the mouse went down
        self._dragged = False  # the last release ended a drag: the click that follows is not one

    def spot_at(self, x: int, y: int) -> Hashable | None:
        """The place under the point (widget coordinates), or None."""
        for hit_y, x0, x1, spot in self._hits:
            if hit_y == y and x0 <= x < x1:
                return spot
        return None

    def spot_position(self, spot: Hashable) -> tuple[int, int] | None:
        """Where ``spot`` is drawn (the first cell of its card), if it is."""
        for hit_y, x0, _x1, hit in self._hits:
            if hit == spot:
                return x0, hit_y
        return None

    def clicked(self, spot: Hashable, clicks: int) -> None:
        """A click on ``spot`` (``clicks`` is 2 for a double click)."""

    def dragged(self, source: Hashable, target: Hashable | None) -> None:
        """A drag from ``source`` to ``target`` (None: off the places)."""

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._pressed = self.spot_at(event.x, event.y)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        # Textual follows a release on the widget pressed with a click at the release point; the
        # whole table is one widget, so a drag between places would pick up the card released on.
        pressed, released = self._pressed, self.spot_at(event.x, event.y)
        self._pressed = None
        self._dragged = pressed != released
        if self._dragged and pressed is not None:
            self.dragged(pressed, released)

    def on_click(self, event: events.Click) -> None:
        if self._dragged:
            self._dragged = False
            return
        spot = self.spot_at(event.x, event.y)
        if spot is not None:
            self.clicked(spot, event.chain)


class TableView(PointerTable):
    """Draws ``game`` with ``marks``, and posts :class:`TableView.Clicked`
    for every click on a place, :class:`TableView.Dragged` for every drag
    (see :class:`PointerTable`)."""

    DEFAULT_CSS = "TableView { height: 1fr; width: 1fr; }"

    #: The game drawn; it changes in place, so every assignment redraws.
    game: reactive[KlondikeGame] = reactive(KlondikeGame, always_update=True)
    #: What is highlighted.
    marks: reactive[Marks] = reactive(Marks)

    class Clicked(Message):
        """A click on ``spot``; ``clicks`` is 2 for a double click."""

        def __init__(self, spot: Spot, clicks: int) -> None:
            super().__init__()
            self.spot = spot
            self.clicks = clicks

    class Dragged(Message):
        """A drag from ``source`` (where the mouse was pressed) to ``target``
        (where it was released; None: off the places)."""

        def __init__(self, source: Spot, target: Spot | None) -> None:
            super().__init__()
            self.source = source
            self.target = target

    def __init__(self, game: KlondikeGame, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.set_reactive(TableView.game, game)
        self.ascii_only = ascii_only

    def spot_at(self, x: int, y: int) -> Spot | None:
        """The place under the point (widget coordinates), or None."""
        spot = super().spot_at(x, y)
        if spot is not None:
            assert isinstance(spot, Spot)
            return spot
        if y >= PILE_TOP - 1:  # anywhere in a pile's column below its cards
            column = (x - 1) // column_width(self.size.width)
            if 0 <= column < 7:
                return Spot(column)
        return None

    def render(self) -> Text:
        canvas = Canvas(max(1, self.size.width), max(1, self.size.height), self.marks, ascii_only=self.ascii_only)
        game = self.game
        _draw_stock(canvas, game)
        _draw_waste(canvas, game)
        _draw_foundations(canvas, game)
        for pile in range(7):
            _draw_pile(canvas, game, pile)
        self._hits = canvas.hits
        return canvas.picture()

    def clicked(self, spot: Hashable, clicks: int) -> None:
        assert isinstance(spot, Spot)
        self.post_message(self.Clicked(spot, clicks))

    def dragged(self, source: Hashable, target: Hashable | None) -> None:
        assert isinstance(source, Spot) and (target is None or isinstance(target, Spot))
        self.post_message(self.Dragged(source, target))
