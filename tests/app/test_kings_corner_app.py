"""The Kings Corner app, driven through Textual's pilot: cards and piles by keys
and clicks, illegal choices, undo within the turn, the bots' turns, hints, whole
hands and the match, and the ``play kings-corner`` command's start-up."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from cli_helpers import run
from textual.pilot import Pilot

from cardtable.app.kings_corner import HELP, KingsCornerApp
from cardtable.app.screens import TextScreen
from cardtable.bots.kings_corner import make_bot
from cardtable.cards import Card
from cardtable.cli.kings_corner_seat import HumanSeat
from cardtable.kings_corner.actions import DRAW, PASS, MovePile, PlayCard
from cardtable.kings_corner.game import KingsCornerGame
from cardtable.kings_corner.record import HandRecord
from cardtable.kings_corner.session import derive_seed
from cardtable.kings_corner.table import PilePosition
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import hand_stats, played_hands

Script = Callable[[Pilot[None], KingsCornerApp], Awaitable[None]]
N, E, S, W = PilePosition.N, PilePosition.E, PilePosition.S, PilePosition.W

# Seed 3, three bots: you start holding 5h 6h 7s 8c 8h 8s Js (as shown, 1-7) with
# 4c on N, Qd on E, 3s on S and 7c on W.
SEED = 3


def drive(app: KingsCornerApp, script: Script) -> None:
    """Run ``app`` on an 80x24 screen and play ``script`` on it."""

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())


def new_app(seed: int = SEED, **options: object) -> KingsCornerApp:
    options.setdefault("delay", 0)
    return KingsCornerApp(seed=seed, **options)  # type: ignore[arg-type]


def top(app: KingsCornerApp, position: PilePosition) -> str:
    pile = app.game.pile(position)
    return str(pile[-1]) if pile else ""


def hand(app: KingsCornerApp) -> list[str]:
    return [str(card) for card in app.hand_cards]


async def click_card(pilot: Pilot[None], app: KingsCornerApp, card: str) -> None:
    index = hand(app).index(card)
    per_row = app.hand_view.per_row()
    # The hand has a border: its cards start one cell in and one line down.
    await pilot.click("#hand", offset=(1 + 6 * (index % per_row) + 2, 1 + index // per_row))
    await pilot.pause()


async def click_pile(pilot: Pilot[None], position: PilePosition) -> None:
    await pilot.click(f"#pile-{position.name}")
    await pilot.pause()


def test_the_table_shows_piles_deck_players_hand_and_totals() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        screen = "\n".join(f"{s.border_title} {s.render()}" for s in app.query("Static"))
        for words in ("top 4♣", "top Q♦", "20 cards", "Bot 3 7", "Penalty totals: You 0",
                      "1:5♥", "7:J♠", "key c1", "key n"):
            assert words in screen, words

    drive(new_app(), script)


def test_play_a_card_by_its_number_and_a_pile_key() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("2", "w")
        assert top(app, W) == "6h" and "6h" not in hand(app)
        assert app.game.history == (PlayCard(Card.parse("6h"), W),)
        assert app.game.turn == app.me  # still your turn

    drive(new_app(), script)


def test_the_arrows_and_enter_choose_a_card() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("left", "enter")  # from the first card round to the last: Js
        assert app.chosen == Card.parse("Js")
        await pilot.press("e")
        assert top(app, E) == "Js"

    drive(new_app(), script)


def test_play_a_card_by_clicks() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await click_card(pilot, app, "Js")
        assert app.chosen == Card.parse("Js")
        await click_pile(pilot, E)
        assert top(app, E) == "Js" and "Js" not in hand(app)

    drive(new_app(), script)


def test_a_corner_by_c_and_its_number() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        king = next(c for c in app.hand_cards if c.rank == 13)
        await pilot.press(str(app.hand_cards.index(king) + 1), "c", "2")
        assert app.game.pile(PilePosition.SE) == (king,)

    seed = next(s for s in range(100)
                if any(c.rank == 13 for c in KingsCornerGame.from_seed(4, derive_seed(s, 0)).hand(0)))
    drive(new_app(seed), script)


def test_a_pile_move_by_keys_and_by_clicks() -> None:
    # Seed 1 with two bots: E (Jc) moves onto N (Qh); S has a king at its bottom.
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        assert MovePile(E, N) in app.game.legal_actions()
        await pilot.press("e", "n")
        assert app.game.history == (MovePile(E, N),) and not app.game.pile(E)
        await click_pile(pilot, S)
        await click_pile(pilot, PilePosition.NW)
        assert app.game.history[-1] == MovePile(S, PilePosition.NW) and not app.game.pile(S)

    drive(new_app(1, opponents=2), script)


def test_an_illegal_choice_is_explained_and_changes_nothing() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        before = (app.game.piles, hand(app))
        await pilot.press("1", "n")  # 5h on 4c
        assert "Not allowed" in app.message and "5♥" in app.message and "4♣" in app.message  # as the table shows
        assert "4c" not in app.message and "5h" not in app.message
        assert (app.game.piles, hand(app)) == before and app.game.history == ()
        assert app.chosen is None
        await pilot.press("c", "1")  # nothing chosen: a corner never moves
        assert "never moves" in app.message
        await pilot.press("9")
        assert "no card 9" in app.message and app.game.history == ()

    drive(new_app(), script)


def test_undo_takes_back_this_turn_only() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("2", "w", "u")
        assert app.game.history == () and "6h" in hand(app) and top(app, W) == "7c"
        await pilot.press("u")
        assert "Nothing to undo" in app.message
        await pilot.press("d")  # the bots play their turns and it is yours again
        assert app.phase == "you" and app.game.turn == app.me
        played = app.game.history
        await pilot.press("u")
        assert app.game.history == played and "Nothing to undo" in app.message

    drive(new_app(), script)


def test_ending_the_turn_draws_and_the_bots_act_before_the_turn_comes_back() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("d")
        assert app.game.history[0] == DRAW and len(app.hand_cards) == 8
        assert app.game.turn == app.me and app.game.turns >= 4
        assert any(line.startswith("Bot 3") for line in app.recent)
        assert "Your turn" in app.message

    drive(new_app(), script)


def test_the_bots_play_at_the_given_pace_and_space_plays_the_rest() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("d")
        assert app.phase == "bots" and app.game.turn != app.me  # waiting on the timer
        await pilot.press("2")
        assert "bots are playing" in app.message and len(app.game.history) == 1
        await pilot.press("space")
        assert app.phase == "you" and app.game.turn == app.me

    drive(new_app(delay=30), script)


def test_the_bots_act_one_by_one_on_a_short_timer() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("d")
        for _ in range(500):  # ten seconds at most, for a loaded machine
            if app.phase == "you":
                break
            await asyncio.sleep(0.02)
        assert app.phase == "you" and app.game.turns >= 4

    drive(new_app(delay=0.01), script)


def test_the_hint_names_the_plan_and_lights_it_up() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("h")
        assert app.hint and app.hint[0] == PlayCard(Card.parse("Ts"), N)
        assert app.message.startswith("Hint: T♠ on N")
        assert app.piles[N].has_class("hinted") and not app.piles[E].has_class("hinted")
        await pilot.press("escape", "d")
        assert not app.hint

    drive(new_app(6), script)


def test_help_lists_every_key_and_any_key_closes_it() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        for _ in range(2):  # the page is kept, and shows again
            await pilot.press("question_mark")
            assert isinstance(app.screen, TextScreen) and app.screen.text == HELP
            await pilot.press("x")
            assert not isinstance(app.screen, TextScreen)

    drive(new_app(), script)

    for key in ("1-9", "left, right", "n e s w", "c 1-4", "esc", "d ", "u ", "h ", "space", "ctrl+s", "?", "q "):
        assert key in HELP, key


async def play_hand_by_a_bot(pilot: Pilot[None], app: KingsCornerApp) -> None:
    """Let a greedy bot choose your actions, made through the app's own choices."""
    chooser = make_bot("greedy", 5)
    while app.phase == "you":
        action = chooser.choose(app.game.view(app.me))
        if isinstance(action, PlayCard):
            app.choose_card(app.hand_cards.index(action.card))
            app.choose_pile(action.target)
        elif isinstance(action, MovePile):
            app.choose_pile(action.source)
            app.choose_pile(action.target)
        else:
            assert action in (DRAW, PASS)
            app.action_end_turn()
    await pilot.pause()


