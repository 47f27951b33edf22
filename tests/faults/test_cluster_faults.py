"""A Dask cluster that fails the run: every worker gone mid-run, and an
address where something else than a Dask scheduler answers. Neither hangs:
the first is waited on for ``--cluster-timeout`` seconds, said on stderr,
and stopped with its work kept; the second fails in one line at once."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from cluster.dask_helpers import Cluster
from faults.fault_helpers import finish, start
from test_signals import _store_rows, _wait_for


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    home = tmp_path / "dask"
    home.mkdir()
    cluster = Cluster(home)
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_cluster_that_loses_every_worker_stops_the_run_after_its_timeout(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers(1)
    process = start(tmp_path, "simulate", "--games", "3000000", "--no-fast", "--record", "0", "--no-progress",
                    "--cluster", cluster.address, "--cluster-timeout", "3")
    _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)), timeout=60)
    cluster.kill_worker()
    _, stderr = finish(process, timeout=30)
    assert process.returncode == 2, stderr
    [(run, status, played)] = _store_rows(tmp_path)
    assert status == "interrupted" and played > 0
    lines = stderr.strip().splitlines()
    assert lines[0].startswith("cardtable: no Dask worker for ") and "--cluster-timeout" in lines[0]
    assert lines[-1] == (f"cardtable: error: the Dask cluster at {cluster.address} has had no worker for 3 s; "
                         f"gave up waiting; finish it with 'cardtable simulate --resume {run}'")


def test_an_address_where_no_dask_scheduler_answers_is_one_line(tmp_path: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def talk() -> None:  # another service's greeting, as an SSH server sends first
        with listener:
            while True:
                try:
                    conversation, _ = listener.accept()
                except OSError:
                    return
                with conversation:
                    conversation.sendall(b"SSH-2.0-OpenSSH_9.6\r\n" * 4)

    threading.Thread(target=talk, daemon=True).start()
    try:
        process = start(tmp_path, "simulate", "--games", "10", "--cluster", f"tcp://127.0.0.1:{port}")
        _, stderr = finish(process, timeout=30)
    finally:
        listener.close()
    assert process.returncode == 2
    assert stderr == (f"cardtable: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 10 s: "
                      "what answered does not speak Dask's protocol (MemoryError)\n")


def test_a_result_already_gathered_survives_its_worker_dying(cluster: Cluster) -> None:
    """The race behind a run that said "lost the Dask scheduler" when only its
    last worker died: a result arrives, then the worker that held it is killed,
    the scheduler forgets the key and the future turns back to pending. The
    result in hand is still the result."""
    from distributed import as_completed

    from cardtable.runs.cluster import DaskExecutor

    cluster.ensure_workers(1)
    with DaskExecutor(cluster.address, idle_timeout=3) as executor:
        client = executor._client
        future = client.submit(abs, -7, pure=False)
        [(arrived, result)] = list(as_completed([future], with_results=True, raise_errors=False, loop=client.loop))
        cluster.kill_worker()
        _wait_for(lambda: arrived.status != "finished", timeout=30)
        began = time.monotonic()
        assert executor._result(arrived, result) == 7
        assert time.monotonic() - began < 1
