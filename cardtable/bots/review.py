"""What the reviews of every game share: a move with the expert's chances
before and after it, the moves of a game whose positions were both weighed,
and the costly ones among them.

A game's review (:mod:`cardtable.bots.klondike.review`,
:mod:`cardtable.bots.patience_review`) weighs its positions in its own way
and names its own moves; what it makes of a list of weighed positions is
written here once. A position is anything with a ``chance`` (None: not
estimated) and the ``expert``'s move from it (None: none).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Spot:
...     chance: float | None
...     expert: str | None
>>> spots = [Spot(0.5, "a"), Spot(0.25, "c"), Spot(None, None)]
>>> [(m.number, m.drop, m.is_experts) for m in weighed_moves(["b", "c", "d"], spots, ["b", "c", "d"], MoveChances)]
[(1, 0.25, False), (2, None, True)]
>>> all_weighed(["b", "c", "d"], spots)
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

__all__ = ["MoveChances", "Weighed", "all_weighed", "costly", "percent", "weighed_moves"]


class Weighed(Protocol):
    """A position as a review weighed it: the expert's estimated chance of
    winning from it (None: no estimate) and its move from there (None: none)."""

    @property
    def chance(self) -> float | None: ...

    @property
    def expert(self) -> object: ...


class _Reviewed(Protocol):
    """A move as a review weighed it (as :class:`MoveChances` is)."""

    @property
    def drop(self) -> float | None: ...

    @property
    def is_experts(self) -> bool: ...


MoveT = TypeVar("MoveT")
PositionT = TypeVar("PositionT", bound=Weighed)
ReviewT = TypeVar("ReviewT")
ReviewedT = TypeVar("ReviewedT", bound=_Reviewed)


def percent(chance: float | None) -> str:
    """A chance as a review writes it: "62%", or "?" with no estimate."""
    return "?" if chance is None else f"{chance:.0%}"


@dataclass(frozen=True, slots=True)
class MoveChances(Generic[MoveT, PositionT]):
    """Move ``number`` (from 1) of a game, its ``words`` (naming only cards
    the player saw), and the positions ``before`` and ``after`` it."""

    number: int
    move: MoveT
    words: str
    before: PositionT
    after: PositionT

    @property
    def drop(self) -> float | None:
        """How much the chance fell with this move (negative: it rose; None: a side has no estimate)."""
        if self.before.chance is None or self.after.chance is None:
            return None
        return self.before.chance - self.after.chance

    @property
    def is_experts(self) -> bool:
        """Whether the move is the one the expert would have played."""
        return bool(self.before.expert == self.move)

    def chances(self) -> str:
        """The move and its chances: "move 12 (7♣ from pile 2 onto 8♥ in pile 4): 62% → 25%"."""
        return f"move {self.number} ({self.words}): {percent(self.before.chance)} → {percent(self.after.chance)}"


def weighed_moves(played: Sequence[MoveT], positions: Sequence[PositionT], words: Sequence[str],
                  review: Callable[[int, MoveT, str, PositionT, PositionT], ReviewT]) -> tuple[ReviewT, ...]:
    """The moves of a game (``played``, each in ``words``) whose positions
    before and after were both weighed (``positions``, the deal first: fewer
    than the moves + 1 when the review was stopped), each made by ``review``
    from its number (from 1), move, words and the positions before and after."""
    return tuple(review(number, move, words[number - 1], positions[number - 1], positions[number])
                 for number, move in enumerate(played[:max(0, len(positions) - 1)], 1))


def all_weighed(played: Sequence[object], positions: Sequence[object]) -> bool:
    """Whether every position of a game of moves ``played`` was weighed: the deal and one after each move."""
    return len(positions) == len(played) + 1


def costly(moves: Iterable[ReviewedT], threshold: float) -> list[ReviewedT]:
    """The moves, in order, that were not the expert's and cost at least ``threshold`` of the chance."""
    return [move for move in moves if not move.is_experts and move.drop is not None and move.drop >= threshold]
