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
another machine, gives the same result. A cluster left with no worker at all
is not waited on for ever: after ``idle_timeout`` seconds with none, the map
stops with a :class:`ClusterError` (and ``on_idle`` hears of it early). An
address where something other than a Dask scheduler answers is refused when
the executor is made, within the connect timeout.

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
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cardtable.errors import UsageError
from cardtable.runs.executor import Executor, LocalExecutor

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = ["IDLE_TIMEOUT", "ClusterError", "DaskExecutor", "check_address", "open_executor"]

#: Seconds to reach a scheduler before giving up (and for a LocalCluster to start).
CONNECT_TIMEOUT = 10.0
#: Seconds a map waits while the cluster has no worker before it gives up.
IDLE_TIMEOUT = 60.0
#: Seconds without a worker before ``on_idle`` is told.
_IDLE_NOTICE = 5.0
#: Seconds between two looks at how many workers the cluster has.
_WORKER_LOOK = 1.0

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

    from cardtable.runs.executor import die_with_parent

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(os.getppid())  # a client killed outright takes its local cluster with it


class DaskExecutor:
    """An :class:`~cardtable.runs.executor.Executor` on a Dask cluster.

    ``address`` is a scheduler (``tcp://host:8786``) or ``"local"`` to start
    a ``LocalCluster`` of ``workers`` processes (default :func:`os.cpu_count`)
    with one thread each (started from a script, that script needs the usual
    ``if __name__ == "__main__":`` guard of :mod:`multiprocessing`).
    Connecting gives up after ``timeout`` seconds (default
    :data:`CONNECT_TIMEOUT`) with a :class:`ClusterError` naming the address;
    so does an address where something answers that is not a Dask scheduler.
    Use it as a context manager (or call :meth:`close`): closing drops the
    client, and the ``LocalCluster`` when it started one.

    :meth:`map` keeps at most ``in_flight`` units on the cluster (default:
    four per worker thread, at least eight) and yields results in unit order.
    A KeyboardInterrupt while it waits stops handing out work, yields the
    units that had finished (in unit order, possibly with gaps), cancels
    the rest and raises the KeyboardInterrupt again. A scheduler lost mid-run
    raises :class:`ClusterError`; an exception raised by the task reaches the
    caller when its unit's turn comes.

    A cluster with no worker is waited on for ``idle_timeout`` seconds
    (default :data:`IDLE_TIMEOUT`), then :meth:`map` raises a
    :class:`ClusterError` saying so; ``on_idle``, when given, is called with
    the seconds waited once the cluster has had no worker for a few seconds
    (to say so), and again once a worker is back (with 0).
    """

    def __init__(self, address: str = "local", *, workers: int | None = None, timeout: float | None = None,
                 retries: int = RETRIES, in_flight: int | None = None, idle_timeout: float | None = None,
                 on_idle: Callable[[float], None] | None = None) -> None:
        self.address = check_address(address)
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self.retries = retries
        self.idle_timeout = IDLE_TIMEOUT if idle_timeout is None else idle_timeout
        self._on_idle = on_idle
        self._in_flight = in_flight
        distributed = _distributed()
        self._cluster: Any = None
        if self.address != "local":
            _check_scheduler(self.address, timeout)
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
                        future, result = self._next(arrivals)
                        if isinstance(result, BaseException) and future.status in ("pending", "lost"):
                            arrivals.add(future)  # its worker died mid-gather: it runs again
                            continue
                        arrived[in_flight.pop(future.key)[0]] = (future, result)
                    future, result = arrived.pop(next_out)
                    next_out += 1
                    yield self._result(future, result)
            except KeyboardInterrupt:
                self._cancel([future for _, future in in_flight.values()])
                for position in sorted(arrived):
                    future, result = arrived[position]
                    if future.status == "finished" or not isinstance(result, BaseException):
                        yield result
                arrived.clear()
                raise
        finally:
            self._cancel([future for _, future in in_flight.values() if not future.done()])
            arrivals.clear()

    def _next(self, arrivals: Any) -> tuple[Future, Any]:
        """The next future to finish and its result; a cluster with no
        worker for :attr:`idle_timeout` seconds raises a ClusterError."""
        idle_since: float | None = None
        told = False
        looked = time.monotonic()
        while not arrivals.has_ready():
            time.sleep(0.02)
            now = time.monotonic()
            if now - looked < _WORKER_LOOK:
                continue
            looked = now
            if self._has_workers():
                if told and self._on_idle is not None:
                    self._on_idle(0.0)
                idle_since, told = None, False
                continue
            idle_since = now if idle_since is None else idle_since
            if now - idle_since >= self.idle_timeout:
                raise ClusterError(f"the Dask cluster at {self.address} has had no worker for "
                                   f"{self.idle_timeout:g} s; gave up waiting")
            if not told and now - idle_since >= min(_IDLE_NOTICE, self.idle_timeout / 2):
                told = True
                if self._on_idle is not None:
                    self._on_idle(now - idle_since)
        return cast("tuple[Future, Any]", next(arrivals))

    def _has_workers(self) -> bool:
        """Whether the cluster has a worker now (yes, when the scheduler does
        not answer: a lost scheduler is told by the futures themselves)."""
        try:
            return bool(self._client.nthreads())
        except Exception:
            return True

    def _cancel(self, futures: list[Future]) -> None:
        if futures:
            with suppress(Exception):  # the scheduler is gone: nothing left to cancel
                self._client.cancel(futures)

    def _result(self, future: Future, result: Any) -> Any:
        """The unit's result; a task's own exception as it is, a lost
        scheduler or a unit that kept killing its workers as a ClusterError.

        A result that arrived is the result, whatever the future's status
        says now: a worker that dies after handing it over makes the
        scheduler forget the key, and the future turns back to pending."""
        if future.status == "finished" or not isinstance(result, BaseException):
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


