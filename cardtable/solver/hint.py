"""Hints: the next move of a winning line, or the best-looking move when
no win is known."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtable._text import plural
from cardtable.errors import UsageError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, STOCK, WASTE, Move
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver.search import SolveResult, solve

__all__ = ["PEEK_STATES", "Hint", "heuristic_move", "hint", "peek_verdict"]

#: The state budget of :func:`peek_verdict`'s search of one position.
PEEK_STATES = 20_000


@dataclass(frozen=True)
class Hint:
    """A suggested move. ``winning`` is True when ``move`` starts a proven
    winning line (``solution`` holds the whole line); otherwise the move is
    the heuristic's best and ``search`` says whether the position is lost
    (``"unwinnable"``) or undecided (``"unknown"``). ``move`` is None only
    when no move is legal."""

    move: Move | None
    winning: bool
    search: SolveResult

    @property
    def solution(self) -> list[Move]:
        """The winning line from here (empty when none is known)."""
        return self.search.moves

    def describe(self) -> str:
        """One line for a player."""
        if self.move is None:
            return "no legal move"
        if self.winning:
            return f"{self.move} (wins in {plural(len(self.solution), 'move')})"
        why = "the position cannot be won" if self.search.result == "unwinnable" else "no win found in time"
        return f"{self.move} (best guess: {why})"


def heuristic_move(game: KlondikeGame) -> Move | None:
    """A plausible move by simple rules: to a foundation, then one that turns
    a card up (from the pile with most face-down cards), then from the waste,
    then a draw or recycle, then anything else."""
    moves = game.legal_moves()
    if not moves:
        return None

    def score(move: Move) -> int:
        if move.target == FOUNDATION:
            return 1000
        if 0 <= move.source <= 6:
            pile, down = game.tableau[move.source], game.face_down[move.source]
            if move.count == len(pile) - down and down > 0:
                return 800 + down
            if move.count == len(pile) and move.target != FOUNDATION:
                return 600
            return 100
        if move.source == WASTE:
            return 500
        if move.source == STOCK or move.target == STOCK:
            return 300
        return 0

    return max(moves, key=score)


def hint(game: KlondikeGame, *, timeout: float | None = 10.0, max_states: int | None = None) -> Hint:
    """The next move from ``game``'s current position: the first move of a
    winning line when the solver finds one, otherwise :func:`heuristic_move`.

    >>> from cardtable.klondike import KlondikeGame, Variant
    >>> h = hint(KlondikeGame.from_seed(2, Variant.preset("thoughtful1")))
    >>> h.winning
    True
    """
    result = solve(game.position(), game.variant, timeout=timeout, max_states=max_states)
    if result.result == "won" and result.moves:
        return Hint(result.moves[0], True, result)
    return Hint(heuristic_move(game), False, result)


def peek_verdict(max_states: int = PEEK_STATES) -> Callable[[Position, Variant], tuple[str, Sequence[Move]]]:
    """The all-cards-known verdict of a position, as a game review asks it
    (:data:`cardtable.bots.klondike.review.Verdict`): ``"winnable"`` with a
    winning line, ``"lost"`` (the search was exhaustive) or ``"unknown"`` (it
    searched ``max_states`` states and decided nothing). It reads every card:
    a peek, to be shown as such.

    >>> from cardtable.klondike import Variant
    >>> peek_verdict()(Position.from_seed(2), Variant.preset("thoughtful1"))[0]
    'winnable'
    """
    if max_states < 1:
        raise UsageError(f"the verdict's state budget must be at least 1, not {max_states}")

    def verdict(position: Position, variant: Variant) -> tuple[str, Sequence[Move]]:
        result = solve(position, variant, max_states=max_states)
        return {"won": "winnable", "unwinnable": "lost"}.get(result.result, "unknown"), result.moves

    return verdict
