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

from cardtable.bots import PlayerView, make_player
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


def play_game(spec: RunSpec, index: int) -> GameResult:
    """Play game ``index`` of ``spec`` through the rules engine."""
    start, bot_seed = spec.deal(index)
    game = KlondikeGame(start, spec.variant)
    player = make_player(spec.strategy)
    player.new_game(bot_seed)
    while True:
        move = player.choose(PlayerView.of(game))
        if move is None:
            break
        game.play(move)
    moves = tuple(str(m) for m in game.moves) if spec.keep_moves else ()
    found = game.foundation_count()
    return GameResult(index, start.deal_string(), game.is_won(), found, moves, money(spec.variant, found), game.score)


def _fast_path(spec: RunSpec) -> Callable[[RunSpec, Sequence[int]], list[GameResult]] | None:
    """The compiled kernel for this spec, when there is one: ``priority`` on
    its own rules (draw 1, one pass, kings in empty piles, no foundation
    return; any scoring)."""
    if spec.strategy != "priority":
        return None
    v = spec.variant
    if (v.draw, v.passes, v.empty, v.foundation_return) != (1, 1, "king", False) or v.scoring.kind == "standard":
        return None
    return _priority_fast


def _priority_fast(spec: RunSpec, indices: Sequence[int]) -> list[GameResult]:
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
    variant = spec.variant
    scoring = variant.scoring
    if spec.keep_moves:
        move_lists = fast.priority_games_moves(deals)
        batch = fast.priority_batch_deals(deals)
    else:
        move_lists = None
        batch = fast.priority_batch_deals(deals)
    results = []
    found_list = batch.foundation.tolist()
    for k, index in enumerate(index_list):
        found = found_list[k]
        moves: tuple[str, ...] = ()
        deal = ""
        if move_lists is not None:
            moves = tuple(move_lists[k])
            deal = " ".join(str(Card.from_index(c)) for c in deals[k].tolist())
        elif spec.deals is not None:
            deal = spec.deals[index]
        score = scoring.per_card * found - scoring.ante if scoring.kind == "vegas" else 0
        results.append(GameResult(index, deal, found == 52, found, moves, money(variant, found), score))
    return results


def play_batch(spec: RunSpec, indices: Sequence[int], *, use_fast: bool = True) -> list[GameResult]:
    """Play the given games in this process (the compiled kernel for
    ``priority`` on its own rules, the engine otherwise)."""
    fast = _fast_path(spec) if use_fast else None
    if fast is not None:
        return fast(spec, indices)
    return [play_game(spec, i) for i in indices]


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
    on_batch: Callable[[list[GameResult]], None] | None = None,
    chunk: int | None = None,
    use_fast: bool = True,
) -> list[GameResult]:
    """Play games ``0..count-1``; returns them in index order.

    ``workers`` processes (default: all cores; 1 plays here). ``on_batch`` is
    called with each finished batch as it arrives (for progress bars and the
    results store). On KeyboardInterrupt the games finished so far are
    returned in order, and ``KeyboardInterrupt`` is raised again by the
    caller's choice: check ``len(result) < count``.
    """
    workers = workers or os.cpu_count() or 1
    fast = _fast_path(spec) is not None and use_fast
    size = chunk or (20_000 if fast else 50)
    results: dict[int, GameResult] = {}

    def take(batch: list[GameResult]) -> None:
        for r in batch:
            results[r.index] = r
        if on_batch is not None:
            on_batch(batch)

    try:
        if workers <= 1 or count <= size:
            for block in _chunks(count, size):
                take(play_batch(spec, block, use_fast=use_fast))
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts) as pool:
                pending: set[Future[list[GameResult]]] = set()
                blocks = _chunks(count, size)
                for block in blocks:
                    pending.add(pool.submit(play_batch, spec, block, use_fast=use_fast))
                    if len(pending) >= workers * 2:
                        break
                try:
                    while pending:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            take(future.result())
                            nxt = next(blocks, None)
                            if nxt is not None:
                                pending.add(pool.submit(play_batch, spec, nxt, use_fast=use_fast))
                except KeyboardInterrupt:
                    pool.shutdown(wait=True, cancel_futures=True)
                    for future in pending:
                        if future.done() and not future.cancelled() and future.exception() is None:
                            take(future.result())
                    raise
    except KeyboardInterrupt:
        pass
    return [results[i] for i in sorted(results)]
