"""What a player at the table sees.

A :class:`PlayerView` is built from a game and holds copies of the visible
facts only: the face-up cards of each pile and how many cards lie face down
under them, how many cards the stock holds, the waste (every waste card has
been seen face up), the foundations, the pass number, the variant and the
legal moves. It keeps no reference to the game, so a player cannot reach a
face-down card or the stock order through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.cards import Card
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.variant import Variant

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True)
class PlayerView:
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

    @classmethod
    def of(cls, game: KlondikeGame) -> PlayerView:
        """The view of ``game`` for the player to move."""
        return cls(
            variant=game.variant,
            face_up=tuple(tuple(game.tableau[i][game.face_down[i]:]) for i in range(7)),
            face_down=tuple(game.face_down),
            stock_count=len(game.stock),
            waste=tuple(game.waste),
            foundation=tuple(game.foundation),  # type: ignore[arg-type]
            pass_number=game.pass_number,
            legal_moves=tuple(game.legal_moves()),
            moves_played=len(game._stack),
        )

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
        return self.foundation[card.suit] + 1 == card.rank

    def accepts(self, pile: int, card: Card) -> bool:
        """True when ``card`` (or a run headed by it) may go on ``pile`` now."""
        top = self.top(pile)
        if top is not None:
            return card.fits_on(top)
        if self.face_down[pile]:
            return False
        return card.rank == 13 or self.variant.empty == "any"

    @property
    def may_recycle(self) -> bool:
        """True when the waste may be turned over now."""
        passes = self.variant.passes
        return self.stock_count == 0 and bool(self.waste) and (passes is None or self.pass_number < passes)
