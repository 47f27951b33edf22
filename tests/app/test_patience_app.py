"""Every patience game's terminal app (``cardtable play GAME``), driven through
Textual's pilot: keys that name piles make moves, an illegal move says the
engine's reason, undo and redo, hints from the player's view, the autosave,
the statistics, and no face-down card ever drawn."""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Input, Label

from cardtable.app.new_deal import NewDealScreen
from cardtable.app.patience import PatienceApp, PatienceStatus, keys_help
from cardtable.app.patience_books import PatienceBooks
from cardtable.app.patience_table import PatienceTable, PileSpot
from cardtable.app.screens import ScrollPage, TextScreen
from cardtable.cards import Card
from cardtable.patience import Kind, Move, PatienceGame, Place, get, names
from cardtable.patience.description import Fan
from cardtable.patience.layout import table_layout
from cardtable.patience.moves import ANY_FOUNDATION
from cardtable.patience.record import PatienceRecord
from cardtable.patience.words import rules_sections
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import earlier_figures, played_games

GAMES = ("freecell", "spider-2-suits", "golf", "pyramid", "canfield", "yukon")
Script = Callable[[Pilot[None], PatienceApp], Awaitable[None]]


def drive(app: PatienceApp, script: Script, size: tuple[int, int] = (120, 40)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def new_app(tmp_path: Path, name: str, seed: int | str = 5) -> PatienceApp:
    game = PatienceGame.from_seed(get(name), seed)
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")
    return PatienceApp(game, seed=seed, books=books)


def keys(game: PatienceGame, place: Place) -> list[str]:
    """The keys a player presses to name ``place``."""
    d = game.description
    if place.kind is Kind.TABLEAU:
        number = place.index + 1
        if d.tableau.count <= 10:
            return ["0" if number == 10 else str(number)]
        return [*str(number), *(["enter"] if number * 10 <= d.tableau.count else [])]
    if place.kind is Kind.CELL:
        return ["abcdefghijklmnop"[place.index]]
    return {Kind.FOUNDATION: ["F"], Kind.WASTE: ["W"], Kind.HOLE: ["H"], Kind.RESERVE: ["R"],
            Kind.STOCK: ["D"]}[place.kind]


def a_legal_move(game: PatienceGame) -> Move:
    """A legal move that is not a deal, preferring one onto the tableau."""
    moves = [m for m in game.legal_moves() if not m.is_deal and not m.is_recycle]
    assert moves, "the deal has a move"
    return min(moves, key=lambda m: (m.target is None or m.target.kind is not Kind.TABLEAU, m.pair is not None))


def an_illegal_pair(game: PatienceGame) -> tuple[Place, Place, str]:
    """A source with a face-up card and a target that no legal move joins, and the engine's reason."""
    legal = game.legal_moves()
    view = game.view()
    layout = table_layout(game.description)
    sources = [p.place for p in view.piles if p.cards and p.place.kind is Kind.TABLEAU
               and not any(game.pile(over) for over in layout.pile(p.place).covered_by)]
    targets = [p.place for p in view.piles if p.place.kind in (Kind.TABLEAU, Kind.FOUNDATION, Kind.HOLE)]
    for source in sources:
        for target in targets:
            aim = ANY_FOUNDATION if target.kind is Kind.FOUNDATION else target
            if source == target or any(m.source == source and m.target == aim for m in legal) or any(
                    m.pair is not None and {m.source, m.pair} == {source, target} for m in legal):
                continue
            reason = game.why_illegal(Move(source, aim))
            assert reason is not None
            return source, target, reason
    raise AssertionError("no illegal move found")


def drawn_cards(app: PatienceApp) -> Counter[str]:
    text = app.table.render().plain
    return Counter(re.findall(r"[A2-9TJQK][♣♦♥♠]", text))


@pytest.mark.parametrize("name", GAMES)
def test_keys_play_a_legal_move_then_undo_and_redo(tmp_path: Path, name: str) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        move = a_legal_move(app.game)
        await pilot.press(*keys(app.game, move.source), *keys(app.game, move.pair or move.target))
        assert len(app.game.moves) == 1
        played = app.game.moves[0]
        assert (played.source, played.target, played.pair) == (move.source, move.target, move.pair)
        assert app.message.startswith(f"{played}: ")
        saved, trouble = app.books.restore()
        assert trouble is None and saved is not None and saved.replay().key() == app.game.key()
        await pilot.press("u")
        assert app.game.moves == [] and app.message.startswith(f"Undid {played}")
        await pilot.press("y")
        assert app.game.moves == [played]

    drive(new_app(tmp_path, name), script)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_move_says_the_engines_reason(tmp_path: Path, name: str) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        source, target, reason = an_illegal_pair(app.game)
        await pilot.press(*keys(app.game, source), *keys(app.game, target))
        assert app.game.moves == []
        shown = re.sub(r"\b[A2-9TJQK][cdhs]\b", lambda m: Card.parse(m.group(0)).symbol(), reason)
        assert shown in app.message and app.message.startswith("Cannot play")
        assert app.held is None

    drive(new_app(tmp_path, name), script)


async def hinted(pilot: Pilot[None], app: PatienceApp) -> None:
    """Ask for a hint and wait for the expert's answer from its process."""
    await pilot.press("x")
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("name", GAMES)
def test_a_hint_is_the_experts_legal_move_chosen_from_the_view(tmp_path: Path, name: str) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await hinted(pilot, app)
        assert app.hint_move is not None and app.hint_move in app.game.legal_moves()
        assert app.message.startswith(f"Hint: {app.hint_move}, ")
        assert "guess" in app.message or "winning line" in app.message or "greedy" in app.message
        assert app.table.marks.hinted or app.table.marks.hint_places

    drive(new_app(tmp_path, name), script)


def test_a_foundation_of_a_whole_run_shows_its_king(tmp_path: Path) -> None:
    from patience_helpers import a_spider_run_gone_home

    game = a_spider_run_gone_home()
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        assert drawn_cards(app) == Counter({"5♠": 8, "K♠": 1})

    drive(PatienceApp(game, seed=1, books=books), script)


def test_the_empty_stock_says_no_pass_is_left_only_when_none_is(tmp_path: Path) -> None:
    from patience_helpers import a_spider_run_gone_home, a_won_canfield

    def stock_sign(game: PatienceGame) -> str:
        signs: list[str] = []
        books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")

        async def script(pilot: Pilot[None], app: PatienceApp) -> None:
            lines = app.table.render().plain.splitlines()
            where = app.table.spot_position(PileSpot(Place(Kind.STOCK)))
            assert where is not None
            x, y = where  # the stock's key, and under it the empty stock's sign
            signs.append(lines[y + 1][x:x + 4].strip())

        drive(PatienceApp(game, seed=1, books=books), script)
        return signs[0]

    assert stock_sign(a_won_canfield()) == "--"  # passes unlimited, nothing to turn over: no sign
    assert stock_sign(a_spider_run_gone_home()) == "✕"  # a stock dealt to the tableau never comes back


def test_a_hint_never_sends_cards_back_where_they_were(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("4", "a")  # a player fresh to this position would take the card back: a>4
        assert app.game.moves == [Move.parse("4>a")]
        await hinted(pilot, app)
        assert app.hint_move is not None and app.hint_move != Move.parse("a>4")

    drive(new_app(tmp_path, "freecell", 4), script)


def test_the_table_stays_live_while_the_expert_thinks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is searched away from the app: meanwhile the keys still work, a
    second hint waits for the first, and a hint for a position left is not shown.
    The search is held until the test has made its moves (in a thread here, so
    the test, not the machine's load, sets the pace: the other tests' hints
    come from the process)."""
    from cardtable.app import patience as app_module

    go = threading.Event()
    search = app_module.patience_hint

    def held(*args: Any, **kwargs: Any) -> Any:
        assert go.wait(60), "the test never let the search go"
        return search(*args, **kwargs)

    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr(app_module, "_hint_process", lambda: pool)
    monkeypatch.setattr(app_module, "patience_hint", held)

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("x")
        assert app.message == "Thinking..."
        await pilot.press("x")
        assert app.message == "Still thinking about the last hint..."
        move = app.game.legal_moves()[0]
        assert app.play(move)  # played while the expert thinks
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.hint_move is None and app.message == "The game moved on meanwhile: press x again for a hint."
        await hinted(pilot, app)
        assert app.hint_move in app.game.legal_moves()

    try:
        drive(new_app(tmp_path, "yukon", 3), script)
    finally:
        go.set()
        pool.shutdown()


@pytest.mark.parametrize("name", GAMES)
def test_no_face_down_card_is_ever_drawn(tmp_path: Path, name: str) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        for _ in range(12):
            view = app.game.view()
            seen = Counter(card.symbol() for pile in view.piles for card in pile.cards)
            assert drawn_cards(app) <= seen  # a hidden card drawn would be one more than the player sees
            moves = app.game.legal_moves()
            if not moves:
                break
            app.play(moves[-1])
            await pilot.pause()

    drive(new_app(tmp_path, name), script)


@pytest.mark.parametrize("name", names())
def test_every_card_the_player_sees_is_drawn_on_a_small_screen(tmp_path: Path, name: str) -> None:
    """At 80x24 every face-up card of the deal is on the screen (a pile that does not fan shows its
    top card): fanned rows come closer, rows close up when the screen is short."""
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        want: Counter[str] = Counter()
        for pile in app.game.view().piles:
            fanned = app.table_layout.pile(pile.place).fan is not Fan.NONE
            want.update(card.symbol() for card in (pile.cards if fanned else pile.cards[-1:]))
        assert drawn_cards(app) == want

    drive(new_app(tmp_path, name, 3), script, size=(80, 24))


def test_the_hidden_cards_of_the_deal_are_not_in_the_picture(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        game = app.game
        hidden = {card.symbol() for i, pile in enumerate(game.piles) for card in pile[:game.down[i]]}
        seen = {card.symbol() for pile in game.view().piles for card in pile.cards}
        assert hidden - seen  # Yukon's deal hides cards the player cannot see anywhere
        assert not (set(drawn_cards(app)) & (hidden - seen))

    drive(new_app(tmp_path, "yukon"), script)


def test_a_covered_pyramid_card_is_not_picked_up(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("1")
        assert app.message == "Pile 1: another digit for piles 10 to 19, or enter."
        await pilot.press("enter")
        assert app.held is None and app.message.startswith("Pile 1 lies under pile 2 and 3")
        await pilot.press("2", "8")
        assert app.held is not None

    drive(new_app(tmp_path, "pyramid"), script)


def test_a_pyramid_pair_and_a_king_go_to_the_hole(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        king = next(m for m in app.game.legal_moves() if m.pair is None and m.target == Place(Kind.HOLE))
        await pilot.press(*keys(app.game, king.source), "H")
        assert app.game.moves == [king]
        pair = next((m for m in app.game.legal_moves() if m.pair is not None), None)
        while pair is None:
            await pilot.press("D")
            pair = next((m for m in app.game.legal_moves() if m.pair is not None), None)
        assert pair.pair is not None
        first, second = (app.game.pile(place)[-1].symbol() for place in (pair.source, pair.pair))
        await pilot.press(*keys(app.game, pair.pair), *keys(app.game, pair.source))  # either order
        assert app.game.moves[-1] == pair
        where = [f"pile {place}" if place.kind is Kind.TABLEAU else f"the {place.kind.value}"
                 for place in (pair.source, pair.pair)]
        assert app.message == f"{pair}: {first} from {where[0]} and {second} from {where[1]} to the hole."

    drive(new_app(tmp_path, "pyramid"), script)


def test_mouse_click_a_card_then_a_pile_and_double_click_home(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        move = next(m for m in app.game.legal_moves() if m.target is not None and m.target.kind is Kind.CELL
                    and m.source != Place(Kind.TABLEAU, 0))  # pile 1 holds the ace that goes home
        for spot in (PileSpot(move.source, len(app.game.pile(move.source)) - 1), PileSpot(move.target)):
            where = app.table.spot_position(spot)
            assert where is not None
            await pilot.click(PatienceTable, offset=where)
            await pilot.pause()
        assert app.game.moves == [move]
        home = next(m for m in app.game.legal_moves() if m.target == ANY_FOUNDATION)
        where = app.table.spot_position(PileSpot(home.source, len(app.game.pile(home.source)) - 1))
        assert where is not None
        await pilot.double_click(PatienceTable, offset=where)
        await pilot.pause()
        assert app.game.moves[-1] == home

    drive(new_app(tmp_path, "freecell", "ms:2"), script)


def test_a_drag_moves_the_cards_pressed_on_and_a_drag_off_the_table_puts_them_back(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        game = app.game
        move = next(m for m in game.legal_moves() if m.target is not None and m.target.kind is Kind.TABLEAU)
        depth = len(game.pile(move.source)) - move.count
        start = app.table.spot_position(PileSpot(move.source, depth))
        end = app.table.spot_position(PileSpot(move.target))
        assert start is not None and end is not None
        await pilot.mouse_down(PatienceTable, offset=start)
        await pilot.mouse_up(PatienceTable, offset=(end[0], end[1] + 1))  # on the target's top card
        await pilot.pause()
        assert game.moves == [move]
        source = game.moves[0].target
        assert source is not None
        start = app.table.spot_position(PileSpot(source, len(game.pile(source)) - 1))
        assert start is not None
        await pilot.mouse_down(PatienceTable, offset=start)
        await pilot.mouse_up(PatienceTable, offset=(118, start[1]))  # right of the piles: no place
        await pilot.pause()
        assert game.moves == [move] and app.held is None and app.message == "Put back."

    drive(new_app(tmp_path, "yukon", 7), script)


def test_d_redeals_la_belle_lucie_and_the_status_line_counts_the_redeals(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        assert "Redeals 2 left" in app.status_line()
        await pilot.press("D")
        assert app.game.moves == [Move.parse("D")] and "Redeals 1 left" in app.status_line()
        assert app.message == "D: the tableau dealt anew."

    drive(new_app(tmp_path, "la-belle-lucie"), script)


def test_the_new_game_dialog_takes_a_deal_number_the_game_has(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)
        assert app.screen.query_one("#deal", Input).value == "ms:12"
        app.screen.query_one("#deal", Input).value = "pysol:0"
        await pilot.press("enter")
        error = str(app.screen.query_one("#error", Label).render())
        assert error == "A PySolFC deal number is 1 to 99999999999999999999, not 0."
        app.screen.query_one("#deal", Input).value = " MS:11982"
        await pilot.press("enter")
        assert not isinstance(app.screen, NewDealScreen) and app.seed == "ms:11982"
        assert app.game.key() == PatienceGame.from_seed(get("freecell"), "ms:11982").key()
        assert app.message == "New game of FreeCell: deal ms:11982."
        await pilot.press("n", "escape")
        assert app.seed == "ms:11982"

    drive(new_app(tmp_path, "freecell", "ms:11"), script)


def test_restart_keeps_the_moves_to_redo_and_new_game_counts_a_loss(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        for _ in range(3):
            app.play(app.game.legal_moves()[0])
        played = list(app.game.moves)
        await pilot.press("r")
        assert app.game.moves == []
        await pilot.press("y", "y", "y")
        assert app.game.moves == played
        await pilot.press("n", "enter")  # the dialog offers the next deal
        assert app.game.moves == [] and app.seed == 6
        assert "counts as a loss" in app.message
        stats, trouble = app.books.stats()
        assert (stats.played, stats.won, trouble) == (1, 0, "")
        assert app.books.autosave_path is not None and not app.books.autosave_path.exists()
        await pilot.press("t")
        assert isinstance(app.screen, TextScreen) and "1 played, 0 won" in app.screen.text

    drive(new_app(tmp_path, "golf"), script)


def test_a_won_game_shows_the_win_screen_and_counts_in_its_own_file(tmp_path: Path) -> None:
    from cardtable.patience.position import read_position

    ranks = "A23456789TJQ"
    home = " ".join(f"F{i + 1}:" + "".join(r + suit for r in ranks + ("K" if suit == "s" else ""))
                    for i, suit in enumerate("cdhs"))
    game = read_position(get("freecell"), f"1:Kc 2:Kd 3:Kh 4: 5: 6: 7: 8: {home} a: b: c: d:")
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("1", "F", "2", "F")
        assert not isinstance(app.screen, TextScreen) and (tmp_path / "freecell-autosave.txt").exists()
        await pilot.press("3", "F")
        assert app.game.is_won()
        assert isinstance(app.screen, TextScreen) and app.screen.text.startswith("You won FreeCell in 3 moves")
        assert "1 played, 1 won (100%)" in app.screen.text

    drive(PatienceApp(game, seed=None, books=books), script)
    with ResultsStore(tmp_path / "results.sqlite", create=False) as store:
        (played,) = played_games(store, game="freecell", rules=get("freecell").rules_key)
    assert (played.won, played.result, played.moves, played.foundation, played.total) == (True, "won", 3, 52, 52)
    assert PatienceRecord.parse(played.record or "").replay().is_won()  # kept to review
    assert not (tmp_path / "freecell-autosave.txt").exists()


def test_the_terminal_app_records_a_game_in_the_store_after_its_statistics_file_of_before(tmp_path: Path) -> None:
    (tmp_path / "golf-stats.json").write_text(json.dumps({"played": 4, "won": 2, "streak": 1, "best_streak": 2,
                                                          "fastest": 80.5, "fewest": 30}))

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        stats, trouble = app.books.stats()  # the file's figures, before the store takes them
        assert (stats.played, stats.won, stats.current_streak, trouble) == (4, 2, 1, "")
        app.play(app.game.legal_moves()[0])
        await pilot.press("n", "enter")  # the game left counts as a loss, in the store
        stats, trouble = app.books.stats()
        assert (stats.played, stats.won, stats.current_streak, stats.best_streak, stats.best_seconds,
                stats.fewest_moves, trouble) == (5, 2, 0, 2, 80.5, 30, "")
        await pilot.press("t")
        assert isinstance(app.screen, TextScreen) and "Golf: 5 played, 2 won (40%)" in app.screen.text

    drive(new_app(tmp_path, "golf"), script)
    with ResultsStore(tmp_path / "results.sqlite", create=False) as store:
        (played,) = played_games(store, game="golf", rules=get("golf").rules_key)
        assert earlier_figures(store, "golf", get("golf").rules_key) is not None
    assert (played.result, played.moves, played.start, played.total) == ("abandoned", 1, "5", 52)
    (tmp_path / "golf-stats.json").unlink()  # taken once: the store keeps the figures the file gave
    stats, _ = PatienceBooks(get("golf"), autosave_folder=None, store_path=tmp_path / "results.sqlite").stats()
    assert (stats.played, stats.won) == (5, 2)


def test_a_sends_every_card_that_can_go_home_and_u_takes_them_back_one_by_one(tmp_path: Path) -> None:
    from patience_helpers import two_clubs_to_go_home

    game = two_clubs_to_go_home()
    books = PatienceBooks(game.description, autosave_folder=tmp_path, store_path=tmp_path / "results.sqlite")

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        assert "A   auto-finish" in keys_help(app.game)
        await pilot.press("A")
        assert app.message.startswith("Auto-finish sent 2 cards home.")  # the ace of clubs, then the two
        assert [str(move) for move in app.game.moves] == ["4>F", "2>F"]
        assert app.game.home_move() is None and (tmp_path / "freecell-autosave.txt").exists()
        await pilot.press("u")
        assert [str(move) for move in app.game.moves] == ["4>F"]
        await pilot.press("u", "A")
        assert len(app.game.moves) == 2
        await pilot.press("A")
        assert app.message == "Auto-finish: no card can go to the foundations now." and len(app.game.moves) == 2

    drive(PatienceApp(game, seed=None, books=books), script)


def test_a_game_with_no_foundations_says_there_is_nothing_to_finish(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        assert "auto-finish" not in keys_help(app.game)
        await pilot.press("A")
        assert app.message == "Golf has no foundations to finish on." and app.game.moves == []

    drive(new_app(tmp_path, "golf"), script)


def test_the_help_scrolls_on_a_small_screen_and_any_other_key_closes_it(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("question_mark")
        page = app.screen
        assert isinstance(page, ScrollPage) and "Winning: The game is won" in page.text
        scroll = page.query_one(VerticalScroll)
        assert scroll.scroll_y == 0 and scroll.max_scroll_y > 0  # taller than 24 rows
        await pilot.press("pagedown")
        assert app.screen is page and scroll.scroll_y > 0
        await pilot.press("z")
        assert app.screen is not page and app.game.moves == []

    drive(new_app(tmp_path, "canfield"), script, size=(80, 24))


def test_the_help_shows_the_keys_and_the_rules_of_the_game() -> None:
    text = keys_help(PatienceGame.from_seed(get("pyramid"), 1))
    assert "1-28 (typed)" in text and "H             the hole; two piles' keys make a pair" in text
    heading, sentences = rules_sections(get("pyramid"))[-2]
    assert " ".join(text.split()).count(" ".join(f"{heading}: {sentences}".split())) == 1
    assert "free cells" in keys_help(PatienceGame.from_seed(get("freecell"), 1))


# ----- the command -------------------------------------------------------------------------------


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[PatienceApp]:
    """``cardtable play GAME`` builds its app here instead of running it; the data folder is tmp_path."""
    apps: list[PatienceApp] = []
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(PatienceApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_play_game_deals_the_seed_then_the_autosave_brings_it_back(captured: list[PatienceApp],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "play", "freecell", "--seed", "ms:11982")[0] == 0
    first = captured[0]
    assert first.seed == "ms:11982"
    assert first.game.key() == PatienceGame.from_seed(get("freecell"), "ms:11982").key()

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        await pilot.press("4", "a")
        assert len(app.game.moves) == 1

    drive(first, script)
    assert run(capsys, "play", "golf")[0] == 0  # another game keeps its own autosave
    assert captured[1].game.description.name == "golf" and not captured[1].game.moves
    assert run(capsys, "play", "freecell")[0] == 0
    again = captured[2]
    assert again.game.key() == first.game.key() and again.seed == "ms:11982"
    assert "restored" in again.message


def test_a_graded_deal_keeps_its_grade_in_the_autosave(captured: list[PatienceApp],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    async def graded(pilot: Pilot[None], app: PatienceApp) -> None:
        app.new_game(9, graded="graded easy (3 difficulty points), proven winnable", grade="easy")  # as found
        await pilot.pause()
        app.play(app.game.legal_moves()[0])
        await pilot.pause()
        assert app.status_line().endswith("Deal 9 (easy)")

    async def shown(pilot: Pilot[None], app: PatienceApp) -> None:
        assert "Deal 9 (easy)" in str(app.query_one(PatienceStatus).render())

    assert run(capsys, "play", "tripeaks", "--seed", "6")[0] == 0
    drive(captured[0], graded)  # quit after a move of the graded deal
    assert run(capsys, "play", "tripeaks")[0] == 0
    again = captured[1]
    assert again.seed == 9 and again.grade == "easy" and len(again.game.moves) == 1
    drive(again, shown)
    again.new_game(10)  # a deal of no grade: the grade goes
    assert again.grade is None and again.status_line().endswith("Deal 10")


def test_a_new_deal_over_a_saved_game_leaves_it_at_its_first_move(captured: list[PatienceApp],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    async def one_move(pilot: Pilot[None], app: PatienceApp) -> None:
        app.play(app.game.legal_moves()[0])

    async def look(pilot: Pilot[None], app: PatienceApp) -> None:
        assert app.message == ("Your saved game (1 move) waits: a move here leaves it, and it counts as a loss, "
                               "as n does; q keeps it.")

    assert run(capsys, "play", "golf", "--seed", "1")[0] == 0
    drive(captured[0], one_move)
    assert run(capsys, "play", "golf", "--seed", "2")[0] == 0
    drive(captured[1], look)  # quit before a move: the saved game stays
    assert run(capsys, "play", "golf")[0] == 0
    assert captured[2].seed == 1 and len(captured[2].game.moves) == 1
    assert run(capsys, "play", "golf", "--seed", "2")[0] == 0
    drive(captured[3], one_move)
    assert captured[3].message.endswith("The saved game of 1 move is left for this one: it counts as a loss.")
    stats, _ = captured[3].books.stats()
    assert (stats.played, stats.won) == (1, 0)
    assert run(capsys, "play", "golf")[0] == 0
    assert captured[4].seed == 2


def test_s_saves_the_record_and_file_reopens_it(tmp_path: Path, captured: list[PatienceApp],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    assert run(capsys, "play", "yukon", "--seed", "4", "--save", str(record))[0] == 0

    async def script(pilot: Pilot[None], app: PatienceApp) -> None:
        app.play(app.game.legal_moves()[0])
        await pilot.press("s")
        assert app.message == f"Saved the game record to {record}."

    drive(captured[0], script)
    assert run(capsys, "replay", str(record))[0] == 0
    assert run(capsys, "play", "yukon", "--file", str(record))[0] == 0
    assert captured[1].game.key() == captured[0].game.key() and captured[1].seed == 4
    code, _, err = run(capsys, "play", "golf", "--file", str(record))
    assert code == 2 and "a game record of Yukon (yukon), not of Golf" in err


@pytest.mark.parametrize(("args", "says"), [
    (["play", "freecel"], "unknown game 'freecel'; did you mean freecell?"),
    (["play", "freecell", "--seed", "ms:0"], "a Microsoft deal number is 1 to"),
    (["play", "golf", "--seed", "ms:5"], "golf"),
    (["play", "golf", "--draw", "3"], "--draw is not an option of golf (only of klondike)"),
    (["play", "klondike", "--seed", "ms:5"], "klondike has no ms:N deal numbers"),
])
def test_bad_games_and_options_end_in_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                               says: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert says in err and err.count("\n") == 1


def test_a_bad_description_file_ends_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.json"
    data = get("freecell").to_json()
    data["tableau"]["build"]["suit"] = "reddish"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "play", str(path))
    assert code == 2 and "tableau.build.suit" in err and err.count("\n") == 1


def test_a_description_file_plays_with_its_own_books(tmp_path: Path, captured: list[PatienceApp],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.json"
    data = get("freecell").to_json()
    data["name"], data["cells"]["count"] = "two-cell-freecell", 2
    path.write_text(json.dumps(data))
    assert run(capsys, "play", str(path), "--seed", "3")[0] == 0
    app = captured[0]
    assert app.game.description.cells.count == 2
    assert app.books.autosave_path is not None and app.books.autosave_path.name == "file-two-cell-freecell-autosave.txt"


def test_play_daily_deals_the_days_deal_and_its_result_counts_in_the_daily_figures(
        captured: list[PatienceApp], capsys: pytest.CaptureFixture[str]) -> None:
    import datetime

    from cardtable.solver.patience_deals import daily_game

    day = datetime.date(2026, 11, 28)
    found = daily_game(day, get("golf"))
    assert run(capsys, "play", "golf", "--daily", "--date", day.isoformat())[0] == 0
    app = captured[0]
    assert (app.seed, app.daily) == (found.seed, "2026-11-28") and "Daily 2026-11-28" in app.status_line()
    assert app.game.key() == PatienceGame.from_seed(get("golf"), found.seed).key()

    async def won(pilot: Pilot[None], app: PatienceApp) -> None:
        for move in found.moves:
            app.play(Move.parse(move))
        assert app.game.is_won()

    drive(app, won)
    with ResultsStore(Path(os.environ["CARDTABLE_DATA"]) / "results.sqlite", create=False) as store:
        (played,) = played_games(store, game="golf")
    assert (played.daily, played.result, played.start) == ("2026-11-28", "won", str(found.seed))
    code, out, _ = run(capsys, "stats", "--game", "golf", "--json")
    figures = json.loads(out)
    assert code == 0
    assert (figures["played"], figures["won"], figures["daily_days"], figures["daily_won"]) == (1, 1, 1, 1)
    code, out, err = run(capsys, "play", "golf", "--date", "2026-11-28")
    assert code == 2 and "--date goes with --daily" in err
