"""What a Klondike player at the table sees.

A :class:`KlondikeView` (:meth:`KlondikeGame.view()` builds it) holds copies of the visible
facts only: the face-up cards of each pile and how many cards lie face down
under them, how many cards the stock holds, the waste (every waste card has
been seen face up), the foundations, the pass number, the variant and the
legal moves. It keeps no reference to the game, so a player cannot reach a
face-down card or the stock order through it. The rules it answers
(:meth:`KlondikeView.accepts`, :meth:`KlondikeView.fits_foundation`) are the
variant's own; :meth:`KlondikeView.hidden_cards` says what a player guessing
the hidden cards must deal, and where.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.cards import Card, new_deck
from cardtable.game import HiddenCards
from cardtable.klondike.moves import Move
from cardtable.klondike.variant import Variant

__all__ = ["KlondikeView"]


@dataclass(frozen=True, slots=True)
class KlondikeView:
    """The visible part of a Klondike position (see the module documentation)."""

    variant: Variant
    face_up: tuple[tuple[Card, ...], ...]
    face_down: tuple[int, ...]
    stock_count: int
    waste: tuple[Card, ...]
    foundation: tuple[int, int, int, int]
    pass_number: int
    legal_moves: tuple[Move, ...]
    moves_played: int

    @property
    def player(self) -> int:
        """The seat this view belongs to: always 0 in Klondike."""
        return 0

    def hidden_cards(self, known_stock: Sequence[Card] = ()) -> HiddenCards[Card]:
        """The cards the player has not seen in place, in deck order (all but
        the face-up ones, the waste, the foundations and ``known_stock``), to
        fill the face-down cards of each pile, pile by pile; the rest is the
        unknown part of the stock.

        ``known_stock`` is the bottom of the stock, bottom first, as the
        player saw it on an earlier pass (at most :attr:`stock_count` cards).

        >>> from cardtable.klondike import KlondikeGame
        >>> hidden = KlondikeGame.from_seed(1).view().hidden_cards()
        >>> len(hidden.unseen), hidden.slots, hidden.rest
        (45, (0, 1, 2, 3, 4, 5, 6), 24)
        """
        if len(known_stock) > self.stock_count:
            raise ValueError(f"{len(known_stock)} known stock cards but the stock holds {self.stock_count}")
        seen = set(self.waste) | set(known_stock)
        for run in self.face_up:
            seen.update(run)
        unseen = tuple(card for card in new_deck()
                       if card not in seen and card.rank > self.foundation[card.suit])
        return HiddenCards(unseen, self.face_down)

    def legal_actions(self) -> list[Move]:
        """The legal moves, as a list (the name the shared game interface uses)."""
        return list(self.legal_moves)

    def top(self, pile: int) -> Card | None:
        """The top card of a pile, or None when the pile is empty."""
        up = self.face_up[pile]
        return up[-1] if up else None

    def is_empty(self, pile: int) -> bool:
        """True when the pile holds no card at all."""
        return not self.face_up[pile] and not self.face_down[pile]

    @property
    def waste_top(self) -> Card | None:
        """The playable waste card, or None."""
        return self.waste[-1] if self.waste else None

    def fits_foundation(self, card: Card) -> bool:
        """True when ``card`` may go to its foundation now."""
        return self.variant.fits_foundation(card, self.foundation)

    def accepts(self, pile: int, card: Card) -> bool:
        """True when ``card`` (or a run headed by it) may go on ``pile`` now."""
        top = self.top(pile)
        if top is None and self.face_down[pile]:
            return False
        return self.variant.accepts(top, card)

    @property
    def may_recycle(self) -> bool:
        """True when the waste may be turned over now."""
        passes = self.variant.passes
        return self.stock_count == 0 and bool(self.waste) and (passes is None or self.pass_number < passes)