def test_a_whole_hand_to_its_end_the_totals_and_the_next_hand() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await play_hand_by_a_bot(pilot, app)
        assert app.phase == "hand-over"
        outcome = app.game.outcome()
        assert outcome is not None and app.totals == list(outcome.penalties)  # you sat in seat 0
        assert "next hand" in app.message
        shown = str(app.query_one("#totals").render())
        assert shown == "Penalty totals: " + "  ".join(
            f"{n} {t}" for n, t in zip(["You", "Bot 1", "Bot 2", "Bot 3"], app.totals, strict=True))
        await pilot.press("space")  # hand 2: Bot 3 moves first and you sit in seat 1
        assert app.hand_number == 1 and app.me == 1 and app.names[0] == "Bot 3"
        assert app.game.initial_deck == KingsCornerGame.from_seed(4, derive_seed(SEED, 1)).initial_deck
        assert app.phase == "you" and app.game.turn == 1 and app.game.history  # Bot 3 has played

    drive(new_app(target=1000), script)


def test_the_match_ends_when_a_total_reaches_the_target() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await play_hand_by_a_bot(pilot, app)
        assert app.phase == "match-over" and max(app.totals) >= 1
        assert "Match over" in app.message
        await pilot.press("space", "2", "d")
        assert app.phase == "match-over" and "q quits" in app.message

    drive(new_app(target=1), script)


