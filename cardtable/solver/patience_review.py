"""A played game of any patience game weighed move by move by the patience
search (:func:`~cardtable.solver.patience.solve_game`, every card known): the
verdict of each position before and after each move (``won``: the search
wins from there; ``lost``: it proves no win is left; ``unknown``: neither
within its state budget), the search's own move where it had a win, and the
moves that threw a win away.

This is the peek of Klondike's review (:mod:`cardtable.bots.klondike.review`)
for every game: it knows where the face-down cards lie, so it is shown for a
game that is over (won, lost, or left for another deal, as the results store
keeps them), not as a hint during play. The budget counts states, so the same
record gets the same review on every machine.

>>> from cardtable.patience import PatienceGame, get
>>> from cardtable.patience.record import PatienceRecord
>>> game = PatienceGame.from_seed(get("tripeaks"), 2)
>>> game.play(game.legal_moves()[0])
>>> review = review_game(PatienceRecord.from_game(game, 2))
>>> review.start, len(review.moves), review.moves[0].number
('won', 1, 1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from cardtable.patience.engine import PatienceGame
from cardtable.patience.record import PatienceRecord, rules_name

__all__ = ["REVIEW_STATES", "MoveVerdict", "PatienceReview", "has_hidden_cards", "review_game"]

#: The state budget of the search of each position, unless told.
REVIEW_STATES = 20_000


@dataclass(frozen=True)
class MoveVerdict:
    """Move ``number`` (from 1) of a game, ``move`` in the game's notation:
    the search's verdict ``before`` and ``after`` it, and the first move of
    its winning line before it (``best``, None when it had none)."""

    number: int
    move: str
    before: str
    after: str
    best: str | None

    @property
    def threw_away(self) -> bool:
        """Whether the move left a position the search wins for one it proves lost."""
        return self.before == "won" and self.after == "lost"

    def callout(self) -> str:
        """The move in words, when it threw a win away."""
        return f"move {self.number}, {self.move}: the game was won from before it, and lost after it " \
               f"(the search would play {self.best})"


@dataclass(frozen=True)
class PatienceReview:
    """A game weighed: its game (its rules name), deal, the verdict of its
    ``start``, each move's (:class:`MoveVerdict`), whether it was won, and
    the search's budget a position."""

    game: str
    deal: str | None
    start: str
    moves: tuple[MoveVerdict, ...]
    won: bool
    max_states: int

    def thrown_away(self) -> list[MoveVerdict]:
        """The moves that threw a win away, in order."""
        return [move for move in self.moves if move.threw_away]

    def summary(self) -> str:
        """The review in one sentence."""
        if self.won:
            return f"Won in {len(self.moves)} moves."
        thrown = self.thrown_away()
        if self.start == "lost":
            return "The deal could not be won: no move lost it."
        if thrown:
            return f"The win was thrown away at move {thrown[0].number} ({thrown[0].move})."
        last = self.moves[-1].after if self.moves else self.start
        if last == "won":
            return "The game was left while it could still be won."
        return "No move was proven to throw a win away (within the search's budget)."

    def to_dict(self) -> dict[str, object]:
        """The review as plain JSON values."""
        return {**asdict(self), "moves": [asdict(move) for move in self.moves],
                "thrown_away": [move.number for move in self.thrown_away()], "summary": self.summary()}


def has_hidden_cards(game: PatienceGame) -> bool:
    """Whether any card of ``game`` lies face down or in the stock: its
    review would tell where they lie."""
    return any(pile.face_down for pile in game.view().piles) or bool(game.description.stock.count)


def _verdict(game: PatienceGame, max_states: int) -> tuple[str, str | None]:
    from cardtable.solver.patience import solve_game

    if game.is_won():
        return "won", None
    result = solve_game(game, max_states=max_states)
    verdict = {"won": "won", "unwinnable": "lost"}.get(result.result, "unknown")
    return verdict, str(result.moves[0]) if result.result == "won" and result.moves else None


def review_game(record: PatienceRecord, *, max_states: int = REVIEW_STATES) -> PatienceReview:
    """Weigh every position of ``record``'s game (its start, then after each
    move) with the patience search within ``max_states`` states each."""
    game = record.start()
    before, best = _verdict(game, max_states)
    start = before
    moves = []
    for number, move in enumerate(record.moves, start=1):
        game.play(move)
        after, next_best = _verdict(game, max_states)
        moves.append(MoveVerdict(number, str(move), before, after, best))
        before, best = after, next_best
    return PatienceReview(rules_name(record.description), record.seed, start, tuple(moves), game.is_won(),
                          max_states)
