"""Playing many games: one game, a batch, and a run spread over processes.

Game ``i`` of a run with seed ``S`` starts from the deal of seed ``S + i``
(or from position ``i`` of the given starts), and a bot's own randomness is
seeded from the same number, so every game depends only on its index: results
are identical for the same seed whatever the number of workers. The games of
a run are cut into blocks of indices, the units an
:class:`~cardtable.runs.executor.Executor` hands out. A game goes through the
rules engine with :func:`cardtable.game.play_out`, the loop every runner of
every game shares, unless the compiled kernel plays it (:func:`uses_kernel`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice, pairwise
from typing import TYPE_CHECKING, Any, overload

from cardtable.bots import Resolver
from cardtable.bots.klondike import RESOLVERS, KlondikeBot, make_player
from cardtable.cards import MAX_SEED, CardError
from cardtable.errors import UsageError
from cardtable.game import play_out
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.runs.executor import Executor, LocalExecutor

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Batch", "GameResult", "Results", "RunSpec", "play_batch", "play_game", "run_games"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game."""

    index: int
    #: The deal string of a fresh deal, else the position string the game
    #: started from ("" when the run keeps no moves and deals came from seeds).
    deal: str
    won: bool
    foundation: int
    moves: tuple[str, ...]
    net: int
    score: int

    def to_dict(self) -> dict[str, object]:
        """The JSON-lines form (``--output``)."""
        return {"index": self.index, "deal": self.deal, "won": self.won, "foundation": self.foundation,
                "moves": list(self.moves), "net": self.net, "score": self.score}


@dataclass(frozen=True, slots=True)
class RunSpec:
    """What to play: a strategy, a variant, and starts by seed or given.

    ``deals`` holds the starting positions (fresh deals or positions in mid
    game), game ``i`` starting from ``deals[i]``; without them game ``i`` is
    dealt from seed ``seed + i``.
    """

    strategy: str
    variant: Variant
    seed: int = 1
    deals: tuple[Position, ...] | None = None
    #: Keep each game's moves and deal string (for ``--output``).
    keep_moves: bool = True
    #: Keep the moves and deal strings of the first ``record`` games (those
    #: whose records are printed) even when ``keep_moves`` is off: the other
    #: games cost what a run that keeps no moves costs.
    record: int = 0

    def keeps_moves(self, index: int) -> bool:
        """Whether game ``index``'s moves and deal string are kept.

        >>> spec = RunSpec("priority", Variant.preset("seed-002"), keep_moves=False, record=2)
        >>> [spec.keeps_moves(i) for i in range(3)]
        [True, True, False]
        """
        return self.keep_moves or index < self.record

    def deal(self, index: int) -> Position:
        """Where game ``index`` starts.

        >>> RunSpec("priority", Variant.preset("seed-002"), seed=5).deal(2) == Position.from_seed(7)
        True
        """
        if self.deals is not None:
            return self.deals[index]
        return Position.from_seed(self.seed + index)

    def bot_seed(self, index: int) -> int:
        """The seed game ``index``'s bot gets: its deal seed, or its index
        when the starts were given."""
        return index if self.deals is not None else self.seed + index


def _start_text(position: Position) -> str:
    """The deal string of a fresh deal, else the position string."""
    return position.deal_string() if position.is_deal else str(position)


