"""The patience app's graded deals, peek and review (``cardtable play GAME``),
driven through Textual's pilot: the new-game dialog offers the difficulties
of a game whose deals can be graded and says why not of one whose cannot,
the table takes no move while a graded deal is found, ``P`` shows the
face-down cards only when asked and marks the game as peeked, and ``V``
reviews the game from the player's view."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select, Static

from cardtable.app.new_deal import NewDealScreen
from cardtable.app.patience import PatienceApp
from cardtable.app.patience_books import PatienceBooks
from cardtable.app.patience_review import PatienceReviewScreen
from cardtable.bots.patience_review import weigh_position
from cardtable.patience import Kind, PatienceGame, get
from cardtable.patience.record import PatienceRecord
from cardtable.runs.store import ResultsStore
from cardtable.sim.grade import game_of_grade, why_ungradable
from cardtable.sim.played import played_games

Script = Callable[[Pilot[None], PatienceApp], Awaitable[None]]


def drive(app: PatienceApp, script: Script) -> None:
    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def new_app(tmp_path: Path, name: str, seed: int = 5) -> PatienceApp:
    game = PatienceGame.from_seed(get(name), seed)
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")
    return PatienceApp(game, seed=seed, books=books)


@pytest.mark.slow
def test_a_graded_deal_is_found_while_the_table_takes_no_move(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewDealScreen)
        await app.workers.wait_for_complete()  # whether TriPeaks' deals can be graded: they can
        await pilot.pause()
        assert app.grading is None and dialog.query_one("#difficulty", Select).display
        dialog.query_one("#difficulty", Select).value = "easy"
        dialog.query_one("#deal", Input).focus()
        await pilot.press("enter")
        assert app.finding is not None and app.message.startswith("Finding an easy deal of TriPeaks from deal 6")
        start = app.game.key()
        await pilot.press("D", "u", "x")
        assert app.game.key() == start and not app.game.moves and "takes no move" in app.message
        await app.workers.wait_for_complete()
        await pilot.pause()
        seed, grade = game_of_grade(6, "easy", get("tripeaks"))
        assert app.finding is None and app.seed == seed
        assert app.game.key() == PatienceGame.from_seed(get("tripeaks"), seed).key()
        assert f"deal {seed}, graded easy ({grade.points} difficulty points), proven winnable" in app.message
        assert app.grade == "easy" and app.status_line().endswith(f"Deal {seed} (easy)")
        await pilot.press("D")
        assert app.game.moves  # the table takes moves again

    drive(new_app(tmp_path, "tripeaks"), script)


def test_the_dialog_says_why_a_game_is_not_graded_rather_than_offer_it(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        app.grading = "the search proves none of its deals winnable"  # as the probe answers for the Spiders
        app._grading_asked = True
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewDealScreen)
        assert not dialog.query_one("#difficulty", Select).display
        said = str(dialog.query_one("#grading", Label).render())
        assert said == "No graded deals: the search proves none of its deals winnable."
        await pilot.press("enter")
        assert app.finding is None and app.seed == 6

    drive(new_app(tmp_path, "golf"), script)


@pytest.mark.slow
def test_pyramid_cannot_be_graded_and_tripeaks_and_spider_can() -> None:
    assert why_ungradable(get("tripeaks")) is None
    assert why_ungradable(get("spider")) is None  # four suits: a deal of the first few proven winnable
    reason = why_ungradable(get("pyramid"))  # none of its first 32 deals winnable
    assert reason == "the search proves none of deals 0 to 31 of Pyramid winnable"


def test_peek_shows_the_face_down_cards_only_when_asked_and_marks_the_game(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        game = app.game
        stock = next(pile.place for pile in game.view().piles if pile.place.kind is Kind.STOCK)
        hidden = game.pile(stock)
        panel = app.query_one("#peek", Static)
        assert not panel.display and str(hidden[-1]) not in str(panel.render())
        await pilot.press("P")
        assert panel.display and app.peeked
        text = str(panel.render())
        assert text.startswith("Peek (P hides it): stock (next first): " + " ".join(str(c) for c in hidden[::-1]))
        await pilot.press("D")
        await pilot.press("P")
        assert not panel.display and app.peeked
        assert 'Peeked "yes"' in (tmp_path / "golf-autosave.txt").read_text()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # the game left counts, marked as peeked
        await pilot.pause()
        assert not app.peeked

    app = new_app(tmp_path, "golf")
    app.ascii_only = True
    drive(app, script)
    with ResultsStore(tmp_path / "results.sqlite") as store:
        games = played_games(store, game="golf")
    assert len(games) == 1 and 'Peeked "yes"' in (games[0].record or "")
    books = PatienceBooks(get("golf"), autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")
    assert books.peeked() == 1

    async def stats(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("t")
        shown = str(app.screen.query_one(Static).render())
        assert "1 played, 0 won" in shown and "1 game of them peeked at (P showed the face-down cards)." in shown

    drive(new_app(tmp_path, "golf"), stats)


def test_a_game_not_peeked_at_is_not_marked(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("D", "n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()

    drive(new_app(tmp_path, "golf"), script)
    with ResultsStore(tmp_path / "results.sqlite") as store:
        games = played_games(store, game="golf")
    assert len(games) == 1 and "Peeked" not in (games[0].record or "")
    assert PatienceBooks(get("golf"), autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite").peeked() == 0


def test_the_review_weighs_every_position_from_the_players_view(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        app.review_samples, app.review_states = 2, 2000
        await pilot.press("V")
        assert app.message == "Nothing to review yet: play a move first."
        for _ in range(3):
            app.play(app.game.legal_moves()[0])
        record = PatienceRecord.from_game(app.game, app.seed)
        await pilot.press("V")
        screen = app.screen
        assert isinstance(screen, PatienceReviewScreen) and screen.peek_states is None  # mid-game: no peek
        while not screen.done:
            await pilot.pause(0.05)
        assert screen.review is not None and screen.review.complete
        replay = record.start()
        expected = [weigh_position(replay.clone(), index=0, samples=2, max_states=2000)]
        for index, move in enumerate(record.moves, start=1):
            replay.play(move)
            expected.append(weigh_position(replay.clone(), index=index, samples=2, max_states=2000))
        assert list(screen.review.positions) == expected
        text = str(screen.query_one("#review-drops", Static).render())
        assert "3 moves: the expert's chance" in text and "Peek" not in text
        await pilot.press("escape")
        assert not isinstance(app.screen, PatienceReviewScreen)
        await pilot.press("P", "V")  # peeking: the review adds the peek's verdicts
        screen = app.screen
        assert isinstance(screen, PatienceReviewScreen) and screen.peek_states is not None

    drive(new_app(tmp_path, "golf", 4), script)
