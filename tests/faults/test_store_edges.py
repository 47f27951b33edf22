"""The results store at its edges, through the real commands: seeds past
SQLite's signed 64 bits, an empty ``--store``, a store on a read-only
mount (listed, shown and checked; refused in one line for writing), and an
output with no room (``/dev/full``), and a store whose disk fills, that
keep the store and its games."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from faults.fault_helpers import run
from faults.test_full_disk import SmallDisk, small_disk  # noqa: F401  (the fixture)

from cardtable.errors import StoreError
from cardtable.runs.store import ResultsStore

LARGEST_SEED = 2**64 - 1


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.parametrize("seed", [2**63, LARGEST_SEED - 1])
def test_a_seed_past_sqlites_signed_integers_is_stored_and_read_back(tmp_path: Path, seed: int) -> None:
    played = run(tmp_path, "simulate", "--games", "2", "--seed", str(seed), "--store", "s.sqlite", "--record", "1")
    assert played.returncode == 0, played.stderr
    assert f"Game 1 (seed {seed})" in played.stdout
    shown = run(tmp_path, "runs", "show", "1", "--store", "s.sqlite", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["seed"] == seed
    assert f"deals: seeds from {seed}" in run(tmp_path, "runs", "show", "1", "--store", "s.sqlite").stdout


def test_a_match_of_the_largest_seed_is_stored(tmp_path: Path) -> None:
    played = run(tmp_path, "kings-corner", "match", "--seed", str(LARGEST_SEED), "--games", "1", "--workers", "1",
                 "--store", "s.sqlite")
    assert played.returncode == 0, played.stderr
    [listed] = json.loads(run(tmp_path, "runs", "--store", "s.sqlite", "--json").stdout)
    assert listed["seed"] == LARGEST_SEED and listed["status"] == "finished"


def test_the_store_keeps_a_large_seed_as_its_64_bits(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with ResultsStore(path) as store:
        for seed in (0, 2**63 - 1, 2**63, LARGEST_SEED):
            store.start_run(kind="simulate", game="klondike", rules="{}",
                            strategy="priority", variant={}, seed=seed, deals_file=None, games=1)
    with ResultsStore(path, create=False) as store:
        assert [run.seed for run in reversed(store.runs())] == [0, 2**63 - 1, 2**63, LARGEST_SEED]
    with sqlite3.connect(path) as db:  # as an older cardtable, or any SQLite tool, reads them
        assert [seed for (seed,) in db.execute("SELECT seed FROM runs ORDER BY id")] == [0, 2**63 - 1, -2**63, -1]


@pytest.mark.parametrize("args", [("simulate", "--games", "1"), ("runs",), ("runs", "show", "1"), ("stats",),
                                  ("kings-corner", "match", "--games", "1")])
def test_an_empty_store_path_is_refused_not_taken_for_the_default(tmp_path: Path, args: tuple[str, ...]) -> None:
    refused = run(tmp_path, *args, "--store", "")
    assert refused.returncode == 2
    assert _one_line(refused.stderr) == "cardtable: error: --store: give the path of a results store, not an empty one"
    assert not (tmp_path / "data").exists()  # the default store was neither made nor read


@pytest.fixture
def read_only_store(tmp_path: Path) -> Iterator[Path]:
    """A store with one finished run, seen through a read-only bind mount
    (where this machine lets the test mount one; skipped otherwise)."""
    source, seen = tmp_path / "source", tmp_path / "read-only"
    source.mkdir()
    seen.mkdir()
    made = run(source, "simulate", "--games", "3", "--record", "0", "--store", "s.sqlite")
    assert made.returncode == 0, made.stderr
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root on Linux")
    for step in (["mount", "--bind", str(source), str(seen)], ["mount", "-o", "remount,bind,ro", str(seen)]):
        mounted = subprocess.run(step, capture_output=True, check=False)
        if mounted.returncode != 0:
            subprocess.run(["umount", "-l", str(seen)], capture_output=True, check=False)
            pytest.skip(f"cannot mount here: {mounted.stderr.decode().strip()}")
    try:
        yield seen / "s.sqlite"
    finally:
        subprocess.run(["umount", "-l", str(seen)], capture_output=True, check=False)


def test_a_store_on_a_read_only_mount_is_listed_shown_and_checked(tmp_path: Path, read_only_store: Path) -> None:
    store = str(read_only_store)
    listed = run(tmp_path, "runs", "--store", store, "--json")
    assert listed.returncode == 0, listed.stderr
    assert [(r["id"], r["status"], r["games_played"]) for r in json.loads(listed.stdout)] == [(1, "finished", 3)]
    assert run(tmp_path, "runs", "show", "1", "--store", store).returncode == 0
    checked = run(tmp_path, "runs", "check", "--store", store)
    assert (checked.returncode, checked.stdout) == (0, f"{store}: OK\n")
    assert run(tmp_path, "stats", "--store", store).returncode == 0
    refused = run(tmp_path, "simulate", "--games", "2", "--store", store)
    assert refused.returncode == 2
    assert _one_line(refused.stderr) == (f"cardtable: error: {store}: cannot write to the results store: its file "
                                         f"{store} is read-only (listing and showing its runs still work)")


def test_sqlite_read_only_cannot_open_it_but_the_store_reads_it_as_it_is(read_only_store: Path) -> None:
    plain = sqlite3.connect(f"{read_only_store.as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError, match="unable to open"):
        plain.execute("SELECT COUNT(*) FROM runs").fetchone()  # the WAL index cannot be made there
    plain.close()
    with ResultsStore(read_only_store, create=False) as store:
        assert [(run.id, run.games_played) for run in store.runs()] == [(1, 3)]
        assert len(store.units("games", 1)) == 3
    with pytest.raises(StoreError, match="read-only"):
        ResultsStore(read_only_store)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes whatever the modes say")
def test_a_read_only_file_in_a_read_only_folder_is_listed(tmp_path: Path) -> None:
    made = run(tmp_path, "simulate", "--games", "3", "--record", "0", "--store", "ro/s.sqlite")
    assert made.returncode == 0, made.stderr
    (tmp_path / "ro" / "s.sqlite").chmod(0o444)
    (tmp_path / "ro").chmod(0o555)
    try:
        listed = run(tmp_path, "runs", "--store", "ro/s.sqlite", "--json")
        assert listed.returncode == 0, listed.stderr
        assert [r["id"] for r in json.loads(listed.stdout)] == [1]
    finally:
        (tmp_path / "ro").chmod(0o755)


def test_an_output_with_no_room_is_one_line_and_keeps_the_store(tmp_path: Path) -> None:
    failed = run(tmp_path, "simulate", "--games", "300", "--workers", "1", "--record", "0", "--store", "s.sqlite",
                 "--output", "/dev/full")
    assert failed.returncode == 2
    assert _one_line(failed.stderr) == ("cardtable: error: /dev/full: no room left on the disk (the old file, if any, "
                                        "is kept); finish it with 'cardtable simulate --resume 1 --store s.sqlite'")
    [listed] = json.loads(run(tmp_path, "runs", "--store", "s.sqlite", "--json").stdout)
    assert (listed["status"], listed["games_played"]) == ("interrupted", 300)
    assert run(tmp_path, "runs", "check", "--store", "s.sqlite").returncode == 0


def test_a_simulation_whose_store_fills_keeps_its_games_and_resumes(
        tmp_path: Path, small_disk: SmallDisk) -> None:  # noqa: F811  (the fixture imported above)
    small_disk.resize("224k")  # room for the store and its first blocks of games, with their moves
    store = small_disk.folder / "results.sqlite"
    games = ("simulate", "--games", "1200", "--no-fast", "--workers", "1", "--record", "1200", "--json")
    full = run(tmp_path, *games, "--store", str(store))
    assert full.returncode == 2
    assert _one_line(full.stderr) == (f"cardtable: error: {store}: cannot store games: database or disk is full; "
                                      f"finish it with 'cardtable simulate --resume 1 --store {store}'")
    assert run(tmp_path, "runs", "check", "--store", str(store)).returncode == 0
    with ResultsStore(store, create=False) as opened:
        assert 0 < opened.run(1).games_played < 1200 and opened.run(1).status == "interrupted"
    small_disk.make_room()
    resumed = run(tmp_path, "simulate", "--resume", "1", "--store", str(store), "--json")
    unbroken = run(tmp_path, *games, "--no-store")
    assert resumed.returncode == 0 and unbroken.returncode == 0, resumed.stderr
    got, whole = json.loads(resumed.stdout), json.loads(unbroken.stdout)
    for report in (got, whole):
        report.pop("games_per_second"), report.pop("seconds", None), report.pop("run")
    assert got == whole
