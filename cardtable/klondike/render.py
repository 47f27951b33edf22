"""Text pictures of a Klondike layout.

>>> from cardtable.klondike.position import Position
>>> print(render(Position.from_seed(1), unicode=False).splitlines()[0])
Stock 24  Waste --                   Foundations  c:--  d:--  h:--  s:--   pass 1
"""

from __future__ import annotations

from cardtable.cards import Card, Suit
from cardtable.klondike.position import PILE_COUNT, Position

__all__ = ["card_text", "render"]

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


def card_text(card: Card, *, unicode: bool = True, color: bool = False) -> str:
    """A card as two characters (``T♥`` or ``Th``), red in colour when asked."""
    text = card.symbol() if unicode else str(card)
    if color and card.is_red:
        return f"{_RED}{text}{_RESET}"
    return text


def render(
    position: Position,
    *,
    unicode: bool = True,
    color: bool = False,
    passes: int | None = None,
    draw: int = 1,
) -> str:
    """The layout as text: stock count, the waste (the playable card last;
    in draw 3 the fanned cards), the foundations, then the seven piles as
    columns, face-down cards shown as ``##``.

    ``passes`` is the variant's limit (``None``: unlimited), shown beside the
    pass number.
    """
    def show(card: Card) -> str:
        return card_text(card, unicode=unicode, color=color)

    fan = position.waste[-3:] if draw == 3 else position.waste[-1:]
    waste = " ".join(show(c) for c in fan) if fan else "--"
    hidden = len(position.waste) - len(fan)
    if hidden:
        waste = f"({hidden}) {waste}"
    found = []
    for suit in Suit:
        rank = position.foundation[suit]
        label = suit.symbol if unicode else suit.letter
        found.append(f"{label}:{show(Card(rank, suit)) if rank else '--'}")
    pass_text = f"pass {position.pass_number}" + ("" if passes is None else f"/{passes}")
    waste_field = f"Waste {waste}"
    visible_width = len(waste_field) - (waste_field.count(_RED) * (len(_RED) + len(_RESET)))
    pad = " " * max(1, 27 - visible_width)
    lines = [f"Stock {len(position.stock):<2}  {waste_field}{pad}Foundations  "
             + "  ".join(found) + f"   {pass_text}"]
    lines.append("")
    lines.append("  ".join(f" {i + 1} " for i in range(PILE_COUNT)).rstrip())
    height = max((len(p) for p in position.tableau), default=0)
    for row in range(max(height, 1)):
        cells = []
        for pile, down in zip(position.tableau, position.face_down, strict=True):
            if row < len(pile):
                cells.append(" ## " if row < down else f" {show(pile[row])} ")
            elif row == 0:
                cells.append(" .. ")
            else:
                cells.append("    ")
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)

