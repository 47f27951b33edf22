"""A real Dask cluster on 127.0.0.1 for the cluster tests, and the command
line run as a user runs it (the fixtures are in conftest.py).

The scheduler and each worker are separate processes started with the
``dask`` command of this environment (``--nthreads 1 --nworkers 1``), on
free ports, each in a session of its own so that a test can kill a worker
outright (``SIGKILL`` to its whole process group: the machine is gone). The
workers run in an empty folder with no ``PYTHONPATH``: they import cardtable
from their environment, as workers on other machines would. Every process
is stopped when the session ends, whatever happened.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

DASK = Path(sys.executable).with_name("dask")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _clean_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "CARDTABLE_DEBUG")}
    env["DASK_DISTRIBUTED__LOGGING__DISTRIBUTED"] = "error"
    return env


class Cluster:
    """A scheduler and its workers, each a process group of its own."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.workers: list[subprocess.Popen[bytes]] = []
        self.scheduler = self._spawn("scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                     "--no-dashboard")
        from distributed import Client

        self.client = Client(self.address, timeout=30, set_as_default=False)

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([str(DASK), *args], cwd=self.home, env=_clean_env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    def add_worker(self) -> None:
        self.workers.append(self._spawn("worker", self.address, "--nthreads", "1", "--nworkers", "1",
                                        "--host", "127.0.0.1", "--no-dashboard"))

    def alive(self) -> list[subprocess.Popen[bytes]]:
        return [worker for worker in self.workers if worker.poll() is None]

    def ensure_workers(self, count: int) -> None:
        while len(self.alive()) < count:
            self.add_worker()
        self.client.wait_for_workers(count, timeout=60)
        wait_for(lambda: len(self.client.scheduler_info()["workers"]) == count, 60, f"{count} workers")

    def kill_worker(self) -> None:
        """SIGKILL one worker's whole process group (nanny and worker)."""
        victim = self.alive()[0]
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        finally:
            for process in [*self.workers, self.scheduler]:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)


def cardtable(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """``cardtable ARGS`` in a process group of its own, in ``tmp_path``,
    with its data folder there."""
    env = {**_clean_env(), "CARDTABLE_DATA": str(tmp_path / "data")}
    return subprocess.Popen([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def finish(process: subprocess.Popen[str], timeout: float = 60) -> tuple[int, str, str]:
    stdout, stderr = process.communicate(timeout=timeout)
    return process.returncode, stdout, stderr


def unit_counts(store: Path, table: str) -> dict[int, int]:
    """How many rows each unit index has in ``table`` (read-only; {} before the store exists)."""
    if not store.is_file():
        return {}
    try:
        with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
            return dict(db.execute(f"SELECT idx, COUNT(*) FROM {table} GROUP BY idx"))
    except sqlite3.OperationalError:  # being created right now
        return {}


def run_status(store: Path, run: int) -> str:
    with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
        (status,) = db.execute("SELECT status FROM runs WHERE id = ?", (run,)).fetchone()
    return str(status)
