"""Shared test configuration.

Every test runs with ``CARDTABLE_DATA`` (and ``XDG_DATA_HOME``) pointing at a
temporary folder of the session, so no test, nor any command a test starts in
a subprocess, reads or writes the user's real data folder (results store,
played games, autosaves). A test that wants its own folder sets it again.

The fixture ``load_benchmark`` loads a script of ``benchmarks/`` as a module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

import _benchmarks
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "cardtable", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cardtable")


@pytest.fixture(scope="session", autouse=True)
def _private_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point the data folder at a temporary one for the whole session."""
    base = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDTABLE_DATA", str(base / "cardtable"))
        patch.setenv("XDG_DATA_HOME", str(base / "xdg"))
        yield


@pytest.fixture(scope="session")
def load_benchmark() -> Callable[[str], ModuleType]:
    """A loader of the scripts of ``benchmarks/``: ``load_benchmark("faults")``."""
    return _benchmarks.load_benchmark
