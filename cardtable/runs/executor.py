"""Running many seeded pieces of work: one interface, local processes behind it.

A *unit* is a picklable, seeded piece of work (a range of game indices, one
deal to solve); a *task* turns a unit into a result. :meth:`Executor.map`
runs the task on every unit and yields the results in unit order, as soon
as each result and every one before it are done. Because every unit carries
its own seeds, the results never depend on how many workers ran them.

:class:`LocalExecutor` runs units on local processes (or, with one worker,
in this process); :class:`cardtable.runs.cluster.DaskExecutor` runs them on a
Dask cluster behind the same :class:`Executor` protocol.

Processes die: the OOM killer sends SIGKILL, a unit may crash its
interpreter. :class:`LocalExecutor` sees a dead worker at once (it waits on
each worker's pipe and on its process together), runs the unit again on a
new worker, and gives up on a unit that killed two workers, with
:class:`WorkerLost`, a KeyboardInterrupt, so that callers keep what finished
as they do on Ctrl-C. The other way round, workers die with the process that
started them (:func:`die_with_parent`): a parent killed outright leaves no
worker burning CPU.

>>> list(LocalExecutor(workers=2).map(abs, [-3, 1, -2, 5]))
[3, 1, 2, 5]
>>> list(LocalExecutor(workers=1).map(len, ["deal", "", "seed"]))
[4, 0, 4]
"""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["Executor", "LocalExecutor", "WorkerLost", "die_with_parent"]

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


class WorkerLost(KeyboardInterrupt):
    """A worker process died twice on the same unit (killed by the OOM
    killer, say, or by the unit itself). Raised by :meth:`LocalExecutor.map`
    once the units that had finished are yielded; a KeyboardInterrupt, so
    that whatever keeps finished work on Ctrl-C keeps it here too, and an
    interrupted run stays resumable. ``str()`` says what happened."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


class LocalExecutor:
    """An :class:`Executor` on local processes.

    ``workers`` processes (default :func:`os.cpu_count`) share the units, at
    most two per worker handed out ahead of the one yielded next; with one
    worker, or a single unit, the task runs in this process with no pool.
    ``task`` and the units must be picklable (a module-level function, a
    :func:`functools.partial` of one).

    Workers ignore Ctrl-C, SIGTERM and SIGHUP (they reach the whole process
    group): the parent handles them. Workers die with their parent: on Linux
    the kernel kills them when it dies (the parent-death signal), elsewhere a
    thread of theirs watches it; a parent killed with ``kill -9`` leaves no
    worker behind.

    A worker that dies (any signal, any cause) is seen at once: its unit is
    given to a new worker. A unit whose worker dies a second time is not
    tried again: :meth:`map` stops as for an interrupt and raises
    :class:`WorkerLost`.

    A KeyboardInterrupt while :meth:`map` waits for a result stops handing
    out work, waits up to two seconds for the running units (then stops
    them: their work is lost, as it is when one worker runs them in this
    process), yields every unit that finished (still in unit order, possibly
    with gaps), then raises the KeyboardInterrupt again. No worker outlives
    :meth:`map`. An exception raised by the task reaches the caller when its
    unit's turn comes.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        #: The :class:`WorkerLost` that stopped the latest :meth:`map`, if any
        #: (for a caller that turned it into a shorter result, to say why).
        self.lost: WorkerLost | None = None

    def __repr__(self) -> str:
        return f"LocalExecutor(workers={self.workers})"

    def map(self, task: Callable[[U], R], units: Iterable[U]) -> Iterator[R]:
        """``task(unit)`` for each unit, yielded in unit order (see the class)."""
        self.lost = None
        pending = iter(units)
        first = list(islice(pending, 2))
        if self.workers == 1 or len(first) < 2:
            return (task(unit) for unit in chain(first, pending))
        return self._pool_map(task, chain(first, pending))

    def _pool_map(self, task: Callable[[U], R], units: Iterator[U]) -> Iterator[R]:
        pool = _Pool(task, self.workers)
        try:
            yield from pool.run(units)
        except WorkerLost as lost:
            self.lost = lost
            raise
        finally:
            # Also reached when the caller stops early or a task failed: drop
            # the work not yet started rather than finish it for nobody.
            pool.close()


