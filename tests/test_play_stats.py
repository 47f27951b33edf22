"""A person's played games in the results store, their statistics per
variant, and ``cardtable stats``."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest

from cardtable.cli import stats as stats_cli
from cardtable.errors import StoreError, UsageError
from cardtable.klondike.variant import Variant, VariantError
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import (
    PlayedGame,
    PlayedHand,
    PlayStats,
    hand_stats,
    kings_corner_label,
    play_stats,
    played_games,
    played_hands,
    record_hand,
    record_played,
)

DRAW1 = Variant.preset("draw1")
THOUGHTFUL3 = Variant.preset("thoughtful3")
CUSTOM = DRAW1.replace(passes=3)
CUSTOM_LABEL = "custom: draw 1, 3 passes, kings in empty piles, no foundation return, no scoring"

#: The store's tables as they were before played games were kept.
OLD_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, kind TEXT NOT NULL,
    strategy TEXT NOT NULL, variant TEXT NOT NULL, seed INTEGER, deals_file TEXT, games_requested INTEGER NOT NULL,
    games_played INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, summary TEXT);
CREATE TABLE games (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, deal TEXT,
    won INTEGER NOT NULL, foundation INTEGER NOT NULL, net INTEGER NOT NULL, moves INTEGER,
    PRIMARY KEY (run_id, idx));
INSERT INTO runs (created, kind, strategy, variant, games_requested, status)
    VALUES ('2026-01-01 10:00:00', 'simulate', 'priority', '{"name": "seed-002"}', 10, 'running');
"""


def old_store(folder: Path) -> Path:
    """A store as it was before played games were kept (``old.sqlite`` in ``folder``)."""
    path = folder / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    db.close()
    return path


def game(variant: Variant, won: bool, seconds: float, moves: int, start: str = "seed 1") -> PlayedGame:
    return PlayedGame.of(variant, start=start, won=won, seconds=seconds, moves=moves, foundation=52 if won else 9)


#: (variant, won, seconds, moves), oldest first; the losses are quicker and shorter than any win,
#: so a figure taken over every game rather than over the wins would show.
SEQUENCE = [
    (DRAW1, True, 300.0, 150), (THOUGHTFUL3, False, 40.0, 12), (DRAW1, False, 20.0, 10),
    (DRAW1, True, 250.5, 140), (DRAW1, True, 400.0, 118), (THOUGHTFUL3, True, 610.0, 230),
    (DRAW1, True, 280.0, 160), (DRAW1, True, 260.0, 155), (DRAW1, False, 5.0, 3), (THOUGHTFUL3, False, 15.0, 6),
    (DRAW1, True, 500.0, 200), (DRAW1, True, 275.0, 170), (CUSTOM, False, 60.0, 30),
]


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite"
    with ResultsStore(path) as store:
        for variant, won, seconds, moves in SEQUENCE:
            record_played(store, game(variant, won, seconds, moves))
    return path


def stats_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable")
    stats_cli.register(parser.add_subparsers())
    return parser


