"""Solving many deals: rows in deal order, spread over processes, and their summary.

Deals go to an :class:`~cardtable.runs.executor.Executor` one a unit by
default (a solve can take a long time), or ``chunk`` at a time, and each row
is ``{"deal": label, **SolveResult.to_dict()}``. A batch can be finished
later: given the rows already solved (``done``), only the other deals run;
:func:`store_row` and :func:`from_store_row` turn a row into the results
store's ``solves`` row and back.

Under a state budget alone (``max_states``, no ``timeout``) every answer, its
moves and its states are the same on any machine and any worker; only the
seconds vary. With a ``timeout``, a deal near the limit may come out
``unknown`` on a slower or busier machine and decided on a faster one.

>>> from cardtable.klondike import Position, Variant
>>> deals = [("2", Position.from_seed(2)), ("3", Position.from_seed(3))]
>>> rows = solve_batch(deals, Variant.preset("thoughtful1"), max_states=50_000)
>>> [(row["deal"], row["result"]) for row in rows]
[('2', 'won'), ('3', 'won')]
>>> print(summarize_solves(rows).text().splitlines()[0])
2 deals: 2 won, 0 unwinnable, 0 unknown
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, TypeVar

from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.solver.search import check_budget, solve
from cardtable.stats import wilson

__all__ = ["CLUSTER_CHUNK", "SolveSummary", "from_store_row", "run_deals", "solve_batch", "store_row",
           "summarize_solves"]

T = TypeVar("T")


#: Deals a unit on a cluster: a Dask task costs a few milliseconds to hand
#: out and collect, and an easy deal takes tens of them, so deals travel in
#: eights to keep that under 5% of the work (``benchmarks/cluster.py``).
CLUSTER_CHUNK = 8


def _solve_one(variant: Variant, timeout: float | None, max_states: int | None,
               deal: tuple[str, Position]) -> dict[str, object]:
    label, position = deal
    return {"deal": label, **solve(position, variant, timeout=timeout, max_states=max_states).to_dict()}


def _solve_chunk(variant: Variant, timeout: float | None, max_states: int | None,
                 deals: Sequence[tuple[int, tuple[str, Position]]]) -> list[tuple[int, dict[str, object]]]:
    """Solve a unit of deals, each with its index (an interrupted executor
    may yield units with gaps, so every row says which deal it is)."""
    return [(index, _solve_one(variant, timeout, max_states, deal)) for index, deal in deals]


def solve_batch(
    deals: Sequence[tuple[str, Position]],
    variant: Variant,
    *,
    timeout: float | None = None,
    max_states: int | None = None,
    workers: int | None = 1,
    executor: Executor | None = None,
    on_result: Callable[[dict[str, object]], None] | None = None,
    done: Mapping[int, dict[str, object]] | None = None,
    on_solved: Callable[[int, dict[str, object]], None] | None = None,
    chunk: int | None = None,
) -> list[dict[str, object]]:
    """Solve each ``(label, position)`` under ``variant`` and return one row
    per deal, in deal order: ``{"deal": label, **SolveResult.to_dict()}``.

    ``timeout`` and ``max_states`` bound each search (see
    :func:`cardtable.solver.solve`). The deals run on ``executor`` (default:
    a :class:`~cardtable.runs.executor.LocalExecutor` with ``workers``
    processes, one unless told; ``None`` for every core), ``chunk`` deals a
    unit (default: one on local processes, :data:`CLUSTER_CHUNK` on any other
    executor, where handing out a unit costs more). ``done`` maps deal indices to rows already solved: those deals are
    not solved again, and their rows are part of the answer. ``on_result``
    is called with each new row as it arrives, in deal order, and
    ``on_solved`` with its deal index and the row. A KeyboardInterrupt
    reaches the caller after both have been given every row that finished.
    """
    if max_states is not None:
        check_budget(max_states)  # before any worker starts

    def solved(index: int, row: dict[str, object]) -> None:
        if on_result is not None:
            on_result(row)
        if on_solved is not None:
            on_solved(index, row)

    return run_deals(deals, partial(_solve_chunk, variant, timeout, max_states),
                     executor=executor or LocalExecutor(workers), done=done, on_solved=solved, chunk=chunk)


def run_deals(deals: Sequence[T], task: Callable[[list[tuple[int, T]]], list[tuple[int, dict[str, object]]]], *,
              executor: Executor, done: Mapping[int, dict[str, object]] | None = None,
              on_solved: Callable[[int, dict[str, object]], None] | None = None,
              chunk: int | None = None) -> list[dict[str, object]]:
    """The loop of a batch, whatever its game: the deals ``done`` lacks go to
    ``executor`` ``chunk`` at a time (default: one on local processes,
    :data:`CLUSTER_CHUNK` on any other executor), each unit a list of
    ``(index, deal)`` that ``task`` turns into ``(index, row)`` pairs;
    ``on_solved`` is called with each new row as it arrives, and the rows
    come back in deal order, ``done``'s among them."""
    if chunk is None:
        chunk = 1 if isinstance(executor, LocalExecutor) else CLUSTER_CHUNK
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    rows = dict(done or {})
    todo = [index for index in range(len(deals)) if index not in rows]
    units = [[(index, deals[index]) for index in todo[first:first + chunk]] for first in range(0, len(todo), chunk)]
    for solved in executor.map(task, units):
        for index, row in solved:
            rows[index] = row
            if on_solved is not None:
                on_solved(index, row)
    return [rows[index] for index in sorted(rows)]


