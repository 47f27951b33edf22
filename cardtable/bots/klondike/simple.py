"""``random`` and ``greedy``: general-purpose players for every variant."""

from __future__ import annotations

from cardtable.bots.klondike.base import KlondikeBot
from cardtable.cards import Card, SplitMix64
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, Move
from cardtable.klondike.view import KlondikeView

__all__ = ["GreedyPlayer", "RandomPlayer"]

# The lowest score of a move that sends a card home or turns one up.
_PROGRESS = 26.0


class _PassCounter:
    """Counts passes through the stock in which no card moved."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.idle = 0
        self.moved = False

    def reset(self) -> None:
        self.idle, self.moved = 0, False

    def note(self, move: Move) -> None:
        if move == RECYCLE:
            self.idle = 0 if self.moved else self.idle + 1
            self.moved = False
        elif move != DRAW:
            self.moved = True

    @property
    def exhausted(self) -> bool:
        return self.idle >= self.limit


class RandomPlayer(KlondikeBot):
    """Uniformly random legal moves (from :class:`~cardtable.cards.SplitMix64`,
    seeded per game), capped: it stops after ``max_moves`` moves or after
    ``idle_passes`` whole passes through the stock with no card moved."""

    name = "random"
    summary = "uniformly random legal moves, stopping after two idle passes or 1,000 moves"

    def __init__(self, max_moves: int = 1000, idle_passes: int = 2) -> None:
        self.max_moves = max_moves
        self._rng = SplitMix64(0)
        self._passes = _PassCounter(idle_passes)

    def new_game(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed ^ 0x5EED)
        self._passes.reset()

    def choose(self, view: KlondikeView) -> Move | None:
        if view.moves_played >= self.max_moves or self._passes.exhausted or not view.legal_moves:
            return None
        moves = view.legal_moves
        if self._passes.idle + 1 >= self._passes.limit and not self._passes.moved and RECYCLE in moves:
            moves = tuple(m for m in moves if m != RECYCLE) or moves
        move = moves[self._rng.below(len(moves))]
        self._passes.note(move)
        return move


class GreedyPlayer(KlondikeBot):
    """A sensible heuristic for every variant.

    Each move is scored and the best taken (ties: the first in the engine's
    order): cards to the foundations first when no card of the other colour
    one rank lower still needs them as a place to land; moves that turn up a
    face-down card (more face-down cards under the source score higher);
    kings to empty piles when that turns a card up; waste cards onto the
    tableau; then cards home that are not yet safe (the tableau cards they
    leave are landing spots for the waste: sending them home at once wins
    fewer games, under draw 1 and draw 3 alike); then drawing. A run moves only to turn a card
    up, to free a card for its foundation or a place for the waste card, and
    never straight back where it came from; foundation cards come back only to
    take a waste card at once; after two whole passes with no card moved the
    player makes only moves that send a card home or turn one up, then stops.
    """

    name = "greedy"
    summary = "heuristic for every variant: safe foundation moves, uncover cards, then waste, then draw"

    def __init__(self, idle_passes: int = 2, max_moves: int = 2000) -> None:
        self._passes = _PassCounter(idle_passes)
        self.max_moves = max_moves
        self._last: tuple[int, int] | None = None

    def new_game(self, seed: int = 0) -> None:
        self._passes.reset()
        self._last = None

    def choose(self, view: KlondikeView) -> Move | None:
        if view.moves_played >= self.max_moves:
            return None
        best: Move | None = None
        best_score = 0.0
        for move in view.legal_moves:
            score = self._score(view, move)
            if score > best_score:
                best, best_score = move, score
        # After idle passes only progress is worth a move: a card home or a card turned up.
        if best is None or (self._passes.exhausted and best_score < _PROGRESS):
            return None
        self._passes.note(best)
        self._last = (best.source, best.target) if best.source < 7 and best.target < 7 else None
        return best

    def _score(self, view: KlondikeView, move: Move) -> float:
        source, target = move.source, move.target
        if source == STOCK:
            return 1.0
        if target == STOCK:
            return 0.5
        if source == FOUNDATION:
            # Only worth it when the waste card can follow it at once.
            assert move.suit is not None
            rank = view.foundation[move.suit]
            waste_top = view.waste_top
            if waste_top is not None and view.variant.fits(waste_top, Card(rank, move.suit)):
                return 1.5
            return 0.0
        if source == WASTE:
            card = view.waste_top
            assert card is not None
            if target == FOUNDATION:
                return 90.0 if view.variant.safe_to_foundation(card, view.foundation) else 27.0
            return 30.0 if card.rank != 13 else 25.0
        run = view.face_up[source]
        moving = run[len(run) - move.count:]
        reveals = move.count == len(run) and view.face_down[source] > 0
        if target == FOUNDATION:
            card = moving[0]
            base = 100.0 if view.variant.safe_to_foundation(card, view.foundation) else 26.0
            return base + (20.0 + view.face_down[source] if reveals else 0.0)
        if reveals:
            return 60.0 + view.face_down[source]
        if move.count == len(run):
            # A whole run with nothing under it: worth moving only to free a pile
            # for a king that waits with cards under it.
            waste_top = view.waste_top
            waiting = any(r and r[0].rank == 13 and view.face_down[i] for i, r in enumerate(view.face_up)) or (
                waste_top is not None and waste_top.rank == 13)
            return 20.0 if waiting and moving[0].rank != 13 else 0.0
        # Part of a run: worth it when it frees a card for a foundation, or
        # uncovers a place for the waste card.
        if self._last == (target, source):
            return 0.0  # never straight back
        freed = run[len(run) - move.count - 1]
        if view.fits_foundation(freed):
            return 50.0 if view.variant.safe_to_foundation(freed, view.foundation) else 24.0
        waste_top = view.waste_top
        return 28.0 if waste_top is not None and view.variant.fits(waste_top, freed) else 0.0
