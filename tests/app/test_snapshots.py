"""Pictures of the apps' main screens (Klondike, Kings Corner, other patience games), compared with the accepted SVGs in
``__snapshots__`` (pytest-textual-snapshot), at 80x24 and at 120x40.

The pictures must not depend on the clock: the Klondike app reads the time
through the ``time`` of :mod:`cardtable.app.keeper`, which these tests replace
with a clock that never moves (the status line always says ``Time 0:00``); the Kings Corner
bots play with no delay, so no timer is pending when the picture is taken.
Hints run with a budget of states only (no time limit), so the solver gives
the same answer on a busy machine as on an idle one. Every store, autosave
and the data folder (``CARDTABLE_DATA``) are in ``tmp_path``.

After a change to the screens, look at the new pictures and accept them with
``pytest tests/app/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from klondike_helpers import layout
from textual.app import App
from textual.geometry import Size
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

import cardtable.app.advisor as advisor_module
import cardtable.app.keeper as keeper_module
import cardtable.app.kings_corner as kings_corner_module
import cardtable.app.klondike as klondike_module
from cardtable.app.kings_corner import KingsCornerApp
from cardtable.app.klondike import KlondikeApp
from cardtable.app.patience import PatienceApp
from cardtable.app.patience_books import PatienceBooks
from cardtable.app.screens import TextScreen
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.patience import PatienceGame, get
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import PlayedGame, record_played

SnapCompare = Callable[..., bool]

#: The small screen every front end must fit, and a roomy one.
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


class _StoppedClock:
    """Stands in for the ``time`` module of the Klondike app's keeper: ``monotonic()``
    never moves, so the game's clock reads 0:00 whenever the picture is taken."""

    @staticmethod
    def monotonic() -> float:
        return 1000.0


