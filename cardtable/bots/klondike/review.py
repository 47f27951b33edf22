"""A review of a played Klondike game, move by move, from the player's view.

For each position of a game record (before each move, and after the last)
:func:`review_positions` asks the ``expert`` what it would play there and how
often it wins from there (:func:`~cardtable.bots.klondike.hint.expert_hint`):
the share of its guessed deals it wins, the guesses dealt from what the player
saw at that point, never from the record's hidden cards, and seeded by that
view, so the same game always gets the same review. It is the hint's own
judgement, made on the game as it stood (the moves before it included, for
the hint's rule against going back to a position met before) with the hint's
budget by default, so a review and a hint agree on every position: the same
move, the same chance. Each position is weighed once: the chance after move
*i* is the chance before move *i* + 1.

Separately, and only when asked, a *verdict* reads the whole deal, every card
known: whether the position can still be won (``"winnable"``), cannot
(``"lost"``), or the budget ran out (``"unknown"``). It is a peek, kept apart
from the player's-view figures: this module never calls the full-information
solver itself; a face passes one in (:func:`cardtable.solver.peek_verdict`).
What follows from the game itself is not searched again: every position of a
won game is winnable, a position after a lost one is lost, and one after a
winnable position whose winning line starts with the move played is winnable.

:class:`GameReview` holds the figures, calls out the largest drops in words
("move 23 (7♣ from pile 2 onto 8♥ in pile 4): 61% → 12%; the expert would
draw 3 cards from the stock") and turns itself into plain data
(:meth:`GameReview.to_dict`).

>>> from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Variant
>>> game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
>>> for text in ["D", "D"]:
...     game.play(Move.parse(text))
>>> record = KlondikeRecord.from_game(game)
>>> review = review_game(record, samples=4, max_states=500)
>>> len(review.moves), review.complete
(2, True)
>>> review == review_game(record, samples=4, max_states=500)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

from cardtable.bots.klondike.hint import HINT_SAMPLES, HINT_STATES, expert_hint
from cardtable.bots.review import MoveChances, all_weighed, costly, percent, weighed_moves
from cardtable.errors import UsageError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.narrate import describe_move
from cardtable.klondike.position import Position
from cardtable.klondike.record import KlondikeRecord
from cardtable.klondike.variant import Variant

__all__ = [
    "DROP_THRESHOLD",
    "REVIEW_SAMPLES",
    "REVIEW_STATES",
    "GameReview",
    "Mapper",
    "MoveReview",
    "PositionReview",
    "Verdict",
    "build_review",
    "judge_positions",
    "review_game",
    "review_positions",
    "weigh_position",
]

#: The review's budget for each position: guessed deals, and search states for each. It is the
#: hint's (:data:`~cardtable.bots.klondike.hint.HINT_SAMPLES`, :data:`~cardtable.bots.klondike.hint.HINT_STATES`),
#: so that the review says of each position what the hint said there (``benchmarks/review.py``: its cost).
REVIEW_SAMPLES = HINT_SAMPLES
REVIEW_STATES = HINT_STATES
#: A drop of at least this share, on a move that is not the expert's, is called out (with 96 guesses
#: an estimate wanders by about five points either way by chance alone, so a drop of two estimates
#: by about seven).
DROP_THRESHOLD = 0.15

#: The all-cards-known verdict of a position: ``"winnable"``, ``"lost"`` or
#: ``"unknown"``, and a winning line from it (empty when none is known).
Verdict = Callable[[Position, Variant], tuple[str, Sequence[Move]]]
#: Weighs positions: called as ``mapper(weigh, indices)``, it gives the results in order, as ``map`` does.
Mapper = Callable[[Callable[[int], "PositionReview"], Iterable[int]], Iterable["PositionReview"]]


@dataclass(frozen=True, slots=True)
class PositionReview:
    """One position of the game, before move ``index`` + 1 (or after the last).

    ``chance`` is the expert's estimated chance of winning from here, from the
    player's view: ``wins`` of ``samples`` guesses (1.0 on a won table, 0.0 when
    no move is legal; None when no guess was weighed, as when no move makes
    progress). ``expert`` is the move the expert would play (None: none is
    legal or makes progress, or the game is over) and
    ``expert_words`` says it naming only cards the player has seen; ``fallback``
    says why it is the quicker greedy move, when it is. ``verdict`` is the
    all-cards-known verdict (None: not asked for).
    """

    index: int
    chance: float | None
    wins: int
    samples: int
    expert: Move | None
    expert_words: str
    fallback: str | None = None
    verdict: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The position as plain data."""
        return {"index": self.index, "chance": self.chance, "wins": self.wins, "samples": self.samples,
                "expert": None if self.expert is None else str(self.expert), "expert_words": self.expert_words,
                "fallback": self.fallback, "verdict": self.verdict}