@dataclass(frozen=True, slots=True)
class SolveSummary:
    """What a batch of solves found: counts by result, the winnable share of
    the decided deals with its 95% Wilson interval (``None`` when no deal was
    decided), and the median and mean seconds a deal (``None`` for no deals)."""

    deals: int
    won: int
    unwinnable: int
    unknown: int
    winnable_share: float | None
    winnable_low: float | None
    winnable_high: float | None
    median_seconds: float | None
    mean_seconds: float | None

    def text(self) -> str:
        """A few lines for people: counts, winnability with its 95% interval
        (and, when some deals are unknown, the bounds over all deals), times."""
        lines = [f"{self.deals} deals: {self.won} won, {self.unwinnable} unwinnable, {self.unknown} unknown"]
        if self.winnable_share is not None and self.winnable_low is not None and self.winnable_high is not None:
            lines.append(f"winnable: {100 * self.winnable_share:.2f}% of decided deals "
                         f"(95% interval {100 * self.winnable_low:.2f}%..{100 * self.winnable_high:.2f}%)")
            if self.unknown:
                low_all, high_all = 100 * self.won / self.deals, 100 * (self.won + self.unknown) / self.deals
                lines.append(f"bounds over all deals: {low_all:.2f}%..{high_all:.2f}%")
        if self.median_seconds is not None and self.mean_seconds is not None:
            lines.append(f"time per deal: median {self.median_seconds:.4f} s, mean {self.mean_seconds:.4f} s")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """The JSON form: every field by name."""
        return asdict(self)


def summarize_solves(rows: Iterable[dict[str, object]]) -> SolveSummary:
    """The summary of solve rows (as :func:`solve_batch` returns them).

    >>> rows = [{"result": "won", "seconds": 1.0}, {"result": "unwinnable", "seconds": 3.0},
    ...         {"result": "unknown", "seconds": 8.0}]
    >>> print(summarize_solves(rows).text())
    3 deals: 1 won, 1 unwinnable, 1 unknown
    winnable: 50.00% of decided deals (95% interval 9.45%..90.55%)
    bounds over all deals: 33.33%..66.67%
    time per deal: median 3.0000 s, mean 4.0000 s
    """
    rows = list(rows)
    won = sum(row["result"] == "won" for row in rows)
    lost = sum(row["result"] == "unwinnable" for row in rows)
    times = [float(row["seconds"]) for row in rows]  # type: ignore[arg-type]
    share = low = high = None
    if won + lost:
        share = won / (won + lost)
        low, high = wilson(won, won + lost)
    return SolveSummary(
        deals=len(rows), won=won, unwinnable=lost, unknown=len(rows) - won - lost,
        winnable_share=share, winnable_low=low, winnable_high=high,
        median_seconds=statistics.median(times) if times else None,
        mean_seconds=statistics.fmean(times) if times else None,
    )


def store_row(index: int, row: Mapping[str, object]) -> tuple[object, ...]:
    """Deal ``index``'s ``row`` (as :func:`solve_batch` gives it) as a row of
    the results store's ``solves`` table (the moves as JSON).

    >>> row = {"deal": "5", "result": "won", "moves": ["D", "W1"], "states": 40, "seconds": 0.25}
    >>> store_row(0, row)
    (0, '5', 'won', '["D", "W1"]', 40, 0.25, None)
    >>> from_store_row(store_row(0, row)) == (0, row)
    True
    """
    return (index, str(row["deal"]), str(row["result"]), json.dumps(row.get("moves", [])),
            int(row["states"]), float(row["seconds"]), row.get("reason"))  # type: ignore[call-overload, arg-type]


def from_store_row(values: Sequence[Any]) -> tuple[int, dict[str, object]]:
    """``(index, row)`` of a row of :func:`store_row`."""
    index, deal, result, moves, states, seconds, reason = values
    row: dict[str, object] = {"deal": deal, "result": result, "moves": json.loads(moves), "states": int(states),
                              "seconds": float(seconds)}
    if reason:
        row["reason"] = reason
    return int(index), row
