"""The results store as durable runs need it: each unit once, the options a
run needs to be finished, solved deals and Kings Corner hands, and stores
made by an older cardtable read as before and upgraded in place."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.errors import StoreError
from cardtable.klondike import Variant
from cardtable.runs.store import SCHEMA_VERSION, ResultsStore
from cardtable.sim.match import HandResult, run_hands
from cardtable.sim.runner import Batch, RunSpec, play_batch, run_games
from cardtable.solver.batch import from_store_row, store_row

DRAW1 = Variant.preset("draw1")


def _games(store: ResultsStore, run: int) -> list[tuple[int, bool, int, int]]:
    """(index, won, foundation, net) of every stored game of a run."""
    return [(index, bool(won), foundation, net) for index, _, won, foundation, net, *_ in store.units("games", run)]

#: A store as the first cardtable made it: no process columns, no params,
#: no points or moves per game, no played games, solves or hands, version 0.
_OLD_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, kind TEXT NOT NULL,
    strategy TEXT NOT NULL, variant TEXT NOT NULL, seed INTEGER, deals_file TEXT,
    games_requested INTEGER NOT NULL, games_played INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, summary TEXT);
CREATE TABLE games (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, deal TEXT,
    won INTEGER NOT NULL, foundation INTEGER NOT NULL, net INTEGER NOT NULL, moves INTEGER,
    PRIMARY KEY (run_id, idx));
INSERT INTO runs VALUES (1, '2026-01-01 10:00:00', 'simulate', 'priority', '{"name": "seed-002"}', 1, NULL,
    2, 2, 'finished', '{"games": 2}');
INSERT INTO games VALUES (1, 0, NULL, 0, 7, -17, NULL), (1, 1, NULL, 1, 52, 208, NULL);
"""


def _old_store(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.executescript(_OLD_SCHEMA)
    return path


def test_a_unit_stored_twice_is_kept_once(tmp_path: Path) -> None:
    spec = RunSpec("greedy", DRAW1, seed=3)
    games = play_batch(spec, range(6))
    with ResultsStore(tmp_path / "s.sqlite") as store:
        run = store.start_run(kind="simulate", game="klondike", rules="{}",
                              strategy="greedy", variant=DRAW1.options(), seed=3, deals_file=None,
                              games=6, params={"seed": 3})
        store.add_units("games", run, Batch.of(games[:4], keep_moves=True, keep_deals=True).rows(DRAW1))
        store.add_units("games", run, Batch.of(games[2:], keep_moves=True, keep_deals=True).rows(DRAW1))  # 2, 3 again
        assert store.run(run).games_played == 6
        batch = Batch.from_rows(store.units("games", run))
    assert batch.indices == list(range(6))
    assert batch.results(DRAW1) == games  # moves, deals and points come back as played
    with sqlite3.connect(tmp_path / "s.sqlite") as db, pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO games (run_id, idx, won, foundation, net) VALUES (1, 0, 0, 0, 0)")


def test_a_resumed_run_plays_only_the_missing_games(tmp_path: Path) -> None:
    spec = RunSpec("random", DRAW1, seed=11)
    whole = run_games(spec, 30, workers=1, chunk=7)
    stored = Batch.of([game for game in whole if game.index % 3 != 1], keep_moves=True, keep_deals=True)
    played: list[int] = []
    resumed = run_games(spec, 30, workers=1, chunk=4, done=stored,
                        on_batch=lambda batch: played.extend(batch.indices))
    assert sorted(played) == [index for index in range(30) if index % 3 == 1]
    assert list(resumed) == list(whole)


def test_solved_deals_and_hands_round_trip(tmp_path: Path) -> None:
    rows = [(0, {"deal": "7", "result": "won", "moves": ["D", "1>F"], "states": 12, "seconds": 0.5}),
            (2, {"deal": "9", "result": "unknown", "moves": [], "states": 99, "seconds": 1.25,
                 "reason": "the state budget ran out"})]
    hands = run_hands(["greedy", "random"], 5, seed=2, workers=1)
    with ResultsStore(tmp_path / "s.sqlite") as store:
        solve_run = store.start_run(kind="solve", game="klondike", rules="{}",
                                    strategy="solver", variant=DRAW1.options(), seed=None,
                                    deals_file="deals.txt", games=3, params={"timeout": None})
        store.add_units("solves", solve_run, [store_row(index, row) for index, row in rows])
        store.add_units("solves", solve_run, [store_row(index, row) for index, row in rows[:1]])
        match_run = store.start_run(kind="kings-corner", game="kings-corner", rules="{}",
                                    strategy="greedy,random", variant={"name": "kings-corner"},
                                    seed=2, deals_file=None, games=5, params={"players": "greedy,random"})
        store.add_units("hands", match_run, [hand.to_row() for hand in hands[3:]])
        store.add_units("hands", match_run, [hand.to_row() for hand in hands])
    with ResultsStore(tmp_path / "s.sqlite", create=False) as store:
        assert [from_store_row(row) for row in store.units("solves", solve_run)] == rows
        assert [HandResult.from_row(row) for row in store.units("hands", match_run)] == hands
        assert [run.games_played for run in store.runs()] == [5, 2]


def test_resume_run_checks_the_run(tmp_path: Path) -> None:
    with ResultsStore(tmp_path / "s.sqlite") as store:
        run = store.start_run(kind="solve", game="klondike", rules="{}",
                              strategy="solver", variant=DRAW1.options(), seed=None,
                              deals_file=None, games=1, params={"max_states": 10})
        with pytest.raises(StoreError, match=r"run 1 is still running \(process \d+ on "):
            store.resume_run(run, "solve")
        store.finish_run(run, "interrupted", {})
        with pytest.raises(StoreError, match="run 1 is a solve run, not a simulate run"):
            store.resume_run(run, "simulate")
        with pytest.raises(StoreError, match="no run 5 in"):
            store.resume_run(5, "solve")
        info, params = store.resume_run(run, "solve")
        assert (info.status, params) == ("running", {"max_states": 10})


def test_a_run_whose_process_was_killed_can_be_resumed(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    code = ("import sys; from cardtable.runs.store import ResultsStore; "
            f"s = ResultsStore({str(path)!r}); s.start_run(kind='simulate', game='klondike', rules='', "
            "strategy='greedy', variant={}, "
            "seed=1, deals_file=None, games=3, params={'seed': 1}); s.close()")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)  # its process is gone now
    with ResultsStore(path) as store:
        info, _ = store.resume_run(1, "simulate")
        assert info.status == "running"
        (pid,) = store._db.execute("SELECT pid FROM runs WHERE id = 1").fetchone()
        assert pid == os.getpid()


def test_an_old_store_reads_as_before_and_is_upgraded_in_place(tmp_path: Path) -> None:
    path = _old_store(tmp_path / "old.sqlite")
    before = path.read_bytes()
    with ResultsStore(path, create=False) as store:  # read-only: nothing changes
        assert [(run.id, run.status, run.games_played) for run in store.runs()] == [(1, "finished", 2)]
        assert _games(store, 1) == [(0, False, 7, -17), (1, True, 52, 208)]
        assert Batch.from_rows(store.units("games", 1)).foundation == [7, 52]
        assert store.units("solves", 1) == [] and store.units("hands", 1) == []
        assert store.run_params(1) is None
    assert path.read_bytes() == before
    with ResultsStore(path) as store:  # writable: upgraded, old rows kept
        assert _games(store, 1) == [(0, False, 7, -17), (1, True, 52, 208)]
        with pytest.raises(StoreError, match="stored by an older cardtable"):
            store.resume_run(1, "simulate")
        run = store.start_run(kind="simulate", game="klondike", rules="{}",
                              strategy="greedy", variant=DRAW1.options(), seed=1,
                              deals_file=None, games=2, params={"seed": 1})
        store.add_units("games", run, Batch.of(play_batch(RunSpec("greedy", DRAW1), range(2)), True, True).rows(DRAW1))
        assert store.run_params(run) == {"seed": 1}
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"runs", "games", "played", "solves", "hands"} <= tables
        detail = db.execute("SELECT detail FROM games WHERE run_id = 2 AND idx = 0").fetchone()[0]
        assert json.loads(detail) and all(isinstance(move, str) for move in json.loads(detail))


