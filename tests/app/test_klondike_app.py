"""The Klondike app, driven through Textual's pilot: keys, mouse, hints,
the end of a game, saving, the autosave and the ``play`` command's start-up."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import pytest
from cli_helpers import run
from klondike_helpers import layout
from textual.containers import Vertical
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Label, Select

import cardtable.app.advisor as advisor_module
import cardtable.app.klondike as app_module
import cardtable.bots.klondike.hint as hint_module
from cardtable.app import autosave
from cardtable.app.advisor import VERDICT_MAX_STATES
from cardtable.app.klondike import HELP, KlondikeApp
from cardtable.app.new_game import NewGameScreen
from cardtable.app.table import Spot, TableView
from cardtable.cards import MAX_SEED, Card, Suit
from cardtable.klondike import DRAW, FOUNDATION, STOCK, KlondikeGame, KlondikeRecord, Move, Position, Variant
from cardtable.klondike.narrate import describe_move
from cardtable.solver import solve, winnable_deal

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


async def click(pilot: Pilot[None], app: KlondikeApp, spot: Spot, times: int = 1) -> None:
    where = app.table.spot_position(spot)
    assert where is not None, f"{spot} is not drawn"
    if times == 2:
        await pilot.double_click(TableView, offset=where)
    else:
        await pilot.click(TableView, offset=where)
    await pilot.pause()


def message(app: KlondikeApp) -> str:
    return app.message


# ----- keys ----------------------------------------------------------------------------------------


def test_number_then_f_plays_to_the_foundation_and_autosaves(tmp_path: Path) -> None:
    # Seed 7 deals the ace of clubs face up on pile 7.
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "f")
        assert app.game.moves == [Move.parse("7>F")]
        assert app.game.foundation[Suit.CLUBS] == 1
        saved = KlondikeRecord.parse((tmp_path / "auto.txt").read_text())
        assert saved.moves == [Move.parse("7>F")] and saved.headers["Seed"] == "7"

    drive(new_app(tmp_path), script)


def test_a_pile_key_moves_the_run_that_fits_and_the_same_key_grows_the_run(tmp_path: Path) -> None:
    # Pile 1 holds 9s 8h 7c; pile 2's Th takes the 9; pile 3's 9c takes the 8.
    position = layout(["9s 8h 7c", "Th", "9c"])
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("1", "2")  # one card picked up: the run that fits (three cards) moves
        assert app.game.moves == [Move.parse("1>2:3")]
        await pilot.press("u", "1", "1", "3")  # two cards chosen: 8h 7c onto 9c
        assert app.game.moves == [Move.parse("1>3:2")]
        await pilot.press("1", "1", "1", "1")  # a fourth press: the whole run is already held
        assert "whole face-up run" in message(app)
        await pilot.press("escape")
        assert app.held is None

    drive(new_app(tmp_path, KlondikeGame(position, Variant.preset("draw1"))), script)


def test_draw_undo_and_redo(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d")
        assert len(app.game.stock) == 23 and len(app.game.waste) == 1
        await pilot.press("u")
        assert len(app.game.stock) == 24 and not app.game.moves
        await pilot.press("ctrl+y")
        assert app.game.moves == [Move.parse("D")]
        await pilot.press("ctrl+z")
        assert not app.game.moves
        assert KlondikeRecord.parse((tmp_path / "auto.txt").read_text()).moves == []

    drive(new_app(tmp_path), script)


def test_auto_play_sends_only_safe_cards_home(tmp_path: Path) -> None:
    # Ac, 2c and Ah are safe; 3c is not while the red foundations are empty.
    position = layout(["Qs | 3c", "Kd | 2c", "Kc | Ac", "Ks | Ah"])
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("a")
        assert list(app.game.foundation) == [2, 0, 1, 0]
        assert "3 safe cards" in message(app)

    drive(new_app(tmp_path, KlondikeGame(position, Variant.preset("draw1"))), script)


def test_the_cursor_picks_up_and_puts_down(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press(*["right"] * 6, "space")  # pile 7: the ace of clubs
        assert app.held is not None and app.held.source == 6
        await pilot.press("up", "enter")  # up to the foundations row, put it down there
        assert app.game.moves == [Move.parse("7>F")]
        await pilot.press("left", "left", "left", "left", "left", "enter")  # the stock
        assert app.cursor == Spot(STOCK) and app.game.moves[-1] == Move.parse("D")

    drive(new_app(tmp_path), script)


def test_help_lists_the_keys_and_any_key_closes_it(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "TextScreen" and app.screen.text == HELP  # type: ignore[attr-defined]
        await pilot.press("x")
        assert type(app.screen).__name__ != "TextScreen"
        assert not app.game.moves

    drive(new_app(tmp_path), script)
    for key in ("1-7", "  w ", "/ f", "  d ", "  a ", "ctrl+z", "ctrl+y", "  h ", "  n ", "  s ", "  ? ", "  q "):
        assert key in app_module.HELP


def test_new_game_then_enter_deals_the_next_seed(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        assert not isinstance(app.screen, NewGameScreen)
        assert app.seed == 8 and app.game.start == Position.from_seed(8) and not app.game.moves
        assert app.game.variant == Variant.preset("draw1") and not app.winnable

    drive(new_app(tmp_path), script)


def test_the_dialog_offers_the_next_deal_and_the_rules_each_time(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#variant", Select).value = "vegas3"
        dialog.query_one("#number", Input).value = "40"
        await pilot.press("enter")
        await pilot.press("n")
        assert app.screen is dialog  # the same dialog, shown anew
        assert dialog.query_one("#number", Input).value == "41" and dialog.query_one("#variant", Select).value == "same"
        assert str(dialog.query_one("#error", Label).render()) == ""
        await pilot.press("enter")
        assert app.seed == 41 and app.game.variant == Variant.preset("vegas3")

    drive(new_app(tmp_path), script)


def test_new_game_escape_keeps_the_game(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "n", "escape")
        assert not isinstance(app.screen, NewGameScreen)
        assert app.seed == 7 and len(app.game.moves) == 1

    drive(new_app(tmp_path), script)


def test_new_game_chooses_the_variant_the_deal_number_and_winnable_deals(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#variant", Select).value = "vegas3"
        dialog.query_one("#number", Input).value = "1234"
        dialog.query_one("#winnable", Checkbox).value = True
        await pilot.click("#deal")
        await pilot.pause()
        assert app.seed == 1234 and app.winnable and app.game.variant == Variant.preset("vegas3")
        assert app.game.start == winnable_deal(1234, Variant.preset("vegas3"))
        assert "winnable deal 1234" in app.message

    drive(new_app(tmp_path), script)


@pytest.mark.parametrize("typed", ["", "99999999999999999999"])
def test_new_game_refuses_a_deal_number_that_is_not_one(tmp_path: Path, typed: str) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#number", Input).value = typed
        await pilot.click("#deal")
        assert app.screen is dialog and "must be a whole number from 0 to" in str(
            dialog.query_one("#error", Label).render())
        assert app.seed == 7

    drive(new_app(tmp_path), script)


def test_the_new_game_error_is_shown_whole_at_80x24(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#number", Input).value = "99999999999999999999"
        await pilot.click("#deal")
        error = dialog.query_one("#error", Label)
        shown = " ".join(strip.text.strip() for strip in error.render_lines(error.content_region.reset_offset))
        assert shown == f"The deal number must be a whole number from 0 to {MAX_SEED}."
        box = dialog.query_one(Vertical)  # the error lies inside the box's border, on the screen
        assert box.content_region.contains_region(error.region) and app.screen.region.contains_region(box.region)

    drive(new_app(tmp_path), script)


# ----- the solver's word, the Vegas balance ---------------------------------------------------------


def lost_game() -> KlondikeGame:
    """A draw-1 game, moves in, that the solver proves lost, though moves (a draw among them) are left."""
    rng = random.Random(3)
    for number in range(200):
        game = KlondikeGame.from_seed(number, Variant.preset("draw1"))
        for _ in range(rng.randrange(10, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        if game.outcome() is None and DRAW in game.legal_moves() and \
                solve(game.position(), game.variant, max_states=VERDICT_MAX_STATES).result == "unwinnable":
            return game
    raise AssertionError("no lost game found")


def test_a_game_the_solver_proves_lost_says_so_when_peeking(tmp_path: Path) -> None:
    said = "The solver has proven this game lost: u undoes, n deals anew."

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert said not in app.message  # cards are still hidden: the player cannot know
        await pilot.press("H")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert said in app.message and "every card known" in app.message  # judged as peeking starts
        await pilot.press("d")
        assert said not in app.message and app.message.startswith("Draw ")
        assert "Cannot be won" in str(app.query_one("#status").render())  # still lost: said once
        await pilot.press("u")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.message.startswith("Undid: draw") and said in app.message  # judged afresh after an undo

    drive(new_app(tmp_path, lost_game()), script)


def test_a_lost_game_with_hidden_cards_gets_no_verdict_without_peeking(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        for key in ("d", "u"):
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "lost" not in app.message and "Cannot be won" not in str(app.query_one("#status").render())

    game = lost_game()
    assert any(game.face_down)
    drive(new_app(tmp_path, game), script)


def test_a_lost_game_with_every_card_seen_says_so_without_peeking(tmp_path: Path) -> None:
    # Nothing face down, no stock, no pass left: the 2 of spades lies under six waste cards.
    start = layout(["As", "Kh", "Qs", "3s", "4s", "6s", "7s"], stock="", waste="2s 5s 8s 9s Ts Js Ks",
                   foundation=(13, 13, 12, 0))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        # Lost from the start, and the player sees it: said at once, with no undo to offer.
        assert app.message.endswith("The solver has proven this game lost: n deals anew.")
        assert "Cannot be won" in str(app.query_one("#status").render())
        await pilot.press("3", "2")  # the queen of spades onto the king of hearts; the ace could still go home
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.game.outcome() is None
        assert "Cannot be won" in str(app.query_one("#status").render())

    drive(new_app(tmp_path, KlondikeGame(start, Variant.preset("vegas1"))), script)


def test_a_game_that_can_be_won_gets_no_such_word(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "d")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "lost" not in app.message and "Cannot be won" not in str(app.query_one("#status").render())

    drive(new_app(tmp_path), script)  # seed 7, draw 1: winnable


def test_the_vegas_balance_carries_across_games_when_asked(tmp_path: Path) -> None:
    balances = tmp_path / "vegas-balance.json"
    balances.write_text('{"vegas1": 100}')

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        status = str(app.query_one("#status").render())
        assert "Balance $48 (game -$52)" in status  # $100 carried, $52 paid for this deal
        await pilot.press("d", "n", "enter")  # one move, then left: it counts
        assert json.loads(balances.read_text()) == {"vegas1": 48}
        await pilot.press("n", "enter")  # no move: this deal costs nothing
        await pilot.press("q")
        assert json.loads(balances.read_text()) == {"vegas1": 48}

    game = KlondikeGame.from_seed(7, Variant.preset("vegas1"))
    drive(new_app(tmp_path, game, balance_path=balances), script)


def test_a_bad_balance_file_is_said_and_not_overwritten(tmp_path: Path) -> None:
    balances = tmp_path / "vegas-balance.json"
    balances.write_text("[1, 2]")

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert f"Could not read the balance: {balances}: not a balance file" in app.message
        await pilot.press("d", "n", "enter")
        assert f"Could not keep the balance: {balances}: not a balance file" in app.message

    game = KlondikeGame.from_seed(7, Variant.preset("vegas1"))
    drive(new_app(tmp_path, game, balance_path=balances), script)
    assert balances.read_text() == "[1, 2]"


# ----- hints ---------------------------------------------------------------------------------------


def test_a_hint_is_the_experts_move_in_words_with_its_odds(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        move = app.hint_move
        assert move is not None and app.game.is_legal(move)
        words = describe_move(app.game, move, seen_only=True)
        assert re.fullmatch(rf"Hint: {re.escape(words)}\. The expert wins \d+ of 96 guesses from here \(\d+%\)\.",
                            message(app))
        marks = app.table.marks
        assert marks.hinted or marks.hint_places
        first = message(app)
        await pilot.press("h")  # the same table: the same hint
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app) == first and app.hint_move == move

    drive(new_app(tmp_path), script)


def test_a_hint_names_no_card_the_player_has_not_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Six hints on a small budget (8 guessed deals of 2,000 states): which cards a hint may name does not
    # depend on how deep the expert looks (the full budget's words are checked above).
    search = hint_module.expert_hint
    monkeypatch.setattr(hint_module, "expert_hint", partial(search, samples=8, max_states=2000))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        hidden = [card for pile, down in zip(app.game.tableau, app.game.face_down, strict=True)
                  for card in pile[:down]] + list(app.game.stock)
        for _ in range(6):
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            said = message(app)
            assert said.startswith("Hint: ")
            assert not [card for card in hidden if card.symbol() in said]
            assert app.hint_move is not None
            app.play(app.hint_move)
            hidden = [card for pile, down in zip(app.game.tableau, app.game.face_down, strict=True)
                      for card in pile[:down]] + list(app.game.stock)

    drive(new_app(tmp_path, KlondikeGame.from_seed(5, Variant.preset("draw3"))), script)


def test_an_expert_hint_out_of_time_says_it_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advisor_module, "EXPERT_SECONDS", 1e-9)
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app).endswith("(a quick guess: the expert ran out of time).")
        assert app.hint_move is not None and app.game.is_legal(app.hint_move)

    drive(new_app(tmp_path), script)


def test_a_peek_hint_names_a_winning_move_and_lights_it_up(tmp_path: Path) -> None:
    game = KlondikeGame(Position.from_seed(2), Variant.preset("thoughtful1"))
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("H")
        assert "peek: the solver's verdict with every card known: on" in message(app).lower()
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "can be won" in message(app)
        assert app.hint_move is not None and app.game.is_legal(app.hint_move)
        assert message(app).startswith(f"Peek hint: {describe_move(app.game, app.hint_move)}. ")  # said in words
        marks = app.table.marks
        assert marks.hinted or marks.hint_places
        await pilot.press("H", "h")  # peeking off: the expert's hint again
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app).startswith("Hint: ") and "The expert wins" in message(app)

    drive(new_app(tmp_path, game), script)


def test_a_peek_hint_without_an_answer_in_time_falls_back_to_the_heuristic(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advisor_module, "HINT_MAX_STATES", 1)
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("H", "h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "best guess" in message(app)
        assert app.hint_move is not None and app.game.is_legal(app.hint_move)

    drive(new_app(tmp_path), script)


def test_a_peek_hint_in_a_lost_position_says_it_cannot_be_won(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await app.workers.wait_for_complete()
        await pilot.press("H", "h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "(best guess). This position cannot be won: u undoes, n deals anew." in message(app)
        assert app.hint_move is not None and app.game.is_legal(app.hint_move)

    drive(new_app(tmp_path, lost_game()), script)


# ----- mouse ---------------------------------------------------------------------------------------


def test_a_click_on_the_stock_draws(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await click(pilot, app, Spot(STOCK))
        assert app.game.moves == [Move.parse("D")]

    drive(new_app(tmp_path), script)


def test_click_a_card_then_where_it_goes(tmp_path: Path) -> None:
    # Seed 7: the 7 of spades tops pile 4, the 8 of diamonds pile 6.
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await click(pilot, app, Spot(3, len(app.game.tableau[3]) - 1))
        assert app.held is not None
        await click(pilot, app, Spot(5, len(app.game.tableau[5]) - 1))
        assert app.game.moves == [Move.parse("4>6")]
        assert app.game.top(5) == Card.parse("7s")

    drive(new_app(tmp_path), script)


async def drag(pilot: Pilot[None], app: KlondikeApp, source: Spot, target: Spot) -> None:
    start, end = app.table.spot_position(source), app.table.spot_position(target)
    assert start is not None and end is not None
    await pilot.mouse_down(TableView, offset=start)
    await pilot.mouse_up(TableView, offset=end)  # Textual follows it with a click at the release point
    await pilot.pause()


def test_a_drag_moves_the_card_pressed_on_to_where_it_is_released(tmp_path: Path) -> None:
    # Seed 7: the 7 of spades tops pile 4, the 8 of diamonds pile 6.
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await drag(pilot, app, Spot(3, len(app.game.tableau[3]) - 1), Spot(5, len(app.game.tableau[5]) - 1))
        assert app.game.moves == [Move.parse("4>6")] and app.held is None
        assert app.game.top(5) == Card.parse("7s")

    drive(new_app(tmp_path), script)


def test_a_drag_from_inside_a_run_moves_the_run(tmp_path: Path) -> None:
    position = layout(["Ks | 9c 8h 7s", "Td"])
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await drag(pilot, app, Spot(0, 1), Spot(1, 0))  # pressed on the 9, released on the ten
        assert app.game.moves == [Move.parse("1>2:3")] and list(app.game.tableau[1]) == list(
            Card.parse(c) for c in ("Td", "9c", "8h", "7s"))

    drive(new_app(tmp_path, KlondikeGame(position, Variant.preset("draw1"))), script)


def test_a_drag_that_is_no_move_moves_nothing_and_picks_nothing_up(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        before = app.game.position()
        # The 7 of spades cannot go on pile 1's top card: nothing moves, the card released on is not picked up.
        await drag(pilot, app, Spot(3, len(app.game.tableau[3]) - 1), Spot(0, len(app.game.tableau[0]) - 1))
        assert app.game.position() == before and not app.game.moves and app.held is None
        assert "cannot go on" in message(app)
        await drag(pilot, app, Spot(3, len(app.game.tableau[3]) - 1), Spot(3, len(app.game.tableau[3]) - 2))
        assert app.game.position() == before and app.held is None  # face down: nothing to pick up
        await drag(pilot, app, Spot(STOCK), Spot(6, len(app.game.tableau[6]) - 1))
        assert not app.game.moves and app.held is None and "click it to draw" in message(app)
        await click(pilot, app, Spot(3, len(app.game.tableau[3]) - 1))  # a click still picks up
        assert app.held is not None

    drive(new_app(tmp_path), script)


def test_a_double_click_sends_a_card_home(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await click(pilot, app, Spot(6, 6), times=2)
        assert app.game.moves == [Move.parse("7>F")] and app.held is None

    drive(new_app(tmp_path), script)


# ----- the end of a game ---------------------------------------------------------------------------


def test_a_game_with_every_card_face_up_finishes_itself_and_is_won(tmp_path: Path) -> None:
    position = layout(["Kh Qc", "Kc"], stock="Qh", foundation=(11, 13, 11, 13))
    (tmp_path / "auto.txt").write_text("an old autosave")
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d")
        assert not app.game.is_won()  # the queen of hearts is still in the waste
        await pilot.press("w", "f")
        assert app.game.is_won()
        assert "fly home" in message(app) and "You won" in message(app)
        assert not (tmp_path / "auto.txt").exists()

    drive(new_app(tmp_path, KlondikeGame(position, Variant.preset("draw1"))), script)


def test_a_stuck_game_says_so_and_offers_undo_or_a_new_game(tmp_path: Path) -> None:
    # One pass only: after the last draw, nothing can move.
    game = KlondikeGame(_stuck_position(), Variant.preset("draw1").replace(passes=1))
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert "Lost" not in message(app)
        await pilot.press("d")
        assert message(app).startswith("Lost: no") and "u to undo" in message(app)
        await pilot.press("u")
        assert "Lost" not in message(app)

    drive(new_app(tmp_path, game), script)


def test_the_empty_stock_shows_a_turn_over_a_cross_or_nothing(tmp_path: Path) -> None:
    """The empty stock's slot says what a draw would do: turn the waste over
    (a pass is left), nothing ever again (none is left), or nothing yet."""
    def stock_slot(app: KlondikeApp) -> str:
        return app.table.render().plain.splitlines()[0][:6]

    seen: dict[str, list[str]] = {}
    for name, passes, ascii_only in (("one", 1, False), ("two", 2, False), ("one-ascii", 1, True)):
        async def script(pilot: Pilot[None], app: KlondikeApp, name: str = name) -> None:
            seen[name] = [stock_slot(app)]
            await pilot.press("d")  # the last stock card to the waste
            seen[name].append(stock_slot(app))

        game = KlondikeGame(_stuck_position(), Variant.preset("draw1").replace(passes=passes))
        drive(new_app(tmp_path, game, ascii_only=ascii_only), script)
    assert "░" in seen["one"][0] and "✕" not in seen["one"][0]
    assert "✕" in seen["one"][1] and "↻" not in seen["one"][1]
    assert "↻" in seen["two"][1] and "✕" not in seen["two"][1]
    assert "X" in seen["one-ascii"][1]

    stuck = _stuck_position()  # the ace and the three from the stock and waste on piles of their own
    piles = (stuck.tableau[0], stuck.waste, stuck.stock, (), (), (), ())
    empty = Position(piles, stuck.face_down, (), (), (0, 0, 0, 0), 1)
    async def bare(pilot: Pilot[None], app: KlondikeApp) -> None:
        assert not set(stock_slot(app)) & set("✕↻░")

    drive(new_app(tmp_path, KlondikeGame(empty, Variant.preset("draw1"))), bare)


def _stuck_position() -> Position:
    """Every card face down in pile 1 under a face-up 2c, the ace of clubs on
    the waste and the 3 of diamonds in the stock: drawing it buries the ace
    for good (one pass), anything else wins the ace back."""
    two, ace, three = Card.parse("2c"), Card.parse("Ac"), Card.parse("3d")
    rest = [c for c in Card._all if c not in (two, ace, three)]
    return Position(((*rest, two), (), (), (), (), (), ()), (len(rest), 0, 0, 0, 0, 0, 0),
                    (three,), (ace,), (0, 0, 0, 0), 1)


# ----- saving, the autosave and the command ------------------------------------------------------


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[KlondikeApp]:
    """``cardtable play`` builds its app here instead of running it; the data folder is tmp_path."""
    apps: list[KlondikeApp] = []
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(KlondikeApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_save_then_reopen_with_file_and_replay(tmp_path: Path, captured: list[KlondikeApp],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    assert run(capsys, "play", "--seed", "7", "--save", str(record))[0] == 0
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "f", "d", "s")
        assert str(record) in message(app)

    drive(captured[0], script)
    assert run(capsys, "replay", str(record))[0] == 0
    assert run(capsys, "play", "--file", str(record))[0] == 0
    reopened = captured[1].game
    assert reopened.moves == [Move.parse("7>F"), Move.parse("D")]
    assert reopened.position() == captured[0].game.position()
    assert captured[1].seed == 7


def test_the_autosave_brings_an_unfinished_game_back(captured: list[KlondikeApp],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "play", "--seed", "7", "--variant", "vegas3")[0] == 0
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("7", "f", "d")
        assert "Balance -$47" in str(app.query_one("#status").render())

    drive(captured[0], script)  # the app ends without the game finished, as a killed one would
    assert run(capsys, "play", "--seed", "9")[0] == 0  # looked at, not played: the autosave stays
    async def look(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("question_mark", "x")

    drive(captured[1], look)
    assert run(capsys, "play")[0] == 0
    again = captured[2]
    assert again.game.position() == captured[0].game.position()
    assert again.game.variant == Variant.preset("vegas3") and again.seed == 7
    assert "restored" in message(again)


def test_a_corrupt_autosave_is_set_aside_and_a_new_game_starts(tmp_path: Path, captured: list[KlondikeApp],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    saved = autosave.autosave_path()
    saved.parent.mkdir(parents=True)
    saved.write_text("[Game \"Klondike\"]\n[Deal \"no such deal\"]\n")
    assert run(capsys, "play")[0] == 0
    notice = message(captured[0])
    assert "set aside as klondike-autosave.txt.corrupt" in notice and "\n" not in notice
    aside = saved.with_name(saved.name + ".corrupt")
    assert aside.read_text().startswith("[Game") and not saved.exists()
    assert not captured[0].game.moves


@pytest.mark.parametrize(("argv", "words"), [
    (["play", "--file", "no-such-file.txt"], "no such file"),
    (["play", "--variant", "no-such-variant"], "no-such-variant"),
    (["play", "--winnable", "--file", "x.txt"], "--winnable and --file"),
    (["play", "--save", "/no/such/folder/game.txt"], "does not exist"),
])
def test_bad_input_is_one_line_and_exit_2_before_the_app_starts(
        argv: list[str], words: str, captured: list[KlondikeApp], capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, *argv)
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1
    assert captured == []


def test_help_does_not_import_textual() -> None:
    probe = ("import json, sys\nfrom cardtable.cli import main\n"
             "for argv in (['--help'], ['play', '--help']):\n"
             "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
             "print(json.dumps('textual' in sys.modules), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(result.stderr.strip().splitlines()[-1]) is False
    assert "play" in result.stdout


def test_a_foundation_card_comes_back_where_the_variant_allows(tmp_path: Path) -> None:
    position = layout(["6h"], foundation=(5, 0, 0, 0))
    rules = Variant.preset("draw1").replace(foundation_return=True)
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await click(pilot, app, Spot(FOUNDATION, suit=Suit.CLUBS))
        await click(pilot, app, Spot(0, 0))
        assert app.game.moves == [Move.parse("Fc>1")]

    drive(new_app(tmp_path, KlondikeGame(position, rules)), script)


def test_the_table_in_ascii_and_in_unicode(tmp_path: Path) -> None:
    pictures: list[str] = []
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        pictures.append(app.table.render().plain)

    drive(new_app(tmp_path, ascii_only=True), script)
    drive(new_app(tmp_path), script)
    plain, fancy = pictures
    assert "Ac" in plain and "#24" in plain and not any(ord(c) > 127 for c in plain)
    assert "A♣" in fancy and "░24" in fancy
    assert all(len(line) <= 80 for line in fancy.splitlines()) and len(fancy.splitlines()) == 22


def test_finished_and_abandoned_games_count_in_the_statistics(tmp_path: Path) -> None:
    from cardtable.runs.store import ResultsStore
    from cardtable.sim.played import play_stats, played_games

    store = tmp_path / "results.sqlite"
    position = layout(["Kh Qc", "Kc"], stock="Qh", foundation=(11, 13, 11, 13))
    variant = Variant.preset("draw1")

    async def win_then_abandon(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "w", "f")
        assert app.game.is_won()
        await pilot.press("u", "f")  # undo and win again: still one game
        await pilot.press("n", "enter")  # a new game, not played: it counts for nothing
        await pilot.press("d", "n", "enter")  # one move, then left: a loss

    drive(new_app(tmp_path, KlondikeGame(position, variant), stats_path=store), win_then_abandon)
    with ResultsStore(store, create=False) as results:
        (stats,) = play_stats(results, variant.label)
        games = played_games(results)
    assert (stats.played, stats.won, stats.current_streak, stats.best_streak) == (2, 1, 0, 1)
    assert stats.fewest_moves == 5 and [g.won for g in games] == [True, False]  # D, W>F, then three fly home
    assert games[1].start == Position.from_seed(8).deal_string() and games[1].moves == 1


def test_no_statistics_are_kept_without_a_store(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("d", "n", "enter")

    drive(new_app(tmp_path), script)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["auto.txt"]


def test_the_statistics_page_shows_this_variant_first(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    position = layout(["Kh Qc", "Kc"], stock="Qh", foundation=(11, 13, 11, 13))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await pilot.press("t")
        assert "No games finished yet" in app.screen.text  # type: ignore[attr-defined]
        await pilot.press("x", "d", "w", "f", "t")
        page = app.screen.text  # type: ignore[attr-defined]
        row = page.splitlines()[2].split()
        assert row[:4] == ["draw1", "1", "1", "100%"] and row[-1] == "5"

    drive(new_app(tmp_path, KlondikeGame(position, Variant.preset("draw1")), stats_path=store), script)


def test_the_clock_starts_at_the_first_move_and_is_autosaved(tmp_path: Path) -> None:
    saved = tmp_path / "auto.txt"

    def saved_seconds() -> float:
        return autosave.saved_seconds(KlondikeRecord.parse(saved.read_text()))

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        await asyncio.sleep(0.6)  # looking at the deal is not playing it
        await pilot.press("d")
        assert saved_seconds() < 0.5
        await asyncio.sleep(0.4)
        await pilot.press("d")
        assert 0.4 <= saved_seconds() < 5

    drive(new_app(tmp_path), script)


def test_a_restored_game_keeps_its_time_and_its_carried_balance(captured: list[KlondikeApp],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    variant = Variant.preset("vegas3")
    game = KlondikeGame.from_seed(7, variant)
    game.play(Move.parse("7>F"))
    game.play(DRAW)
    autosave.save(autosave.autosave_path(), game, {"Seed": "7", autosave.TIME_HEADER: "125.0",
                                                   autosave.CUMULATIVE_HEADER: "yes"})
    autosave.write_balances(autosave.balance_path(), {variant.label: 100})
    assert run(capsys, "play")[0] == 0  # no --cumulative: the autosave remembers it

    async def script(pilot: Pilot[None], app: KlondikeApp) -> None:
        line = str(app.query_one("#status").render())
        assert "Time 2:05" in line and "Balance $53 (game -$47)" in line
        await asyncio.sleep(1.1)
        assert "Time 2:05" in str(app.query_one("#status").render())  # the clock waits for a move

    drive(captured[0], script)
    assert 125 <= autosave.saved_seconds(KlondikeRecord.parse(autosave.autosave_path().read_text())) < 130
