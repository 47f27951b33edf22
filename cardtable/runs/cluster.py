"""Running units on a Dask cluster: the :class:`DaskExecutor`.

:class:`DaskExecutor` is the cluster backend of the
:class:`~cardtable.runs.executor.Executor` protocol: the same results in the
same unit order as :class:`~cardtable.runs.executor.LocalExecutor`, spread
over the workers of a Dask scheduler (``tcp://host:8786``) or of a
``LocalCluster`` it starts on this machine (address ``"local"``).

Dask is an optional dependency (``pip install "cardtable[cluster]"`` brings
``dask[distributed]``): this module imports it only when an executor is
made, and without it says what to install. Tasks travel by reference: a
task is a module-level function of the installed ``cardtable`` package (or
a :func:`functools.partial` of one), so every worker needs cardtable
installed in its own environment, the same version as the client's.

A worker that dies mid-run loses nothing: the scheduler runs its units
again on another worker (a unit whose task raises is tried ``retries`` more
times too). Every unit carries its own seeds, so a unit run twice, or on
another machine, gives the same result.

>>> check_address("local"), check_address("tcp://10.0.0.5:8786"), check_address("sched:8786")
('local', 'tcp://10.0.0.5:8786', 'sched:8786')
>>> check_address("http://x")
Traceback (most recent call last):
...
cardtable.runs.cluster.ClusterError: 'http://x' is not a Dask scheduler address: give 'local' or tcp://HOST:PORT
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from cardtable.errors import UsageError
from cardtable.runs.executor import Executor, LocalExecutor

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = ["ClusterError", "DaskExecutor", "check_address", "open_executor"]

#: Seconds to reach a scheduler before giving up (and for a LocalCluster to start).
CONNECT_TIMEOUT = 10.0
#: Times a unit whose task raised is tried again (a unit whose worker died
#: is run again elsewhere regardless, up to Dask's ``allowed-failures``).
RETRIES = 2
_ADDRESS = re.compile(r"^(?:(?:tcp|tls|inproc|ucx|ws|wss)://)?\[?[\w.\-:]+\]?:\d{1,5}$")

U = TypeVar("U")
R = TypeVar("R")


class ClusterError(UsageError):
    """A cluster that cannot be used: Dask not installed, a scheduler that
    cannot be reached or was lost, a bad address."""


def check_address(address: str) -> str:
    """``address`` when it names a scheduler (``local``, ``tcp://HOST:PORT``
    or ``HOST:PORT``), else a :class:`ClusterError` saying so."""
    text = address.strip()
    if text == "local" or _ADDRESS.match(text):
        return text
    raise ClusterError(f"{address!r} is not a Dask scheduler address: give 'local' or tcp://HOST:PORT")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("running on a Dask cluster needs dask[distributed]: "
                           "pip install \"cardtable[cluster]\"") from None
    return distributed


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def dask_setup(worker: object) -> None:
    """Preloaded into the worker processes of a ``LocalCluster`` started here:
    they share this process group, so a Ctrl-C reaches them too; the client
    alone decides what to keep and when the workers stop."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class DaskExecutor:
    """An :class:`~cardtable.runs.executor.Executor` on a Dask cluster.

    ``address`` is a scheduler (``tcp://host:8786``) or ``"local"`` to start
    a ``LocalCluster`` of ``workers`` processes (default :func:`os.cpu_count`)
    with one thread each (started from a script, that script needs the usual
    ``if __name__ == "__main__":`` guard of :mod:`multiprocessing`).
    Connecting gives up after ``timeout`` seconds (default
    :data:`CONNECT_TIMEOUT`) with a :class:`ClusterError` naming the address.
    Use it as a context manager (or call :meth:`close`): closing drops the
    client, and the ``LocalCluster`` when it started one.

    :meth:`map` keeps at most ``in_flight`` units on the cluster (default:
    four per worker thread, at least eight) and yields results in unit order.
    A KeyboardInterrupt while it waits stops handing out work, yields the
    units that had finished (in unit order, possibly with gaps), cancels
    the rest and raises the KeyboardInterrupt again. A scheduler lost mid-run
    raises :class:`ClusterError`; an exception raised by the task reaches the
    caller when its unit's turn comes.
    """

    def __init__(self, address: str = "local", *, workers: int | None = None, timeout: float | None = None,
                 retries: int = RETRIES, in_flight: int | None = None) -> None:
        self.address = check_address(address)
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self.retries = retries
        self._in_flight = in_flight
        distributed = _distributed()
        self._cluster: Any = None
        try:
            if self.address == "local":
                self._cluster = distributed.LocalCluster(
                    n_workers=max(1, workers or os.cpu_count() or 1), threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL, preload=["cardtable.runs.cluster"])
                self._client: Client = distributed.Client(self._cluster, timeout=timeout, set_as_default=False)
            else:
                self._client = distributed.Client(self.address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            if self._cluster is not None:
                self._cluster.close()
            where = "start a local Dask cluster" if self.address == "local" else \
                f"reach the Dask scheduler at {self.address}"
            raise ClusterError(f"cannot {where} within {timeout:g} s: {_one_line(error)}") from None

    def __repr__(self) -> str:
        return f"DaskExecutor({self.address!r}, workers={self.workers})"

    @property
    def workers(self) -> int:
        """Worker threads on the cluster now (at least 1)."""
        try:
            return max(1, sum(self._client.nthreads().values()))
        except (OSError, TimeoutError):
            return 1

    def close(self) -> None:
        """Drop the client (and the local cluster this executor started)."""
        try:
            self._client.close(timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError):
            pass  # the scheduler is gone already
        finally:
            if self._cluster is not None:
                self._cluster.close(timeout=CONNECT_TIMEOUT)
                self._cluster = None

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def map(self, task: Callable[[U], R], units: Iterable[U]) -> Iterator[R]:
        """``task(unit)`` for each unit, yielded in unit order (see the class)."""
        client = self._client
        limit = self._in_flight or max(8, 4 * self.workers)
        pending = iter(units)
        # Results are gathered as they finish, whatever the order, so a slow
        # unit at the head never stalls the transfers behind it.
        arrivals = _distributed().as_completed([], with_results=True, raise_errors=False, loop=client.loop)
        in_flight: dict[object, tuple[int, Future]] = {}
        arrived: dict[int, tuple[Future, Any]] = {}
        submitted = next_out = 0
        try:
            try:
                while True:
                    for unit in islice(pending, limit - (submitted - next_out)):
                        future = client.submit(task, unit, pure=False, retries=self.retries)
                        in_flight[future.key] = (submitted, future)
                        arrivals.add(future)
                        submitted += 1
                    if next_out == submitted:
                        return
                    while next_out not in arrived:
                        future, result = next(arrivals)
                        arrived[in_flight.pop(future.key)[0]] = (future, result)
                    future, result = arrived.pop(next_out)
                    next_out += 1
                    yield self._result(future, result)
            except KeyboardInterrupt:
                self._cancel([future for _, future in in_flight.values()])
                for position in sorted(arrived):
                    future, result = arrived[position]
                    if future.status == "finished":
                        yield result
                arrived.clear()
                raise
        finally:
            self._cancel([future for _, future in in_flight.values() if not future.done()])
            arrivals.clear()

    def _cancel(self, futures: list[Future]) -> None:
        if futures:
            with suppress(Exception):  # the scheduler is gone: nothing left to cancel
                self._client.cancel(futures)

    def _result(self, future: Future, result: Any) -> Any:
        """The unit's result; a task's own exception as it is, a lost
        scheduler or a unit that kept killing its workers as a ClusterError."""
        if future.status == "finished":
            return result
        try:
            return future.result(timeout=CONNECT_TIMEOUT)  # raises the task's exception
        except Exception as error:
            if future.status == "error" and type(error).__name__ != "KilledWorker":
                raise
            if type(error).__name__ == "KilledWorker":
                raise ClusterError(f"a unit of work killed every Dask worker it ran on: {_one_line(error)}") from None
            reason = _one_line(error)
            reason = reason.rpartition("for reason: ")[2].rstrip(".") or reason  # not the task's key
            raise ClusterError(f"lost the Dask scheduler at {self.address}: {reason}") from None


@contextmanager
def open_executor(cluster: str | None, workers: int | None = None) -> Iterator[Executor]:
    """The executor a command runs on: a :class:`DaskExecutor` on ``cluster``
    (a scheduler address, or ``"local"`` for a ``LocalCluster`` of
    ``workers`` processes), closed at the end of the ``with`` block; without
    ``cluster``, a :class:`~cardtable.runs.executor.LocalExecutor` of
    ``workers`` processes (Dask is not imported).

    >>> with open_executor(None, 2) as executor:
    ...     list(executor.map(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    if cluster is None:
        yield LocalExecutor(workers)
        return
    with DaskExecutor(cluster, workers=workers) as executor:
        yield executor