#: What a worker sends back: (True, the result) or (False, the task's exception).
_Reply = tuple[bool, Any]


class _Worker:
    """One worker process and the pipe to it; ``position`` is the unit it runs."""

    def __init__(self, context: Any) -> None:
        ours, self._theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(self._theirs, os.getpid()), name="cardtable-worker")
        self.conn: Connection = ours
        self.position: int | None = None
        self._torn = False

    def start(self) -> None:
        """Start its process. The pool holds the worker first, so that an
        interruption at any point leaves no process it does not know of: such
        a process would wait for work, and the interpreter for it at exit."""
        self.process.start()
        self._theirs.close()

    @property
    def started(self) -> bool:
        """Its process was started (an interruption can come first)."""
        return self.process.pid is not None

    def give(self, task: Callable[[Any], Any], position: int, unit: object) -> None:
        self.position = position
        with suppress(OSError):  # it died: its sentinel says so
            self.conn.send((task, unit))

    def reply(self) -> _Reply | None:
        """The worker's answer once it is in the pipe, else None (it died)."""
        if self._torn:
            return None
        try:
            if self.conn.poll():
                return cast(_Reply, self.conn.recv())
        except (EOFError, OSError):
            pass
        except BaseException:  # interrupted halfway through an answer: the rest is of no use
            self._torn = True
            self.process.kill()
            raise
        return None

    def stop(self, *, kill: bool) -> None:
        self._theirs.close()  # (when an interruption came between the start and its own close)
        if not self.started:
            self.conn.close()
            return
        if not kill and self.process.is_alive():
            with suppress(OSError):
                self.conn.send(None)
            self.process.join(_GRACE)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class _Pool:
    """The worker processes of one :meth:`LocalExecutor.map`."""

    def __init__(self, task: Callable[[Any], Any], size: int) -> None:
        import multiprocessing

        self._task = task
        self._context = multiprocessing.get_context()
        self._workers: list[_Worker] = []
        try:
            for _ in range(size):
                self._start(None)
        except BaseException:  # interrupted while starting them: none is left running
            self.close(kill=True)
            raise
        self._limit = 2 * size
        self._results: dict[int, _Reply] = {}
        self._deaths: dict[int, int] = {}
        self._retry: deque[int] = deque()
        self._idle_deaths = 0

    def _start(self, index: int | None) -> None:
        """Start a worker as worker ``index`` (replacing a dead one) or a new
        last one: in the list before its process starts (see :meth:`_Worker.start`)."""
        worker = _Worker(self._context)
        if index is None:
            self._workers.append(worker)
        else:
            self._workers[index] = worker
        worker.start()

    def run(self, units: Iterator[Any]) -> Iterator[Any]:
        given: dict[int, Any] = {}  # position -> unit, until it is yielded
        next_in = next_out = 0
        exhausted = False
        try:
            while True:
                for worker in self._workers:
                    if worker.position is not None:
                        continue
                    if self._retry:
                        position = self._retry.popleft()
                    elif not exhausted and next_in - next_out < self._limit:
                        unit = next(units, _END)
                        if unit is _END:
                            exhausted = True
                            break
                        position, next_in = next_in, next_in + 1
                        given[position] = unit
                    else:
                        break
                    worker.give(self._task, position, given[position])
                if next_out in self._results:
                    ok, value = self._results.pop(next_out)
                    del given[next_out]
                    next_out += 1
                    if not ok:
                        raise value
                    yield value
                elif exhausted and next_out == next_in:
                    return
                else:
                    self._collect(None, respawn=True)
        except KeyboardInterrupt:
            deadline = time.monotonic() + _GRACE
            while any(w.position is not None for w in self._workers) and time.monotonic() < deadline:
                try:
                    self._collect(max(0.0, deadline - time.monotonic()), respawn=False)
                except KeyboardInterrupt:  # a second interrupt: stop waiting
                    break
            self.close(kill=True)
            for position in sorted(self._results):
                ok, value = self._results[position]
                if ok:
                    yield value
            raise

    def _collect(self, timeout: float | None, *, respawn: bool) -> None:
        """Wait up to ``timeout`` for answers and deaths, and take them in.
        A worker that died is replaced and its unit handed out again once;
        a second death of the same unit raises :class:`WorkerLost` (when
        not ``respawn``, the dead worker's unit is simply dropped)."""
        from multiprocessing.connection import wait as wait_for

        watched: list[Any] = [w.conn for w in self._workers if w.position is not None]
        watched += [w.process.sentinel for w in self._workers if w.started and w.process.exitcode is None]
        ready = set(wait_for(watched, timeout))
        for index, worker in enumerate(self._workers):
            if not worker.started or (worker.conn not in ready and worker.process.sentinel not in ready):
                continue
            position = worker.position
            answer = worker.reply() if position is not None else None
            if answer is not None and position is not None:
                self._results[position] = answer
                worker.position = None
                continue
            if worker.process.is_alive() and worker.process.sentinel not in ready:
                continue  # its pipe closed as it dies: its sentinel will say so next
            worker.stop(kill=True)
            worker.position = None
            died = worker.process.exitcode
            if not respawn:
                continue
            if position is None:  # died between units: replaced, unless they all keep dying
                self._idle_deaths += 1
                if self._idle_deaths > 2 * len(self._workers):
                    raise WorkerLost(f"worker processes keep dying ({_how(died)}) before they are given work")
                self._start(index)
                continue
            self._deaths[position] = self._deaths.get(position, 0) + 1
            if self._deaths[position] >= 2:
                raise WorkerLost(f"a worker process died ({_how(died)}) twice on the same unit")
            self._start(index)
            self._retry.append(position)

    def close(self, *, kill: bool = False) -> None:
        """Stop every worker (at once when ``kill``; else once idle ones are told to)."""
        for worker in self._workers:
            worker.stop(kill=kill or worker.position is not None)
        self._workers = [w for w in self._workers if w.process.is_alive()]