def test_ctrl_s_saves_the_hand_so_far_as_a_record_that_replays(tmp_path: Path) -> None:
    target = tmp_path / "hand.txt"

    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("1", "n", "d")  # 5h onto... refused or played: either way, then the turn ends
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert f"to {target}" in app.message and "Saved hand 1" in app.message
        record = HandRecord.from_text(target.read_text())
        assert record.tag("Seed") == str(SEED) and record.tag("Names") == "You,Bot 1,Bot 2,Bot 3"
        assert record.actions == app.game.history and record.replay().history == app.game.history
        await pilot.press("ctrl+s")
        assert app.message.count("Saved hand") == 1  # the note is not repeated

    drive(new_app(save_path=target), script)


def test_with_save_every_finished_hand_is_written(tmp_path: Path) -> None:
    target = tmp_path / "hands.txt"

    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await play_hand_by_a_bot(pilot, app)
        assert app.phase == "hand-over"
        record = HandRecord.from_text(target.read_text())
        assert record.replay().outcome() == app.game.outcome()

    drive(new_app(target=1000, save_path=target), script)


def test_each_finished_hand_and_the_match_count_in_the_statistics(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"

    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await play_hand_by_a_bot(pilot, app)
        assert app.phase == "match-over"

    drive(new_app(target=1, stats_path=store), script)
    with ResultsStore(store, create=False) as results:
        (played,) = played_hands(results)
        (stats,) = hand_stats(results)
    assert played.label == "3 expert bots, to 1 point" and played.match_seed == str(SEED) and played.hand == 1
    assert played.match_won is not None and stats.matches == 1 and stats.hands == 1
    assert played.won == (played.penalty == 0)


def test_a_failed_save_is_reported_in_the_app(tmp_path: Path) -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("ctrl+s")
        assert app.message.startswith("Could not save the hand:") and str(tmp_path / "gone") in app.message

    drive(new_app(save_path=tmp_path / "gone" / "hand.txt"), script)


# ----- the command -------------------------------------------------------------------------------


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """``cardtable play kings-corner`` builds its app (or line seat) here instead of running it."""
    started: list[object] = []
    monkeypatch.setattr(KingsCornerApp, "run", lambda self, *a, **k: started.append(self))

    def seat_run(self: HumanSeat) -> int:
        started.append(self)
        return 0

    monkeypatch.setattr(HumanSeat, "run", seat_run)
    return started


def test_the_command_starts_the_app_with_its_options(captured: list[object],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, _err = run(capsys, "play", "kings-corner", "--opponents", "2", "--level", "Greedy",
                             "--seed", "9", "--target", "40", "--delay", "0", "--ascii")
    assert status == 0
    (app,) = captured
    assert isinstance(app, KingsCornerApp)
    assert (app.opponents, app.level, app.seed, app.target, app.delay, app.ascii_only) == (
        2, "greedy", 9, 40, 0.0, True)


def test_the_command_keeps_statistics_where_asked(captured: list[object], capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))
    for argv, expected in ((["--no-stats"], None), (["--store", str(tmp_path / "s.db")], tmp_path / "s.db"),
                           ([], tmp_path / "data" / "results.sqlite")):
        assert run(capsys, "play", "kings-corner", *argv)[0] == 0
        app = captured.pop()
        assert isinstance(app, KingsCornerApp) and app.stats_path == expected


def test_plain_goes_to_the_line_seat(captured: list[object], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "play", "kings-corner", "--plain", "--seed", "4", "--opponents", "1")[0] == 0
    (seat,) = captured
    assert isinstance(seat, HumanSeat) and (seat.seed, seat.opponents, seat.level) == (4, 1, "expert")


def test_plain_sits_you_at_the_line_seat(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    status, out, _err = run(capsys, "play", "kings-corner", "--plain", "--seed", "4", "--delay", "0")
    assert status == 0 and "Kings Corner: you against 3 expert bots" in out and "left the table" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["--opponents", "6"], "--opponents must be at most 5"),
    (["--opponents", "x"], "--opponents must be a whole number"),
    (["--level", "clever"], "unknown bot 'clever'"),
    (["--target", "0"], "--target must be at least 1"),
    (["--delay", "soon"], "--delay"),
    (["--winnable"], "--winnable is not an option of kings-corner"),
    (["--variant", "vegas3"], "--variant is not an option of kings-corner"),
    (["--save", "/nonexistent/x.txt"], "folder /nonexistent does not exist"),
])
def test_bad_input_is_one_line_and_exit_2_before_the_app_starts(
        argv: list[str], words: str, captured: list[object], capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, "play", "kings-corner", *argv)
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1
    assert captured == []


