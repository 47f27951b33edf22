"""A patience position as text, drawn where :func:`cardtable.patience.layout.table_layout`
places each pile.

The piles that lie at the same height of the table form a band, drawn left
to right at their places (five characters a card width, so Pyramid's rows
stand half a card apart). In a band each pile stands under its name in move
notation (``1``, ``a``, ``F1``, ``S`` for the stock, ``W``, ``H``): a pile
that fans down with all its cards below its name, one a line, a pile that
fans right with its cards left to right, the others with their top card
only. A band of piles that fan right (and piles that do not fan) is one
line, each pile as ``name: cards``. Face-down cards are ``##``, an empty
pile ``--``. A line after the bands counts the stock, the waste and the
passes. Unicode suits (or ``Th`` style with ``unicode=False``), red in
colour when asked. Only what the player sees is drawn.

>>> from cardtable.patience.engine import PatienceGame
>>> from cardtable.patience.registry import get
>>> print(render(PatienceGame.from_seed(get("golf"), 3).view(), unicode=False))
1    2    3    4    5    6    7
Ad   3d   7s   Qs   9s   2c   5s
Ah   3h   Jc   Ks   Qh   6c   6s
5c   Qc   Kh   Kd   Jd   4s   Ac
8h   4c   2h   8c   6h   8d   8s
9c   3s   9d   6d   7d   7h   5d
<BLANKLINE>
S    H
##   9h
<BLANKLINE>
stock 16 cards
>>> print(render(PatienceGame.from_seed(get("tripeaks"), 1).view(), unicode=False))
        1              2              3
        ##             ##             ##
     4    5         6    7         8    9
     ##   ##        ##   ##        ##   ##
   10   11   12   13   14   15   16   17   18
   ##   ##   ##   ##   ##   ##   ##   ##   ##
19   20   21   22   23   24   25   26   27   28
2c   Ad   6s   Kc   Kh   Th   Ts   Js   Td   8s
<BLANKLINE>
                    S    H
                    ##   Qc
<BLANKLINE>
stock 23 cards
"""

from __future__ import annotations

from cardtable.cards import Card
from cardtable.patience.description import Fan, Kind
from cardtable.patience.engine import PatienceView, PileView
from cardtable.patience.layout import PlacedPile, table_layout

__all__ = ["render"]

_SLOT = 5  # characters a card width: a card's two characters and room
_RED = "\x1b[31m"
_RESET = "\x1b[0m"
_EPSILON = 1e-9


def render(view: PatienceView, *, unicode: bool = True, color: bool = False) -> str:
    """The position the player sees (see the module documentation)."""

    def card(c: Card) -> tuple[str, int]:
        text = c.symbol() if unicode else str(c)
        return (f"{_RED}{text}{_RESET}" if color and c.is_red else text), len(text)

    def cell(pile: PileView, row: int) -> tuple[str, int]:
        if row < pile.face_down:
            return "##", 2
        return card(pile.cards[row - pile.face_down])

    def top(pile: PileView) -> tuple[str, int]:
        if not len(pile):
            return "--", 2
        return ("##", 2) if not pile.cards else card(pile.cards[-1])

    def spread(pile: PileView) -> tuple[str, int]:
        if not len(pile):
            return "--", 2
        shown = [cell(pile, i) for i in range(len(pile))]
        return " ".join(text for text, _ in shown), sum(seen for _, seen in shown) + len(shown) - 1

    def column(placed: PlacedPile) -> int:
        return int(placed.x * _SLOT + 0.5)

    d = view.description
    table = table_layout(d)
    piles = {pile.place: pile for pile in view.piles}
    rows_of: dict[float, list[PlacedPile]] = {}
    for placed in table.piles:
        rows_of.setdefault(placed.y, []).append(placed)
    bands = [sorted(rows_of[y], key=lambda placed: placed.x) for y in sorted(rows_of)]

    def inline(band: list[PlacedPile]) -> bool:  # a band of a group of piles fanned right, one under another
        return all(p.fan is not Fan.DOWN for p in band) and any(
            p.fan is Fan.RIGHT and d.count(p.place.kind) > 1 for p in band)

    def entry(placed: PlacedPile) -> tuple[str, int]:
        text, seen = spread(piles[placed.place]) if placed.fan is Fan.RIGHT else top(piles[placed.place])
        return f"{placed.name}: {text}", len(placed.name) + 2 + seen

    # Consecutive one-line bands share their columns, so that rows of fans line up.
    columns: dict[int, dict[float, int]] = {}
    run: list[int] = []
    for number, band in enumerate([*bands, []]):
        if band and inline(band):
            run.append(number)
            continue
        widest: dict[float, int] = {}
        for n in run:
            for placed in bands[n]:
                widest[placed.x] = max(widest.get(placed.x, 0), entry(placed)[1])
        at, where = 0, {}
        for x in sorted(widest):
            where[x] = max(int(x * _SLOT + 0.5), at)
            at = where[x] + widest[x] + 2
        columns.update(dict.fromkeys(run, where))
        run = []

    lines: list[str] = []
    bottom = 0.0  # how far down the last band's boxes reach
    for number, band in enumerate(bands):
        y = band[0].y
        if lines and y >= bottom - _EPSILON and not (number in columns and number - 1 in columns):
            lines.append("")
        bottom = max(p.y + p.height for p in band)
        if number in columns:
            out, at = "", 0
            for placed in band:
                text, seen = entry(placed)
                start = columns[number][placed.x]
                out += " " * (start - at) + text
                at = start + seen
            lines.append(out)
            continue
        starts: list[int] = []
        at = 0
        for placed in band:
            start = max(int(placed.x * _SLOT + 0.5), at)
            starts.append(start)
            wide = spread(piles[placed.place])[1] if placed.fan is Fan.RIGHT else 2
            at = start + max(len(placed.name), wide) + 1
        depth = max((len(piles[p.place]) if p.fan is Fan.DOWN else 1) for p in band)
        rows: list[list[tuple[str, int]]] = [[(p.name, len(p.name)) for p in band]]
        for i in range(max(depth, 1)):
            row = []
            for placed in band:
                pile = piles[placed.place]
                if placed.fan is Fan.DOWN:
                    row.append(cell(pile, i) if i < len(pile) else (("--", 2) if i == 0 else ("", 0)))
                elif i == 0:
                    row.append(spread(pile) if placed.fan is Fan.RIGHT else top(pile))
                else:
                    row.append(("", 0))
            rows.append(row)
        for row in rows:
            out, at = "", 0
            for start, (text, seen) in zip(starts, row, strict=True):
                if seen:
                    out += " " * (start - at) + text
                    at = start + seen
            lines.append(out.rstrip())
    footer = []
    for pile in view.piles:
        if pile.place.kind is Kind.STOCK:
            footer.append(f"stock {len(pile)} card{'s' * (len(pile) != 1)}")
        elif pile.place.kind is Kind.WASTE:
            footer.append(f"waste {len(pile)} card{'s' * (len(pile) != 1)}")
    if d.stock.count and (d.stock.passes is None or d.stock.passes > 1):
        footer.append(f"pass {view.pass_number}" + ("" if d.stock.passes is None else f" of {d.stock.passes}"))
    text = "\n".join(lines)
    return text + ("\n\n" + ", ".join(footer) if footer else "")
