"""Solving many deals of any patience game: ``solve --game NAME --deals
FILE``, as Klondike's batches (:mod:`cardtable.solver.batch`).

Each deal is a ``(label, game)`` pair: the label as the deals file gives it
(a seed, ``ms:N``, ``pysol:N`` or a position string) and the game at its
start. A deal travels to a worker as its position string
(:func:`~cardtable.patience.position.write_position`), which the worker
reads back under the game's description, so a worker process or a Dask
worker needs nothing but the description and the text. Rows are
``{"deal": label, **PatienceSolveResult.to_dict()}``, the same fields as
Klondike's, so :func:`~cardtable.solver.batch.store_row`,
:func:`~cardtable.solver.batch.from_store_row` and
:func:`~cardtable.solver.batch.summarize_solves` serve both.

>>> from cardtable.patience import PatienceGame, get
>>> golf = get("golf")
>>> deals = [(str(n), PatienceGame.from_seed(golf, n)) for n in (1, 2)]
>>> rows = solve_patience_batch(deals, golf, max_states=100_000)
>>> [(row["deal"], row["result"] in ("won", "unwinnable")) for row in rows]
[('1', True), ('2', True)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.solver.batch import run_deals

__all__ = ["solve_patience_batch"]


def _solve_chunk(description: Description, timeout: float | None, max_states: int | None,
                 deals: Sequence[tuple[int, tuple[str, str]]]) -> list[tuple[int, dict[str, object]]]:
    """Solve a unit of deals (each its index, label and position string): a worker's task."""
    from cardtable.patience.position import read_position
    from cardtable.solver import patience

    return [(index, {"deal": label, **patience.solve_game(read_position(description, text), timeout=timeout,
                                                          max_states=max_states).to_dict()})
            for index, (label, text) in deals]


def solve_patience_batch(
    deals: Sequence[tuple[str, PatienceGame]],
    description: Description,
    *,
    timeout: float | None = None,
    max_states: int | None = None,
    workers: int | None = 1,
    executor: Executor | None = None,
    done: Mapping[int, dict[str, object]] | None = None,
    on_solved: Callable[[int, dict[str, object]], None] | None = None,
    chunk: int | None = None,
) -> list[dict[str, object]]:
    """Solve each ``(label, game)`` of ``description`` with the patience
    search (:func:`~cardtable.solver.patience.solve_game`, every card known)
    and return one row per deal, in deal order.

    As :func:`~cardtable.solver.batch.solve_batch`: ``timeout`` and
    ``max_states`` bound each search; the deals run on ``executor``
    (default: ``workers`` local processes), ``chunk`` deals a unit (one on
    local processes, :data:`~cardtable.solver.batch.CLUSTER_CHUNK` on any
    other executor: :func:`~cardtable.solver.batch.run_deals`); ``done`` maps deal indices to rows already solved,
    which are not solved again; ``on_solved`` is called with each new row's
    deal index and the row as it arrives. A KeyboardInterrupt reaches the
    caller after ``on_solved`` has been given every row that finished.
    """
    from cardtable.patience.position import write_position

    texts = [(label, write_position(game)) for label, game in deals]
    return run_deals(texts, partial(_solve_chunk, description, timeout, max_states),
                     executor=executor or LocalExecutor(workers), done=done, on_solved=on_solved, chunk=chunk)
