"""A results store written by the schema-6 cardtable (``tests/data/store_v6``,
made by commit 36b0fd6's code) is upgraded in place to runs, games, hands and
studies keyed by game and rules, and played games with their foundation
total, result and record, with nothing lost: every figure it gave reads
back the same, read-only before the upgrade and after it; an interrupted
upgrade leaves it as it was; a store of a newer schema is refused in one line."""

from __future__ import annotations

import itertools
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from store_figures import figures

from cardtable.errors import StoreError
from cardtable.klondike import Variant
from cardtable.runs import store as store_module
from cardtable.runs.store import SCHEMA_VERSION, ResultsStore

FIXTURE = Path(__file__).resolve().parent / "data" / "store_v6"
EXPECTED: dict[str, Any] = json.loads((FIXTURE / "figures.json").read_text())
#: A store written by the schema-7 cardtable (commit cb56883's code: the schema-6 store above upgraded,
#: and two daily Klondike games played), with the figures that code read from it.
FIXTURE_7 = FIXTURE.parent / "store_v7"


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite"
    shutil.copyfile(FIXTURE / "results.sqlite", path)
    return path


def _without_keys(found: dict[str, Any]) -> dict[str, Any]:
    """``found`` with the game and rules that ``runs --json`` now lists beside each run (all else as before)."""
    for name, command in found["commands"].items():
        if name.startswith("runs") and "--json" in name:
            listed = json.loads(command["out"])
            for entry in listed:
                assert set(entry) >= {"game", "rules"}
                del entry["game"], entry["rules"]
            command["out"] = json.dumps(listed, indent=1) + "\n"
    return _without_played_fields(found)


def _without_played_fields(found: dict[str, Any]) -> dict[str, Any]:
    """``found`` with the fields a played game gained in schema 8 checked and taken out (all else as before)."""
    for name, games in found.items():
        if name.startswith("played_games"):
            for game in games:  # a played game now names its game, foundation total, result and record
                assert (game.pop("game"), game.pop("rules"), game.pop("total"), game.pop("record")) \
                    == ("klondike", "", 52, None)
                assert game.pop("result") == ("won" if game["won"] else "abandoned")
    return found


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        lines = list(db.iterdump())
    db.close()
    return lines


def test_the_old_store_reads_the_same_before_and_after_its_upgrade(old_store: Path) -> None:
    before = old_store.read_bytes()
    assert _without_keys(figures(old_store)) == EXPECTED  # read-only: as schema 6 read it
    assert old_store.read_bytes() == before  # and nothing changed
    ResultsStore(old_store).close()  # opened for writing: upgraded
    with sqlite3.connect(old_store) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (8,)
    db.close()
    assert _without_keys(figures(old_store)) == EXPECTED
    ResultsStore(old_store).close()  # a second opening changes nothing
    assert _without_keys(figures(old_store)) == EXPECTED


def test_every_old_row_is_klondikes_under_its_variants_rules_or_kings_corners(old_store: Path) -> None:
    ResultsStore(old_store).close()
    with sqlite3.connect(old_store) as db:
        runs = db.execute("SELECT kind, variant, game, rules FROM runs ORDER BY id").fetchall()
        played = db.execute("SELECT options, game, rules FROM played ORDER BY id").fetchall()
        hands = db.execute("SELECT DISTINCT game, rules FROM played_hands").fetchall()
        study_keys = db.execute("SELECT DISTINCT game, rules FROM study_deals UNION "
                                "SELECT DISTINCT game, rules FROM studies").fetchall()
        plan = db.execute("EXPLAIN QUERY PLAN SELECT id FROM runs WHERE game = 'klondike' AND rules = '{}' "
                          "ORDER BY id").fetchall()
    db.close()
    assert [kind for kind, *_ in runs] == ["simulate", "simulate", "simulate", "solve", "kings-corner", "simulate"]
    for kind, variant, game, rules in runs:
        if kind == "kings-corner":
            assert (game, rules) == ("kings-corner", "{}")
        else:
            assert (game, rules) == Variant.from_options(json.loads(variant)).game_key
    assert {rules for _, _, rules in played} == {Variant.from_options(json.loads(options)).winnability_key
                                                 for options, _, _ in played}
    assert all((game, rules) == Variant.from_options(json.loads(options)).game_key for options, game, rules in played)
    assert hands == [("kings-corner", "{}")]
    assert {game for game, _ in study_keys} == {"klondike"}
    assert {rules for _, rules in study_keys} == {info["rules"] for info in EXPECTED["studies"]}
    assert any("runs_by_game" in str(step) for step in plan), plan