@pytest.fixture(autouse=True)
def stopped_clock_and_own_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The stopped clock, and a data folder of the test's own (nothing reaches the user's)."""
    monkeypatch.setattr(keeper_module, "time", _StoppedClock)
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))


def klondike(tmp_path: Path, game: KlondikeGame, *, seed: int | None = 7,
             stats_path: Path | None = None) -> KlondikeApp:
    """The app as ``cardtable play`` builds it, with every file in ``tmp_path``."""
    return KlondikeApp(game, seed=seed, save_path=tmp_path / "game.txt", autosave_path=tmp_path / "auto.txt",
                       stats_path=stats_path)


def seven(variant: str = "draw1") -> KlondikeGame:
    """Seed 7: the ace of clubs lies face up on pile 7, the 7 of spades on pile 4."""
    return KlondikeGame.from_seed(7, Variant.preset(variant))


def kings_corner(seed: int = 3) -> KingsCornerApp:
    """You against three strategic bots; with seed 3 you start holding 5h 6h 7s 8c 8h 8s Js."""
    return KingsCornerApp(opponents=3, level="strategic", seed=seed, target=25, delay=0)


class Seen:
    """What the top screen was when the picture was taken (the app has ended
    by the time ``snap_compare`` returns): ``press`` gives a ``run_before``
    that presses ``keys``, waits for the app and its worker threads (the
    hint, the solver's check after a move), then keeps its top screen and
    everything written on it."""

    def __init__(self) -> None:
        self.screen: Screen[object] | None = None
        self.text = ""

    def press(self, *keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
        async def run_before(pilot: Pilot[None]) -> None:
            await pilot.press(*keys)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            self.screen = pilot.app.screen
            self.text = "\n".join(str(widget.render()) for widget in self.screen.walk_children(Widget))

        return run_before


# ----- Klondike ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_klondike_table_draw_1(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Seed 7, draw 1, before any move: 24 cards in the stock, the cursor on pile 1."""
    app = klondike(tmp_path, seven())
    assert snap_compare(app, terminal_size=size)
    assert not (tmp_path / "auto.txt").exists()  # looking at a deal writes nothing


@pytest.mark.parametrize("size", SIZES)
def test_klondike_draw_3_fans_three_cards_in_the_waste(snap_compare: SnapCompare, tmp_path: Path,
                                                       size: tuple[int, int]) -> None:
    """Seed 7, draw 3, after one draw: the waste shows three cards, the top one whole."""
    app = klondike(tmp_path, seven("draw3"))
    assert snap_compare(app, run_before=Seen().press("d"), terminal_size=size)
    assert len(app.game.waste) == 3 and len(app.game.stock) == 21


@pytest.mark.parametrize("size", SIZES)
def test_klondike_a_card_picked_up_is_highlighted(snap_compare: SnapCompare, tmp_path: Path,
                                                  size: tuple[int, int]) -> None:
    """Seed 7, draw 1: key 4 picks up the 7 of spades, drawn in yellow (reversed: the cursor is on it)."""
    app = klondike(tmp_path, seven())
    assert snap_compare(app, run_before=Seen().press("4"), terminal_size=size)
    assert app.held is not None and app.held.source == 3 and "Picked up" in app.message


@pytest.mark.parametrize("size", SIZES)
def test_klondike_a_hint_lights_up_its_move(snap_compare: SnapCompare, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Seed 2, thoughtful draw 1: the expert's move from what the player sees, its cards on green,
    and the share of its guesses it wins."""
    monkeypatch.setattr(advisor_module, "EXPERT_SECONDS", None)  # the budget of guesses and states alone
    app = klondike(tmp_path, KlondikeGame(Position.from_seed(2), Variant.preset("thoughtful1")), seed=2)
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("h"), terminal_size=size)
    assert "The expert wins" in app.message and app.hint_move is not None and "The expert wins" in seen.text
    assert app.table.marks.hinted or app.table.marks.hint_places


@pytest.mark.parametrize("size", SIZES)
def test_klondike_help(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """The keys, over the table."""
    app = klondike(tmp_path, seven())
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("question_mark"), terminal_size=size)
    assert isinstance(seen.screen, TextScreen) and seen.screen.text == klondike_module.HELP


@pytest.mark.parametrize("size", SIZES)
def test_klondike_statistics(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Three games of draw 1 (won, lost, won) and one lost game of draw 3:
    draw 1 first, with a streak of one and a best streak of one."""
    store = tmp_path / "results.sqlite"
    draw1, draw3 = Variant.preset("draw1"), Variant.preset("draw3")
    games = [(draw1, True, 312.5, 120, 52), (draw1, False, 95.0, 40, 9), (draw1, True, 250.25, 131, 52),
             (draw3, False, 61.0, 22, 3)]
    with ResultsStore(store) as results:
        for number, (variant, won, seconds, moves, foundation) in enumerate(games):
            record_played(results, PlayedGame.of(variant, start=Position.from_seed(number).deal_string(), won=won,
                                                seconds=seconds, moves=moves, foundation=foundation,
                                                finished=f"2026-01-0{number + 1} 12:00:00"))
    app = klondike(tmp_path, seven(), stats_path=store)
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("t"), terminal_size=size)
    assert isinstance(seen.screen, TextScreen)
    rows = [line.split() for line in seen.screen.text.splitlines()[2:4]]
    assert rows[0] == ["draw1", "3", "2", "67%", "1", "1", "4:10", "120"]
    assert rows[1][:4] == ["draw3", "1", "0", "0%"]


@pytest.mark.parametrize("size", SIZES)
def test_klondike_a_won_game(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Two moves from the end: draw the queen of hearts and send it home;
    the last three cards fly home and the game is won."""
    position = layout(["Kh Qc", "Kc"], stock="Qh", foundation=(11, 13, 11, 13))
    app = klondike(tmp_path, KlondikeGame(position, Variant.preset("draw1")), seed=None)
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("d", "w", "f"), terminal_size=size)
    assert app.game.is_won() and "You won in 5 moves" in app.message
    assert "Moves 5  Time 0:00" in seen.text


# ----- Kings Corner --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_kings_corner_table_and_hand(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """Seed 3, your turn first: the cross, the deck, the players, your seven cards."""
    app = kings_corner()
    assert snap_compare(app, terminal_size=size)
    assert app.phase == "you" and len(app.hand_cards) == 7


@pytest.mark.parametrize("size", SIZES)
def test_kings_corner_a_chosen_card(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """Seed 3: key 7 chooses the jack of spades, shown reversed."""
    app = kings_corner()
    assert snap_compare(app, run_before=Seen().press("7"), terminal_size=size)
    assert str(app.chosen) == "Js"


@pytest.mark.parametrize("size", SIZES)
def test_kings_corner_a_hint_lights_up_the_plan(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """Seed 6: the expert's plan starts with the ten of spades on N; the card and the pile are lit up."""
    app = kings_corner(6)
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("h"), terminal_size=size)
    assert app.message.startswith("Hint: T♠ on N") and "Hint: T♠ on N" in seen.text


@pytest.mark.parametrize("size", SIZES)
def test_kings_corner_help(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """The keys of Kings Corner, over the table."""
    app = kings_corner()
    seen = Seen()
    assert snap_compare(app, run_before=seen.press("question_mark"), terminal_size=size)
    assert isinstance(seen.screen, TextScreen) and seen.screen.text == kings_corner_module.HELP


# ----- the smallest screen -------------------------------------------------------------------------


@pytest.mark.parametrize(("make", "help_text"), [
    pytest.param(lambda path: klondike(path, seven()), klondike_module.HELP, id="klondike"),
    pytest.param(lambda path: kings_corner(), kings_corner_module.HELP, id="kings-corner"),
])
def test_the_help_page_fits_80x24(tmp_path: Path, make: Callable[[Path], App[None]], help_text: str) -> None:
    """Every line of the help, whole, on the smallest screen the apps support."""
    shown: list[Size] = []

    async def main() -> None:
        app = make(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            shown.append(app.screen.query_one(Static).content_size)

    asyncio.run(main())
    lines = help_text.splitlines()
    assert shown[0].width >= max(len(line) for line in lines)
    assert shown[0].height >= len(lines), f"{shown[0].height} rows shown of {len(lines)}"


# ----- every other patience game -------------------------------------------------------------------


def patience(tmp_path: Path, name: str, seed: int | str) -> PatienceApp:
    """The app as ``cardtable play NAME --seed SEED`` builds it, with every file in ``tmp_path``."""
    game = PatienceGame.from_seed(get(name), seed)
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")
    return PatienceApp(game, seed=seed, books=books, save_path=tmp_path / "game.txt")


@pytest.mark.parametrize("size", SIZES)
def test_pyramid_rows_overlap_with_a_key_over_each_card(snap_compare: SnapCompare, tmp_path: Path,
                                                        size: tuple[int, int]) -> None:
    """Pyramid, deal 5: seven rows, each card half a column from the ones it covers, its number
    over it; the stock, the waste and the hole under the pyramid."""
    assert snap_compare(patience(tmp_path, "pyramid", 5), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_spider_a_run_picked_up_is_highlighted(snap_compare: SnapCompare, tmp_path: Path,
                                               size: tuple[int, int]) -> None:
    """Spider (two suits), deal 3: ten columns of backs, key 8 picks up the 3 of spades (yellow)."""
    app = patience(tmp_path, "spider-2-suits", 3)
    assert snap_compare(app, run_before=Seen().press("8"), terminal_size=size)
    assert app.held is not None and "Picked up 3♠" in app.message


@pytest.mark.parametrize("size", SIZES)
def test_freecell_a_hint_lights_up_its_move(snap_compare: SnapCompare, tmp_path: Path,
                                            size: tuple[int, int]) -> None:
    """FreeCell, Microsoft's deal 1: the expert's move (every card is in view: its one search of the
    deal wins) and its card and where it goes on green."""
    app = patience(tmp_path, "freecell", "ms:1")
    assert snap_compare(app, run_before=Seen().press("x"), terminal_size=size)
    assert app.hint_move is not None and app.message.startswith(f"Hint: {app.hint_move}")
    assert "a winning line starts so" in app.message