def run_stats(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    args = stats_parser().parse_args(["stats", *argv])
    assert args.func(args) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


# ----- the store -----------------------------------------------------------------------------------


def test_every_figure_per_variant(store_path: Path) -> None:
    with ResultsStore(store_path, create=False) as store:
        custom, draw1, thoughtful3 = play_stats(store)
        assert draw1 == PlayStats("draw1", played=9, won=7, win_rate=7 / 9, current_streak=2, best_streak=4,
                                  best_seconds=250.5, fewest_moves=118)
        assert thoughtful3 == PlayStats("thoughtful3", played=3, won=1, win_rate=1 / 3, current_streak=0,
                                        best_streak=1, best_seconds=610.0, fewest_moves=230)
        assert custom == PlayStats(CUSTOM_LABEL, played=1, won=0, win_rate=0.0, current_streak=0, best_streak=0,
                                   best_seconds=None, fewest_moves=None)
        assert play_stats(store, "draw1") == [draw1]
        assert play_stats(store, CUSTOM_LABEL) == [custom]
        assert play_stats(store, "draw3") == [PlayStats("draw3", 0, 0, 0.0, 0, 0, None, None)]
    assert draw1.to_dict() == {"variant": "draw1", "played": 9, "won": 7, "win_rate": 7 / 9, "current_streak": 2,
                               "best_streak": 4, "best_seconds": 250.5, "fewest_moves": 118}


def test_a_streak_runs_to_the_latest_game(tmp_path: Path) -> None:
    with ResultsStore(tmp_path / "s.sqlite") as store:
        record_played(store, game(DRAW1, True, 100.0, 90))
        assert [(s.current_streak, s.best_streak) for s in play_stats(store)] == [(1, 1)]
        record_played(store, game(DRAW1, False, 100.0, 90))
        assert [(s.current_streak, s.best_streak) for s in play_stats(store)] == [(0, 1)]
        record_played(store, game(THOUGHTFUL3, True, 100.0, 90))  # another variant's win is no part of it
        assert [(s.current_streak, s.best_streak) for s in play_stats(store, "draw1")] == [(0, 1)]
        for _ in range(3):
            record_played(store, game(DRAW1, True, 100.0, 90))
        assert [(s.current_streak, s.best_streak) for s in play_stats(store, "draw1")] == [(3, 3)]


def test_played_games_come_back_as_recorded(tmp_path: Path) -> None:
    with ResultsStore(tmp_path / "s.sqlite") as store:
        record_played(store, game(CUSTOM, False, 12.25, 7, start="deal-string"))
        record_played(store, PlayedGame.of(DRAW1, start="seed 9", won=True, seconds=99.0, moves=101, foundation=52,
                                          finished="2026-11-01 12:00:00"))
        first, second = played_games(store)
        assert played_games(store, "draw1") == [second]
    assert (first.variant, first.start, first.won, first.seconds, first.moves, first.foundation) == \
        (CUSTOM_LABEL, "deal-string", False, 12.25, 7, 9)
    assert Variant.from_options(first.options) == CUSTOM
    assert len(first.finished) == len("2026-11-01 12:00:00") and first.finished[4] == "-"  # stamped by the store
    assert second.finished == "2026-11-01 12:00:00"


def test_each_player_has_their_own_games_and_figures(tmp_path: Path) -> None:
    # The browser table's players and the terminal app's person (no player) are kept apart.
    with ResultsStore(tmp_path / "s.sqlite") as store:
        record_played(store, game(DRAW1, True, 100.0, 90))
        record_played(store, game(DRAW1, False, 20.0, 9), player="alice-0123456789ab")
        record_played(store, game(DRAW1, True, 80.0, 120), player="alice-0123456789ab")
        record_played(store, game(DRAW1, True, 60.0, 100), player="bob-0123456789abcd")
        mine, = play_stats(store)
        alice, = play_stats(store, player="alice-0123456789ab")
        bob, = play_stats(store, "draw1", player="bob-0123456789abcd")
        assert [g.moves for g in played_games(store, player="alice-0123456789ab")] == [9, 120]
        assert play_stats(store, player="nobody-0123456789ab") == []
    assert (mine.played, mine.won, mine.fewest_moves) == (1, 1, 90)
    assert (alice.played, alice.won, alice.win_rate, alice.best_seconds, alice.current_streak) == (2, 1, 0.5, 80.0, 1)
    assert (bob.played, bob.won, bob.best_seconds) == (1, 1, 60.0)


def test_a_store_of_version_5_gains_the_player_column_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "v5.sqlite"
    with ResultsStore(path) as store:
        record_played(store, game(DRAW1, True, 100.0, 90))
    with sqlite3.connect(path) as db:  # as cardtable 5 left it: no player column
        db.execute("DROP INDEX played_by_player")
        db.execute("ALTER TABLE played DROP COLUMN player")
        db.execute("PRAGMA user_version = 5")
    db.close()
    with ResultsStore(path, create=False) as store:  # read-only: every game is the terminal's person's
        assert "player" not in store.columns("played")
        assert [s.played for s in play_stats(store)] == [1]
        assert play_stats(store, player="alice-0123456789ab") == []
    with ResultsStore(path) as store:
        record_played(store, game(DRAW1, False, 5.0, 3), player="alice-0123456789ab")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (8,)
        assert db.execute("SELECT player FROM played ORDER BY id").fetchall() == [(None,), ("alice-0123456789ab",)]
        plan = db.execute("EXPLAIN QUERY PLAN SELECT won FROM played WHERE player = 'a' ORDER BY id").fetchall()
        assert any("played_by_player" in str(step) for step in plan), plan  # one player's games, by index
    db.close()
    with ResultsStore(path, create=False) as store:
        assert [s.played for s in play_stats(store)] == [1]
        assert [s.played for s in play_stats(store, player="alice-0123456789ab")] == [1]


def test_variant_labels() -> None:
    assert DRAW1.label == "draw1"
    assert Variant.preset("seed-002").label == "seed-002"
    assert CUSTOM.label == CUSTOM_LABEL
    # A preset's name on other rules, or a preset's rules under another name, is custom.
    assert Variant(name="draw1", draw=3).label == f"custom: {Variant(draw=3).describe()}"
    assert Variant().label == f"custom: {DRAW1.describe()}"
    assert game(CUSTOM, True, 1.0, 1).options == CUSTOM.options()


@pytest.mark.parametrize("changes", [
    {"moves": -1}, {"moves": 2.5}, {"foundation": 53}, {"foundation": -1}, {"seconds": -0.5},
    {"seconds": float("nan")}, {"won": True, "foundation": 51}, {"won": False, "foundation": 52}, {"variant": ""},
    {"options": {"name": object()}},
])
def test_a_played_game_that_cannot_be_is_refused(changes: dict[str, object]) -> None:
    fields: dict[str, object] = {"variant": "draw1", "options": DRAW1.options(), "start": "seed 1", "won": False,
                                 "seconds": 10.0, "moves": 5, "foundation": 7, **changes}
    with pytest.raises(ValueError):
        PlayedGame(**fields)  # type: ignore[arg-type]


def test_an_old_store_read_only_has_no_played_games_and_stays_unchanged(tmp_path: Path) -> None:
    path = old_store(tmp_path)
    before = path.read_bytes()
    with ResultsStore(path, create=False) as store:
        assert play_stats(store) == []
        assert played_games(store) == []
        assert [s.played for s in play_stats(store, "draw1")] == [0]
        with pytest.raises(StoreError, match=r"old\.sqlite: cannot record a played game"):
            record_played(store, game(DRAW1, True, 1.0, 1))
        assert [run.strategy for run in store.runs()] == ["priority"]
    assert path.read_bytes() == before
    # Opened for writing, it gains the table and keeps its runs.
    with ResultsStore(path) as store:
        record_played(store, game(DRAW1, True, 1.0, 1))
    with ResultsStore(path, create=False) as store:
        assert [(s.variant, s.played) for s in play_stats(store)] == [("draw1", 1)]
        assert [run.strategy for run in store.runs()] == ["priority"]


def test_a_read_only_store_with_the_table_refuses_to_record(store_path: Path) -> None:
    before = store_path.read_bytes()
    with ResultsStore(store_path, create=False) as store, \
            pytest.raises(StoreError, match=r"results\.sqlite: cannot record a played game"):
        record_played(store, game(DRAW1, True, 1.0, 1))
    assert store_path.read_bytes() == before


def test_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    for create in (True, False):
        with pytest.raises(StoreError, match=r"notes\.txt"):
            ResultsStore(text, create=create)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE birds (name TEXT)")
    db.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match=r"other\.sqlite: not a cardtable results store"):
        ResultsStore(other)
    assert other.read_bytes() == before
    assert text.read_text() == "not a database\n" * 100


