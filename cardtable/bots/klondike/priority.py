"""``priority``: seed 002's fixed order of moves, read exactly.

Seed 002 is played with draw 1, a single pass through the stock (no redeal)
and Vegas money. The order, which every implementation follows move for move:

0. Start by drawing one card from the stock to the waste.

(a) Foundation: look at the top cards of tableau piles 1..7 left to right,
    then the waste top; play the first one that can go to a foundation. If
    that empties the waste and the stock is not empty, draw one card. Restart
    at (a).

(b) Waste to tableau: if the waste top can go on a tableau pile, put it on
    the leftmost pile that takes it (an empty pile takes only a king). If
    that empties the waste and the stock is not empty, draw one card. Restart
    at (a).

(c) Pile move: for source piles left to right, take the source's whole
    face-up run (all its face-up cards move as a unit, never part of them).
    Targets, left to right, other than the source: a pile whose top card is
    one rank above the run's bottom card and of the other colour; or an empty
    pile if the run's bottom card is a king and the source still has
    face-down cards under it. Play the first (source, target) found. Restart
    at (a).

(e) Nothing moved: if the stock is not empty, draw one card and restart at
    (a); otherwise the game is over.

Cards never leave a foundation; a face-down card that becomes a pile's top is
turned up at once (the engine does it as part of the move).

On a variant that allows more passes the bot turns the waste over when the
stock runs out, and stops after a whole pass in which no card moved; on seed
002's game that never happens. In a variant that lets any card fill an empty
pile, "a king" above reads "any card".

This module is the strategy's one statement. Its compiled copy
(:func:`cardtable.sim.fast.priority_choice`, ``priority_choose`` in
``cardtable/solver/_ccore.c``), which the simulator's batches play, is held
to it move for move by ``tests/sim/test_fast_priority.py``, in random
positions of every rule combination.
"""

from __future__ import annotations

from cardtable.bots.klondike.base import KlondikeBot
from cardtable.game import play_out
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, WASTE, Move
from cardtable.klondike.view import KlondikeView

__all__ = ["PriorityPlayer", "play_priority_game"]


class PriorityPlayer(KlondikeBot):
    """Seed 002's priority order (see the module documentation)."""

    name = "priority"
    summary = "seed 002's exact order: foundations, waste to tableau, whole-pile moves, then draw"

    def __init__(self) -> None:
        self._last: Move | None = None
        self._moved_this_pass = False

    def new_game(self, seed: int = 0) -> None:
        self._last = None
        self._moved_this_pass = False

    def choose(self, view: KlondikeView) -> Move | None:
        move = self._next(view)
        if move is not None:
            if move == RECYCLE:
                self._moved_this_pass = False
            elif move != DRAW:
                self._moved_this_pass = True
        self._last = move
        return move

    def _next(self, view: KlondikeView) -> Move | None:
        last = self._last
        if last is None and view.stock_count:
            return DRAW  # step 0
        if (last is not None and last.source == WASTE and not view.waste and view.stock_count):
            return DRAW  # the waste was just emptied by (a) or (b)
        # (a) foundation: piles left to right, then the waste top
        for pile in range(7):
            top = view.top(pile)
            if top is not None and view.fits_foundation(top):
                return Move(pile, FOUNDATION)
        waste_top = view.waste_top
        if waste_top is not None and view.fits_foundation(waste_top):
            return Move(WASTE, FOUNDATION)
        # (b) waste to the leftmost pile that takes it
        if waste_top is not None:
            for pile in range(7):
                if view.accepts(pile, waste_top):
                    return Move(WASTE, pile)
        # (c) whole face-up runs, sources then targets left to right
        for source in range(7):
            run = view.face_up[source]
            if not run:
                continue
            base = run[0]
            for target in range(7):
                if target == source:
                    continue
                top = view.top(target)
                if top is not None:
                    if view.variant.fits(base, top):
                        return Move(source, target, len(run))
                elif (view.is_empty(target) and view.face_down[source]
                      and view.variant.fills_empty(base)):
                    return Move(source, target, len(run))
        # (e) draw, or the game is over
        if view.stock_count:
            return DRAW
        if view.may_recycle and self._moved_this_pass:
            return RECYCLE
        return None


def play_priority_game(game: KlondikeGame) -> list[Move]:
    """Play ``game`` to the end with :class:`PriorityPlayer` (through
    :func:`cardtable.game.play_out`); returns the moves made."""
    start = game.move_count
    play_out(game, [PriorityPlayer()])
    return game.moves_from(start)