@dataclass(slots=True)
class Batch:
    """Finished games column by column: cheap to send between processes.

    ``moves`` and ``deals`` are ``None`` when no game of the batch kept its
    moves (deal strings are then kept only for starts that were given); a
    game that kept none among games that did has ``None`` in its place
    (:meth:`RunSpec.keeps_moves`).
    """

    indices: list[int]
    foundation: list[int]
    score: list[int]
    moves: list[tuple[str, ...] | None] | None = None
    deals: list[str | None] | None = None

    def __len__(self) -> int:
        return len(self.indices)

    def result(self, k: int, variant: Variant) -> GameResult:
        """The ``k``-th game of the batch as a :class:`GameResult`."""
        found = self.foundation[k]
        return GameResult(self.indices[k], (self.deals[k] if self.deals is not None else None) or "", found == 52,
                          found, (self.moves[k] if self.moves is not None else None) or (),
                          variant.scoring.money(found), self.score[k])

    def results(self, variant: Variant) -> list[GameResult]:
        """Every game of the batch."""
        return [self.result(k, variant) for k in range(len(self.indices))]

    @classmethod
    def of(cls, results: Sequence[GameResult], keep_moves: bool, keep_deals: bool, *, record: int = 0) -> Batch:
        """Columns from game results: the moves and deal strings of every
        game with ``keep_moves``, else of the games whose index is under
        ``record`` (:attr:`RunSpec.record`); every deal string with ``keep_deals``."""
        kept = [keep_moves or r.index < record for r in results]
        return cls([r.index for r in results], [r.foundation for r in results], [r.score for r in results],
                   [r.moves if keep else None for r, keep in zip(results, kept, strict=True)] if any(kept) else None,
                   [r.deal if keep_deals or keep else None for r, keep in zip(results, kept, strict=True)]
                   if keep_deals or any(kept) else None)

    def rows(self, variant: Variant) -> list[tuple[object, ...]]:
        """The games as rows of the results store's ``games`` table (index,
        deal, won, foundation, net, moves made, points, moves as JSON), the
        net under ``variant``'s scoring; deal strings and moves only when
        the batch carries them."""
        deals = self.deals if self.deals is not None else [None] * len(self)
        moves = self.moves if self.moves is not None else [None] * len(self)
        return [(i, d, int(f == 52), f, variant.scoring.money(f), None if m is None else len(m), score,
                 None if m is None else json.dumps(list(m)))
                for i, d, f, m, score in zip(self.indices, deals, self.foundation, moves, self.score, strict=True)]

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[Any]]) -> Batch:
        """The games of :meth:`rows` back as one batch, in the rows' order
        (with the moves and deal strings of the games that kept them)."""
        moves: list[tuple[str, ...] | None] = [tuple(json.loads(detail)) if detail is not None else None
                                               for *_, detail in rows]
        deals: list[str | None] = [None if deal is None else str(deal) for _, deal, *_ in rows]
        return cls([int(row[0]) for row in rows], [int(row[3]) for row in rows], [int(row[6] or 0) for row in rows],
                   moves if any(m is not None for m in moves) else None,
                   deals if any(d is not None for d in deals) else None)


