"""A played game of any patience game reviewed move by move from the player's view.

For each position of a game record (its deal, then after each move)
:func:`weigh_position` estimates the ``expert``'s chance of winning from
there, as the hint does (:mod:`cardtable.bots.patience_hint`): it deals the
cards the player cannot see ``samples`` ways that agree with the player's
view at that point (never the record's hidden cards), seeded by that view, and
searches each guess with the exact patience search within ``max_states``
states. The chance is the share of guesses won; a guess whose search runs
out of budget counts as not won. When no guess is decided at all (every
search ran out of budget, as in the Spiders' long deals) the chance is not
known (None), and the review says how often that was so rather than guess.
The first move of the most winning lines is the expert's move there.

:class:`PlayReview` calls out the player's mistakes (the moves that were not
the expert's and cost at least :data:`DROP_THRESHOLD` of the chance) and
turns itself into plain data. The all-cards-known verdicts (the peek) are
:mod:`cardtable.solver.patience_review`'s, kept apart: this module never
reads a hidden card. The budget counts states, so the same record gets the
same review on every machine.

>>> from cardtable.patience import PatienceGame, get
>>> from cardtable.patience.record import PatienceRecord
>>> game = PatienceGame.from_seed(get("golf"), 4)
>>> game.play(game.legal_moves()[0])
>>> review = review_play(PatienceRecord.from_game(game, 4), samples=2, max_states=2000)
>>> len(review.positions), review.complete
(2, True)
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from cardtable._text import plural
from cardtable.bots.patience_hindsight import guess_deal, judge_guess
from cardtable.bots.patience_hint import HINT_SAMPLES, move_words, seen_position
from cardtable.bots.review import MoveChances, all_weighed, costly, percent, weighed_moves
from cardtable.cards import SplitMix64
from cardtable.errors import RulesError
from cardtable.patience.engine import PatienceGame, PatienceView
from cardtable.patience.moves import Move
from cardtable.patience.record import PatienceRecord

__all__ = ["DROP_THRESHOLD", "REVIEW_SAMPLES", "REVIEW_STATES", "MoveReview", "PlayReview", "PositionChance",
           "review_play", "review_positions", "weigh_position"]

#: The review's budget for each position: guessed deals (the hint's), and search states for each (fewer
#: than the hint's, for a review weighs every position of a game).
REVIEW_SAMPLES = HINT_SAMPLES
REVIEW_STATES = 10_000
#: A drop of at least this share, on a move that is not the expert's, is a mistake (with 8 guesses an
#: estimate moves in steps of an eighth, and wanders by more than one of them by chance alone).
DROP_THRESHOLD = 0.25


@dataclass(frozen=True, slots=True)
class PositionChance:
    """Position ``index`` of a game (before move ``index`` + 1, or after the last).

    ``chance`` is the expert's estimated chance of winning from here, from
    the player's view: ``wins`` of ``samples`` guesses (1.0 on a won table, 0.0
    when no move is legal; None when no guess was decided within the budget).
    ``lost`` of the guesses were proven lost, the others ran out of budget.
    ``expert`` is the first move of the most winning lines (None: no guess
    won, or the game is over), ``expert_words`` says it naming only cards the
    player sees.
    """

    index: int
    chance: float | None
    wins: int
    lost: int
    samples: int
    expert: Move | None
    expert_words: str

    def to_dict(self) -> dict[str, object]:
        """The position as plain data."""
        return {"index": self.index, "chance": self.chance, "wins": self.wins, "lost": self.lost,
                "samples": self.samples, "expert": None if self.expert is None else str(self.expert),
                "expert_words": self.expert_words}


def _seed(view: PatienceView) -> int:
    """The guesses' seed: what the player sees, hashed the same way in every process."""
    text = repr(("review", view.description.rules_key, seen_position(view), view.pass_number))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def weigh_position(game: PatienceGame, *, index: int = 0, samples: int = REVIEW_SAMPLES,
                   max_states: int = REVIEW_STATES) -> PositionChance:
    """The expert's chance from ``game``'s position as its player sees it
    (see the module documentation); ``index`` is the position's number in
    its game. With nothing hidden the one deal is searched once, within
    ``samples * max_states`` states.

    >>> from cardtable.patience import get
    >>> weigh_position(PatienceGame.from_seed(get("golf"), 4), samples=2, max_states=2000).samples
    2
    """
    if samples < 1 or max_states < 1:
        raise RulesError(f"a review needs samples and max_states of at least 1, not {samples} and {max_states}")
    if game.is_won():
        return PositionChance(index, 1.0, 1, 0, 1, None, "")
    view = game.view()
    if not view.legal_moves:
        return PositionChance(index, 0.0, 0, 1, 1, None, "")
    hidden = any(pile.face_down for pile in view.piles)
    guesses, budget = (samples, max_states) if hidden else (1, samples * max_states)
    rng = SplitMix64(_seed(view))
    wins = lost = 0
    votes: Counter[Move] = Counter()
    for _ in range(guesses):
        verdict, line = judge_guess(guess_deal(view, rng), budget)
        if verdict == "won":
            wins += 1
            if line and line[0] in view.legal_moves:
                votes[line[0]] += 1
        elif verdict == "lost":
            lost += 1
    chance = None if wins + lost == 0 else wins / guesses
    expert = max(votes, key=lambda move: votes[move]) if votes else None
    return PositionChance(index, chance, wins, lost, guesses, expert,
                          "" if expert is None else move_words(view, expert))


