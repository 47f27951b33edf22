"""One player's Klondike table, without a server: auto-finish, the words it
says naming only face-up cards, keeping and restoring it; and the results
store's ``web_games`` table that keeps it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardtable.klondike import Position, Variant
from cardtable.runs.store import SCHEMA_VERSION, ResultsStore
from cardtable.solver import solve
from cardtable.web.klondike import KlondikeDealer, KlondikeTable
from cardtable.web.protocol import ProtocolError


def table_after(moves: int | None = None) -> tuple[KlondikeTable, list[str]]:
    """Deal 7 (draw 1) played along the solver's winning line until no card is face down."""
    line = [str(move) for move in solve(Position.from_seed(7), Variant.preset("draw1")).moves]
    table = KlondikeDealer(Variant.preset("draw1"), seed=7).first()
    played = 0
    for move in line:
        if moves is None and not any(table.game.face_down):
            break
        if moves is not None and played == moves:
            break
        table.apply({"type": "move", "move": move})
        played += 1
    return table, line[played:]


def test_auto_finish_draws_through_the_stock_when_that_wins() -> None:
    table, rest = table_after()
    assert rest and not table.game.is_won()
    said = table.apply({"type": "autofinish"})
    assert table.game.is_won() and said.endswith("You won!")
    assert table.view()["won"] and table.view()["foundation"] == [13, 13, 13, 13]


def test_auto_finish_with_nothing_to_send_home_changes_nothing() -> None:
    table, _ = table_after(0)
    assert table.apply({"type": "autofinish"}) == "Auto-finish sent 1 card home."  # the ace of clubs
    with pytest.raises(ProtocolError, match="no card can go to the foundations now"):
        table.apply({"type": "autofinish"})
    assert table.view()["moves"] == 1


def test_a_saved_table_comes_back_at_the_same_move() -> None:
    table, _ = table_after(20)
    again = KlondikeTable.restore(table.saved(), started=table.started)
    assert again.view() == table.view()


def test_a_move_that_turns_a_card_up_names_it_once_it_is_face_up() -> None:
    table = KlondikeDealer(Variant.preset("draw1"), seed=7).first()
    assert table.apply({"type": "move", "move": "2>4"}) == \
        f"Six of diamonds from pile 2 onto the seven of spades in pile 4, turning up the " \
        f"{table.game.tableau[1][-1].name()}."
    assert table.view()["piles"][1] == {"down": 0, "up": [str(table.game.tableau[1][-1])]}


def test_a_version_4_store_gains_the_web_games_table_in_place(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite"
    with ResultsStore(path) as store:
        store.append("played", {"finished": "2026-01-01", "variant": "draw1", "options": "{}", "start": "s",
                                "won": 1, "seconds": 1.0, "moves": 90, "foundation": 52, "game": "klondike",
                                "rules": "{}"}, action="keep a game")
    with sqlite3.connect(path) as db:  # as cardtable 4 left it: no web_games table, version 4
        db.executescript("DROP TABLE web_games; PRAGMA user_version = 4;")
    with ResultsStore(path, create=False) as store:  # read-only: nothing to show, nothing changed
        assert not store.has_table("web_games")
        assert store.select("web_games", ("saved",), order="player", action="read") == []
    with ResultsStore(path) as store:
        store.put_rows("web_games", [{"player": "p" * 16, "game": "klondike", "saved": "x", "started": None,
                                      "updated": "now"}], action="keep a browser game")
        assert len(store.select("played", ("id",), action="read")) == 1  # the older rows are still there
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_a_cumulative_vegas_balance_is_carried_from_game_to_game_and_kept() -> None:
    vegas = Variant.preset("draw1").replace(scoring="vegas")
    table = KlondikeDealer(vegas, seed=7, cumulative=True).first()
    dealer = KlondikeDealer(vegas, cumulative=True)
    assert table.view()["balance"] == table.view()["score"] == -52  # the stake of this game
    table.apply({"type": "move", "move": "7>F"})
    assert table.view()["balance"] == -47
    table.apply({"type": "new", "deal": 3}, dealer)  # left after a move: its result is carried, once
    assert [(g.won, g.moves) for g in table.take_finished()] == [(False, 1)]
    assert table.view()["balance"] == -47 - 52
    table.apply({"type": "new", "deal": 4}, dealer)  # no move: nothing carried, nothing counted
    assert table.view()["balance"] == -47 - 52 and table.take_finished() == []
    again = KlondikeTable.restore(table.saved(), table.started)
    assert again.view()["balance"] == -47 - 52
    alone = KlondikeDealer(vegas, seed=7).first()  # without cumulative: each game alone
    assert alone.view()["balance"] is None and alone.view()["score"] == -52
