"""What a player tripped over in the Klondike app, each driven through
Textual's pilot (and ``cardtable play`` through its command line): a loss said
at once when the player can see it, messages in the table's card names, the
Vegas custom of undo, a saved game left for a new deal counted as ``n``
counts it, and the variants' names for a player."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from cli_helpers import run
from klondike_helpers import layout
from textual.pilot import Pilot
from textual.widgets import Select

from cardtable.app import autosave
from cardtable.app.klondike import KlondikeApp
from cardtable.app.new_game import NewGameScreen
from cardtable.klondike import DRAW, KlondikeGame, KlondikeRecord, Move, Variant
from cardtable.klondike.variant import PRESET_TITLES, PRESETS
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import played_games

Script = Callable[[Pilot[None], KlondikeApp], Awaitable[None]]


def drive(app: KlondikeApp, script: Script) -> None:
    """Run ``app`` on an 80x24 screen and play ``script`` on it."""

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def new_app(tmp_path: Path, game: KlondikeGame | None = None, **options: object) -> KlondikeApp:
    game = game if game is not None else KlondikeGame.from_seed(7, Variant.preset("draw1"))
    return KlondikeApp(game, seed=7, autosave_path=tmp_path / "auto.txt", **options)  # type: ignore[arg-type]


def status(app: KlondikeApp) -> str:
    return str(app.query_one("#status").render())


# ----- a lost deal is said at once, when the player can see it -----------------------------------


def test_a_deal_with_no_legal_move_is_lost_at_once_with_no_undo_offered(tmp_path: Path) -> None:
    # The ace of clubs lies face down under the two; the three is stuck on face-down clubs; no stock.
    start = layout(["Ac|2c", "Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c|3c"], stock="", foundation=(0, 13, 13, 13))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert app.message == "Lost: no legal move left: press n for a new game."
        assert "undo" not in app.message

    drive(new_app(tmp_path, KlondikeGame(start, Variant.preset("draw1"))), script)


@pytest.mark.parametrize(("variant", "ways"), [
    (Variant.preset("draw1").replace(passes=1), "press u to undo, n for a new game"),
    (Variant.preset("vegas1"), "press n for a new game"),  # the draw cannot be taken back
])
def test_a_game_lost_after_a_move_offers_undo_only_when_it_can_help(tmp_path: Path, variant: Variant,
                                                                     ways: str) -> None:
    # One pass, one card in the stock (the two of diamonds, whose ace lies face down); nothing else moves.
    start = layout(["Ac|2c", "Kc Qc Jc Tc 9c 8c 7c 6c 4c 3c Ad 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd|5c"],
                   stock="2d", foundation=(0, 0, 13, 13))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert app.game.legal_moves() == [DRAW] and app.message == "Press ? for the keys."
        await pilot.press("d")
        assert app.message == f"Lost: no legal move left: {ways}, R to review."

    drive(new_app(tmp_path, KlondikeGame(start, variant)), script)


def test_a_fresh_deal_says_nothing_of_its_chances_while_cards_are_hidden(tmp_path: Path) -> None:
    # Deal 21 in draw 1 cannot be won, but the player cannot know it: nothing is said.
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.message == "Press ? for the keys." and "Cannot be won" not in status(app)

    drive(new_app(tmp_path, KlondikeGame.from_seed(21, Variant.preset("draw1"))), script)


# ----- the table's card names ----------------------------------------------------------------------


@pytest.mark.parametrize(("ascii_only", "said"), [
    (False, "A♣ cannot go on 4♦: a card must be one rank lower than the card it covers."),
    (True, "Ac cannot go on 4d: a card must be one rank lower than the card it covers."),
])
def test_an_illegal_move_is_explained_in_the_cards_the_table_shows(tmp_path: Path, ascii_only: bool,
                                                                   said: str) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "1")  # seed 7: the ace of clubs onto the four of diamonds
        assert app.message == said
        assert "7>1" not in app.message and not app.game.moves

    drive(new_app(tmp_path, ascii_only=ascii_only), script)


# ----- Vegas: draws cannot be undone ----------------------------------------------------------------


def test_vegas_undo_stops_at_a_draw_and_says_why(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "f", "d")  # the ace home, then a draw
        await pilot.press("u")
        assert app.message == "Vegas: draws cannot be undone."
        assert app.game.moves == [Move.parse("7>F"), DRAW]
        waste = app.game.waste[-1]
        moved = next(m for m in app.game.legal_moves() if not m.is_draw and not m.is_recycle)
        app.play(moved)
        await pilot.pause()
        await pilot.press("u")  # a move after the draw can be taken back, down to the draw
        assert app.message.startswith("Undid:") and app.game.moves == [Move.parse("7>F"), DRAW]
        await pilot.press("u")
        assert app.message == "Vegas: draws cannot be undone." and app.game.waste[-1] == waste

    drive(new_app(tmp_path, KlondikeGame.from_seed(7, Variant.preset("vegas1"))), script)


def test_outside_vegas_a_draw_is_undone(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "u")
        assert app.message.startswith("Undid: draw") and not app.game.moves

    drive(new_app(tmp_path, KlondikeGame.from_seed(7, Variant.preset("standard1"))), script)


def test_a_new_vegas_game_says_its_undo_rule(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        app.new_game(Variant.preset("vegas3"), 8)
        assert app.message == "New game: seed 8, Vegas (draw 3, three passes). Vegas: draws cannot be undone."

    drive(new_app(tmp_path), script)


def test_a_replayed_vegas_record_keeps_its_draws() -> None:
    game = KlondikeGame.from_seed(7, Variant.preset("vegas1"))
    for move in ("7>F", "D"):
        game.play(Move.parse(move))
    replayed = KlondikeRecord.parse(str(KlondikeRecord.from_game(game))).replay()
    assert replayed.moves == game.moves and not replayed.can_undo
    assert replayed.why_no_undo() == "Vegas: draws cannot be undone"


# ----- a game left for another counts the same way everywhere -----------------------------------------


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[KlondikeApp]:
    """``cardtable play`` builds its app here instead of running it; the data folder is tmp_path."""
    apps: list[KlondikeApp] = []
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(KlondikeApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def _losses(store: Path) -> list[tuple[str, int]]:
    with ResultsStore(store, create=False) as results:
        return [(game.start, game.moves) for game in played_games(results) if not game.won]


def test_a_new_deal_asked_for_over_a_saved_game_counts_it_as_a_loss_at_its_first_move(
        tmp_path: Path, captured: list[KlondikeApp], capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "results.sqlite"
    assert run(capsys, "play", "--seed", "7", "--store", str(store))[0] == 0

    async def two_moves(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "f", "d")

    drive(captured[0], two_moves)  # the app ends with the game unfinished: it is saved
    assert run(capsys, "play", "--winnable", "--seed", "3", "--store", str(store))[0] == 0
    fresh = captured[1]
    assert fresh.message == ("Your saved game (2 moves) waits: a move here leaves it, and it counts "
                             "as a loss, as n does; q keeps it.")

    async def one_move(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert not store.exists() or not _losses(store)  # nothing counted before a move here
        await pilot.press("d")
        assert app.message.endswith(" The saved game of 2 moves is left for this one: it counts as a loss.")

    drive(fresh, one_move)
    assert _losses(store) == [(KlondikeGame.from_seed(7).start.deal_string(), 2)]
    saved = KlondikeRecord.parse(autosave.autosave_path().read_text())
    assert saved.headers.get("Winnable") == "3" and saved.moves == [DRAW]


def test_n_in_the_app_counts_the_game_left_and_says_so(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d")
        app.new_game(number=9)
        assert app.message == "New game: seed 9, Klondike (draw 1). The game left counts as a loss."
        app.new_game(number=10)  # no move in deal 9: it does not count
        assert app.message == "New game: seed 10, Klondike (draw 1)."

    drive(new_app(tmp_path, stats_path=store), script)
    assert [moves for _, moves in _losses(store)] == [1]


# ----- the variants' names for a player --------------------------------------------------------------


def test_the_new_game_dialog_offers_the_variants_by_their_players_names(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        options = dialog.query_one("#variant", Select)._options  # (prompt, value) pairs
        prompts = {str(value): str(prompt) for prompt, value in options}
        assert prompts["seed-002"] == "Vegas (draw 1, one pass, classic table)"
        assert prompts["thoughtful1"] == "Klondike, cards come back (draw 1)"
        assert all("seed-" not in prompt and "thoughtful" not in prompt for prompt in prompts.values())

    drive(new_app(tmp_path, KlondikeGame.from_seed(7, Variant.preset("seed-002"))), script)


def test_every_preset_has_its_own_players_name_and_both_names_are_taken() -> None:
    assert set(PRESET_TITLES) == set(PRESETS)
    assert len(set(PRESET_TITLES.values())) == len(PRESETS)
    for name, variant in PRESETS.items():
        assert Variant.preset(name) is variant and Variant.preset(PRESET_TITLES[name]) is variant
        assert variant.label == name and variant.title == PRESET_TITLES[name]  # games are kept as before


def test_the_command_line_lists_the_players_names_and_takes_old_and_new_names(tmp_path: Path) -> None:
    def cardtable(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True, text=True,
                              env={"CARDTABLE_DATA": str(tmp_path), "PATH": "/usr/bin:/bin",
                                   "PYTHONPATH": ":".join(sys.path)}, check=False)

    listed = cardtable("variants")
    assert listed.returncode == 0
    assert "seed-002     Vegas (draw 1, one pass, classic table): " in listed.stdout
    assert "thoughtful1  Klondike, cards come back (draw 1): " in listed.stdout
    old = cardtable("deal", "--seed", "5", "--variant", "seed-002")
    new = cardtable("deal", "--seed", "5", "--variant", "vegas (draw 1, one pass, classic table)")
    assert old.returncode == new.returncode == 0 and old.stdout == new.stdout
    bad = cardtable("deal", "--seed", "5", "--variant", "vegas (draw 2)")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "unknown variant" in bad.stderr
    assert json.loads(cardtable("variants", "--json").stdout)[0]["name"] == "seed-002"
