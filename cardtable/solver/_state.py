"""The compact array state the search core works on, and its move codes.

A state is one ``int8`` array of :data:`STATE_SIZE` entries (card codes are
deck indices 0..51, ``suit * 13 + rank - 1``):

- ``[PILE_CAP * i : PILE_CAP * (i + 1)]``: tableau pile ``i``, bottom to top;
- ``LEN + i`` and ``DOWN + i``: its size and face-down count;
- ``TALON : TALON + 52``: the stock and waste as one sequence in drawing
  order (waste bottom to top, then stock top to bottom). Cards only ever leave
  this sequence, never change places in it: a draw moves the waste pointer
  ``WP`` forward, a recycle sets it back to 0, and playing the waste top
  removes the card just below the pointer. ``TLEN`` is its length;
- ``FOUND + s``: top rank on suit ``s``'s foundation;
- ``PASS``: the pass number (1 for the first pass).

Move codes pack a move into an ``int32``; see :func:`pack`. A *talon* move
(source :data:`SRC_TALON`) is a macro: draw (and recycle at most once, when
``recycle`` is set) until ``card`` is the waste top, then play it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.cards import Card
from cardtable.klondike.moves import FOUNDATION, WASTE, Move
from cardtable.klondike.position import PILE_COUNT, Position
from cardtable.klondike.variant import Variant

if TYPE_CHECKING:
    import numpy as np

    from cardtable.klondike.game import KlondikeGame

PILE_CAP = 52
LEN = PILE_CAP * PILE_COUNT
DOWN = LEN + PILE_COUNT
TALON = DOWN + PILE_COUNT
TLEN = TALON + 52
WP = TLEN + 1
FOUND = WP + 1
PASS = FOUND + 4
STATE_SIZE = PASS + 4

SRC_TALON = 7
LOC_FOUNDATION = 9

#: Index of the variant parameters array.
V_DRAW, V_PASSES, V_ANY_EMPTY, V_RETURN, V_SALT, V_WIDTH, V_WIDE, V_FILL, V_PAIR = 0, 1, 2, 3, 4, 5, 6, 7, 8


#: Move-code flag of a tableau move: then the card it uncovers goes to its
#: foundation (one search step; see the notes in ``cardtable/solver/klondike.h``).
HOME_FLAG = 1 << 21
#: Move-code flag of the fill rule: first the whole of the target pile moves
#: onto the pile in bits 22 to 24, then the move fills the target pile.
FILL_SHIFT = 22
FILL_FLAG = 1 << 25
#: Move-code flag of the pair rule: a talon move (count: the builder's cards)
#: followed by a move that builds on its card, from the pile in bits 22 to 24
#: (:data:`PAIR_FOUNDATION`: from the foundation of the suit in bits 27 and 28),
#: sending home the card it uncovers when :data:`HOME_FLAG` is set too.
PAIR_FLAG = 1 << 26
PAIR_SUIT_SHIFT = 27
PAIR_FOUNDATION = 7


def pack(src: int, dst: int, count: int, card: int, recycle: int) -> int:
    """A move code: source, target, card count, the card moved (its deck
    index; the waste card for a talon move) and the recycle flag."""
    return src | (dst << 4) | (count << 8) | (card << 14) | (recycle << 20)


def unpack(code: int) -> tuple[int, int, int, int, int]:
    """``(src, dst, count, card, recycle)`` of a move code."""
    return code & 15, (code >> 4) & 15, (code >> 8) & 63, (code >> 14) & 63, (code >> 20) & 1


def state_bytes(position: Position | KlondikeGame) -> bytes:
    """The array state of a position, or of a game's current position, as bytes
    (what the C core reads; no numpy needed)."""
    s = bytearray(STATE_SIZE)
    for i, pile in enumerate(position.tableau):
        for k, card in enumerate(pile):
            s[PILE_CAP * i + k] = card.index
        s[LEN + i] = len(pile)
        s[DOWN + i] = position.face_down[i]
    talon = list(position.waste) + list(reversed(position.stock))
    for k, card in enumerate(talon):
        s[TALON + k] = card.index
    s[TLEN] = len(talon)
    s[WP] = len(position.waste)
    for suit, rank in enumerate(position.foundation):
        s[FOUND + suit] = rank
    s[PASS] = min(position.pass_number, 100)
    return bytes(s)


def encode(position: Position) -> np.ndarray:
    """The array state of a position (an ``int8`` numpy array)."""
    import numpy as np

    return np.frombuffer(state_bytes(position), dtype=np.int8).copy()


def decode(s: np.ndarray | bytes) -> Position:
    """The position of an array state (the inverse of :func:`encode` and
    :func:`state_bytes`)."""
    tableau = tuple(tuple(Card.from_index(int(s[PILE_CAP * i + k])) for k in range(int(s[LEN + i])))
                    for i in range(PILE_COUNT))
    talon = [Card.from_index(int(s[TALON + k])) for k in range(int(s[TLEN]))]
    wp = int(s[WP])
    return Position(
        tableau=tableau,
        face_down=tuple(int(s[DOWN + i]) for i in range(PILE_COUNT)),
        stock=tuple(reversed(talon[wp:])),
        waste=tuple(talon[:wp]),
        foundation=tuple(int(s[FOUND + i]) for i in range(4)),  # type: ignore[arg-type]
        pass_number=int(s[PASS]),
    )


def params(variant: Variant, salt: int = 0, width: int = 0, wide: bool = False, order: int = 0) -> tuple[int, ...]:
    """The variant as the core reads it: draw, pass limit (0 = unlimited),
    any card in empty piles, foundation return; then how the search orders
    moves: the salt (0 for the standard order, else a seed that shuffles
    moves of similar priority) and the width (0 to try every move, else only
    the first ``width`` of each state: a search that can find wins but never
    proves a loss); then which cards the search sends home without
    branching: those :meth:`~cardtable.klondike.Variant.safe_to_foundation`
    calls safe, or with ``wide`` the more of the wide rule; last, whether
    (with kings only) a whole pile is emptied only together with the king
    that fills it, the fill rule, and whether (with a free talon) a talon
    card goes onto a pile top only together with the move that builds on it
    when no talon card nor whole pile could, the pair rule: ``wide`` brings
    both (see the notes in ``cardtable/solver/klondike.h`` for all three); last, the order of
    a depth-first search's moves: 0 the standard one, 1 the reveal-first one (``reveal_first``
    in ``cardtable/solver/_ccore.c``)."""
    return (variant.draw, variant.passes or 0, int(variant.empty == "any"), int(variant.foundation_return), salt,
            width, int(wide), int(wide), int(wide), order)


def plain_move(code: int) -> Move:
    """The engine move of a code that the core's ``generate``
    (:mod:`cardtable.solver._ccore`) writes with ``plain`` set (draw and recycle are codes with source 8 and
    target 8)."""
    src, dst, count, card, _ = unpack(code)
    if src == 8:
        return Move.parse("D")
    if dst == 8:
        return Move.parse("R")
    source = WASTE if src == SRC_TALON else src
    if src == LOC_FOUNDATION:
        return Move(FOUNDATION, dst, 1, Card.from_index(card).suit)
    return Move(source, FOUNDATION if dst == LOC_FOUNDATION else dst, count)