@dataclass(frozen=True, slots=True)
class MoveReview(MoveChances[Move, PositionReview]):
    """One move of the game (``number`` counts from 1) with the positions
    before and after it (the drop and whether it was the expert's move:
    :class:`~cardtable.bots.review.MoveChances`)."""

    def callout(self) -> str:
        """The move's drop in words: "move 23 (7♣ from pile 2 onto 8♥ in pile 4):
        61% → 12%; the expert would draw 3 cards from the stock"."""
        text = self.chances()
        if self.before.expert is not None and not self.is_experts:
            text += f"; the expert would {_verb(self.before.expert_words)}"
        return text

    def to_dict(self) -> dict[str, object]:
        """The move as plain data: its number, notation and words, the chance
        before and after, the drop, the expert's move and the verdicts."""
        return {"number": self.number, "move": str(self.move), "words": self.words,
                "before": self.before.chance, "after": self.after.chance, "drop": self.drop,
                "wins": self.before.wins, "samples": self.before.samples,
                "expert": None if self.before.expert is None else str(self.before.expert),
                "expert_words": self.before.expert_words, "is_experts": self.is_experts,
                "verdict_before": self.before.verdict, "verdict_after": self.after.verdict}


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of a game: each position weighed (``positions``; fewer than the
    moves + 1 when the review was stopped, then ``complete`` is False), the
    budget it was weighed with, and how the game ended (``outcome``: ``"won"``,
    ``"lost: ..."`` or ``"unfinished"``)."""

    record: KlondikeRecord
    positions: tuple[PositionReview, ...]
    words: tuple[str, ...]
    samples: int
    max_states: int
    outcome: str

    @property
    def complete(self) -> bool:
        """Whether every position of the game was weighed."""
        return all_weighed(self.record.moves, self.positions)

    @property
    def moves(self) -> tuple[MoveReview, ...]:
        """The moves whose positions before and after were both weighed."""
        return weighed_moves(self.record.moves, self.positions, self.words, MoveReview)

    def drops(self, count: int = 3, threshold: float = DROP_THRESHOLD) -> list[MoveReview]:
        """The ``count`` largest drops, largest first, of the moves that were not the
        expert's and cost at least ``threshold`` of the chance (ties: the earlier move)."""
        fallen = costly(self.moves, threshold)
        return sorted(fallen, key=lambda move: (-(move.drop or 0.0), move.number))[:count]

    def summary(self) -> str:
        """One line: the moves reviewed, the chance at the start and at the end, and the budget."""
        first, last = self.positions[0], self.positions[-1]
        done = "" if self.complete else f" (stopped after {len(self.positions) - 1} of them)"
        return (f"{len(self.record.moves)} moves{done}: {percent(first.chance)} at the start, "
                f"{percent(last.chance)} at the end; {self.outcome}; "
                f"{self.samples} guesses of {self.max_states:,} states a position")

    def to_dict(self) -> dict[str, object]:
        """The review as plain data for ``--json``."""
        return {"variant": self.record.variant.options(), "outcome": self.outcome, "complete": self.complete,
                "samples": self.samples, "max_states": self.max_states,
                "positions": [position.to_dict() for position in self.positions],
                "moves": [move.to_dict() for move in self.moves],
                "drops": [{"number": move.number, "text": move.callout()} for move in self.drops()]}


def review_positions(record: KlondikeRecord, *, samples: int = REVIEW_SAMPLES, max_states: int = REVIEW_STATES,
                     verdict: Verdict | None = None, unicode: bool = True,
                     mapper: Mapper | None = None) -> Iterator[PositionReview]:
    """Weigh each position of ``record`` in turn, the start first, the end last
    (see the module documentation); raises :class:`~cardtable.errors.ReplayError`
    naming the first illegal move before anything is weighed. ``mapper`` weighs
    the positions (:func:`weigh_position` over their indices, the results in
    order): the built-in ``map`` by default, or a pool's ``map`` to weigh them in
    other processes; the peek's ``verdict`` is asked here, in order."""
    if samples < 1:
        raise UsageError(f"the review needs at least one guess a position, not {samples}")
    if max_states < 1:
        raise UsageError(f"the review's state budget must be at least 1, not {max_states}")
    record.replay()  # every move checked first
    weigh = partial(weigh_position, record, samples=samples, max_states=max_states, unicode=unicode)
    judged = None if verdict is None else judge_positions(record, verdict)
    for position in (mapper or map)(weigh, range(len(record.moves) + 1)):
        yield position if judged is None else replace(position, verdict=next(judged))


