"""Playing many games: one game, a batch, and a run spread over processes.

Game ``i`` of a run with seed ``S`` is dealt from seed ``S + i`` (or from line
``i`` of a deals file), and a bot's own randomness is seeded from the same
number, so every game depends only on its index: results are identical for
the same seed whatever the number of workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from cardtable.bots import KlondikeView, make_player
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant

__all__ = ["GameResult", "RunSpec", "money", "play_batch", "play_game", "run_games"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game."""

    index: int
    #: The deal string ("" when the run keeps no moves and deals came from seeds).
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
    """What to play: a strategy, a variant, and deals by seed or given."""

    strategy: str
    variant: Variant
    seed: int = 1
    deals: tuple[str, ...] | None = None
    #: Keep each game's moves and deal string (for records and ``--output``).
    keep_moves: bool = True

    def deal(self, index: int) -> tuple[Position, int]:
        """Game ``index``'s layout and the seed its bot gets."""
        if self.deals is not None:
            return Position.from_deal(self.deals[index]), index
        return Position.from_seed(self.seed + index), self.seed + index


def money(variant: Variant, foundation: int) -> int:
    """Dollars won or lost under the variant's Vegas amounts (seed 002: pay
    $52, win $5 a card), whatever scoring the variant keeps."""
    return variant.scoring.per_card * foundation - variant.scoring.ante


@dataclass(slots=True)
class Batch:
    """Finished games column by column: cheap to send between processes.

    ``moves`` and ``deals`` are ``None`` when the run keeps no moves (deal
    strings are then kept only for deals read from a file).
    """

    indices: list[int]
    foundation: list[int]
    score: list[int]
    moves: list[tuple[str, ...]] | None = None
    deals: list[str] | None = None

    def __len__(self) -> int:
        return len(self.indices)

    def result(self, k: int, variant: Variant) -> GameResult:
        """The ``k``-th game of the batch as a :class:`GameResult`."""
        found = self.foundation[k]
        return GameResult(self.indices[k], self.deals[k] if self.deals is not None else "", found == 52, found,
                          self.moves[k] if self.moves is not None else (), money(variant, found), self.score[k])

    def results(self, variant: Variant) -> list[GameResult]:
        """Every game of the batch."""
        return [self.result(k, variant) for k in range(len(self.indices))]

    @classmethod
    def of(cls, results: Sequence[GameResult], keep_moves: bool, keep_deals: bool) -> Batch:
        """Columns from game results."""
        return cls([r.index for r in results], [r.foundation for r in results], [r.score for r in results],
                   [r.moves for r in results] if keep_moves else None,
                   [r.deal for r in results] if keep_deals else None)


class Results(Sequence[GameResult]):
    """The games of a run in index order, kept as columns; indexing and
    iteration give :class:`GameResult` values."""

    def __init__(self, variant: Variant, batches: Sequence[Batch]) -> None:
        import numpy as np

        ordered = sorted(batches, key=lambda b: b.indices[0] if b.indices else 0)
        self.variant = variant
        self.indices = [i for b in ordered for i in b.indices]
        self.foundation = np.array([f for b in ordered for f in b.foundation], dtype=np.int64)
        self.score = np.array([x for b in ordered for x in b.score], dtype=np.int64)
        keep_moves = bool(ordered) and all(b.moves is not None for b in ordered)
        keep_deals = bool(ordered) and all(b.deals is not None for b in ordered)
        self._moves = [m for b in ordered for m in (b.moves or ())] if keep_moves else None
        self._deals = [d for b in ordered for d in (b.deals or ())] if keep_deals else None

    @property
    def net(self):  # type: ignore[no-untyped-def]
        """Dollars per game (numpy array)."""
        return self.foundation * self.variant.scoring.per_card - self.variant.scoring.ante

    @property
    def won(self):  # type: ignore[no-untyped-def]
        """Won flags (numpy array)."""
        return self.foundation == 52

    def __len__(self) -> int:
        return len(self.indices)

    def _get(self, k: int) -> GameResult:
        found = int(self.foundation[k])
        return GameResult(self.indices[k], self._deals[k] if self._deals is not None else "", found == 52, found,
                          self._moves[k] if self._moves is not None else (), money(self.variant, found),
                          int(self.score[k]))

    def __getitem__(self, key):  # type: ignore[no-untyped-def,override]
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
    start, bot_seed = spec.deal(index)
    game = KlondikeGame(start, spec.variant)
    player = make_player(spec.strategy)
    player.new_game(bot_seed)
    while True:
        move = player.choose(KlondikeView.of(game))
        if move is None:
            break
        game.play(move)
    moves = tuple(str(m) for m in game.moves) if spec.keep_moves else ()
    found = game.foundation_count()
    return GameResult(index, start.deal_string(), game.is_won(), found, moves, money(spec.variant, found), game.score)