#: Marks the end of the units.
_END = object()


def _how(exitcode: int | None) -> str:
    """How a process ended, in words.

    >>> _how(-9), _how(3)
    ('killed by signal 9', 'exited with status 3')
    """
    if exitcode is not None and exitcode < 0:
        return f"killed by signal {-exitcode}"
    return f"exited with status {exitcode}"


def _serve(conn: Connection, parent: int) -> None:
    """A worker's life: run each (task, unit) it is sent, answer, until told to stop."""
    _ignore_interrupts()
    die_with_parent(parent)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, unit = message
        reply: _Reply
        try:
            reply = (True, task(unit))
        except Exception as error:  # reaches the caller when the unit's turn comes
            reply = (False, error)
        try:
            conn.send(reply)
        except Exception as error:  # a result or an error that does not pickle
            conn.send((False, RuntimeError(f"a unit's {'result' if reply[0] else 'error'} cannot be sent "
                                           f"back from its worker: {type(error).__name__}: {error}")))


def die_with_parent(parent: int) -> None:
    """Make this process die when process ``parent`` (its parent) does.

    On Linux the kernel sends it SIGKILL when its parent dies (the
    parent-death signal, ``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon
    thread looks at :func:`os.getppid` every second. Either way a parent
    that died before this call is noticed at once.
    """
    import signal

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
                if os.getppid() != parent:
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass  # no libc to call: watch instead
    import threading

    threading.Thread(target=_watch_parent, args=(parent,), name="cardtable-parent-watch", daemon=True).start()


#: ``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``.
_PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _ignore_interrupts() -> None:
    # Ctrl-C, a SIGTERM to the process group and a terminal's hangup reach
    # every process of the group; the parent alone decides what to keep and
    # when the workers stop.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
