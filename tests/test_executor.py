"""The executor: results in unit order, the same for any worker count, errors
and Ctrl-C reaching the caller."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from cardtable.runs.executor import Executor, LocalExecutor


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


def _worker_signal_handlers(_: int) -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def test_workers_ignore_ctrl_c_and_sigterm() -> None:
    handlers = set(LocalExecutor(2).map(_worker_signal_handlers, range(4)))
    assert handlers == {(signal.SIG_IGN, signal.SIG_IGN)}


def test_an_interrupt_stops_units_still_running_after_the_grace_and_leaves_no_worker() -> None:
    # Unit 1 would run for a minute: the executor stops it after its short
    # grace, yields unit 0, raises, and no worker process is left.
    import multiprocessing

    units = [(0, 0.0), (1, 60.0), (2, 60.0)]
    seen: list[int] = []
    # processes another test of this process started and keeps (the terminal app's hint process) are not this map's
    before = set(multiprocessing.active_children())
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        try:
            for result in LocalExecutor(2).map(slow_square, units):
                seen.append(result)
                timer.start()
        finally:
            timer.cancel()
    assert seen == [0]
    assert time.monotonic() - started < 10
    assert set(multiprocessing.active_children()) - before == set()


def test_main_restores_the_sigterm_handler() -> None:
    from cardtable.cli import main

    def mine(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        assert main(["strategies"]) == 0
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_sigterm_during_main_unwinds_like_ctrl_c_and_exits_143(capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.cli import main

    previous = signal.getsignal(signal.SIGTERM)
    done = threading.Event()

    def terminate_once_handled() -> None:
        # The signal goes only once main has its handler in place and has had a
        # second to start the match, however slowly a loaded machine imports.
        deadline = time.monotonic() + 60
        while signal.getsignal(signal.SIGTERM) is previous and time.monotonic() < deadline:
            if done.wait(0.05):
                return
        if not done.wait(1.0):
            os.kill(os.getpid(), signal.SIGTERM)

    sender = threading.Thread(target=terminate_once_handled, daemon=True)
    sender.start()
    try:
        status = main(["kings-corner", "match", "--games", "3000000", "--workers", "1", "--quiet"])
    finally:
        done.set()
        sender.join()
    assert status == 143
    assert "cardtable: interrupted by SIGTERM: reported the " in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is previous
