"""Running the command line in-process for tests."""

from __future__ import annotations

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
