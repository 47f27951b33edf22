"""Running the command line in-process for tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``cardtable ARGS``: (exit status, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """``cardtable ARGS`` as a process of its own (in a session of its own, so
    a signal reaches its workers too), run in ``tmp_path`` with
    ``tmp_path/data`` as its data folder; its output is piped."""
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    return subprocess.Popen([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
