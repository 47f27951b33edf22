"""Kings Corner's placement rules as lookup tables for the bots' searches.

The rules are written once, in :mod:`cardtable.kings_corner.table`:
:func:`~cardtable.kings_corner.table.can_place` says whether a card may go on
a pile, :func:`~cardtable.kings_corner.table.can_move` whether a pile may move
onto another. The ``strategic`` search and the ``expert``'s play-outs run on
compact positions (each pile its bottom and top card) and look the answers up
instead of asking for every move, so every entry below is the rules module's
own answer, taken once at import. ``tests/kings_corner/test_bot_rules.py``
holds the searches' moves to the engine's legal actions.
"""

from __future__ import annotations

from cardtable.cards import Card
from cardtable.kings_corner.table import PilePosition, can_move, can_place

__all__ = ["CARDS", "EMPTY", "MOVES_ON", "MOVE_ROWS", "PLAYS_ON", "PLAY_ROWS"]

#: Every card, by index.
CARDS: tuple[Card, ...] = tuple(Card.from_index(index) for index in range(52))

#: ``PLAYS_ON[corner][top]``: the cards a player may put on a pile (a corner
#: when ``corner``) whose top card is ``top`` (``None``: the pile is empty).
PLAYS_ON: tuple[dict[Card | None, frozenset[Card]], ...] = tuple(
    {top: frozenset(card for card in CARDS if can_place(card, top, corner=corner)) for top in (None, *CARDS)}
    for corner in (False, True))
#: ``MOVES_ON[corner][top]``: the bottom cards of the piles that may move onto
#: such a pile.
MOVES_ON: tuple[dict[Card | None, frozenset[Card]], ...] = tuple(
    {top: frozenset(card for card in CARDS if can_move(card, top, corner=corner)) for top in (None, *CARDS)}
    for corner in (False, True))

#: The row of an empty pile in the index tables below.
EMPTY = 52


def _rows(table: dict[Card | None, frozenset[Card]]) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(card in table[top] for card in CARDS) for top in (*CARDS, None))


#: The same by card index and by pile position, for play-outs on indices:
#: ``PLAY_ROWS[position][top][card]`` (``top`` a card index, or :data:`EMPTY`).
PLAY_ROWS: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    _rows(PLAYS_ON[position.is_corner]) for position in PilePosition)
#: ``MOVE_ROWS[position][top][bottom]``: as :data:`PLAY_ROWS`, for pile moves.
MOVE_ROWS: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    _rows(MOVES_ON[position.is_corner]) for position in PilePosition)