def review_positions(record: PatienceRecord, *, samples: int = REVIEW_SAMPLES,
                     max_states: int = REVIEW_STATES) -> Iterator[PositionChance]:
    """Each position of ``record``'s game weighed (:func:`weigh_position`), the deal first."""
    game = record.start()
    yield weigh_position(game, index=0, samples=samples, max_states=max_states)
    for index, move in enumerate(record.moves, start=1):
        game.play(move)
        yield weigh_position(game, index=index, samples=samples, max_states=max_states)


@dataclass(frozen=True, slots=True)
class MoveReview(MoveChances[Move, PositionChance]):
    """Move ``number`` (from 1) of a game, its ``words`` (naming only cards
    the player saw), and the positions ``before`` and ``after`` it (the
    drop and whether it was the expert's move: :class:`~cardtable.bots.review.MoveChances`)."""

    def callout(self) -> str:
        """The move in words with its chances: "move 12 (7♣ from pile 2 onto 8♥ in pile 4): 62% → 25%;
        the expert would move ..."."""
        text = self.chances()
        if self.before.expert is not None and not self.is_experts:
            text += f"; the expert would play {self.before.expert_words}"
        return text

    def to_dict(self) -> dict[str, object]:
        """The move as plain data."""
        return {"number": self.number, "move": str(self.move), "words": self.words, "before": self.before.chance,
                "after": self.after.chance, "drop": self.drop, "is_experts": self.is_experts,
                "expert": None if self.before.expert is None else str(self.before.expert),
                "expert_words": self.before.expert_words}


@dataclass(frozen=True, slots=True)
class PlayReview:
    """The review of a game: its positions weighed (fewer than its moves + 1
    when the review was stopped: then not :attr:`complete`), the moves' words
    and the budget a position."""

    record: PatienceRecord
    positions: tuple[PositionChance, ...]
    words: tuple[str, ...]
    samples: int
    max_states: int

    @property
    def complete(self) -> bool:
        """Whether every position of the game was weighed."""
        return all_weighed(self.record.moves, self.positions)

    @property
    def moves(self) -> tuple[MoveReview, ...]:
        """The moves whose positions before and after were both weighed."""
        return weighed_moves(self.record.moves, self.positions, self.words, MoveReview)

    def mistakes(self, threshold: float = DROP_THRESHOLD) -> list[MoveReview]:
        """The moves that were not the expert's and cost at least ``threshold`` of the chance, in order."""
        return costly(self.moves, threshold)

    def unknown(self) -> int:
        """How many positions weighed have no estimate (no guess decided within the budget)."""
        return sum(position.chance is None for position in self.positions)

    def summary(self) -> str:
        """The review in a sentence or two: the chances at the start and the end, the mistakes, and
        the positions the expert could not estimate within its budget."""
        if not self.positions:
            return "No position was weighed."
        first, last = self.positions[0], self.positions[-1]
        done = "" if self.complete else f" (stopped after {len(self.positions) - 1})"
        text = (f"{plural(len(self.record.moves), 'move')}{done}: the expert's chance {percent(first.chance)} "
                f"at the deal, {percent(last.chance)} at the end; "
                f"{plural(len(self.mistakes()), 'mistake')}.")
        unknown = self.unknown()
        if unknown:
            text += (f" The expert could not estimate the chance at {plural(unknown, 'position')} (shown as ?): "
                     f"no guess was decided within {self.max_states:,} states.")
        return text

    @classmethod
    def of(cls, record: PatienceRecord, positions: Sequence[PositionChance], *, samples: int = REVIEW_SAMPLES,
           max_states: int = REVIEW_STATES) -> PlayReview:
        """The review of ``record`` from its ``positions`` weighed so far (the deal first)."""
        return cls(record, tuple(positions), _words(record), samples, max_states)

    def to_dict(self) -> dict[str, object]:
        """The review as plain JSON values."""
        return {"samples": self.samples, "max_states": self.max_states, "complete": self.complete,
                "positions": [position.to_dict() for position in self.positions],
                "moves": [move.to_dict() for move in self.moves],
                "mistakes": [move.number for move in self.mistakes()], "unknown": self.unknown(),
                "threshold": DROP_THRESHOLD, "summary": self.summary()}


def _words(record: PatienceRecord) -> tuple[str, ...]:
    """Each move of ``record`` in words, as the player saw it before playing it."""
    game = record.start()
    words = []
    for move in record.moves:
        words.append(move_words(game.view(), move))
        game.play(move)
    return tuple(words)


def review_play(record: PatienceRecord, *, samples: int = REVIEW_SAMPLES, max_states: int = REVIEW_STATES,
                progress: Callable[[int, int], None] | None = None,
                stop: Callable[[], bool] | None = None) -> PlayReview:
    """Review ``record``'s game: every position weighed, ``progress(done,
    total)`` told after each, stopped (what was weighed kept) once ``stop()``
    says so."""
    total = len(record.moves) + 1
    positions: list[PositionChance] = []
    for position in review_positions(record, samples=samples, max_states=max_states):
        positions.append(position)
        if progress is not None:
            progress(len(positions), total)
        if stop is not None and stop():
            break
    return PlayReview.of(record, positions, samples=samples, max_states=max_states)
