"""The Klondike app's review screen (``R``), driven through Textual's pilot: it
weighs the game in a worker thread with a progress bar and a chart, lists the
drops, can be stopped with Escape, and brings the peek only once the game is
over."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import ProgressBar, Static

from cardtable.app.klondike import KlondikeApp
from cardtable.app.review import BLOCKS, ReviewScreen, chance_chart
from cardtable.cards import Card
from cardtable.klondike import KlondikeGame, Move, Position, Variant

Script = Callable[[Pilot[None], KlondikeApp], Awaitable[None]]


def drive(app: KlondikeApp, script: Script) -> None:
    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def new_app(tmp_path: Path, game: KlondikeGame, samples: int = 6, states: int = 1000) -> KlondikeApp:
    app = KlondikeApp(game, seed=7, autosave_path=tmp_path / "auto.txt")
    app.review_samples, app.review_states = samples, states
    return app


def text(screen: ReviewScreen, name: str) -> str:
    return str(screen.query_one(f"#review-{name}", Static).render())


def test_the_chart_draws_a_column_a_position_and_keeps_a_drop_when_it_groups() -> None:
    chart = chance_chart([1.0, 0.0, None, 0.5], height=4)
    lines = chart.splitlines()
    assert len(lines) == 5 and lines[0].startswith("100% |") and lines[-1] == "  0% +----"
    columns = ["".join(line[6 + column] for line in lines[:-1]) for column in range(4)]
    assert columns[0] == BLOCKS[-1] * 4 and columns[1] == "    " and columns[2] == "   ?"
    assert columns[3] == "  " + BLOCKS[-1] * 2
    grouped = chance_chart([1.0] * 50 + [0.0] + [1.0] * 49, width=10, height=2)
    assert grouped.splitlines()[-1] == "  0% +" + "-" * 10
    assert " " in grouped.splitlines()[0][6:]  # the group holding the drop shows it


def test_r_reviews_the_game_with_a_progress_bar_a_chart_and_the_drops(tmp_path: Path) -> None:
    game = KlondikeGame.from_seed(7, Variant.preset("draw1"))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("R")
        assert "Nothing to review" in app.message  # no move yet
        for _ in range(3):
            await pilot.press("d")
        await pilot.press("R")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.workers.wait_for_complete()
        await pilot.pause()
        assert len(screen.positions) == 4 and screen.review is not None and screen.review.complete
        assert screen.query_one(ProgressBar).progress == 4
        chart = text(screen, "chart")
        assert chart.splitlines()[-1] == "  0% +----"
        assert text(screen, "drops").startswith("Done.") and "3 moves: " in text(screen, "drops")
        assert all(position.verdict is None for position in screen.positions)  # mid-game: no peek
        await pilot.press("x")
        assert not isinstance(app.screen, ReviewScreen)

    drive(new_app(tmp_path, game), script)


def test_escape_stops_the_review_and_keeps_what_was_weighed(tmp_path: Path) -> None:
    game = KlondikeGame.from_seed(5, Variant.preset("draw3"))
    for _ in range(40):
        game.play(game.legal_moves()[-1] if len(game.moves) % 3 else Move.parse("D"))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for _ in range(200):
            await pilot.pause(0.05)
            if screen.positions:
                break
        await pilot.press("escape")
        assert screen.done and text(screen, "drops").startswith("Stopped.")
        weighed = len(screen.positions)
        assert 1 <= weighed < len(app.game.moves) + 1
        assert screen.review is not None and not screen.review.complete
        await screen.workers.wait_for_complete()
        await pilot.pause()
        assert len(screen.positions) == weighed  # nothing more came after the stop
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)

    drive(new_app(tmp_path, game, samples=64, states=20_000), script)


def _stuck_position() -> Position:
    """Every card face down in pile 1 under a face-up 2c, the ace of clubs on
    the waste and the 3 of diamonds in the stock: drawing it buries the ace
    for good (one pass)."""
    two, ace, three = Card.parse("2c"), Card.parse("Ac"), Card.parse("3d")
    rest = [c for c in Card._all if c not in (two, ace, three)]
    return Position(((*rest, two), (), (), (), (), (), ()), (len(rest), 0, 0, 0, 0, 0, 0),
                    (three,), (ace,), (0, 0, 0, 0), 1)


def test_once_the_game_is_over_the_review_brings_the_peek(tmp_path: Path) -> None:
    game = KlondikeGame(_stuck_position(), Variant.preset("draw1").replace(passes=1))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d")
        assert "R to review" in app.message
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await screen.workers.wait_for_complete()
        await pilot.pause()
        assert [position.verdict for position in screen.positions][-1] == "lost"
        assert screen.positions[-1].chance == 0.0
        assert "Peek (every card known)" in text(screen, "drops")

    drive(new_app(tmp_path, game), script)