def _check_scheduler(address: str, timeout: float) -> None:
    """Make sure a Dask scheduler answers at ``address`` within ``timeout``
    seconds (asked who it is, on a thread of its own, whatever event loop
    the caller runs), else raise a ClusterError saying what is there.

    A client made at once would wait far longer on a service that never
    answers, and read another service's first bytes as a message size."""
    import asyncio

    async def identity() -> object:
        from distributed.comm import connect

        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    outcome: list[object] = []

    def ask() -> None:
        try:
            outcome.append(asyncio.run(asyncio.wait_for(identity(), timeout + 1.0)))
        except BaseException as error:  # handed to the caller's thread below
            outcome.append(error)

    asker = threading.Thread(target=ask, name="cardtable-dask-check", daemon=True)
    asker.start()
    asker.join(timeout + 5.0)
    answer = outcome[0] if outcome else TimeoutError()
    where = f"cannot reach the Dask scheduler at {address} within {timeout:g} s"
    if isinstance(answer, (TimeoutError, asyncio.TimeoutError)) and not str(answer):
        raise ClusterError(f"{where}: nothing there answered as a Dask scheduler")
    if isinstance(answer, (OSError, TimeoutError, ValueError)):
        raise ClusterError(f"{where}: {_one_line(answer)}")
    if isinstance(answer, BaseException):
        raise ClusterError(f"{where}: what answered does not speak Dask's protocol "
                           f"({type(answer).__name__})")
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise ClusterError(f"{where}: what answered is {f'a Dask {kind}' if kind else 'not Dask'}, "
                           "not a scheduler")


@contextmanager
def open_executor(cluster: str | None, workers: int | None = None, *, idle_timeout: float | None = None,
                  on_idle: Callable[[float], None] | None = None) -> Iterator[Executor]:
    """The executor a command runs on: a :class:`DaskExecutor` on ``cluster``
    (a scheduler address, or ``"local"`` for a ``LocalCluster`` of
    ``workers`` processes; ``idle_timeout`` and ``on_idle`` as the class
    says), closed at the end of the ``with`` block; without
    ``cluster``, a :class:`~cardtable.runs.executor.LocalExecutor` of
    ``workers`` processes (Dask is not imported).

    >>> with open_executor(None, 2) as executor:
    ...     list(executor.map(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    if cluster is None:
        yield LocalExecutor(workers)
        return
    with DaskExecutor(cluster, workers=workers, idle_timeout=idle_timeout, on_idle=on_idle) as executor:
        yield executor
