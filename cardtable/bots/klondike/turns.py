"""``turns``: seed 000's step-by-step draw-3 method, read as a careful player would.

Seed 000 plays draw 3 with three turns (passes) through the stock and ends
the game when two whole passes go by with no card moved. Where the seed is
vague, this bot takes the reading below; each step is tested.

Within a turn the player repeats the tableau steps until none applies, then
draws:

1. **Foundations.** Any face-up top card of a pile that fits its foundation
   goes there, piles left to right ("if there are any aces ... move to the
   delegated pile"; "check again if any cards can be put on top of the
   foundations").
2. **Pile to pile.** A pile's *whole* face-up run moves onto another pile
   when its bottom card is one lower and of the other colour than that
   pile's top card, and the move turns up a face-down card ("if there is a
   card under the card you move: flip over the new card"). A careful player
   does not shuffle runs back and forth for nothing, so a run with nothing
   under it moves only to clear its pile for a king that is waiting (a king
   heading a run with face-down cards under it, or on the waste). Sources
   are tried left to right, targets left to right.
3. **Kings to open piles.** A face-up king heading a run with face-down cards
   under it, or else a king on top of the waste, moves to the leftmost empty
   pile ("check if you have any kings face up: if open pile = true, move to
   open pile ... flip over the card that was below the king").
4. Steps 1-3 repeat until nothing applies ("continue to move until no more
   moves are possible").
5. **Draw.** Turn three cards from the stock (as many as remain when fewer
   than three).
6. **Play the drawn cards.** Look at the waste's top card: to its foundation
   if it fits, else onto the leftmost pile that takes it, else, if it is a
   king, onto an empty pile. If it moved, look at the next card the same way
   (the second, then the third card of this draw); stop at the first card
   that cannot move. Cards not played stay on the waste ("place them to the
   bottom of the deck": they come round again next turn).
7. Back to step 1.
8. **Turn over.** When the stock is empty and nothing applies, the waste is
   turned over to start the next turn ("when complete, turn over"), if the
   variant allows another pass. The game is over when no pass is left, or
   when two whole passes in a row went by with no card moved ("if all of
   pile's cards are flipped over twice with no cards moved: game over").

The bot plays any variant; with draw 1 step 6 looks at the one card drawn.
"""

from __future__ import annotations

from cardtable.bots.klondike.base import KlondikeBot
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, WASTE, Move
from cardtable.klondike.view import KlondikeView

__all__ = ["TurnsPlayer"]


class TurnsPlayer(KlondikeBot):
    """Seed 000's method (see the module documentation)."""

    name = "turns"
    summary = "seed 000's human method: tidy the tableau, draw three, play the drawn cards, three turns"

    def __init__(self) -> None:
        self._to_check = 0  # drawn cards still to look at (step 6)
        self._moved_this_pass = False
        self._idle_passes = 0

    def new_game(self, seed: int = 0) -> None:
        self._to_check = 0
        self._moved_this_pass = False
        self._idle_passes = 0

    def choose(self, view: KlondikeView) -> Move | None:
        move = self._next(view)
        if move is not None and move not in view.legal_moves:
            raise AssertionError(f"turns bot chose an illegal move {move}")  # a bug, never bad input
        if move == RECYCLE:
            self._idle_passes = 0 if self._moved_this_pass else self._idle_passes + 1
            self._moved_this_pass = False
        elif move is not None and move != DRAW:
            self._moved_this_pass = True
        return move

    # ----- the steps ------------------------------------------------------------------------

    def _next(self, view: KlondikeView) -> Move | None:
        if self._to_check:
            move = self.play_drawn_card(view)
            if move is not None:
                self._to_check -= 1
                return move
            self._to_check = 0
        move = self.foundation_move(view) or self.pile_move(view) or self.king_move(view)
        if move is not None:
            return move
        if view.stock_count:
            self._to_check = min(view.variant.draw, view.stock_count)
            return DRAW
        # The pass is over: the game ends when this is the second whole pass
        # in a row with no card moved, or when no pass is left.
        idle = self._idle_passes + (0 if self._moved_this_pass else 1)
        if view.may_recycle and idle < 2:
            return RECYCLE
        return None

    @staticmethod
    def foundation_move(view: KlondikeView) -> Move | None:
        """Step 1: a pile's top card to its foundation, piles left to right."""
        for pile in range(7):
            top = view.top(pile)
            if top is not None and view.fits_foundation(top):
                return Move(pile, FOUNDATION)
        return None

    @staticmethod
    def _king_waiting(view: KlondikeView) -> bool:
        waste_top = view.waste_top
        if waste_top is not None and waste_top.rank == 13:
            return True
        return any(run and run[0].rank == 13 and view.face_down[i] for i, run in enumerate(view.face_up))

    def pile_move(self, view: KlondikeView) -> Move | None:
        """Step 2: a whole face-up run onto another pile, when it turns a card
        up, or clears a pile for a waiting king."""
        for source in range(7):
            run = view.face_up[source]
            if not run:
                continue
            base = run[0]
            if not view.face_down[source] and (base.rank == 13 or not self._king_waiting(view)):
                continue
            for target in range(7):
                top = view.top(target)
                if target != source and top is not None and view.variant.fits(base, top):
                    return Move(source, target, len(run))
        return None

    @staticmethod
    def king_move(view: KlondikeView) -> Move | None:
        """Step 3: a king heading a run with face-down cards under it, or the
        king on top of the waste, to the leftmost empty pile."""
        empty = next((p for p in range(7) if view.is_empty(p)), None)
        if empty is None:
            return None
        for source in range(7):
            run = view.face_up[source]
            if run and run[0].rank == 13 and view.face_down[source]:
                return Move(source, empty, len(run))
        waste_top = view.waste_top
        if waste_top is not None and waste_top.rank == 13:
            return Move(WASTE, empty)
        return None

    @staticmethod
    def play_drawn_card(view: KlondikeView) -> Move | None:
        """Step 6: the waste top to its foundation, else the leftmost pile that
        takes it, else (a king) an empty pile."""
        card = view.waste_top
        if card is None:
            return None
        if view.fits_foundation(card):
            return Move(WASTE, FOUNDATION)
        for pile in range(7):
            top = view.top(pile)
            if top is not None and view.variant.fits(card, top):
                return Move(WASTE, pile)
        if view.variant.fills_empty(card):
            for pile in range(7):
                if view.is_empty(pile):
                    return Move(WASTE, pile)
        return None
