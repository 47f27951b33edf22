"""Plain-text pictures of a Kings Corner table, for terminals and logs.

The piles are drawn as a cross with the corners between its arms, the deck in
the middle::

    NW  K♠ Q♥          N   9♦              NE  —
    W   5♣              deck 20            E   J♥ T♠ 9♥ 8♠
    SW  —              S   T♠ … 6♦ (5)     SE  —

A pile shows all its cards, bottom to top, up to four; a longer one shows its
bottom and top card and its size (the cards between are fixed by the rules).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import Card
from cardtable.kings_corner.actions import Action, Draw, MovePile, Pass, PlayCard
from cardtable.kings_corner.game import KingsCornerView
from cardtable.kings_corner.table import PilePosition

__all__ = ["card_text", "describe_action", "hand_text", "pile_text", "table_text", "view_text"]

_GRID = (
    (PilePosition.NW, PilePosition.N, PilePosition.NE),
    (PilePosition.W, None, PilePosition.E),
    (PilePosition.SW, PilePosition.S, PilePosition.SE),
)


def card_text(card: Card, unicode: bool = True) -> str:
    """``7♥`` (or ``7h`` with ``unicode=False``)."""
    return card.symbol() if unicode else str(card)


def pile_text(cards: Sequence[Card], unicode: bool = True) -> str:
    """A pile, bottom to top: ``—`` when empty, ``K♠ Q♥``, or ``K♠ … 8♥ (6)``."""
    if not cards:
        return "—" if unicode else "-"
    if len(cards) <= 4:
        return " ".join(card_text(card, unicode) for card in cards)
    dots = "…" if unicode else ".."
    return f"{card_text(cards[0], unicode)} {dots} {card_text(cards[-1], unicode)} ({len(cards)})"


def table_text(piles: Sequence[Sequence[Card]], deck_count: int, unicode: bool = True) -> str:
    """The cross of piles with its corners and the deck count in the middle."""
    rows = []
    for row in _GRID:
        cells = []
        for position in row:
            if position is None:
                cells.append(f"    deck {deck_count}".ljust(20))
            else:
                cells.append(f"{position.name:<3} {pile_text(piles[position], unicode)}".ljust(20))
        rows.append("  ".join(cells).rstrip())
    return "\n".join(rows)


def hand_text(hand: Sequence[Card], unicode: bool = True) -> str:
    """A hand sorted by rank, then suit."""
    ordered = sorted(hand, key=lambda card: (card.rank, card.suit))
    return " ".join(card_text(card, unicode) for card in ordered) or "(empty)"


def view_text(view: KingsCornerView, names: Sequence[str] | None = None, unicode: bool = True) -> str:
    """A player's whole view: the table, the others' hand sizes and the hand."""
    names = names or [f"P{seat + 1}" for seat in range(view.players)]
    others = "   ".join(
        f"{names[seat]}: {size} card{'s' * (size != 1)}"
        for seat, size in enumerate(view.hand_sizes)
        if seat != view.player
    )
    return "\n".join([
        table_text(view.piles, view.deck_count, unicode),
        "",
        others,
        f"Your hand: {hand_text(view.hand, unicode)}",
    ])


def describe_action(action: Action, who: str, unicode: bool = True) -> str:
    """An action in words: ``Bot 1 plays 7♥ on N``."""
    if isinstance(action, PlayCard):
        return f"{who} plays {card_text(action.card, unicode)} on {action.target.name}"
    if isinstance(action, MovePile):
        return f"{who} moves pile {action.source.name} onto {action.target.name}"
    if isinstance(action, Draw):
        return f"{who} draws a card"
    if isinstance(action, Pass):
        return f"{who} passes (the deck is empty)"
    return f"{who}: {action}"
