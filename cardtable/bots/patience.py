"""Players for every patience game (:mod:`cardtable.patience`): they read
only the player's view, so they play any description.

- ``random``: a legal move drawn uniformly by its seeded generator;
- ``greedy``: the move that looks best now: a card home (to a foundation or
  the hole) first, then a move that turns a face-down card up or empties a
  pile, a run built on the tableau, a card out of a cell; a card into a cell
  and the stock's deal last; never the move that undoes the last one; ties
  broken by its seeded generator. It stops after :data:`STALL` moves in a
  row that sent no card home and turned no card up.

>>> from cardtable.game import play_out
>>> from cardtable.patience import PatienceGame, get
>>> game = play_out(PatienceGame.from_seed(get("golf"), 4), [make_player("greedy")], max_actions=500)
>>> game.is_over()
True
"""

from __future__ import annotations

from cardtable.cards import SplitMix64
from cardtable.errors import RulesError
from cardtable.patience.description import Kind
from cardtable.patience.engine import PatienceView
from cardtable.patience.moves import Move

__all__ = ["PLAYERS", "STALL", "GreedyPlayer", "RandomPlayer", "make_player"]

#: How many moves in a row without progress the greedy player makes before it stops.
STALL = 100


class RandomPlayer:
    """A legal move drawn uniformly at random."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed)

    def new_game(self, seed: int = 0) -> None:
        """Seed the generator for a new game."""
        self._rng = SplitMix64(seed)

    def choose(self, view: PatienceView) -> Move | None:
        """A legal move, or None when none is left."""
        moves = view.legal_moves
        return moves[self._rng.below(len(moves))] if moves else None


class GreedyPlayer:
    """The move that looks best now (see the module documentation)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed)
        self._last: Move | None = None
        self._progress: tuple[int, int] = (-1, -1)
        self._stalled = 0

    def new_game(self, seed: int = 0) -> None:
        """Forget the last game and seed the tie-breaks."""
        self._rng = SplitMix64(seed)
        self._last = None
        self._progress = (-1, -1)
        self._stalled = 0

    def _score(self, view: PatienceView, move: Move) -> int:
        if move.is_deal:
            return -20
        if move.is_recycle:
            return -30
        assert move.target is not None
        target = move.target.kind
        if target in (Kind.FOUNDATION, Kind.HOLE):
            return 100
        last = self._last
        if last is not None and last.target == move.source and last.source == move.target:
            return -100  # straight back
        pile = next(p for p in view.piles if p.place == move.source)
        score = 0
        if move.source.kind is Kind.TABLEAU and move.count == len(pile.cards):
            score += 50 if pile.face_down else 20
        if target is Kind.CELL:
            score -= 10
        elif move.source.kind in (Kind.CELL, Kind.RESERVE, Kind.WASTE):
            score += 15
        destination = next(p for p in view.piles if p.place == move.target)
        if target is Kind.TABLEAU and not len(destination):
            score -= 5
        return score + move.count

    def choose(self, view: PatienceView) -> Move | None:
        """The best-looking legal move, or None when none is left."""
        moves = view.legal_moves
        if not moves:
            return None
        home = sum(len(p) for p in view.piles if p.place.kind in (Kind.FOUNDATION, Kind.HOLE))
        hidden = sum(p.face_down for p in view.piles if p.place.kind is not Kind.STOCK)
        progress = (home, -hidden)
        self._stalled = 0 if progress > self._progress else self._stalled + 1
        self._progress = max(progress, self._progress)
        if self._stalled >= STALL:
            return None
        scored = [(self._score(view, move), move) for move in moves]
        best = max(score for score, _ in scored)
        if best <= -100:
            return None  # only moves back and forth are left
        ties = [move for score, move in scored if score == best]
        move = ties[self._rng.below(len(ties))]
        self._last = move
        return move


#: The players by name.
PLAYERS: dict[str, type[RandomPlayer] | type[GreedyPlayer]] = {"random": RandomPlayer, "greedy": GreedyPlayer}


def make_player(name: str, seed: int = 0) -> RandomPlayer | GreedyPlayer:
    """A player by name (``random`` or ``greedy``), seeded."""
    try:
        return PLAYERS[name](seed)
    except KeyError:
        raise RulesError(f"unknown patience player {name!r}: choose {' or '.join(PLAYERS)}") from None
