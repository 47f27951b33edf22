"""Hindsight sampling: guessed deals that agree with everything a player has seen,
each solved with every card known.

This is the one place a player touches the full-information solver, and it
touches it only with deals it made up itself: :func:`sample_position` fills the
face-down cards and the unseen part of the stock with the cards the player has
not seen, at random, and :func:`solve_sample` solves that guess under a small
budget. What is known stays as seen: the face-up cards, the waste, the
foundations, and the stock cards whose order the player saw on an earlier pass.
The guess is dealt by the game-level sampler, :class:`cardtable.game.HiddenCards`,
the one the Kings Corner expert guesses with too."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from cardtable.cards import Card, SplitMix64
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.position import Position
from cardtable.klondike.view import KlondikeView

__all__ = ["MAX_SAMPLE_STATES", "Line", "sample_position", "solve_sample"]

#: The largest budget :func:`solve_sample` can be given: the solver's
#: ``MAX_STATES`` (kept here so that checking a budget loads no solver).
MAX_SAMPLE_STATES = 10**11


def sample_position(view: KlondikeView, rng: SplitMix64, known_stock: Sequence[Card] = ()) -> Position:
    """A position that looks exactly like ``view``: the unseen cards
    (:meth:`KlondikeView.hidden_cards`) are dealt by ``rng`` into the face-down
    places and the stock. ``known_stock`` is the bottom of the stock, bottom
    first, as the player saw it on an earlier pass (at most
    ``view.stock_count`` cards); the rest of the stock is guessed."""
    places, rest = view.hidden_cards(known_stock).deal(rng)
    piles = tuple(tuple(place) + run for place, run in zip(places, view.face_up, strict=True))
    stock = tuple(known_stock) + tuple(rest)
    return Position(piles, view.face_down, stock, view.waste, view.foundation, view.pass_number)


class Line:
    """A winning line of a guessed game, turned into moves only as far as it is
    read (most readers want its first few moves): ``line[k]`` is its ``k``-th
    move from where it now stands (None past its end), :meth:`drop` moves its
    start on, and it is true while moves are left."""

    __slots__ = ("_more", "_moves", "_start")

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        self._moves: list[Move] = []
        self._more: Iterator[Move] | None = iter(moves)
        self._start = 0

    def __getitem__(self, k: int) -> Move | None:
        want = self._start + k
        while len(self._moves) <= want and self._more is not None:
            move = next(self._more, None)
            if move is None:
                self._more = None
            else:
                self._moves.append(move)
        return self._moves[want] if want < len(self._moves) else None

    def __bool__(self) -> bool:
        return self[0] is not None

    def drop(self, count: int) -> Line:
        """Move the start on by ``count`` moves (already played); the line itself."""
        self._start += count
        return self


def solve_sample(game: KlondikeGame, max_states: int, *, wide: bool = False) -> Line | None:
    """A winning line for a guessed game under its variant, or None when one
    depth-first search finds none within ``max_states`` states (``wide``: a
    search under the solver's wide and fill rules, as ``solve`` searches by
    default; see :func:`cardtable.solver.search.search_line`)."""
    from cardtable.solver.search import line_moves, search_line  # the compiled solver loads only when an expert plays

    codes = search_line(game, max_states, wide=wide)
    return None if codes is None else Line(line_moves(game, codes, wide=wide))
