"""``expert``: a hidden-information player by hindsight optimisation.

At a decision that matters, the player holds a set of guessed deals: the cards
it has not seen, dealt at random in ways that agree with everything it has seen
(:func:`~cardtable.bots.klondike.hindsight.sample_position`). It solves each guess with
the solver under a small state budget. A won guess's line is cut after its
first move that shows something new (a face-down card turned up, or a stock
card not seen yet drawn): that *plan* is what the guess proposes, since moves
that show nothing new teach nothing and deciding between them again later
would be deciding on the same knowledge. The plans most guesses propose are
then weighed on every guess (each guess played through the plan and solved
from there), a plan that can no longer catch the leader being left untried.
Each is weighed in its lean form too: only the moves its last move needs, the
rest (such as waste cards put away, which the guess's solver chose knowing the
hidden cards) left until the new card is seen, and the stock turned only as
far as the card it plays from the waste needs. The plan that wins the most
guesses, the leaner on a tie, is played to its end. Then the player decides
afresh.

Hindsight flatters a plan after which the right next step depends on cards
still hidden: every guess's solver sees them. So a close call (plans within a
tenth of the guesses of the best) gets a *second look*, once the whole stock
is known: each of the best three is played on the first 16 guesses, and in
each the next plan is chosen the way a player would, by the votes of a few
guesses of the cards still hidden there; the plan is credited with the guess
only when the guess is still won after that next plan. The close plan with
the most such wins is played.

The guesses outlive the decision: each is played through the chosen plan, and
it stays as long as it still looks like the table (what the plan showed
agrees with it). The line the solver found after the plan stays with it, so
only new guesses, dealt to fill the set again, and the survivors whose line
is unknown cost a search. Safe cards go home without a search, and when no
guess is won (or the time for the decision runs out first) it plays the
``greedy`` player's move.

The player sees only its :class:`~cardtable.klondike.view.KlondikeView`. It
remembers the order of the stock from the last time the whole stock lay in the
waste (the view shows every waste card), which is what a player at the table
sees too.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from cardtable.bots.klondike.base import KlondikeBot
from cardtable.bots.klondike.hindsight import MAX_SAMPLE_STATES, Line, sample_position, solve_sample
from cardtable.bots.klondike.simple import GreedyPlayer, _PassCounter
from cardtable.cards import Card, SplitMix64
from cardtable.errors import UsageError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, WASTE, Move
from cardtable.klondike.view import KlondikeView

__all__ = ["MAX_EXPERT_STATES", "MAX_SAMPLES", "Advice", "ExpertPlayer", "view_seed"]


# How often the same table may be seen before the player stops.
_REPEATS = 4
# How many of the leading plans are tried on the guesses they did not win.
_CONTENDERS = 4
# A guess tried after another guess's plan gets this many times the budget: its
# own line was found along the solver's favourite path, and a budget cut short on
# the other path would count as a loss and favour the plans the solver likes.
_TRIED_FACTOR = 4

#: The largest state budget a guess may have: a guess tried again is searched
#: with :data:`_TRIED_FACTOR` times it, and no search goes past the solver's
#: ``MAX_STATES``.
MAX_EXPERT_STATES = MAX_SAMPLE_STATES // _TRIED_FACTOR
#: The most guessed deals a decision may have: each guess is held and
#: solved, so more would take hours a move and memory without end.
MAX_SAMPLES = 10_000
# Where each card on the foundations is paid (Vegas scoring), a plan is played
# only when it wins at least this share of the guesses; a long shot at winning
# gives up cards that the greedy move would have kept.
_CHASE_PAID = 0.25
# A close call: the plans within this share of the guesses of the best one get a
# second look, the best _SECOND_PLANS of them, on the first _SECOND_GUESSES guesses.
_CLOSE = 0.1
_SECOND_PLANS = 3
_SECOND_GUESSES = 16
# The advice's fallback when every legal move leads back to a position met before.
_NO_PROGRESS = "no move makes progress"


def _visible(view: KlondikeView) -> tuple[object, ...]:
    """What the table shows, without the move count."""
    return (view.face_up, view.face_down, view.stock_count, view.waste, view.foundation, view.pass_number)


def _visible_in(game: KlondikeGame) -> tuple[object, ...]:
    """What a guessed game would show, in the form of :func:`_visible`."""
    return (tuple(tuple(game.tableau[i][game.face_down[i]:]) for i in range(7)), tuple(game.face_down),
            len(game.stock), tuple(game.waste), tuple(game.foundation), game.pass_number)


def view_seed(view: KlondikeView, known_stock: Sequence[Card] = ()) -> int:
    """A seed made from what the player sees (and the stock order ``known_stock``
    seen on an earlier pass), so that the same view always gets the same guesses.

    >>> from cardtable.klondike import KlondikeGame
    >>> view_seed(KlondikeGame.from_seed(1).view()) == view_seed(KlondikeGame.from_seed(1).view())
    True
    """
    def cards(run: Sequence[Card]) -> str:
        return " ".join(str(card) for card in run)

    text = "|".join([view.variant.label, ";".join(cards(pile) for pile in view.face_up),
                     ",".join(map(str, view.face_down)), str(view.stock_count), cards(view.waste),
                     ",".join(map(str, view.foundation)), str(view.pass_number), cards(known_stock)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


@dataclass(frozen=True, slots=True)
class Advice:
    """What the expert would play now, from the player's view alone.

    ``move`` is None when no move is legal, or when no move makes progress
    (``fallback`` says ``"no move makes progress"``: each leads back to a
    position the game has been in, see :meth:`ExpertPlayer.advise`). ``wins``
    of the ``samples`` guessed deals are won after the move (each guess solved
    with its made-up cards known), so ``wins / samples`` estimates the chance
    of winning from here. ``fallback`` says why the move is the quicker
    ``greedy`` player's instead (``"no guess was won"``, ``"out of time"``),
    or is None.
    """

    move: Move | None
    wins: int
    samples: int
    fallback: str | None = None

    @property
    def chance(self) -> float | None:
        """The estimated chance of winning from here (None when no guess was weighed in time)."""
        return None if self.samples == 0 else self.wins / self.samples


# A plan's key: what the table shows before its last move, and that move.
_Key = tuple[tuple[object, ...], Move]


@dataclass(slots=True)
class _Guess:
    """One guessed deal played along with the table, and what the solver said of it.

    ``line`` is a winning line from the current table (empty when not solved yet)
    and ``lost`` says the solver found no win from here. ``tried`` holds, for
    the plans weighed at the last decision (by key), the winning line after that
    plan (None: none found)."""

    game: KlondikeGame
    line: Line = field(default_factory=Line)
    lost: bool = False
    tried: dict[_Key, Line | None] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.lost or bool(self.line)

    def settle(self, line: Line | None) -> None:
        self.line, self.lost, self.tried = (line, False, {}) if line else (Line(), True, {})


@dataclass(slots=True)
class _Plan:
    """Moves that see nothing new, then the one move that does (or the rest of a won game)."""

    key: _Key
    moves: list[Move]
    votes: int = 0

    @property
    def commits(self) -> int:
        """How many of its moves are more than turning the stock over."""
        return sum(1 for move in self.moves if not _turns_stock(move))


class ExpertPlayer(KlondikeBot):
    """Hindsight optimisation over guessed deals (see the module documentation).

    ``samples`` guessed deals per decision, each solved within ``max_states``
    states (four times that when a guess is tried after another guess's plan);
    ``seconds`` bounds the guessing and solving for one decision (None: no
    bound). ``chase`` is the share of the guesses the best plan must win to be
    played; below it the player makes the greedy move (None: 0, or a quarter
    where each foundation card is paid, as under Vegas scoring, since a long
    shot at a win gives up cards). ``second`` is the number of guesses that
    choose the next plan in the second look at a close call (0: no second
    look). ``wide`` (1, the default) searches the guesses under the solver's
    wide and fill rules, which need fewer states for the same answer; 0
    searches them as before those rules (the quick expert that grades deals
    does, so that a grade stays what it was). A table seen before gets the
    greedy move, and the player stops when it sees the same table a fifth
    time or after ``max_moves`` moves.
    """

    name = "expert"
    summary = "guesses the hidden cards, solves the guesses and plays the move that wins most (hindsight)"
    options: ClassVar[dict[str, tuple[str, type, str]]] = {
        "samples": ("samples", int, "guessed deals per decision"),
        "states": ("max_states", int, "state budget of the search of each guess"),
        "seconds": ("seconds", float, "time for one decision's guessing and solving"),
        "chase": ("chase", float, "share of the guesses a plan must win to be played rather than the greedy move"),
        "second": ("second", int, "guesses for the next choice in a second look at a close call (0: no second look)"),
        "wide": ("wide", int, "1: search the guesses under the solver's wide and fill rules (fewer states a "
                              "guess); 0: as before those rules"),
    }
    option_defaults: ClassVar[dict[str, str]] = {
        "chase": f"0, or {_CHASE_PAID} where each card is paid, as under Vegas scoring"}

    def __init__(self, samples: int = 48, max_states: int = 20_000, seconds: float | None = None,
                 chase: float | None = None, second: int = 6, max_moves: int = 2000, wide: int = 1) -> None:
        if samples < 1:
            raise UsageError(f"the expert needs at least one sample, not {samples}")
        if samples > MAX_SAMPLES:
            raise UsageError(f"the expert's guesses (samples) must be at most {MAX_SAMPLES:,}, not {samples:,}")
        if max_states < 1:
            raise UsageError(f"the expert's state budget (states) must be at least 1, not {max_states}")
        if max_states > MAX_EXPERT_STATES:
            raise UsageError(f"the expert's state budget (states) must be at most {MAX_EXPERT_STATES:,} a guess "
                             f"(it searches a guess again with {_TRIED_FACTOR} times it, and the solver stops at "
                             f"{MAX_SAMPLE_STATES:,}), not {max_states:,}")
        if seconds is not None and not 0 < seconds < float("inf"):
            raise UsageError(f"the expert's time per decision (seconds) must be a positive number, not {seconds}")
        if chase is not None and not 0 <= chase <= 1:
            raise UsageError(f"the expert's chase must be a share of the guesses, from 0 to 1, not {chase}")
        if not 0 <= second <= MAX_SAMPLES:
            raise UsageError(f"the expert's second look needs a count of guesses, from 0 to {MAX_SAMPLES:,}, "
                             f"not {second:,}")
        if wide not in (0, 1):
            raise UsageError(f"the expert's wide option is 0 or 1, not {wide}")
        self.wide = bool(wide)
        self.samples = samples
        self.second = second
        self.chase = chase
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
        self._guesses: list[_Guess] = []
        self._plan: list[Move] = []  # already played in every guess
        self._passes = _PassCounter(2)
        self._scouting = True
        self._visits: dict[tuple[object, ...], int] = {}
        self._timed_out = False
        self._weighed = (0, 0, 0)
        # What the player knew at each position met so far (advise only), and whether it knows
        # the whole stock's order here: the cycle rule of :meth:`advise`.
        self._met: frozenset[tuple[object, ...]] = frozenset()
        self._stock_known = False
        # The tables (see :func:`_table`) of the positions met, and the first moves a plan may
        # start with here (None: any); a move back to a table met comes only when nothing else
        # makes progress.
        self._met_tables: frozenset[tuple[object, ...]] = frozenset()
        self._first: frozenset[Move] | None = None

    def choose(self, view: KlondikeView) -> Move | None:
        """The next move: the plan's, a safe card home, a fresh hindsight choice,
        or the greedy move; None once two whole passes went by with no card moved."""
        if view.stock_count == 0:
            self._stock_order = tuple(reversed(view.waste))
        seen = _visible(view)
        self._visits[seen] = visits = self._visits.get(seen, 0) + 1
        if visits > _REPEATS or view.moves_played >= self.max_moves:
            return None  # going round in circles: the guesses disagree on a lost game
        scouting = self._scouting
        planned = False
        if self._plan and visits == 1 and self._plan[0] in view.legal_moves:
            move: Move | None = self._plan.pop(0)
            planned = True
        else:
            if self._plan:  # the guesses are ahead of the table: start again
                self._plan, self._guesses = [], []
            move = self._greedy.choose(view) if visits > 1 else self._choose(view)
            if self._plan:  # a fresh plan, already played in the guesses
                planned = True
        if move is not None:
            self._passes.note(move)
            if scouting:
                self._passes.reset()  # looking through the stock is no idle pass
            elif self._passes.exhausted:
                return None
            if not planned:
                self._guesses = [guess for guess in self._guesses if _advance(guess, move)]
        return move

    def advise(self, view: KlondikeView, known_stock: Sequence[Card] = (),
               met: Collection[tuple[object, ...]] = ()) -> Advice:
        """What the expert would play now from ``view`` alone, and how many of its
        guesses it wins after that move: a hint that never looks at a hidden card.

        ``known_stock`` is the bottom of the stock, bottom first, as the player
        saw it when the whole stock last lay in the waste. The guesses are seeded
        by :func:`view_seed`, so the same view gets the same advice (unless
        ``seconds`` runs out first). The player's memory of an earlier game or
        decision is forgotten. Among plans that win as many guesses, the one
        whose first move a person would make first is chosen: a card to the
        foundation, then a move that turns a card up, then others, a draw last.

        ``met`` is what the player knew at each position the game has been in
        (:meth:`KlondikeGame.knowledge <cardtable.klondike.KlondikeGame.knowledge>`,
        this one's included). The advice never leads back to any of them: a plan
        that passes through one is not weighed, and the greedy move is given only
        when it leads somewhere new, else a turn of the stock that does; when no
        move does, the advice is no move, ``fallback`` ``"no move makes
        progress"``. So a player who follows the advice never meets the same
        position twice with the same knowledge, whatever the budget.

        Nor does it restore a table met before while anything else makes
        progress: a move that changes the table (not a draw or a turn of the
        stock) and leaves the tableau and foundations as they were at a position
        met is *restoring*, since the draws made since could have been made
        without the moves in between. No plan that starts with one is weighed
        and the greedy move is none, unless every move that leads somewhere new
        is restoring (a draw that does is preferred): then one is given, so a
        player's own mistake can still be taken back.

        >>> from cardtable.klondike import KlondikeGame, Variant
        >>> game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
        >>> advice = ExpertPlayer(samples=8, max_states=2000).advise(game.view())
        >>> advice.move in game.legal_moves(), advice.samples
        (True, 8)
        """
        self.new_game(view_seed(view, known_stock))
        self._scouting = False
        self._stock_order = tuple(known_stock)
        self._met = frozenset(met)
        self._met_tables = frozenset(_table(knowledge) for knowledge in self._met)
        self._first = None
        self._stock_known = len(known_stock) == view.stock_count
        if not view.legal_moves:
            return Advice(None, 0, 0)
        table = KlondikeGame(sample_position(view, SplitMix64(0), known_stock), view.variant)  # for the cycle rule
        moves = tuple(move for move in view.legal_moves if self._allowed([move], table))
        if not moves:
            return Advice(None, 0, 0, _NO_PROGRESS)
        # A move back to a table met only when no other move leads somewhere new.
        moves = tuple(move for move in moves if not self._restoring(move, table)) or moves
        self._first = frozenset(moves)
        # The greedy move among those that lead somewhere new (drawing is its last resort);
        # when it sees none worth making there, no move makes progress.
        fallback = self._greedy.choose(view if moves == view.legal_moves else replace(view, legal_moves=moves))
        stuck = fallback is None and moves != view.legal_moves
        plan = self._hindsight(view, person=True)
        won, best_wins, count = self._weighed
        if self._timed_out:
            return Advice(None, 0, 0, _NO_PROGRESS) if stuck else Advice(fallback, 0, 0, "out of time")
        if fallback is not None and _safe_home(view, fallback):
            return Advice(fallback, won, count)  # it costs no guess its win
        if len(view.legal_moves) == 1:
            return Advice(view.legal_moves[0], won, count)
        if not plan:
            if stuck:
                return Advice(None, 0, 0, _NO_PROGRESS)
            return Advice(fallback, best_wins, count, "no guess was won" if best_wins == 0 else "a long shot")
        return Advice(plan[0], best_wins, count)

    def _late(self, deadline: float | None) -> bool:
        """Whether the time for this decision is up (and say so in ``_timed_out``)."""
        if deadline is None or time.perf_counter() <= deadline:
            return False
        self._timed_out = True
        return True

    def _choose(self, view: KlondikeView) -> Move | None:
        if self._scouting:
            move = self._scout(view)
            if move is not None:
                return move
        fallback = self._greedy.choose(view)
        if not view.legal_moves:
            return None
        if fallback is not None and _safe_home(view, fallback):
            return fallback
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        plan = self._hindsight(view)
        if not plan:
            return fallback
        self._plan = plan
        return self._plan.pop(0)

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

    def _hindsight(self, view: KlondikeView, *, person: bool = False) -> list[Move]:
        """Guess, solve, weigh the plans the won guesses start with on every guess;
        the plan that wins the most guesses, already played in them (empty: no guess won).
        ``person``: a tie goes to the first move a person would play first, not the leaner plan.
        ``_weighed`` keeps the guesses won, those the plan wins, and the guesses' count."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._timed_out = False
        self._weighed = (0, 0, 0)
        seen = _visible(view)
        guesses = [guess for guess in self._guesses if _visible_in(guess.game) == seen]
        known = self._stock_order[:view.stock_count] if self._stock_order else ()
        while len(guesses) < self.samples:
            guesses.append(_Guess(KlondikeGame(sample_position(view, self._rng, known), view.variant)))
        self._guesses = guesses
        plans: dict[_Key, _Plan] = {}
        own: list[_Plan | None] = []
        for guess in guesses:
            if not guess.solved:
                if self._late(deadline):
                    own.append(None)
                    continue
                guess.settle(solve_sample(guess.game, self.max_states, wide=self.wide))
            if not guess.line:
                own.append(None)
                continue
            plan = _first_plan(guess, view.stock_count - len(known))
            if plan.key in plans:
                plan = plans[plan.key]
            elif self._allowed(plan.moves, guess.game):
                plans[plan.key] = plan
            else:  # it leads back to a position met before: the guess is won, but not by this plan
                own.append(plan)
                continue
            plan.votes += 1
            own.append(plan)
        won = sum(1 for plan in own if plan is not None)
        if not won:
            self._weighed = (0, 0, len(guesses))
            return []
        order = sorted(plans.values(), key=lambda plan: -plan.votes)  # stable: ties keep first-seen order
        table = guesses[0].game
        best: _Plan | None = None
        best_wins = -1
        scores: list[tuple[_Plan, int]] = []
        for plan in _with_lean(order[:_CONTENDERS], plans, table, view.stock_count - len(known),
                               lambda lean: self._allowed(lean.moves, table)):
            if won < best_wins:
                break  # winning every won guess would not even tie
            wins = self._wins(plan, guesses, own, best_wins - 1, deadline)
            scores.append((plan, wins))
            if best is None or wins > best_wins or (wins == best_wins and _rather(view, plan, best, person=person)):
                best, best_wins = plan, wins
        if (person or best is None) and won >= best_wins:
            # A move a person would play sooner than the best plan's first may win as many guesses
            # though no guess's solver line starts with it: try each such move alone (each move,
            # when every plan the guesses propose leads back to a position met before).
            rank = -1 if best is None else _person_rank(view, best.moves[0])
            for move in view.legal_moves:
                if _person_rank(view, move) <= rank:
                    continue
                plan = plans.get((seen, move)) or _Plan((seen, move), [move])
                if plan is best or any(plan is scored for scored, _ in scores):
                    continue
                if (seen, move) not in plans:
                    if not self._allowed(plan.moves, table):
                        continue
                    plans[plan.key] = plan
                wins = self._wins(plan, guesses, own, best_wins - 1, deadline)
                scores.append((plan, wins))
                if best is None or wins > best_wins or \
                        (wins == best_wins and _rather(view, plan, best, person=person)):
                    best, best_wins = plan, wins
        if best is None or best_wins <= 0:
            self._weighed = (won, 0, len(guesses))
            return []
        if self.second and len(known) == view.stock_count:
            close = best_wins - max(1, int(_CLOSE * len(guesses)))
            rivals = [plan for plan, wins in sorted(scores, key=lambda each: -each[1])
                      if wins >= close and plan is not best][:_SECOND_PLANS - 1]
            if rivals:
                best = self._second_look([best, *rivals], guesses[:_SECOND_GUESSES], deadline)
                best_wins = dict((id(plan), wins) for plan, wins in scores)[id(best)]
        self._weighed = (won, best_wins, len(guesses))
        chase = self.chase
        if chase is None:
            chase = _CHASE_PAID if view.variant.scoring.kind == "vegas" else 0.0
        if best_wins < chase * len(guesses):
            return []  # a long shot: the greedy move keeps more cards
        self._guesses = [guess for guess, plan in zip(guesses, own, strict=True)
                         if _follow(guess, best, plan)]
        return list(best.moves)

    def _allowed(self, moves: Sequence[Move], game: KlondikeGame) -> bool:
        """Whether ``moves``, played from ``game`` (a guess of the table, not
        changed), stay off every position met before (``_met``) and off each
        other until one shows something new: a card turned up, or a stock card
        whose place was not known drawn. No face-down card decides it: a move
        that shows a new card is new whatever the card. The first move must be
        one of ``_first`` when that is set (see :meth:`advise`)."""
        if not self._met:
            return True
        if self._first is not None and moves and moves[0] not in self._first:
            return False
        game = game.clone()
        passed: set[tuple[object, ...]] = set()
        for move in moves:
            if move.is_draw and not self._stock_known:
                return True
            down = sum(game.face_down)
            if not _play(game, move):
                return False
            if sum(game.face_down) < down:
                return True
            # Without a draw from the unknown stock, what the player knows of the stock stays
            # as it was: all of it, or what it was (a stock not yet looked through is neither
            # drawn from nor turned over without such a draw).
            knowledge = game.knowledge(tuple(game.stock) if self._stock_known else self._stock_order)
            if knowledge in self._met or knowledge in passed:
                return False
            passed.add(knowledge)
        return True

    def _restoring(self, move: Move, game: KlondikeGame) -> bool:
        """Whether ``move``, played from ``game`` (not changed), changes the table
        back to one met before (``_met_tables``); a draw or a turn of the stock
        never does."""
        if move.is_draw or move.is_recycle:
            return False
        after = game.clone()
        return _play(after, move) and _table(after.knowledge(())) in self._met_tables

    def _wins(self, plan: _Plan, guesses: list[_Guess], own: list[_Plan | None], to_beat: int,
              deadline: float | None) -> int:
        """How many guesses ``plan`` wins, trying it where unknown; stops early (with
        a count no higher than ``to_beat``) once it cannot win more."""
        wins, open_ = 0, sum(1 for mine in own if mine is not None)
        for guess, mine in zip(guesses, own, strict=True):
            if mine is None:
                continue  # no win from here, so none after any plan
            if mine is plan:
                wins += 1
            elif plan.key in guess.tried:
                wins += guess.tried[plan.key] is not None
            else:
                if wins + open_ <= to_beat or self._late(deadline):
                    return min(wins, to_beat)
                after = guess.game.clone()
                line: Line | None = None
                if all(_play(after, move) for move in plan.moves):
                    budget = self.max_states * _TRIED_FACTOR
                    line = Line() if after.is_won() else solve_sample(after, budget, wide=self.wide)
                guess.tried[plan.key] = line
                wins += line is not None
            open_ -= 1
        return wins

    def _second_look(self, plans: list[_Plan], guesses: list[_Guess], deadline: float | None) -> _Plan:
        """The plan, of a close call's ``plans`` (the best first), that wins the most
        ``guesses`` when its next plan is chosen without seeing their hidden cards."""
        best, best_wins = plans[0], -1
        for plan in plans:
            wins = 0
            for guess in guesses:
                if guess.lost or guess.tried.get(plan.key, Line()) is None:
                    continue  # lost even seeing every card
                if self._late(deadline):
                    return plans[0]
                after = guess.game.clone()
                if all(_play(after, move) for move in plan.moves):
                    wins += after.is_won() or self._wins_unseen(after)
            if wins > best_wins:
                best, best_wins = plan, wins
        return best

    def _wins_unseen(self, game: KlondikeGame) -> bool:
        """Whether ``game`` (the stock known) is still won after the next plan chosen
        by the votes of ``second`` guesses of its hidden cards, the rest seen."""
        if sum(game.face_down) > 1:
            view = game.view()
            known = tuple(game.stock)
            plans: dict[_Key, _Plan] = {}
            for _ in range(self.second):
                guessed = KlondikeGame(sample_position(view, self._rng, known), view.variant)
                line = solve_sample(guessed, self.max_states, wide=self.wide)
                if line:
                    plan = _first_plan(_Guess(guessed, line), 0)
                    plans.setdefault(plan.key, plan).votes += 1
            if not plans:
                return False
            choice = max(plans.values(), key=lambda plan: plan.votes)
            if not all(_play(game, move) for move in choice.moves):
                return False
            if game.is_won():
                return True
        return solve_sample(game, self.max_states * _TRIED_FACTOR, wide=self.wide) is not None


def _play(game: KlondikeGame, move: Move) -> bool:
    if not game.is_legal(move):
        return False
    game.play(move)
    return True


def _advance(guess: _Guess, move: Move) -> bool:
    """Play ``move`` in the guess and keep what is still known; False when it
    cannot be played there (the guess no longer fits)."""
    if not _play(guess.game, move):
        return False
    if guess.line[0] == move:
        guess.line.drop(1)
    elif not guess.lost:
        guess.line = Line()
    guess.tried = {}
    return True


def _follow(guess: _Guess, chosen: _Plan, mine: _Plan | None) -> bool:
    """Play the ``chosen`` plan in the guess (whose own plan is ``mine``) and keep
    its winning line where one is known; False when the plan cannot be played there."""
    line: Line | None = Line()  # empty: not known yet
    if guess.lost:
        line = None
    elif mine is not None and mine.key == chosen.key:
        # The same table and the same last move: the guess stands where its own plan leads.
        line = guess.line.drop(len(mine.moves))
    elif chosen.key in guess.tried:
        line = guess.tried[chosen.key]
    if not all(_play(guess.game, move) for move in chosen.moves):
        return False
    guess.line, guess.lost, guess.tried = line or Line(), line is None, {}
    return True


def _first_plan(guess: _Guess, unknown_stock: int) -> _Plan:
    """The start of the guess's winning line up to the first move that shows
    something new: a face-down card turned, or a stock card not seen yet drawn
    (the ``unknown_stock`` top cards of the stock)."""
    game = guess.game.clone()
    line = guess.line
    moves: list[Move] = []
    while (move := line[len(moves)]) is not None:
        moves.append(move)
        key = (_visible_in(game), move)
        if move.is_draw and unknown_stock > 0:
            return _Plan(key, moves)
        down = sum(game.face_down)
        game.play(move)
        if sum(game.face_down) < down:
            return _Plan(key, moves)
    return _Plan((_visible_in(guess.game), moves[0]), moves)


def _table(knowledge: tuple[object, ...]) -> tuple[object, ...]:
    """The table of a position from its :meth:`KlondikeGame.knowledge
    <cardtable.klondike.KlondikeGame.knowledge>`: the face-up cards of each pile,
    the face-down counts and the foundations; not the stock, the waste, the pass
    or what is known of the stock. Two positions with the same table hold the
    same cards in the stock and waste."""
    face_up, face_down, _stock, _waste, foundation, *_ = knowledge
    return face_up, face_down, foundation


def _with_lean(contenders: list[_Plan], plans: dict[_Key, _Plan], game: KlondikeGame,
               unknown_stock: int, allowed: Callable[[_Plan], bool]) -> Iterator[_Plan]:
    """Each contender, then its lean form (see :func:`_lean`) where that is another
    plan and ``allowed`` (the contenders are allowed already)."""
    given: set[_Key] = set()
    for plan in contenders:
        for each in (plan, _lean(plan, game, unknown_stock)):
            if each is not None and each.key not in given and (each.key in plans or allowed(each)):
                given.add(each.key)
                yield plans.setdefault(each.key, each)


def _lean(plan: _Plan, game: KlondikeGame, unknown_stock: int) -> _Plan | None:
    """The plan with only the moves its last move needs: each other move that is
    more than turning the stock over is left out where the rest still plays and
    the last move still turns a face-down card up; then the stock is turned only
    as far as the last card it still plays from the waste. A guess's solver picks
    those moves knowing the hidden cards; left for later, they are picked once the
    card is seen. None when nothing can be left out or the plan ends in a draw."""
    last = plan.moves[-1]
    if _turns_stock(last) or len(plan.moves) == 1:
        return None
    moves = list(plan.moves)
    for index in range(len(moves) - 2, -1, -1):
        move = moves[index]
        if not _turns_stock(move):
            trial = moves[:index] + moves[index + 1:]
            if _reveals(game, trial, unknown_stock) is not None:
                moves = trial
    from_waste = max((index for index, move in enumerate(moves) if move.source == WASTE and not move.is_recycle),
                     default=-1)
    moves = moves[:from_waste + 1] + [move for move in moves[from_waste + 1:] if not _turns_stock(move)]
    turned = _least_turning(game, moves)
    if turned is None:
        return None
    moves = turned
    if len(moves) == len(plan.moves):
        return None
    before = _reveals(game, moves, unknown_stock)
    return None if before is None else _Plan((before, last), moves)


def _least_turning(game: KlondikeGame, moves: list[Move]) -> list[Move] | None:
    """``moves`` (played in a copy of ``game``) with the stock turned only as far
    as each card played from the waste needs: a run of draws and recycles
    becomes the shortest run that brings the same card to the top of the waste.
    Left-out moves can leave whole passes in a plan with nothing played from
    them, and an idle pass costs a pass where passes are counted. None when
    ``moves`` do not play."""
    game = game.clone()
    out: list[Move] = []
    turns: list[Move] = []
    for move in moves:
        if _turns_stock(move):
            turns.append(move)
            continue
        if turns and move.source == WASTE:
            ahead = game.clone()
            if not all(_play(ahead, turn) for turn in turns) or not ahead.waste:
                return None
            want = ahead.waste[-1]
            # Turning the stock is forced (a draw while it has cards, else a
            # recycle), so the least turning is the start of the same run.
            for turn in turns:
                if game.waste and game.waste[-1] is want:
                    break
                if not _play(game, turn):
                    return None
                out.append(turn)
            turns = []
        if not _play(game, move):
            return None
        out.append(move)
    for turn in turns:  # turns after the last move keep their place
        if not _play(game, turn):
            return None
        out.append(turn)
    return out


def _reveals(game: KlondikeGame, moves: list[Move], unknown_stock: int) -> tuple[object, ...] | None:
    """What the table shows before the last of ``moves`` when they all play in
    ``game`` (a copy is played), none but the last shows a new card, and the last
    turns a face-down card up; None otherwise."""
    game = game.clone()
    for move in moves[:-1]:
        down = sum(game.face_down)
        if (move.is_draw and unknown_stock > 0) or not _play(game, move) or sum(game.face_down) < down:
            return None
    seen = _visible_in(game)
    down = sum(game.face_down)
    if not _play(game, moves[-1]) or sum(game.face_down) == down:
        return None
    return seen


def _rather(view: KlondikeView, plan: _Plan, best: _Plan, *, person: bool) -> bool:
    """Whether ``plan`` is to be played rather than ``best``, which wins as many
    guesses: the leaner one, or (``person``) the one whose first move a person
    would play sooner, the leaner when that is the same."""
    if person:
        rank, best_rank = _person_rank(view, plan.moves[0]), _person_rank(view, best.moves[0])
        if rank != best_rank:
            return rank > best_rank
    return plan.commits < best.commits


def _person_rank(view: KlondikeView, move: Move) -> int:
    """How soon a person would play ``move``: a card to the foundation (3), a move that
    turns a card up (2), another move (1), turning the stock over (0)."""
    if move.target == FOUNDATION and move.source != FOUNDATION:
        return 3
    if 0 <= move.source < 7 and move.count == len(view.face_up[move.source]) and view.face_down[move.source]:
        return 2
    return 0 if _turns_stock(move) else 1


def _turns_stock(move: Move) -> bool:
    """A draw or a recycle: the stock turned over, nothing committed."""
    return move.is_draw or move.is_recycle


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
