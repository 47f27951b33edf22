"""The executor: results in unit order, the same for any worker count, errors
and Ctrl-C reaching the caller."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from cardtable.sim.executor import Executor, LocalExecutor


def slow_square(unit: tuple[int, float]) -> int:
    """Square ``unit[0]`` after sleeping ``unit[1]`` seconds."""
    number, pause = unit
    time.sleep(pause)
    return number * number


def fail_on_three(unit: int) -> int:
    if unit == 3:
        raise ZeroDivisionError(f"unit {unit} failed")
    return unit


def interrupt_on_three(unit: int) -> int:
    if unit == 3:
        raise KeyboardInterrupt
    return unit


def test_local_executor_is_an_executor() -> None:
    executor: Executor = LocalExecutor(2)
    assert executor.map is not None
    assert LocalExecutor(3).workers == 3 and LocalExecutor().workers == (os.cpu_count() or 1)


def test_results_come_in_unit_order_whatever_finishes_first() -> None:
    # Early units are the slowest, so they finish last.
    units = [(n, 0.2 if n < 2 else 0.0) for n in range(10)]
    assert list(LocalExecutor(2).map(slow_square, units)) == [n * n for n in range(10)]
    assert list(LocalExecutor(3).map(slow_square, iter(units))) == [n * n for n in range(10)]


def test_one_and_two_workers_agree() -> None:
    units = [(n, 0.01 * (n % 3)) for n in range(12)]
    one = list(LocalExecutor(1).map(slow_square, units))
    two = list(LocalExecutor(2).map(slow_square, units))
    assert one == two == [n * n for n in range(12)]
    assert list(LocalExecutor(2).map(slow_square, [])) == []
    assert list(LocalExecutor(2).map(slow_square, [(7, 0.0)])) == [49]


def test_results_stream_before_the_last_unit_is_done() -> None:
    # The last unit sleeps for seconds; the first result arrives long before.
    started = time.perf_counter()
    stream = LocalExecutor(2).map(slow_square, [(1, 0.0), (2, 0.0), (3, 3.0)])
    assert next(stream) == 1
    assert time.perf_counter() - started < 2.5
    stream.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_task_error_reaches_the_caller(workers: int) -> None:
    seen: list[int] = []
    with pytest.raises(ZeroDivisionError, match="unit 3 failed"):
        for result in LocalExecutor(workers).map(fail_on_three, range(8)):
            seen.append(result)
    assert seen == [0, 1, 2]


def test_interrupt_in_process_keeps_what_finished() -> None:
    seen: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        for result in LocalExecutor(1).map(interrupt_on_three, range(8)):
            seen.append(result)
    assert seen == [0, 1, 2]


def test_ctrl_c_while_waiting_yields_the_finished_units_in_order_then_raises() -> None:
    # Unit 2 runs for a while; Ctrl-C comes while the caller waits for it.
    # The executor then waits for unit 2, yields it and whatever else
    # finished, in order, and raises; units never handed out never run.
    units = [(n, 1.5 if n == 2 else 0.0) for n in range(12)]
    seen: list[int] = []
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        try:
            for result in LocalExecutor(2).map(slow_square, units):
                seen.append(result)
                if result == 1:
                    timer.start()
        finally:
            timer.cancel()
    numbers = [int(n**0.5) for n in seen]
    assert numbers[:3] == [0, 1, 2]
    assert numbers == sorted(set(numbers)) and len(numbers) < len(units)
