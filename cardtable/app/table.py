"""The Klondike table as one Textual widget: it draws a game and says which
place (a pile and a card in it, the stock, the waste, a foundation) lies
under a point, so the app can turn clicks into moves.

Every card is one row: its rank and suit in red or black on a white face,
face-down cards as backs. A pile too tall for the screen shows its face-down
cards as one row with their count. Columns widen with the terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widget import Widget

from cardtable.cards import Card, Suit
from cardtable.klondike import FOUNDATION, STOCK, WASTE, KlondikeGame

__all__ = ["Marks", "Spot", "TableView"]

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
    held_place: Spot | None = None
    hinted: set[Card] = field(default_factory=set)
    hint_places: set[Spot] = field(default_factory=set)


_RED = Style(color="red3", bgcolor="white", bold=True)
_BLACK = Style(color="black", bgcolor="white", bold=True)
_BACK = Style(color="bright_white", bgcolor="blue")
_EMPTY = Style(color="grey50", bgcolor="grey19")
_LABEL = Style(color="grey58")
_CURSOR = Style(reverse=True, underline=True)
_HELD = Style(bgcolor="yellow")
_HINT = Style(bgcolor="green3")


class TableView(Widget):
    """Draws ``game`` with ``marks``; ``on_spot(spot, clicks)`` hears every
    click on a place (``clicks`` is 2 for a double click)."""

    DEFAULT_CSS = "TableView { height: 1fr; width: 1fr; }"

    def __init__(self, game: KlondikeGame, on_spot: Callable[[Spot, int], None], *,
                 ascii_only: bool = False) -> None:
        super().__init__()
        self.game = game
        self.marks = Marks()
        self.ascii_only = ascii_only
        self._on_spot = on_spot
        self._hits: list[tuple[int, int, int, Spot]] = []  # (y, x0, x1, spot)

    # ----- geometry ------------------------------------------------------------------------------

    def _column(self) -> int:
        return max(6, min(16, self.size.width // 7))

    def _cell(self) -> int:
        return max(4, min(8, self._column() - 2))

    def _x(self, column: int) -> int:
        return 1 + column * self._column()

    def spot_at(self, x: int, y: int) -> Spot | None:
        """The place under the point (widget coordinates), or None."""
        for hit_y, x0, x1, spot in self._hits:
            if hit_y == y and x0 <= x < x1:
                return spot
        if y >= PILE_TOP - 1:  # anywhere in a pile's column below its cards
            column = (x - 1) // self._column()
            if 0 <= column < 7:
                return Spot(column)
        return None

    def spot_position(self, spot: Spot) -> tuple[int, int] | None:
        """Where ``spot`` is drawn (the first cell of its card), if it is."""
        for hit_y, x0, _x1, hit in self._hits:
            if hit == spot:
                return x0, hit_y
        return None

    # ----- drawing -------------------------------------------------------------------------------

    def _face(self, card: Card) -> tuple[str, Style]:
        text = str(card) if self.ascii_only else card.symbol()
        return text, _RED if card.is_red else _BLACK

    def render(self) -> Text:
        width, height = max(1, self.size.width), max(1, self.size.height)
        grid: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]
        hits: list[tuple[int, int, int, Spot]] = []
        cell = self._cell()

        def put(x: int, y: int, text: str, style: Style | None, spot: Spot | None = None) -> None:
            if not 0 <= y < height:
                return
            for i, char in enumerate(text):
                if 0 <= x + i < width:
                    grid[y][x + i] = (char, style)
            if spot is not None:
                hits.append((y, x, x + len(text), spot))

        def mark(style: Style, spot: Spot, card: Card | None) -> Style:
            marks = self.marks
            if card is not None and card in marks.held:
                style = style + _HELD
            elif (card is not None and card in marks.hinted) or spot in marks.hint_places:
                style = style + _HINT
            if marks.cursor == spot:
                style = style + _CURSOR
            return style

        def card_cell(x: int, y: int, card: Card, spot: Spot, size: int = cell) -> None:
            text, style = self._face(card)
            put(x, y, f" {text}".ljust(size)[:size], mark(style, spot, card), spot)

        game = self.game
        back = "#" if self.ascii_only else "░"
        # The stock: a back with the count, or the recycle mark when it is empty.
        stock_spot = Spot(STOCK)
        if game.stock:
            put(self._x(0), 0, f"{back}{len(game.stock):>2} ".ljust(cell), mark(_BACK, stock_spot, None), stock_spot)
        else:
            again = game.passes_left is None or game.passes_left > 0
            sign = ("R" if self.ascii_only else "↻") if again and game.waste else " "
            put(self._x(0), 0, f" {sign}".ljust(cell), mark(_EMPTY, stock_spot, None), stock_spot)
        # The waste: its top card, with the two beneath fanned in draw 3.
        waste_spot = Spot(WASTE)
        fan = game.waste[-3:] if game.variant.draw == 3 else game.waste[-1:]
        x = self._x(1)
        if not fan:
            put(x, 0, " --".ljust(cell), mark(_EMPTY, waste_spot, None), waste_spot)
        for i, card in enumerate(fan):
            last = i == len(fan) - 1
            text, style = self._face(card)
            if last:
                card_cell(x, 0, card, waste_spot)
            else:
                put(x, 0, f" {text}", style)
                x += 3
        # The foundations.
        for suit in Suit:
            spot = Spot(FOUNDATION, suit=suit)
            rank = game.foundation[suit]
            x = self._x(3 + suit)
            if rank:
                card_cell(x, 0, Card(rank, suit), spot)
            else:
                label = suit.letter if self.ascii_only else suit.symbol
                put(x, 0, f" {label}".ljust(cell), mark(_EMPTY, spot, None), spot)
        # The piles, numbered as the keys that pick them.
        rows = height - PILE_TOP
        for pile in range(7):
            x = self._x(pile)
            put(x, PILE_TOP - 1, f" {pile + 1}", _LABEL)
            cards, down = game.tableau[pile], game.face_down[pile]
            y = PILE_TOP
            if not cards:
                spot = Spot(pile)
                put(x, y, " --".ljust(cell), mark(_EMPTY, spot, None), spot)
                continue
            first_up = down
            if len(cards) > rows and down:  # too tall: the face-down cards on one row
                put(x, y, f"{back}x{down}".ljust(cell), _BACK, Spot(pile, 0))
                y += 1
            else:
                first_up = 0
            start = max(first_up, len(cards) - (rows - (y - PILE_TOP)))
            for index in range(start, len(cards)):
                spot = Spot(pile, index)
                if index < down:
                    put(x, y, back * cell, mark(_BACK, spot, None), spot)
                else:
                    card_cell(x, y, cards[index], spot)
                y += 1
        self._hits = hits
        picture = Text()
        for y, row in enumerate(grid):
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

    # ----- mouse ---------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        spot = self.spot_at(event.x, event.y)
        if spot is not None:
            self._on_spot(spot, event.chain)
