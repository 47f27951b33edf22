"""Running many seeded pieces of work: one interface, local processes behind it.

A *unit* is a picklable, seeded piece of work (a range of game indices, one
deal to solve); a *task* turns a unit into a result. :meth:`Executor.map`
runs the task on every unit and yields the results in unit order, as soon
as each result and every one before it are done. Because every unit carries
its own seeds, the results never depend on how many workers ran them.

:class:`LocalExecutor` runs units on local processes (or, with one worker,
in this process); :class:`cardtable.runs.cluster.DaskExecutor` runs them on a
Dask cluster behind the same :class:`Executor` protocol.

>>> list(LocalExecutor(workers=2).map(abs, [-3, 1, -2, 5]))
[3, 1, 2, 5]
>>> list(LocalExecutor(workers=1).map(len, ["deal", "", "seed"]))
[4, 0, 4]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from itertools import chain, islice
from typing import Protocol, TypeVar

__all__ = ["Executor", "LocalExecutor"]

#: Seconds an interrupted :meth:`LocalExecutor.map` waits for running units.
_GRACE = 2.0

U = TypeVar("U")
R = TypeVar("R")


class Executor(Protocol):
    """Runs a task on units and yields the results in unit order."""

    def map(self, task: Callable[[U], R], units: Iterable[U]) -> Iterator[R]:
        """``task(unit)`` for each unit, yielded in unit order as they finish.

        Only a bounded number of units is in flight at once, so ``units`` may
        be long (or lazy) and results stream out while later units still run.
        """
        ...


class LocalExecutor:
    """An :class:`Executor` on local processes.

    ``workers`` processes (default :func:`os.cpu_count`) share the units, at
    most two per worker in flight; with one worker, or a single unit, the
    task runs in this process with no pool. ``task`` and the units must be
    picklable (a module-level function, a :func:`functools.partial` of one).

    Workers ignore Ctrl-C and SIGTERM (both reach the whole process group):
    the parent handles them. A KeyboardInterrupt while :meth:`map` waits for
    a result stops handing out work, cancels the units not yet started,
    waits up to two seconds for the running ones (then stops them: their
    work is lost, as it is when one worker runs them in this process), shuts
    the pool down, yields every unit that finished (still in unit order,
    possibly with gaps), then raises the KeyboardInterrupt again. No worker
    outlives :meth:`map`. An exception raised by the task reaches the caller
    when its unit's turn comes.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)

    def __repr__(self) -> str:
        return f"LocalExecutor(workers={self.workers})"

    def map(self, task: Callable[[U], R], units: Iterable[U]) -> Iterator[R]:
        """``task(unit)`` for each unit, yielded in unit order (see the class)."""
        pending = iter(units)
        first = list(islice(pending, 2))
        if self.workers == 1 or len(first) < 2:
            return (task(unit) for unit in chain(first, pending))
        return self._pool_map(task, chain(first, pending))

    def _pool_map(self, task: Callable[[U], R], units: Iterator[U]) -> Iterator[R]:
        in_flight: deque[Future[R]] = deque()
        limit = 2 * self.workers
        pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupts)
        try:
            try:
                while True:
                    for unit in islice(units, limit - len(in_flight)):
                        in_flight.append(pool.submit(task, unit))
                    if not in_flight:
                        return
                    result = in_flight[0].result()
                    in_flight.popleft()
                    yield result
            except KeyboardInterrupt:
                for future in in_flight:
                    future.cancel()
                wait(in_flight, timeout=_GRACE)
                _stop_workers(pool)
                pool.shutdown(wait=True, cancel_futures=True)
                for future in in_flight:
                    if future.done() and not future.cancelled() and future.exception() is None:
                        yield future.result()
                raise
        finally:
            # Also reached when the caller stops early or a task failed: drop
            # the work not yet started rather than finish it for nobody.
            pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's processes still running a unit (they ignore SIGTERM)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.kill()


def _ignore_interrupts() -> None:
    # Ctrl-C and a SIGTERM to the process group reach every process of the
    # group; the parent alone decides what to keep and when the workers stop.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
