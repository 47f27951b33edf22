"""Daily and graded deals in the Klondike app, through Textual's pilot: the
new-game dialog's Daily deal button and difficulty, ``play --daily`` and its
autosave, and daily results kept for the streak."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from cli_helpers import run
from textual.pilot import Pilot
from textual.widgets import Input, Select

from cardtable.app.keeper import Keeper
from cardtable.app.klondike import KlondikeApp
from cardtable.app.new_game import NewGameScreen
from cardtable.app.status import StatusBar
from cardtable.klondike import DRAW, KlondikeGame, Position, Variant
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import played_games
from cardtable.solver import solve
from cardtable.solver.daily import daily_deal

Script = Callable[[Pilot[None], KlondikeApp], Awaitable[None]]
DRAW3 = Variant.preset("draw3")


def drive(app: KlondikeApp, script: Script) -> None:
    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def test_the_daily_deal_button_deals_todays_deal_and_its_result_is_kept(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    today = datetime.date.today().isoformat()

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        await pilot.click("#daily")
        await pilot.pause()
        assert app.daily == today and app.seed is None
        assert app.game.start == daily_deal(datetime.date.today(), DRAW3).position and app.game.variant == DRAW3
        assert f"the daily deal of {today}" in app.message
        assert f"Daily {today}" in app.query_one(StatusBar).line()
        await pilot.press("d")  # a move, then a new game: the daily deal counts as lost today
        await pilot.press("n")
        await pilot.click("#deal")
        await pilot.pause()
        assert app.daily is None and app.seed is not None

    drive(KlondikeApp(KlondikeGame.from_seed(7, DRAW3), seed=7, stats_path=store), script)
    with ResultsStore(store, create=False) as kept:
        [game] = played_games(kept)
    assert (game.daily, game.won, game.variant) == (today, False, "draw3")


def test_a_won_daily_deal_counts_for_its_day(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    deal = daily_deal(datetime.date(2026, 1, 6), DRAW3)
    game = KlondikeGame(deal.position, DRAW3)
    for move in solve(deal.position, DRAW3).moves:
        game.play(move)
    keeper = Keeper(stats_path=store, balance_path=None, autosave_path=None)
    keeper.new_game()
    keeper.start_clock()
    assert keeper.finish(game, "2026-01-06") == ""
    with ResultsStore(store, create=False) as kept:
        [played] = played_games(kept)
    assert (played.daily, played.won) == ("2026-01-06", True)
    page = keeper.stats_text("draw3")
    assert "Daily deals" in page and "Daily streak" in page
    daily_line = next(line for line in page.splitlines() if line.startswith("draw3") and len(line.split()) == 5)
    assert daily_line.split() == ["draw3", "1", "1", "0", "1"]  # 6 January 2026 is long past: no streak now


def test_the_dialog_deals_a_deal_of_the_difficulty_chosen(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#variant", Select).value = "seed-001"
        dialog.query_one("#number", Input).value = "3"
        dialog.query_one("#difficulty", Select).value = "easy"
        await pilot.click("#deal")
        await pilot.pause()
        # Deals 3 and 4 of seed-001 are medium and expert (tests/test_grades.py); 5 is the first easy one.
        assert app.seed == 5 and app.game.start == Position.from_seed(5)
        assert f"New game: seed 5, graded easy, {Variant.preset('seed-001').title}." in app.message
        assert app.grade == "easy" and app.query_one(StatusBar).line().endswith("Seed 5 (easy)")
        await pilot.press("n")
        assert dialog.query_one("#difficulty", Select).value == "any"  # offered anew: any deal

    drive(KlondikeApp(KlondikeGame.from_seed(7, DRAW3), seed=7), script)


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[KlondikeApp]:
    """``cardtable play`` builds its app here instead of running it; the data folder is tmp_path."""
    apps: list[KlondikeApp] = []
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(KlondikeApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_play_daily_starts_the_days_deal_and_the_autosave_keeps_its_date(
        tmp_path: Path, captured: list[KlondikeApp], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "play", "--daily", "--date", "2026-01-06", "--variant", "draw3")[0] == 0
    app = captured[0]
    assert app.daily == "2026-01-06" and app.game.start == daily_deal(datetime.date(2026, 1, 6), DRAW3).position

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d")
        assert app.game.moves == [DRAW]

    drive(app, script)
    assert run(capsys, "play")[0] == 0  # the autosave comes back, still the daily deal of its day
    restored = captured[1]
    assert restored.daily == "2026-01-06" and restored.game.moves == [DRAW]


def test_a_graded_deal_keeps_its_grade_in_the_autosave(captured: list[KlondikeApp], monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.sim import grade

    # Deals 3 and 4 of seed-001 are medium and expert, 5 is the first easy one (tests/test_grades.py, and the
    # dialog's test above, search it): the grader's answer is given here, without its search.
    easy = grade.Grade("easy", 0, 1_000, True, 8, 8)
    monkeypatch.setattr(grade, "deal_of_grade", lambda seed, level, variant: (5, easy))
    assert run(capsys, "play", "--variant", "seed-001", "--seed", "3", "--difficulty", "easy")[0] == 0
    app = captured[0]
    assert app.seed == 5 and app.grade == "easy"

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert app.query_one(StatusBar).line().endswith("Seed 5 (easy)")
        await pilot.press("d")

    drive(app, script)
    assert run(capsys, "play")[0] == 0  # the autosave comes back with its grade
    restored = captured[1]
    assert restored.seed == 5 and restored.grade == "easy" and restored.game.moves == [DRAW]

    async def shown(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert app.query_one(StatusBar).line().endswith("Seed 5 (easy)")
        app.new_game(number=9)  # a deal of no grade: the grade goes
        await pilot.pause()
        assert app.grade is None and app.query_one(StatusBar).line().endswith("Seed 9")

    drive(restored, shown)
