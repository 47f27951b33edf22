"""The local executor when its worker processes die: the unit of a worker
that died goes to a new worker, a unit that kills two workers stops the map
with WorkerLost after yielding what finished, and no worker is left."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from cardtable.runs.executor import LocalExecutor, WorkerLost


def die_the_first_time(unit: tuple[int, str]) -> int:
    """Unit 3 kills its worker, unless a worker already died on it (``marker``)."""
    number, marker = unit
    if number == 3 and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return number * 10


def die_on_three(number: int) -> int:
    if number == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return number


def exit_on_three(number: int) -> int:
    if number == 3:
        os._exit(3)
    return number


def test_the_unit_of_a_dead_worker_is_given_to_a_new_one(tmp_path: Path) -> None:
    marker = str(tmp_path / "died once")
    started = time.monotonic()
    results = list(LocalExecutor(2).map(die_the_first_time, [(n, marker) for n in range(8)]))
    assert results == [n * 10 for n in range(8)]
    assert os.path.exists(marker) and time.monotonic() - started < 15
    assert multiprocessing.active_children() == []


def test_a_unit_that_kills_two_workers_stops_the_map_keeping_what_finished() -> None:
    executor = LocalExecutor(2)
    seen: list[int] = []
    started = time.monotonic()
    with pytest.raises(WorkerLost, match=r"^a worker process died \(killed by signal 9\) twice on the same unit$"):
        for result in executor.map(die_on_three, range(12)):
            seen.append(result)
    assert seen[:3] == [0, 1, 2] and 3 not in seen and seen == sorted(seen)
    assert isinstance(executor.lost, KeyboardInterrupt) and time.monotonic() - started < 15
    assert multiprocessing.active_children() == []


def test_a_worker_that_exits_is_named_by_its_status() -> None:
    with pytest.raises(WorkerLost, match=r"died \(exited with status 3\) twice"):
        list(LocalExecutor(2).map(exit_on_three, range(6)))
    assert multiprocessing.active_children() == []


def _parent_death_signal(_: int) -> int:
    import ctypes

    value = ctypes.c_int()
    ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)  # PR_GET_PDEATHSIG
    return value.value


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="the parent-death signal is Linux's")
def test_workers_are_killed_when_their_parent_dies() -> None:
    assert set(LocalExecutor(2).map(_parent_death_signal, range(4))) == {signal.SIGKILL}


def _slow_square(number: int) -> int:
    time.sleep(0.05)
    return number * number


@pytest.mark.parametrize("at", [0, 1, 2])
def test_an_interrupt_while_a_worker_starts_leaves_no_worker_behind(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path, at: int) -> None:
    # Ctrl-C (a real SIGINT to this process) arriving just as a worker has been
    # started (the first, the second, or the one that replaces a worker that
    # died), before the pool has it in its list: a worker left out would wait
    # for work and the interpreter for it at exit, a hang. Every worker must
    # be stopped and the interrupt reach the caller.
    import cardtable.runs.executor as executor_module

    real_start = executor_module._Worker.start
    started = 0

    def start(self: executor_module._Worker) -> None:
        nonlocal started
        real_start(self)
        started += 1
        if started == at + 1:
            os.kill(os.getpid(), signal.SIGINT)  # its handler raises KeyboardInterrupt here
            time.sleep(0.5)

    monkeypatch.setattr(executor_module._Worker, "start", start)
    marker = str(tmp_path / "died once")
    with pytest.raises(KeyboardInterrupt) as raised:
        list(LocalExecutor(2).map(die_the_first_time, [(n, marker) for n in range(8)]))
    assert not isinstance(raised.value, WorkerLost)
    assert started == at + 1 and multiprocessing.active_children() == []