class Results(Sequence[GameResult]):
    """The games of a run in index order, kept as columns; indexing and
    iteration give :class:`GameResult` values."""

    def __init__(self, variant: Variant, batches: Sequence[Batch]) -> None:
        import numpy as np

        ordered = sorted(batches, key=lambda b: b.indices[0] if b.indices else 0)
        self.variant = variant
        indices = [i for b in ordered for i in b.indices]
        # Batches of a resumed run (stored, then new) may interleave: order game by game.
        order = sorted(range(len(indices)), key=indices.__getitem__) \
            if any(a > b for a, b in pairwise(indices)) else None
        self.indices = indices if order is None else [indices[k] for k in order]
        foundation = np.array([f for b in ordered for f in b.foundation], dtype=np.int64)
        score = np.array([x for b in ordered for x in b.score], dtype=np.int64)
        self.foundation = foundation if order is None else foundation[order]
        self.score = score if order is None else score[order]
        # The moves and deal strings of the games that kept them (often only the first few).
        moves = {i: m for b in ordered if b.moves is not None for i, m in zip(b.indices, b.moves, strict=True)
                 if m is not None}
        deals = {i: d for b in ordered if b.deals is not None for i, d in zip(b.indices, b.deals, strict=True)
                 if d is not None}
        self._moves = moves
        self._deals = deals

    @property
    def net(self) -> np.ndarray:
        """Dollars per game (numpy array)."""
        return self.variant.scoring.money(self.foundation)

    @property
    def won(self) -> np.ndarray:
        """Won flags (numpy array)."""
        return self.foundation == 52

    def __len__(self) -> int:
        return len(self.indices)

    def _get(self, k: int) -> GameResult:
        found = int(self.foundation[k])
        index = self.indices[k]
        return GameResult(index, self._deals.get(index, ""), found == 52, found, self._moves.get(index, ()),
                          self.variant.scoring.money(found), int(self.score[k]))

    @overload
    def __getitem__(self, key: int) -> GameResult: ...

    @overload
    def __getitem__(self, key: slice) -> list[GameResult]: ...

    def __getitem__(self, key: int | slice) -> GameResult | list[GameResult]:
        if isinstance(key, slice):
            return [self._get(k) for k in range(*key.indices(len(self)))]
        if key < 0:
            key += len(self)
        if not 0 <= key < len(self):
            raise IndexError(key)
        return self._get(key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Results | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def play_game(spec: RunSpec, index: int) -> GameResult:
    """Play game ``index`` of ``spec`` through the rules engine."""
    return _play_from(spec, index, spec.deal(index), spec.bot_seed(index))


def _play_from(spec: RunSpec, index: int, start: Position, bot_seed: int) -> GameResult:
    game = KlondikeGame(start, spec.variant)
    player = make_player(spec.strategy)
    player.new_game(bot_seed)
    play_out(game, [player])
    moves = tuple(str(m) for m in game.moves) if spec.keeps_moves(index) else ()
    found = game.foundation_count()
    return GameResult(index, _start_text(start), game.is_won(), found, moves, spec.variant.scoring.money(found),
                      game.score)


#: The rule identities (:meth:`Variant.rules_key`) the compiled ``priority``
#: kernel (:mod:`cardtable.sim.fast`) was written for: seed 002's game with its
#: Vegas money, and the same game unscored. Any other variant, even one that
#: differs in a field added later, is played through the engine.
PRIORITY_KERNEL_RULES: frozenset[tuple[object, ...]] = frozenset({
    Variant.preset("seed-002").kernel_key,
    Variant.preset("seed-002").replace(scoring="none").kernel_key,
})


def uses_kernel(spec: RunSpec) -> bool:
    """True when ``spec``'s games go to the compiled kernel: the ``priority``
    strategy, a variant whose :attr:`~Variant.kernel_key` the kernel was
    written for, and fresh deals only (the kernel cannot start in mid game).

    >>> uses_kernel(RunSpec("priority", Variant.preset("seed-002")))
    True
    >>> uses_kernel(RunSpec("priority", Variant.preset("seed-002").replace(passes=3)))
    False
    """
    return (spec.strategy == "priority" and spec.variant.kernel_key in PRIORITY_KERNEL_RULES
            and (spec.deals is None or all(position.is_deal for position in spec.deals)))


def _priority_fast(spec: RunSpec, indices: Sequence[int], starts: Sequence[Position] | None) -> Batch:
    """Games of ``priority`` through :mod:`cardtable.sim.fast`; the same games,
    move for move, as :func:`play_game` (a differential test checks it)."""
    import numpy as np

    from cardtable.cards import Card
    from cardtable.sim import fast

    index_list = list(indices)
    if starts is not None:
        deals = np.array([[c.index for c in position.deal_cards()] for position in starts], dtype=np.int8)
    else:
        deals = fast.deals_from_seeds(np.array([spec.seed + i for i in index_list], dtype=np.uint64))
    scoring = spec.variant.scoring
    foundation = fast.priority_batch_deals(deals).foundation.astype(np.int64)
    score = scoring.money(foundation) if scoring.kind == "vegas" else np.zeros_like(foundation)
    batch = Batch(index_list, foundation.tolist(), score.tolist())
    kept = [k for k, index in enumerate(index_list) if spec.keeps_moves(index)]
    if kept:  # played again, recording: only the games whose moves are kept (the first few, unless all)
        recorded = dict(zip(kept, fast.priority_games_moves(deals[kept]), strict=True))
        names = [str(c) for c in Card._all]
        batch.moves = [tuple(recorded[k]) if k in recorded else None for k in range(len(index_list))]
        batch.deals = [" ".join(names[c] for c in deals[k].tolist()) if k in recorded else None
                       for k in range(len(index_list))]
    if starts is not None:
        batch.deals = [position.deal_string() for position in starts]
    return batch


def play_batch(spec: RunSpec, indices: Sequence[int], *, use_fast: bool = True) -> list[GameResult]:
    """Play the given games in this process (the compiled kernel where
    :func:`uses_kernel` allows, the engine otherwise)."""
    starts = None if spec.deals is None else [spec.deals[i] for i in indices]
    return _play_block(spec, use_fast and uses_kernel(spec), (), (indices, starts)).results(spec.variant)


#: A unit of work: game indices, with their starts when the run was given them.
_Block = tuple[Sequence[int], Sequence[Position] | None]


def _play_block(spec: RunSpec, fast: bool, resolvers: tuple[Resolver[KlondikeBot], ...], block: _Block) -> Batch:
    """Play one block; ``spec`` travels without its starts (the block has its
    own), with the resolvers of the players the library does not define
    itself (a policy), for a worker that was not forked from this process."""
    RESOLVERS.adopt(resolvers)
    indices, starts = block
    if fast:
        return _priority_fast(spec, indices, starts)
    if starts is None:
        results = [_play_from(spec, i, Position.from_seed(spec.seed + i), spec.seed + i) for i in indices]
    else:
        results = [_play_from(spec, i, start, i) for i, start in zip(indices, starts, strict=True)]
    return Batch.of(results, spec.keep_moves, starts is not None, record=spec.record)


def _blocks(spec: RunSpec, games: Iterable[int], size: int) -> Iterator[_Block]:
    """``games`` cut into blocks of ``size``, made as they are asked for (a
    run of a billion games starts at once); a block of consecutive indices
    travels as a range."""
    if isinstance(games, range):
        parts: Iterator[Sequence[int]] = (games[first:first + size] for first in range(0, len(games), size))
    else:
        pending = iter(games)
        parts = iter(lambda: list(islice(pending, size)), [])
    for part in parts:
        indices: Sequence[int] = range(part[0], part[-1] + 1) if part[-1] - part[0] == len(part) - 1 else list(part)
        yield indices, None if spec.deals is None else [spec.deals[i] for i in indices]


#: Games a block holds unless told: enough work that handing it out (to a
#: local process or a Dask worker) costs under 5% of playing it (see
#: ``benchmarks/cluster.py``).
KERNEL_CHUNK = 50_000
ENGINE_CHUNK = 50


def run_games(
    spec: RunSpec,
    count: int,
    *,
    workers: int | None = None,
    on_batch: Callable[[Batch], None] | None = None,
    chunk: int | None = None,
    use_fast: bool = True,
    executor: Executor | None = None,
    done: Batch | None = None,
) -> Results:
    """Play games ``0..count-1``; returns them in index order.

    ``done`` holds games already played (a resumed run's stored games):
    only the others are played, and the result has them all.

    The games run on ``executor`` (default: :class:`LocalExecutor` with
    ``workers`` processes, all cores unless told; 1 plays here) in blocks of
    ``chunk`` games. ``on_batch`` is called with each finished :class:`Batch`,
    in index order, as it arrives (for progress bars and the results store).
    When interrupted (KeyboardInterrupt) it returns the games finished so far:
    check ``len(result) < count``.

    >>> results = run_games(RunSpec("priority", Variant.preset("seed-002"), seed=1), 20, workers=1)
    >>> len(results), [r.index for r in results[:3]]
    (20, [0, 1, 2])
    """
    if spec.deals is not None and count > len(spec.deals):
        raise UsageError(f"{count:,} games asked for but only {len(spec.deals):,} starting positions given")
    if spec.deals is None and count and not 0 <= spec.seed <= spec.seed + count - 1 <= MAX_SEED:
        raise CardError(f"seeds {spec.seed}..{spec.seed + count - 1} run past the largest seed, 2**64 - 1")
    fast = use_fast and uses_kernel(spec)
    size = chunk or (KERNEL_CHUNK if fast else ENGINE_CHUNK)
    executor = executor or LocalExecutor(workers)
    task = partial(_play_block, replace(spec, deals=None), fast, RESOLVERS.portable())
    batches: list[Batch] = [done] if done is not None and len(done) else []
    finished = set(done.indices) if done is not None else set()
    missing = (i for i in range(count) if i not in finished) if finished else range(count)
    stream = executor.map(task, _blocks(spec, missing, size))
    try:
        for batch in stream:
            batches.append(batch)
            if on_batch is not None:
                on_batch(batch)
    except KeyboardInterrupt:
        pass
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return Results(spec.variant, batches)
