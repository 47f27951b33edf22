"""What the winnability studies' tests share: a study's JSON report run
in-process, the deals a store holds, and a study interrupted once it has
stored some deals."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run, start


def study_report(capsys: pytest.CaptureFixture[str], store: Path, *args: str) -> dict[str, Any]:
    """``cardtable study winnability --store STORE --json ARGS``'s report; the command must succeed."""
    code, out, err = run(capsys, "study", "winnability", "--store", str(store), "--json", "--no-progress", *args)
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    return report


def study_rows(store: Path) -> list[tuple[Any, ...]]:
    """Every stored deal of every study, with its row id and timestamp, read without writing."""
    with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
        return list(db.execute("SELECT rowid, rules, seed, budget, result, states, solved FROM study_deals"
                               " ORDER BY rowid"))


def stored_deals(store: Path, table: str = "study_deals") -> int:
    """How many deals ``store`` holds in ``table`` (a study's, or ``solves``: a batch's), 0 while it is not
    there or is being created."""
    if not store.is_file():
        return 0
    try:
        with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
            return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # being created right now
        return 0


def interrupt_once_stored(process: subprocess.Popen[str], store: Path, signum: int,
                          at_least: int = 5) -> tuple[str, str]:
    """Send ``signum`` to the study ``process`` (and its workers) once
    ``store`` holds ``at_least`` deals; its output, once it has ended with
    the status of that signal and no traceback."""
    deadline = time.monotonic() + 60
    while stored_deals(store) < at_least:
        assert process.poll() is None and time.monotonic() < deadline, "the study never got under way"
        time.sleep(0.02)
    os.killpg(process.pid, signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err
    return out, err


def carry_on(tmp_path: Path, command: tuple[str, ...], store: Path, deals: int) -> list[tuple[Any, ...]]:
    """Run an interrupted study's ``command`` of ``deals`` deals again: it
    solves only what the first run left, keeps the first run's rows as they
    were and ends with every deal from 1 answered. The rows the first run
    kept (for more checks of them)."""
    before = study_rows(store)
    kept = len(before)
    process = start(tmp_path, *command)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    report = json.loads(out)
    assert (report["solved_now"], report["from_store"], report["pending"]) == (deals - kept, kept, 0)
    after = study_rows(store)
    assert after[:kept] == before and sorted(row[2] for row in after) == list(range(1, deals + 1))
    return before