def test_resume_takes_the_runs_own_options_and_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.cli import main

    store, deals = str(tmp_path / "s.sqlite"), tmp_path / "deals.txt"
    deals.write_text("5\n6\n7\n")
    assert main(["simulate", "--strategy", "greedy", "--deals", str(deals), "--record", "0", "--store", store,
                 "--output", str(tmp_path / "a.jsonl"), "--workers", "1"]) == 0
    first = (tmp_path / "a.jsonl").read_text()
    capsys.readouterr()
    assert main(["simulate", "--resume", "1", "--store", store, "--games", "2"]) == 2
    assert "--games cannot be given with it" in capsys.readouterr().err
    (tmp_path / "a.jsonl").unlink()
    assert main(["simulate", "--resume", "1", "--store", store]) == 0  # nothing missing: the same output again
    assert "resumed run 1: 3 games were stored, 0 played now" in capsys.readouterr().out
    assert (tmp_path / "a.jsonl").read_text() == first
    deals.write_text("5\n6\n8\n")
    assert main(["simulate", "--resume", "1", "--store", store]) == 2
    assert "the deals file changed since run 1 started" in capsys.readouterr().err
    with ResultsStore(store, create=False) as db:
        assert db.run(1).status == "finished"


@pytest.mark.parametrize(("command", "kind"), [(["simulate"], "simulate"), (["solve"], "solve"),
                                               (["kings-corner", "match"], "kings-corner")])
def test_every_command_takes_up_a_run_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            command: list[str], kind: str) -> None:
    """``--resume`` on the three commands: with --no-store, with no store, and a run of another kind,
    which keeps the status it had."""
    from cardtable.cli import main

    store = tmp_path / "s.sqlite"
    assert main([*command, "--resume", "1", "--no-store"]) == 2
    assert "--no-store cannot be given with it" in capsys.readouterr().err
    assert main([*command, "--resume", "1", "--store", str(store)]) == 2
    assert f"{store}: no results store there" in capsys.readouterr().err
    with ResultsStore(store) as db:
        other = "solve" if kind != "solve" else "simulate"
        db.start_run(kind=other, game="klondike", rules="{}",
                     strategy="x", variant={}, seed=1, deals_file=None, games=1, params={})
        db.finish_run(1, "interrupted", {})
    assert main([*command, "--resume", "1", "--store", str(store)]) == 2
    assert f"run 1 is a {other} run, not a {kind} run" in capsys.readouterr().err
    with ResultsStore(store, create=False) as db:
        assert db.run(1).status == "interrupted"


def test_a_solve_batch_whose_deals_changed_keeps_its_status(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.cli import main

    store, deals = str(tmp_path / "s.sqlite"), tmp_path / "deals.txt"
    deals.write_text("5\n6\n")
    assert main(["solve", "--deals", str(deals), "--max-states", "1000", "--store", store, "--workers", "1",
                 "-o", str(tmp_path / "rows.jsonl")]) == 0
    deals.write_text("5\n7\n")
    capsys.readouterr()
    assert main(["solve", "--resume", "1", "--store", store]) == 2
    assert "the deals file changed since run 1 started" in capsys.readouterr().err
    with ResultsStore(store, create=False) as db:
        assert db.run(1).status == "finished"
