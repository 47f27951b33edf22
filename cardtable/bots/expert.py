"""``expert``: a hidden-information player by hindsight optimisation.

At a decision that matters, the player deals the cards it has not seen at
random, in ways that agree with everything it has seen
(:func:`~cardtable.bots.hindsight.sample_position`), solves each guessed deal
with the solver under a small state budget, and plays the first move that wins
the most guesses. It then follows the winning line of one of those guesses for
as long as the table still looks the way that guess says it should: nothing
new has been seen, so that guess still agrees with everything seen and its line
still wins it. As soon as a card turns up that tells the guess apart, it guesses
again. Safe cards go home without a search, and when no guess is won (or the
time for the move runs out first) it plays the ``greedy`` player's move.

The player sees only its :class:`~cardtable.klondike.view.KlondikeView`. It
remembers the order of the stock from the last time the whole stock lay in the
waste (the view shows every waste card), which is what a player at the table
sees too.
"""

from __future__ import annotations

import time

from cardtable.bots.base import KlondikeBot
from cardtable.bots.hindsight import sample_position, solve_sample
from cardtable.bots.simple import GreedyPlayer, _PassCounter
from cardtable.cards import Card, SplitMix64
from cardtable.errors import UsageError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, WASTE, Move
from cardtable.klondike.position import Position
from cardtable.klondike.view import KlondikeView

__all__ = ["ExpertPlayer"]


# How often the same table may be seen before the player stops.
_REPEATS = 4


def _visible(view: KlondikeView) -> tuple[object, ...]:
    """What the table shows, without the move count."""
    return (view.face_up, view.face_down, view.stock_count, view.waste, view.foundation, view.pass_number)


class ExpertPlayer(KlondikeBot):
    """Hindsight optimisation over guessed deals (see the module documentation).

    ``samples`` guessed deals per decision, each solved within ``max_states``
    states; ``seconds`` bounds the guessing for one move (None: no bound). A
    table seen before gets the greedy move, and the player stops when it sees
    the same table a fifth time or after ``max_moves`` moves.
    """

    name = "expert"
    summary = "guesses the hidden cards, solves the guesses and plays the move that wins most (hindsight)"

    def __init__(self, samples: int = 8, max_states: int = 5000, seconds: float | None = None,
                 max_moves: int = 2000) -> None:
        if samples < 1 or max_states < 1 or (seconds is not None and seconds <= 0):
            raise UsageError("the expert needs at least one sample, a positive state budget and time")
        self.samples = samples
        self.max_states = max_states
        self.seconds = seconds
        self.max_moves = max_moves
        self._greedy = GreedyPlayer()
        self.new_game(0)

    def new_game(self, seed: int = 0) -> None:
        """Forget the last game and reseed the guesses."""
        self._rng = SplitMix64(seed ^ 0xE59E27)
        self._greedy.new_game(seed)
        self._stock_order: tuple[Card, ...] = ()
        self._plan: list[Move] = []
        self._guess: KlondikeGame | None = None
        self._passes = _PassCounter(2)
        self._scouting = True
        self._visits: dict[tuple[object, ...], int] = {}

    def choose(self, view: KlondikeView) -> Move | None:
        """The next move: the plan's, a safe card home, a fresh hindsight choice, or
        the greedy move; None once two whole passes went by with no card moved."""
        if view.stock_count == 0:
            self._stock_order = tuple(reversed(view.waste))
        seen = _visible(view)
        self._visits[seen] = visits = self._visits.get(seen, 0) + 1
        if visits > _REPEATS or view.moves_played >= self.max_moves:
            return None  # going round in circles: the guesses disagree on a lost game
        scouting = self._scouting
        move = self._greedy_move(view) if visits > 1 else self._choose(view)
        if move is not None:
            self._passes.note(move)
            if scouting:
                self._passes.reset()  # looking through the stock is no idle pass
            elif self._passes.exhausted:
                return None
        return move

    def _choose(self, view: KlondikeView) -> Move | None:
        if self._scouting:
            move = self._scout(view)
            if move is not None:
                return move
        fallback = self._greedy.choose(view)
        if not view.legal_moves:
            return None
        if self._guess is not None and self._plan and _visible(KlondikeView.of(self._guess)) == _visible(view):
            return self._follow(view, fallback)
        self._plan, self._guess = [], None
        if fallback is not None and _safe_home(view, fallback):
            return fallback
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        self._hindsight(view)
        if self._plan:
            return self._follow(view, fallback)
        return fallback

    def _greedy_move(self, view: KlondikeView) -> Move | None:
        """The greedy move, where the table has been seen before."""
        self._plan, self._guess = [], None
        return self._greedy.choose(view)

    def _scout(self, view: KlondikeView) -> Move | None:
        """Under unlimited passes with a free turn-over, look through the whole stock
        before the first move: the stock comes back in the same order, now known."""
        if view.moves_played == 0 and not (
                view.variant.passes is None and view.variant.scoring.kind != "standard" and view.stock_count):
            self._scouting = False
            return None
        for move in view.legal_moves:
            if move.is_draw or (move.is_recycle and view.stock_count == 0):
                if move.is_recycle:
                    self._scouting = False
                return move
        self._scouting = False
        return None

    def _follow(self, view: KlondikeView, fallback: Move | None) -> Move | None:
        move = self._plan.pop(0)
        if move not in view.legal_moves or self._guess is None:
            self._plan, self._guess = [], None
            return fallback
        self._guess.play(move)
        return move

    def _hindsight(self, view: KlondikeView) -> None:
        """Guess, solve, vote; keep the line of a guess won by the winning move."""
        known = self._stock_order[:view.stock_count] if self._stock_order else ()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        votes: dict[Move, int] = {}
        lines: dict[Move, tuple[list[Move], Position]] = {}
        for done in range(self.samples):
            position = sample_position(view, self._rng, known)
            line = solve_sample(position, view, self.max_states)
            if line:
                first = line[0]
                votes[first] = votes.get(first, 0) + 1
                if first not in lines:
                    lines[first] = (line, position)
            ranked = [*sorted(votes.values(), reverse=True), 0, 0]
            left = self.samples - done - 1
            if ranked[0] > ranked[1] + left:
                break  # no later guess can change the winner
            if deadline is not None and time.perf_counter() > deadline:
                break
        if not votes:
            return
        best = max(votes, key=lambda move: votes[move])
        line, position = lines[best]
        self._plan, self._guess = list(line), KlondikeGame(position, view.variant)


def _safe_home(view: KlondikeView, move: Move) -> bool:
    """A card going home that no other card could still need as a landing place."""
    if move.target != FOUNDATION:
        return False
    if move.source == WASTE:
        card = view.waste_top
    elif move.source < 7:
        card = view.face_up[move.source][-1]
    else:
        return False
    return card is not None and view.variant.safe_to_foundation(card, view.foundation)
