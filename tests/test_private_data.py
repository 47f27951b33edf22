"""No test touches the user's data folder: the session's data folder is a temporary one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardtable.runs.store import default_store_path


def test_the_session_keeps_its_data_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    data = Path(os.environ["CARDTABLE_DATA"])
    assert tmp_path_factory.getbasetemp() in data.parents
    assert default_store_path().is_relative_to(data)
