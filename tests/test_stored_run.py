"""A run's life through :class:`StoredRun`: started or taken up, its units
added, finished, or marked interrupted however its block ends; and the
command line, which leaves every step of that life to it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from cardtable.errors import StoreError, UsageError
from cardtable.runs.store import ResultsStore
from cardtable.runs.stored import StoredRun

CLI = Path(__file__).resolve().parent.parent / "cardtable" / "cli"

#: A store's run lifecycle and unit writes: the commands reach them only through StoredRun.
LIFECYCLE = {"start_run", "resume_run", "finish_run", "add_games", "add_solves", "add_hands", "add_units"}

HANDS: list[tuple[object, ...]] = [(0, "[0, 1]", 1, "[5, 0]", 14), (1, "[1, 0]", None, "[3, 3]", 40)]


def _start(path: Path) -> StoredRun:
    return StoredRun.start(path, table="hands", kind="kings-corner", game="kings-corner", rules="{}",
                           strategy="greedy,random",
                           variant={"name": "kings-corner", "players": 2}, seed=4, deals_file=None, units=3,
                           params={"players": "greedy,random", "games": 3})


def _status(path: Path, run: int = 1) -> tuple[str, int, dict[str, object] | None]:
    with ResultsStore(path, create=False) as store:
        info = store.run(run)
    return info.status, info.games_played, info.summary


def _resume(path: Path, run: int = 1, kind: str = "kings-corner",
            fit: Any = lambda params: None) -> StoredRun:
    return StoredRun.resume(path, run, table="hands", kind=kind, fit=fit)


def test_no_command_drives_a_run_itself() -> None:
    found: dict[str, set[str]] = {}
    users = set()
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LIFECYCLE:
                found.setdefault(path.name, set()).add(node.func.attr)
            if isinstance(node, ast.Name) and node.id == "StoredRun":
                users.add(path.name)
    assert not found, f"commands call a store's run lifecycle directly: {found}"
    assert {"simulate.py", "solve.py", "kings_corner.py"} <= users  # the scan sees the commands that store runs


def test_a_block_that_ends_in_an_exception_marks_the_run_interrupted_and_keeps_its_units(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with pytest.raises(KeyboardInterrupt), _start(path) as run:
        run.add(HANDS[:1])
        assert _status(path) == ("running", 1, None)
        raise KeyboardInterrupt
    assert _status(path) == ("interrupted", 1, {})
    with _resume(path) as again:
        assert (again.id, again.params, again.units()) == (1, {"players": "greedy,random", "games": 3}, HANDS[:1])
        again.add(HANDS)  # the stored hand again, and a new one
        again.finish({"games": 2})
    assert _status(path) == ("finished", 2, {"games": 2})


def test_after_finish_an_exception_leaves_the_run_as_finished(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with pytest.raises(BrokenPipeError), _start(path) as run:
        run.finish({"games": 0}, interrupted=True)
        raise BrokenPipeError
    assert _status(path) == ("interrupted", 0, {"games": 0})
    with _resume(path) as run:
        run.finish({"games": 3})
    assert _status(path) == ("finished", 0, {"games": 3})


def test_resume_says_why_a_run_cannot_be_taken_up(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with pytest.raises(StoreError, match=r"s\.sqlite: no results store there"):
        _resume(path)
    assert not path.exists()
    run = _start(path)
    with pytest.raises(StoreError, match=r"run 1 is still running \(process \d+ on .+\); stop it first"):
        _resume(path)
    run.finish({"games": 1}, interrupted=True)
    run.store.close()
    with pytest.raises(StoreError, match=r"^no run 2 in .*s\.sqlite$"):
        _resume(path, 2)
    with pytest.raises(StoreError, match=r"^run 1 is a kings-corner run, not a simulate run$"):
        _resume(path, kind="simulate")

    def unfit(params: dict[str, Any]) -> None:
        raise UsageError("the deals file changed")

    with pytest.raises(UsageError, match="the deals file changed"):
        _resume(path, fit=unfit)
    assert _status(path) == ("interrupted", 0, {"games": 1})  # as it was before


def test_the_resume_hint_names_the_command_and_the_store(tmp_path: Path) -> None:
    with _start(tmp_path / "s.sqlite") as run:
        assert run.resume_hint("kings-corner match", None) == "finish it with 'cardtable kings-corner match --resume 1'"
        assert run.resume_hint("simulate", "my runs.sqlite") == \
            "finish it with 'cardtable simulate --resume 1 --store 'my runs.sqlite''"
        run.finish({})