@pytest.mark.parametrize("option", [["--opponents", "2"], ["--plain"], ["--level", "random"], ["--delay", "1"]])
def test_kings_corner_options_are_refused_with_klondike(
        option: list[str], captured: list[object], capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, "play", "klondike", *option)
    assert status == 2 and f"{option[0]} is not an option of klondike" in err
    assert len(err.strip().splitlines()) == 1 and captured == []


def test_ascii_cards() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        shown = f"{app.hand_view.render()} {app.piles[N].render()} {app.query_one('#players').render()}"
        assert "1:5h" in shown and "top 4c" in shown and "♥" not in shown and ">You 7" in shown

    drive(new_app(ascii_only=True), script)


def test_the_match_result_stays_until_m_starts_a_new_match() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("m")
        assert app.phase == "you" and "once this one is over" in app.message  # m does nothing mid-match
        await play_hand_by_a_bot(pilot, app)
        result = app.message
        assert app.phase == "match-over" and "Match over" in result and "m: new match" in result
        await pilot.press("space", "2", "d", "h", "u", "n", "left", "enter")
        assert app.message == result and "Match over" in str(app.query_one("#message").render())
        await pilot.press("m")
        assert app.phase == "you" and app.hand_number == 0 and app.totals == [0, 0, 0, 0]
        assert app.seed == SEED + 1 and "New match (seed 4)" in app.message
        assert app.game.initial_deck == KingsCornerGame.from_seed(4, derive_seed(SEED + 1, 0)).initial_deck

    drive(new_app(target=1), script)
    assert "m " in HELP and "new match" in HELP


def test_the_hint_is_the_experts_plan_from_the_players_view_and_sheds_kings_into_empty_corners() -> None:
    # Seed 10: you hold the kings of diamonds and spades with every corner empty. The strategic
    # plan holds both back (a king left in hand costs 10 points); the expert's plan plays them.
    from cardtable.bots.kings_corner.expert import expert_plan
    from cardtable.bots.kings_corner.strategic import plan_turn
    from cardtable.kings_corner.table import CORNERS

    def kings_to_corners(plan: list[object]) -> set[str]:
        return {str(a.card) for a in plan if isinstance(a, PlayCard) and a.card.rank == 13 and a.target in CORNERS}

    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        view = app.game.view(app.me)
        assert {str(c) for c in view.hand if c.rank == 13} == {"Kd", "Ks"}
        assert all(not view.piles[corner] for corner in CORNERS)
        assert kings_to_corners(plan_turn(view)) == set()
        await pilot.press("h")
        assert kings_to_corners(app.hint) == {"Kd", "Ks"} and "K♠" in app.message and "K♦" in app.message
        first = (list(app.hint), app.message)
        await pilot.press("escape", "h")
        assert (list(app.hint), app.message) == first  # the same view, the same hint
        assert [a for a in expert_plan(view) if a not in (DRAW, PASS)] == app.hint

    drive(new_app(10), script)


def test_an_illegal_choice_is_explained_in_ascii_on_an_ascii_table() -> None:
    async def script(pilot: Pilot[None], app: KingsCornerApp) -> None:
        await pilot.press("1", "n")  # 5h on 4c
        assert "Not allowed" in app.message and "5h" in app.message and "4c" in app.message
        assert "♣" not in app.message

    drive(new_app(ascii_only=True), script)