def test_the_old_interrupted_run_is_finished_by_this_cardtable(old_store: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--resume", "7", "--store", str(old_store), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 400 and not summary["interrupted"]
    with ResultsStore(old_store, create=False) as store:
        info = store.run(7)
        assert (info.status, info.games_played, info.game) == ("finished", 400, "klondike")
        assert store.units("games", 7)[:300] == [tuple(row) for row in EXPECTED["units"]["games 7"]]
    # the same games as a run of 400 made now
    code, out, _ = run(capsys, "simulate", "--games", "400", "--seed", "900", "--strategy", "greedy", "--no-fast",
                       "--workers", "1", "--record", "0", "--json", "--store", str(tmp_path / "new.sqlite"))
    assert code == 0 and json.loads(out)["won"] == summary["won"]


@pytest.mark.parametrize("draw, passes, empty, foundation_return", itertools.product(
    (1, 3), (None, 1, 2, 3), ("king", "any"), (False, True)))
def test_the_upgrade_keys_an_old_row_as_klondike_keys_its_rules(draw: int, passes: int | None, empty: str,
                                                                 foundation_return: bool) -> None:
    for scoring in ("none", "standard", "vegas"):
        variant = Variant(draw=draw, passes=passes, empty=empty, foundation_return=foundation_return).replace(
            scoring=scoring)
        options = json.dumps(variant.options())
        assert store_module._legacy_klondike_rules(options) == variant.winnability_key == variant.game_key[1]
    assert store_module._legacy_klondike_rules("not json") == "not json"  # kept apart, not lost


def test_an_interrupted_upgrade_leaves_the_store_as_it_was(old_store: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rekey = ResultsStore._rekey

    def rekey_then_stop(self: ResultsStore, table: str, columns: set[str]) -> None:
        rekey(self, table, columns)
        if table == "studies":  # the last step that rewrites anything: Ctrl-C here
            raise KeyboardInterrupt

    before = _dump(old_store)
    monkeypatch.setattr(ResultsStore, "_rekey", rekey_then_stop)
    with pytest.raises(KeyboardInterrupt):
        ResultsStore(old_store)
    assert _dump(old_store) == before
    monkeypatch.undo()
    assert _without_keys(figures(old_store)) == EXPECTED
    ResultsStore(old_store).close()
    assert _without_keys(figures(old_store)) == EXPECTED


def test_a_store_of_a_newer_schema_is_refused_in_one_line(old_store: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    ResultsStore(old_store).close()
    with sqlite3.connect(old_store) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = _dump(old_store)
    message = (f"{old_store}: the results store was written by a newer cardtable (schema version "
               f"{SCHEMA_VERSION + 1}; this one reads up to {SCHEMA_VERSION}): upgrade cardtable to use it")
    for args in (("runs",), ("stats",), ("study", "show"), ("simulate", "--games", "2", "--record", "0"),
                 ("simulate", "--game", "golf", "--games", "2"), ("simulate", "--resume", "7"),
                 ("runs", "--game", "freecell")):
        code, out, err = run(capsys, *args, "--store", str(old_store))
        assert (code, out, err) == (2, "", f"cardtable: error: {message}\n"), args
    for create in (True, False):
        with pytest.raises(StoreError, match="newer cardtable"):
            ResultsStore(old_store, create=create)
    assert _dump(old_store) == before


def test_a_file_of_another_program_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.close()
    before = path.read_bytes()
    for args in (("runs",), ("simulate", "--games", "2"), ("stats",),
                 ("simulate", "--game", "freecell", "--games", "2"), ("simulate", "--resume", "1"),
                 ("stats", "--game", "klondike:draw-3")):
        code, out, err = run(capsys, *args, "--store", str(path))
        assert (code, out) == (2, "") and err == (f"cardtable: error: {path}: not a cardtable results store (it has "
                                                  "no runs and games tables)\n"), args
    assert path.read_bytes() == before


def test_a_schema_7_store_reads_the_same_after_its_upgrade_its_games_out_of_52_won_or_abandoned(
        tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    shutil.copyfile(FIXTURE_7 / "results.sqlite", path)
    expected = json.loads((FIXTURE_7 / "figures.json").read_text())
    before = path.read_bytes()
    assert _without_played_fields(figures(path)) == expected  # read-only: as schema 7 read it
    assert path.read_bytes() == before
    ResultsStore(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (8,)
        rows = db.execute("SELECT won, total, result, record FROM played ORDER BY id").fetchall()
        assert db.execute("SELECT COUNT(*) FROM played_before").fetchone() == (0,)
    db.close()
    assert len(rows) == len(expected["played_games None"]) + len(expected["played_games alice-0123456789ab"]) \
        + len(expected["played_games bob-0123456789abcd"]) > 2
    assert rows == [(won, 52, "won" if won else "abandoned", None) for won, *_ in rows]
    assert _without_played_fields(figures(path)) == expected
    ResultsStore(path).close()  # a second opening changes nothing
    assert _without_played_fields(figures(path)) == expected
