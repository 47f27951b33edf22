"""Fixtures of the cluster tests: one Dask scheduler for the session, and two
live workers for each test (see dask_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cluster.dask_helpers import Cluster


@pytest.fixture(scope="session")
def _cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    cluster = Cluster(tmp_path_factory.mktemp("dask-home"))
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def cluster(_cluster: Cluster) -> Cluster:
    """The session's cluster with two live workers."""
    _cluster.ensure_workers(2)
    return _cluster
