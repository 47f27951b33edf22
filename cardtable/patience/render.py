"""A patience position as text, drawn from the description's layout.

Each layout row of the description is a block. In a block, the piles that
fan down or do not fan stand side by side, each under its name in move
notation (``1``, ``a``, ``F1``, ``S`` for the stock, ``W``, ``H``), the
piles that fan down with all their cards below it, the others with their
top card only; a group of piles that fans right is drawn one pile a line,
its cards left to right. Face-down cards are ``##``, an empty pile ``--``.
A line after the blocks counts the stock, the waste and the passes.
Unicode suits (or ``Th`` style with ``unicode=False``), red in colour when
asked. Only what the player sees is drawn.

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
"""

from __future__ import annotations

from cardtable.cards import Card
from cardtable.patience.description import Description, Fan, Kind, Layout
from cardtable.patience.engine import PatienceView, PileView

__all__ = ["render"]

_WIDTH = 5  # a slot: a card's two characters and room
_WRAP = 13  # side-by-side piles a line, at most
_RED = "\x1b[31m"
_RESET = "\x1b[0m"


def _layout(description: Description, kind: Kind) -> Layout:
    layouts: dict[Kind, Layout] = {
        Kind.TABLEAU: description.tableau.layout, Kind.FOUNDATION: description.foundations.layout,
        Kind.CELL: description.cells.layout, Kind.RESERVE: description.reserve.layout,
        Kind.STOCK: description.stock.layout, Kind.WASTE: description.waste.layout, Kind.HOLE: description.hole.layout}
    return layouts[kind]


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

    d = view.description
    by_kind: dict[Kind, list[PileView]] = {}
    for pile in view.piles:
        by_kind.setdefault(pile.place.kind, []).append(pile)
    rows: dict[int, list[tuple[int, Kind]]] = {}
    for kind in by_kind:
        layout = _layout(d, kind)
        rows.setdefault(layout.row, []).append((layout.column, kind))
    blocks: list[list[str]] = []
    for row in sorted(rows):
        side: list[tuple[int, PileView, bool]] = []  # column, pile, fans down
        lines: list[str] = []
        for column, kind in sorted(rows[row], key=lambda item: (item[0], item[1].value)):
            fan = _layout(d, kind).fan
            piles = by_kind[kind]
            if fan is Fan.RIGHT and len(piles) > 1:
                width = max(len(str(p.place)) for p in piles) + 1
                for pile in piles:
                    shown = " ".join(cell(pile, i)[0] for i in range(len(pile))) or "--"
                    lines.append(f"{str(pile.place) + ':':<{width}} {shown}")
                continue
            side.extend((column + i, pile, fan is Fan.DOWN) for i, pile in enumerate(piles))
        side.sort(key=lambda item: item[0])
        block: list[str] = []
        for start in range(0, len(side), _WRAP):
            chunk = side[start:start + _WRAP]
            block.append("".join(f"{p.place!s:<{_WIDTH}}" for _, p, _ in chunk).rstrip())
            depth = max((len(p) if down else 1) for _, p, down in chunk)
            for i in range(max(depth, 1)):
                out = ""
                for _, pile, down in chunk:
                    if down:
                        text, seen = cell(pile, i) if i < len(pile) else (("--", 2) if i == 0 else ("", 0))
                    else:
                        text, seen = top(pile) if i == 0 else ("", 0)
                    out += text + " " * (_WIDTH - seen)
                block.append(out.rstrip())
        blocks.append(block + lines)
    footer = []
    for pile in view.piles:
        if pile.place.kind is Kind.STOCK:
            footer.append(f"stock {len(pile)} card{'s' * (len(pile) != 1)}")
        elif pile.place.kind is Kind.WASTE:
            footer.append(f"waste {len(pile)} card{'s' * (len(pile) != 1)}")
    if d.stock.count and (d.stock.passes is None or d.stock.passes > 1):
        footer.append(f"pass {view.pass_number}" + ("" if d.stock.passes is None else f" of {d.stock.passes}"))
    text = "\n\n".join("\n".join(block) for block in blocks)
    return text + ("\n\n" + ", ".join(footer) if footer else "")