# ----- cardtable stats -----------------------------------------------------------------------------


def test_stats_table(store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = store_path.read_bytes()
    lines = run_stats(capsys, "--store", str(store_path)).splitlines()
    assert lines[0].split() == ["played", "won", "win", "rate", "streak", "best", "streak", "best", "time",
                                "fewest", "moves", "variant"]
    assert set(lines[1]) == {"-"}
    assert [line.split(maxsplit=7) for line in lines[2:]] == [
        ["1", "0", "0.0%", "0", "0", "-", "-", CUSTOM_LABEL],
        ["9", "7", "77.8%", "2", "4", "4:10", "118", "draw1: Klondike (draw 1)"],
        ["3", "1", "33.3%", "0", "1", "10:10", "230", "thoughtful3: Klondike, cards come back (draw 3)"],
    ]
    assert store_path.read_bytes() == before


def test_stats_of_one_variant(store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = run_stats(capsys, "--store", str(store_path), "--variant", "thoughtful3").splitlines()
    assert len(lines) == 3 and lines[2].endswith("  thoughtful3: Klondike, cards come back (draw 3)")
    # A custom variant by its preset and flags, or by its label as listed.
    for argv in (["--variant", "draw1", "--passes", "3"], ["--variant", CUSTOM_LABEL]):
        lines = run_stats(capsys, "--store", str(store_path), *argv).splitlines()
        assert len(lines) == 3 and lines[2].endswith(f"  {CUSTOM_LABEL}")
    assert run_stats(capsys, "--store", str(store_path), "--variant", "draw3") == "no games of draw3 played yet\n"


def test_stats_json(store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run_stats(capsys, "--store", str(store_path), "--json"))
    assert [row["variant"] for row in data] == [CUSTOM_LABEL, "draw1", "thoughtful3"]
    assert data[1] == {"variant": "draw1", "played": 9, "won": 7, "win_rate": 7 / 9, "current_streak": 2,
                       "best_streak": 4, "best_seconds": 250.5, "fewest_moves": 118, "daily_days": 0, "daily_won": 0,
                       "daily_streak": 0, "best_daily_streak": 0}
    assert data[0]["best_seconds"] is None and data[0]["fewest_moves"] is None
    data = json.loads(run_stats(capsys, "--store", str(store_path), "--json", "--variant", "draw1"))
    assert [row["variant"] for row in data] == ["draw1"]
    assert json.loads(run_stats(capsys, "--store", str(store_path), "--json", "--variant", "vegas1")) == []


def test_stats_without_a_store_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nowhere" / "results.sqlite"
    assert run_stats(capsys, "--store", str(missing)) == f"no games played yet ({missing} does not exist)\n"
    assert json.loads(run_stats(capsys, "--store", str(missing), "--json")) == []
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    assert run_stats(capsys).startswith("no games played yet")
    assert list(tmp_path.iterdir()) == []


def test_stats_of_an_old_store_and_of_one_without_played_games(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    old = old_store(tmp_path)
    before = old.read_bytes()
    assert run_stats(capsys, "--store", str(old)) == "no games played yet\n"
    assert json.loads(run_stats(capsys, "--store", str(old), "--json")) == []
    assert old.read_bytes() == before
    fresh = tmp_path / "fresh.sqlite"
    ResultsStore(fresh).close()
    assert run_stats(capsys, "--store", str(fresh)) == "no games played yet\n"


def test_stats_bad_input(store_path: Path, tmp_path: Path) -> None:
    parser = stats_parser()

    def call(*argv: str) -> None:
        args = parser.parse_args(["stats", *argv])
        args.func(args)

    with pytest.raises(VariantError, match="unknown variant 'drawone'"):
        call("--store", str(store_path), "--variant", "drawone")
    with pytest.raises(VariantError, match="unknown variant 'drawone'"):
        call("--store", str(tmp_path / "missing.sqlite"), "--variant", "drawone")
    with pytest.raises(UsageError, match="--passes changes a variant: name it too"):
        call("--store", str(store_path), "--passes", "3")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    with pytest.raises(StoreError, match=r"notes\.txt"):
        call("--store", str(notes))
    assert notes.read_text() == "not a database\n" * 100


# ----- Kings Corner hands --------------------------------------------------------------------------

TABLE = kings_corner_label(3, "strategic", 25)


def hand(number: int, won: bool, penalty: int, match_won: bool | None = None, label: str = TABLE) -> PlayedHand:
    return PlayedHand(label, "77", number, won, penalty, 30.0 + number, match_won)


@pytest.fixture
def hands_path(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite"
    with ResultsStore(path) as store:
        # match 1: three hands, won; match 2: two hands, lost; match 3: one hand so far (not finished)
        for played in (hand(1, True, 0), hand(2, False, 12), hand(3, True, 0, True),
                       hand(1, False, 3), hand(2, False, 20, False), hand(1, True, 0),
                       hand(1, False, 4, True, kings_corner_label(1, "greedy", 10))):
            record_hand(store, played)
    return path


def test_hand_statistics_per_table(hands_path: Path) -> None:
    with ResultsStore(hands_path, create=False) as store:
        stats = {s.label: s for s in hand_stats(store)}
        again = played_hands(store, TABLE)
    assert list(stats) == ["1 greedy bot, to 10 points", "3 strategic bots, to 25 points"]
    mine = stats[TABLE]
    assert (mine.hands, mine.hands_won, mine.matches, mine.matches_won) == (6, 3, 2, 1)
    assert mine.mean_penalty == pytest.approx(35 / 6) and mine.match_win_rate == 0.5
    assert (mine.current_streak, mine.best_streak) == (0, 1)
    assert [h.hand for h in again] == [1, 2, 3, 1, 2, 1] and again[2].match_won is True and again[0].finished


@pytest.mark.parametrize("changes", [{"hand": 0}, {"penalty": -1}, {"label": ""}, {"seconds": float("nan")},
                                     {"won": True, "penalty": 3}])
def test_a_played_hand_that_cannot_be_is_refused(changes: dict[str, object]) -> None:
    fields: dict[str, object] = {"label": TABLE, "match_seed": "1", "hand": 1, "won": False, "penalty": 2,
                                 "seconds": 1.0, **changes}
    with pytest.raises(ValueError):
        PlayedHand(**fields)  # type: ignore[arg-type]


def test_an_older_store_gains_the_hands_table_when_written(tmp_path: Path) -> None:
    path = old_store(tmp_path)
    with ResultsStore(path, create=False) as store:
        assert hand_stats(store) == []
        with pytest.raises(StoreError, match="cannot record a played hand"):
            record_hand(store, hand(1, True, 0))
    with ResultsStore(path) as store:
        record_hand(store, hand(1, True, 0))
        assert [run.strategy for run in store.runs()] == ["priority"]
    with ResultsStore(path, create=False) as store:
        assert [(s.label, s.hands_won) for s in hand_stats(store)] == [(TABLE, 1)]


def test_stats_kings_corner(hands_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = run_stats(capsys, "kings-corner", "--store", str(hands_path)).splitlines()
    assert lines[0].split() == ["hands", "won", "penalty/hand", "matches", "won", "win", "rate", "streak", "best",
                                "streak", "table"]
    assert [line.split(maxsplit=8) for line in lines[2:]] == [
        ["1", "0", "4.00", "1", "1", "100.0%", "1", "1", "1 greedy bot, to 10 points"],
        ["6", "3", "5.83", "2", "1", "50.0%", "0", "1", "3 strategic bots, to 25 points"],
    ]
    data = json.loads(run_stats(capsys, "kings-corner", "--store", str(hands_path), "--json"))
    assert data[1]["label"] == TABLE and data[1]["hands"] == 6 and data[1]["matches_won"] == 1
    missing = hands_path.parent / "none.sqlite"
    assert run_stats(capsys, "kings-corner", "--store", str(missing)).startswith("no Kings Corner hands played yet")
    assert not missing.exists()
    with pytest.raises(UsageError, match="--draw is a Klondike option"):
        args = stats_parser().parse_args(["stats", "kings-corner", "--draw", "3", "--store", str(hands_path)])
        args.func(args)


def test_each_player_has_their_own_hands_and_the_terminal_keeps_its_own(hands_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # The browser table's players' hands (with their player id) and the terminal app's (none) are kept apart.
    shared = kings_corner_label(2, "expert", 5, people=1)
    with ResultsStore(hands_path) as store:
        record_hand(store, hand(1, True, 0, None, shared), player="alice-0123456789ab")
        record_hand(store, hand(2, False, 9, True, shared), player="alice-0123456789ab")
        record_hand(store, hand(1, False, 9, None, shared), player="bob-0123456789abcd")
    with ResultsStore(hands_path, create=False) as store:
        alice, = hand_stats(store, player="alice-0123456789ab")
        bob, = hand_stats(store, shared, player="bob-0123456789abcd")
        assert [h.penalty for h in played_hands(store, player="alice-0123456789ab")] == [0, 9]
        assert hand_stats(store, player="nobody-0123456789ab") == []
        assert shared not in {s.label for s in hand_stats(store)}  # the terminal's person's hands only
        assert len(played_hands(store)) == 7
    assert (alice.label, alice.hands, alice.hands_won, alice.matches_won) == (shared, 2, 1, 1)
    assert (bob.hands, bob.hands_won, bob.matches) == (1, 0, 0)
    assert shared not in run_stats(capsys, "kings-corner", "--store", str(hands_path))  # `cardtable stats`: yours


def test_a_store_of_version_6_gains_the_hands_player_column_and_keeps_its_hands(tmp_path: Path) -> None:
    path = tmp_path / "v6.sqlite"
    with ResultsStore(path) as store:
        record_hand(store, hand(1, True, 0))
    with sqlite3.connect(path) as db:  # as cardtable 6 left it before hands named their player
        db.execute("DROP INDEX played_hands_by_player")
        db.execute("ALTER TABLE played_hands DROP COLUMN player")
    db.close()
    with ResultsStore(path, create=False) as store:  # read-only: every hand is the terminal's person's
        assert "player" not in store.columns("played_hands")
        assert [s.hands for s in hand_stats(store)] == [1]
        assert hand_stats(store, player="alice-0123456789ab") == []
    with ResultsStore(path) as store:
        record_hand(store, hand(2, False, 4), player="alice-0123456789ab")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (8,)
        assert db.execute("SELECT player FROM played_hands ORDER BY id").fetchall() == [
            (None,), ("alice-0123456789ab",)]
        plan = db.execute("EXPLAIN QUERY PLAN SELECT won FROM played_hands WHERE player = 'a' ORDER BY id").fetchall()
        assert any("played_hands_by_player" in str(step) for step in plan), plan
    db.close()
    with ResultsStore(path, create=False) as store:
        assert [s.hands for s in hand_stats(store)] == [1]
        assert [s.hands for s in hand_stats(store, player="alice-0123456789ab")] == [1]


def test_the_label_of_a_table_with_people() -> None:
    assert kings_corner_label(1, "expert", 25, people=0) == "1 expert bot, to 25 points"
    assert kings_corner_label(5, "greedy", 1, people=2) == "2 people and 3 greedy bots, to 1 point"
    with pytest.raises(ValueError):
        kings_corner_label(2, "greedy", 1, people=3)