def _fast_path(spec: RunSpec) -> Callable[[RunSpec, Sequence[int]], Batch] | None:
    """The compiled kernel for this spec, when there is one: ``priority`` on
    its own rules (draw 1, one pass, kings in empty piles, no foundation
    return; any scoring)."""
    if spec.strategy != "priority":
        return None
    v = spec.variant
    if (v.draw, v.passes, v.empty, v.foundation_return) != (1, 1, "king", False) or v.scoring.kind == "standard":
        return None
    return _priority_fast


def _priority_fast(spec: RunSpec, indices: Sequence[int]) -> Batch:
    """Games of ``priority`` through :mod:`cardtable.sim.fast`; the same games,
    move for move, as :func:`play_game` (a differential test checks it)."""
    import numpy as np

    from cardtable.cards import Card
    from cardtable.sim import fast

    index_list = list(indices)
    if spec.deals is not None:
        deals = np.array([[Card.parse(t).index for t in spec.deals[i].split()] for i in index_list], dtype=np.int8)
    else:
        deals = fast.deals_from_seeds(np.array([spec.seed + i for i in index_list], dtype=np.uint64))
    scoring = spec.variant.scoring
    foundation = fast.priority_batch_deals(deals).foundation.astype(np.int64)
    score = (foundation * scoring.per_card - scoring.ante) if scoring.kind == "vegas" else np.zeros_like(foundation)
    batch = Batch(index_list, foundation.tolist(), score.tolist())
    if spec.keep_moves:
        batch.moves = [tuple(m) for m in fast.priority_games_moves(deals)]
        names = [str(c) for c in Card._all]
        batch.deals = [" ".join(names[c] for c in row) for row in deals.tolist()]
    elif spec.deals is not None:
        batch.deals = [spec.deals[i] for i in index_list]
    return batch


def play_batch(spec: RunSpec, indices: Sequence[int], *, use_fast: bool = True) -> list[GameResult]:
    """Play the given games in this process (the compiled kernel for
    ``priority`` on its own rules, the engine otherwise)."""
    return _play_block(spec, indices, use_fast).results(spec.variant)


def _play_block(spec: RunSpec, indices: Sequence[int], use_fast: bool) -> Batch:
    fast = _fast_path(spec) if use_fast else None
    if fast is not None:
        return fast(spec, indices)
    return Batch.of([play_game(spec, i) for i in indices], spec.keep_moves,
                    spec.keep_moves or spec.deals is not None)


def _ignore_interrupts() -> None:
    # Workers leave Ctrl-C to the parent, which stops handing out work and
    # keeps every game already finished.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(count: int, size: int) -> Iterator[range]:
    for start in range(0, count, size):
        yield range(start, min(count, start + size))


def run_games(
    spec: RunSpec,
    count: int,
    *,
    workers: int | None = None,
    on_batch: Callable[[Batch], None] | None = None,
    chunk: int | None = None,
    use_fast: bool = True,
) -> Results:
    """Play games ``0..count-1``; returns them in index order.

    ``workers`` processes (default: all cores; 1 plays here). ``on_batch`` is
    called with each finished :class:`Batch` as it arrives (for progress bars
    and the results store). When interrupted (KeyboardInterrupt) it returns
    the games finished so far: check ``len(result) < count``.
    """
    workers = workers or os.cpu_count() or 1
    fast = _fast_path(spec) is not None and use_fast
    size = chunk or (50_000 if fast else 50)
    batches: list[Batch] = []

    def take(batch: Batch) -> None:
        batches.append(batch)
        if on_batch is not None:
            on_batch(batch)

    try:
        if workers <= 1 or count <= size:
            for block in _chunks(count, size):
                take(_play_block(spec, block, use_fast))
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts) as pool:
                pending: set[Future[Batch]] = set()
                blocks = _chunks(count, size)
                for block in blocks:
                    pending.add(pool.submit(_play_block, spec, block, use_fast))
                    if len(pending) >= workers * 2:
                        break
                try:
                    while pending:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            take(future.result())
                            nxt = next(blocks, None)
                            if nxt is not None:
                                pending.add(pool.submit(_play_block, spec, nxt, use_fast))
                except KeyboardInterrupt:
                    pool.shutdown(wait=True, cancel_futures=True)
                    for future in pending:
                        if future.done() and not future.cancelled() and future.exception() is None:
                            take(future.result())
                    raise
    except KeyboardInterrupt:
        pass
    return Results(spec.variant, batches)