def weigh_position(record: KlondikeRecord, index: int, *, samples: int = REVIEW_SAMPLES,
                   max_states: int = REVIEW_STATES, unicode: bool = True) -> PositionReview:
    """The expert's estimate and move at position ``index`` of ``record`` (before
    move ``index`` + 1), from the player's view, without the peek."""
    game = KlondikeGame(record.start, record.variant)
    for move in record.moves[:index]:
        game.play(move)
    return _weigh(game, index, samples, max_states, unicode, None)


def judge_positions(record: KlondikeRecord, verdict: Verdict) -> Iterator[str]:
    """The peek's verdict at each position of ``record``, the start first,
    searched only where it does not follow from the game (see the module documentation)."""
    won_game = record.replay().is_won()
    game = KlondikeGame(record.start, record.variant)
    last: tuple[str, Sequence[Move]] | None = None
    for index in range(len(record.moves) + 1):
        last = _judge(game, verdict, last, record.moves[index - 1] if index else None, won_game)
        yield last[0]
        if index < len(record.moves):
            game.play(record.moves[index])


def review_game(record: KlondikeRecord, *, samples: int = REVIEW_SAMPLES, max_states: int = REVIEW_STATES,
                verdict: Verdict | None = None, unicode: bool = True,
                progress: Callable[[int, int], None] | None = None,
                stop: Callable[[], bool] | None = None) -> GameReview:
    """The review of ``record`` (see :func:`review_positions`). ``progress`` is
    told the positions weighed and their total after each; when ``stop`` says
    so (it is asked after each position weighed, before the next) the review
    ends early, incomplete."""
    total = len(record.moves) + 1
    weighed: list[PositionReview] = []
    for position in review_positions(record, samples=samples, max_states=max_states, verdict=verdict,
                                     unicode=unicode):
        weighed.append(position)
        if progress is not None:
            progress(len(weighed), total)
        if stop is not None and len(weighed) < total and stop():
            break
    return build_review(record, weighed, samples=samples, max_states=max_states, unicode=unicode)


def build_review(record: KlondikeRecord, positions: Sequence[PositionReview], *, samples: int = REVIEW_SAMPLES,
                 max_states: int = REVIEW_STATES, unicode: bool = True) -> GameReview:
    """A :class:`GameReview` of ``record`` from the ``positions`` weighed so far
    (by :func:`review_positions`, the first of them at least)."""
    if not positions:
        raise UsageError("a review needs at least the start weighed")
    game = KlondikeGame(record.start, record.variant)
    words = []
    for move in record.moves:
        words.append(describe_move(game, move, unicode=unicode, seen_only=True))
        game.play(move)
    outcome = game.outcome()
    return GameReview(record, tuple(positions), tuple(words), samples, max_states,
                      "unfinished" if outcome is None else outcome.value)


def _weigh(game: KlondikeGame, index: int, samples: int, max_states: int, unicode: bool,
           verdict: str | None) -> PositionReview:
    """The expert's estimate and move at ``game``'s position, from the player's view."""
    if game.is_won():
        return PositionReview(index, 1.0, 0, 0, None, "", verdict=verdict)
    hint = expert_hint(game, samples=samples, max_states=max_states, unicode=unicode)
    advice = hint.advice
    chance = 0.0 if advice.move is None and advice.fallback is None else advice.chance
    return PositionReview(index, chance, advice.wins, advice.samples, advice.move, hint.words,
                          advice.fallback, verdict)


def _judge(game: KlondikeGame, verdict: Verdict, last: tuple[str, Sequence[Move]] | None, played: Move | None,
           won_game: bool) -> tuple[str, Sequence[Move]]:
    """The all-cards-known verdict of ``game``'s position, searched only when it
    does not follow from the game or the position before (``last``, then ``played``)."""
    if won_game:
        return "winnable", ()  # the player's own line wins from every position on it
    if last is not None:
        result, line = last
        if result == "lost":
            return "lost", ()
        if result == "winnable" and line and line[0] == played:
            return "winnable", line[1:]
    if not game.legal_moves():
        return "lost", ()
    return verdict(game.position(), game.variant)


def _verb(words: str) -> str:
    """A move's words after "the expert would": "draw ...", "turn ...", else "move ..."."""
    return words if words.startswith(("draw ", "turn ")) else f"move {words}"
