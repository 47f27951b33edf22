"""The Klondike card table in a real browser: Debian's Chromium, driven by
Playwright, against ``cardtable serve`` started as a user starts it.

Each check reads the engine's state where the server keeps it (the results
store's ``web_games`` row), not the page. The screenshots go to
``$CARDTABLE_SCREENSHOTS`` when it is set (the docs' pictures come from
there: ``web-klondike.png``, ``web-klondike-phone.png``), else to the test's folder.

Deal 7 (draw 1) starts with the 4♦, 6♦, J♠, 7♠, 3♣, 8♦ and A♣ face up on piles 1 to 7.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    at_rest,
    chromium,
    free_port,
    screenshots,
    start_server,
    stop_servers,
    under_won_box,
    wait_for,
)

from cardtable.klondike import KlondikeRecord
from cardtable.klondike.variant import PRESET_TITLES, PRESETS
from cardtable.runs.store import ResultsStore

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")




class Served:
    """A running ``cardtable serve`` and the games its store keeps."""

    def __init__(self, process: subprocess.Popen[str], port: int, data: Path) -> None:
        self.process = process
        self.url = f"http://127.0.0.1:{port}/"
        self.data = data

    def moves(self) -> list[str] | None:
        """The moves of the one player's game in the store (None: no game kept yet)."""
        record = self.record()
        return None if record is None else [str(move) for move in record.moves]

    def record(self) -> KlondikeRecord | None:
        """The one player's game in the store (None: no game kept yet)."""
        store_path = self.data / "results.sqlite"
        if not store_path.exists():
            return None
        with ResultsStore(store_path, create=False) as store:
            rows = store.select("web_games", ("saved",), order="player", action="read")
        if not rows:
            return None
        assert len(rows) == 1, "one player, one game"
        return KlondikeRecord.parse(rows[0][0])


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[subprocess.Popen[str]] = []

    def start(*options: str, data: Path | None = None) -> Served:
        port = free_port()
        data = data or tmp_path / "data"
        process = start_server(port, data, *options)
        started.append(process)
        return Served(process, port, data)

    yield start
    stop_servers(started)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched



def card(page: Any, name: str) -> Any:
    """The card element with this accessible name ("seven of hearts, pile 3")."""
    return page.get_by_role("button", name=name, exact=True)


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, source: Any, target: Any) -> None:
    """Press on ``source``, move to ``target`` in steps (pointer events), release."""
    x, y = centre(source)
    page.mouse.move(x, y)
    page.mouse.down()
    tx, ty = centre(target)
    page.mouse.move(tx, ty, steps=12)
    page.mouse.up()


def test_drag_click_double_click_keys_and_reload(serve: Callable[..., Served], browser: Any,
                                                 tmp_path: Path) -> None:
    served = serve("klondike", "--seed", "7")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(served.url)
    assert page.title() == "cardtable: Klondike"
    six = card(page, "six of diamonds, pile 2")
    six.wait_for()

    # An illegal drop (the 4♦ onto the J♠) snaps back and changes nothing; it is explained in words.
    four = card(page, "four of diamonds, pile 1")
    home = four.bounding_box()
    drag(page, four, card(page, "jack of spades, pile 3"))
    refusal = "The four of diamonds cannot go on the jack of spades: a card must be one rank lower"
    wait_for(lambda: refusal in page.locator("#message").inner_text(), "the refusal to be said")
    assert not CARD.search(page.locator("#message").inner_text()) and "1>3" not in page.locator("#message").inner_text()
    assert served.moves() == []  # the deal is kept from the first view, with no move
    wait_for(lambda: four.bounding_box() == home, "the four of diamonds to snap back")

    # A drag with the mouse: the 6♦ onto the 7♠.
    drag(page, six, card(page, "seven of spades, pile 4"))
    wait_for(lambda: served.moves() == ["2>4"], "the dragged move to reach the engine")
    card(page, "six of diamonds, pile 4").wait_for()

    # Click, then click: the 3♣ onto the 4♦.
    card(page, "three of clubs, pile 5").click()
    card(page, "four of diamonds, pile 1").click()
    wait_for(lambda: served.moves() == ["2>4", "5>1"], "the clicked move to reach the engine")

    # A double-click sends the A♣ home.
    card(page, "ace of clubs, pile 7").dblclick()
    wait_for(lambda: served.moves() == ["2>4", "5>1", "7>F"], "the ace to go home")
    card(page, "ace of clubs, foundation").wait_for()

    # The keys of the terminal app: d draws, u undoes.
    page.keyboard.press("d")
    wait_for(lambda: served.moves() == ["2>4", "5>1", "7>F", "D"], "d to draw")
    page.keyboard.press("u")
    wait_for(lambda: served.moves() == ["2>4", "5>1", "7>F"], "u to undo")
    wait_for(lambda: "Moves 3" in page.locator("#status").inner_text(), "the page to show the undo")
    assert page.locator("#message").get_attribute("aria-live") == "polite"

    # A reload opens the same game at the same move.
    page.reload()
    card(page, "ace of clubs, foundation").wait_for()
    card(page, "three of clubs, pile 1").wait_for()
    wait_for(lambda: "Moves 3" in page.locator("#status").inner_text(), "the reloaded page's status")

    # The page never received a card its player could not see: the cards still face down or in the stock.
    from cardtable.klondike import KlondikeGame

    game = KlondikeGame.from_seed(7)
    for move in ("2>4", "5>1", "7>F"):
        game.play(game.parse_action(move))
    hidden = {str(c) for pile in range(7) for c in game.tableau[pile][:game.face_down[pile]]}
    hidden |= {str(c) for c in game.stock[:-1]}  # the top stock card was drawn once, then undone
    named = {c for frame in frames for c in CARD.findall(frame)}
    assert frames and not named & hidden, sorted(named & hidden)
    assert all(json.loads(frame)["type"] in ("view", "error", "hint", "notice") for frame in frames)
    context.close()


def test_a_server_restart_restores_the_game(serve: Callable[..., Served], browser: Any) -> None:
    served = serve("klondike", "--seed", "7")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url)
    # The keyboard alone: 7 picks up the ace, f sends it home; Tab and Enter pick up and put down.
    card(page, "ace of clubs, pile 7").wait_for()
    page.keyboard.press("7")
    page.keyboard.press("f")
    wait_for(lambda: served.moves() == ["7>F"], "7 then f to send the ace home")
    card(page, "ace of clubs, foundation").wait_for()  # the page has drawn the move: nothing redraws under the focus
    card(page, "three of clubs, pile 5").focus()
    page.keyboard.press("Enter")
    card(page, "four of diamonds, pile 1").focus()
    page.keyboard.press("Enter")
    wait_for(lambda: served.moves() == ["7>F", "5>1"], "Enter, Enter to move the three")
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=15) == 0
    assert "Traceback" not in served.process.communicate()[1]
    # A new server on the same data folder: the cookie (which names no port) brings the same game back.
    again = serve("klondike", "--seed", "7", data=served.data)
    page.goto(again.url)
    card(page, "ace of clubs, foundation").wait_for()
    card(page, "three of clubs, pile 1").wait_for()
    wait_for(lambda: "Moves 2" in page.locator("#status").inner_text(), "the restored game's status")

    # New game, deal 12.
    page.get_by_role("button", name="New game").click()
    page.locator('input[name="number"]').fill("12")
    page.get_by_role("button", name="Deal", exact=True).click()
    wait_for(lambda: (record := again.record()) is not None and record.headers.get("Seed") == "12"
             and not record.moves, "deal 12 to be dealt")
    wait_for(lambda: "Moves 0" in page.locator("#status").inner_text(), "the new deal's status")
    context.close()


def test_a_phone_with_touch_draws_when_the_stock_is_tapped(serve: Callable[..., Served], browser: Any,
                                                          tmp_path: Path) -> None:
    served = serve("klondike", "--seed", "7")
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(served.url)
    stock = page.locator('[data-slot="stock"]')
    stock.wait_for()
    # The seven piles fit the width of the phone.
    last = card(page, "ace of clubs, pile 7").bounding_box()
    assert last["x"] + last["width"] <= PHONE["width"]
    stock.tap()
    wait_for(lambda: served.moves() == ["D"], "the tap to draw")
    drawn = card(page, "nine of clubs, waste")
    drawn.wait_for()
    waste = page.locator('[data-slot="waste"]')
    # The drawn card slides from the stock and comes to rest on the waste.
    wait_for(lambda: abs(drawn.bounding_box()["x"] - waste.bounding_box()["x"]) < 3, "the card to reach the waste")
    # Settings: a red card back on blue felt, kept by this browser across a reload.
    page.locator('button[data-action="settings"]').tap()
    page.select_option('select[name="back"]', "red")
    page.select_option('select[name="felt"]', "blue")
    page.reload()
    card(page, "nine of clubs, waste").wait_for()
    assert page.evaluate("[document.documentElement.dataset.back, document.documentElement.dataset.felt]") \
        == ["red", "blue"]
    context.close()


#: Plays moves on the player's game through a second socket of the same page (the same player),
#: one after another, a little under the server's rate limit.
_PLAY_LINE = """async (moves) => {
  const ws = new WebSocket(new URL("/ws", location.href).href.replace("http", "ws"));
  const next = () => new Promise((resolve) => ws.addEventListener("message", (e) => resolve(JSON.parse(e.data)),
                                                                   { once: true }));
  await next();
  for (const move of moves) {
    ws.send(JSON.stringify({ type: "move", move }));
    const reply = await next();
    if (reply.type !== "view") return reply.message;
    await new Promise((resolve) => setTimeout(resolve, 22));
  }
  ws.close();
  return "ok";
}"""


def _solved_line(seed: int) -> list[str]:
    from cardtable.klondike import Position, Variant
    from cardtable.solver import solve

    return [str(move) for move in solve(Position.from_seed(seed), Variant.preset("draw1")).moves]


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_whole_game_won_through_the_page(serve: Callable[..., Served], browser: Any, motion: str) -> None:
    from cardtable.klondike import KlondikeGame

    line = _solved_line(7)
    served = serve("klondike", "--seed", "7")
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    page.goto(served.url)
    card(page, "ace of clubs, pile 7").wait_for()
    assert page.evaluate(_PLAY_LINE, line[:-1]) == "ok"
    game = KlondikeGame.from_seed(7)
    for move in line[:-1]:
        game.play(game.parse_action(move))
    last = game.parse_action(line[-1])
    (moved,) = game.moved_cards(last)
    where = "waste" if line[-1].startswith("W") else f"pile {last.source + 1}"
    # The page followed the other socket's moves; its last card goes home with a double-click.
    card(page, f"{moved.name()}, {where}").dblclick()
    wait_for(lambda: served.moves() == line, "the winning move")
    page.locator("#won").wait_for(state="visible")
    assert "You won!" in page.locator("#message").inner_text()
    assert under_won_box(page) == []
    page.set_viewport_size(PHONE)  # drawn again for the phone: the box moves, and still hides nothing
    assert under_won_box(page) == []
    page.set_viewport_size(DESKTOP)
    # unlimited passes: the empty stock says neither "turn over" (nothing to turn) nor "no pass left"
    assert page.locator('[data-slot="stock"]').evaluate("(el) => [...el.classList].filter((c) => c !== 'slot'"
                                                        " && c !== 'stock')") == []
    # The celebration: cards bouncing on a canvas, unless the player asked for reduced motion.
    cheer = page.locator("#cheer")
    if motion == "reduce":
        assert page.evaluate("document.documentElement.dataset.cheer") == "skipped" and cheer.is_hidden()
    else:
        assert page.evaluate("document.documentElement.dataset.cheer") == "running" and cheer.is_visible()
        wait_for(lambda: page.evaluate("""() => {
            const c = document.getElementById("cheer"), ctx = c.getContext("2d");
            const data = ctx.getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < data.length; i += 4 * 97) if (data[i]) return true;
            return false; }"""), "cards drawn on the celebration's canvas")
        page.mouse.click(5, DESKTOP["height"] - 5)  # a click ends it
        wait_for(cheer.is_hidden, "the celebration to end on a click")
    # The win is in the player's statistics (the Statistics dialog asks the server, which asks play_stats).
    page.get_by_role("button", name="Statistics").click()
    row = page.locator("#stats-rows tr").first
    wait_for(lambda: row.inner_text().split() == ["draw1", "1", "1", "100%", *row.inner_text().split()[4:5],
                                                   str(len(line)), "1", "1"], "the win in the statistics")
    context.close()


def test_cannot_be_won_is_said_once_every_card_has_been_seen(serve: Callable[..., Served], browser: Any) -> None:
    # Deal 30 with one pass through the stock: these moves (the greedy player's) turn up every card and
    # leave a game the solver proves lost. The notice waits for the last card seen: before it, nothing is said.
    from cardtable.bots.klondike.hint import every_card_seen
    from cardtable.klondike import KlondikeGame, Variant
    from cardtable.web.klondike import LOST_NOTICE, proven_lost

    text = ("D D 1>7 W>1 4>1 2>4 2>F 5>F D D W>F 4>F 4>F D D D W>7 D W>7 D D W>F D W>5 D W>F 4>F 7>4:4 7>F D D D "
            "D W>4 D W>3 D W>7 D D W>F 6>F W>6 W>6 7>F D D W>5 3>5:2 6>3:3 5>6:5 6>1:6 5>1 5>6 5>F 4>F 1>F 7>F "
            "7>F 7>F 7>F W>7 4>F 1>F 1>F 3>F 1>7 1>F D W>2 W>2 3>2:3 D W>5 6>5:2 6>F")
    line = text.split()
    game = KlondikeGame.from_seed(30, Variant.preset("draw1").replace(passes=1))
    for move in line[:-1]:
        game.play(game.parse_action(move))
    assert not every_card_seen(game)
    game.play(game.parse_action(line[-1]))
    assert every_card_seen(game) and proven_lost(game)

    served = serve("klondike", "--seed", "30", "--passes", "1")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url)
    page.locator("html[data-drawn]").wait_for(state="attached")
    assert page.evaluate(_PLAY_LINE, line[:-1]) == "ok"
    wait_for(lambda: served.moves() == line[:-1], "all but the last move")
    page.wait_for_timeout(1500)  # the verdict has had its time (it is searched 0.3 s after a pause)
    assert LOST_NOTICE not in page.locator("#message").inner_text()
    assert page.evaluate(_PLAY_LINE, line[-1:]) == "ok"
    wait_for(lambda: LOST_NOTICE in page.locator("#message").inner_text(), "the cannot-be-won notice")
    context.close()


@pytest.mark.parametrize(("size", "name"), [("desktop", "web-klondike.png"), ("phone", "web-klondike-phone.png")])
def test_screenshots_of_a_game_in_play(serve: Callable[..., Served], browser: Any, tmp_path: Path, size: str,
                                       name: str) -> None:
    # The docs' pictures: deal 7, forty moves into the solver's line, at desktop and phone size.
    line = _solved_line(7)[:40]
    served = serve("klondike", "--seed", "7")
    phone = size == "phone"
    context = browser.new_context(viewport=PHONE if phone else DESKTOP, device_scale_factor=2 if phone else 1,
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.goto(served.url)
    page.locator("html[data-drawn]").wait_for(state="attached")
    assert page.evaluate(_PLAY_LINE, line) == "ok"
    wait_for(lambda: f"Moves {len(line)}" in page.locator("#status").inner_text(), "the page to follow")
    # The layout fills the window: the seven piles span most of its width, and no card lies outside it.
    viewport = PHONE if phone else DESKTOP
    boxes = [box for box in (el.bounding_box() for el in page.locator(".card").all()) if box]
    assert min(b["x"] for b in boxes) >= 0 and max(b["x"] + b["width"] for b in boxes) <= viewport["width"]
    assert max(b["y"] + b["height"] for b in boxes) <= viewport["height"]
    piles = [page.locator(f'[data-slot="p{p}"]').bounding_box() for p in (0, 6)]
    assert piles[1]["x"] + piles[1]["width"] - piles[0]["x"] > 0.6 * viewport["width"]
    at_rest(page)  # the last move's cards lie still
    page.screenshot(path=str(screenshots(tmp_path) / name))
    context.close()


def test_statistics_and_arrow_keys_from_the_keyboard(serve: Callable[..., Served], browser: Any) -> None:
    served = serve("klondike", "--seed", "7", "--scoring", "vegas", "--cumulative")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url)
    card(page, "ace of clubs, pile 7").wait_for()
    assert "Vegas balance -$52" in page.locator("#status").inner_text()
    # t opens the statistics (none yet), as in the terminal app; Escape closes them.
    page.keyboard.press("t")
    dialog = page.locator("#stats")
    dialog.wait_for(state="visible")
    wait_for(lambda: "No games finished yet." in dialog.inner_text(), "the statistics to be read")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    # The arrow keys go from card to card: right from pile 1's four of diamonds reaches pile 2's six.
    card(page, "four of diamonds, pile 1").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "six of diamonds, pile 2"
    page.keyboard.press("ArrowUp")  # the waste above it (empty): a slot, named
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "waste, empty"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # picks up the six, then it goes onto the seven of spades with the keys
    page.keyboard.press("4")
    wait_for(lambda: served.moves() == ["2>4"], "the six to move onto the seven")
    wait_for(lambda: "Vegas balance -$52" in page.locator("#status").inner_text(), "the balance to stand")
    context.close()


def test_the_pass_through_the_stock_is_counted_from_one(serve: Callable[..., Served], browser: Any) -> None:
    # Vegas, draw 3, three passes: before any move the player is in the first of three passes.
    served = serve("klondike", "--seed", "7", "--variant", "vegas3")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url)
    card(page, "ace of clubs, pile 7").wait_for()
    status = page.locator("#status")
    assert "Pass 1 of 3" in status.inner_text() and "left" not in status.inner_text()
    for _ in range(8):  # three cards a draw: the whole stock of 24
        page.keyboard.press("d")
    wait_for(lambda: served.moves() == ["D"] * 8, "the stock to be drawn")
    stock = page.locator('[data-slot="stock"]')
    wait_for(lambda: stock.evaluate("(el) => el.classList.contains('recycle') && !el.classList.contains('spent')"),
             "the sign to turn the waste over")
    page.keyboard.press("d")  # the waste turned over: the second pass
    wait_for(lambda: "Pass 2 of 3" in status.inner_text(), "the second pass to be shown")
    for _ in range(9):  # the rest of the second pass, the waste turned over, the third pass
        page.keyboard.press("d")
    wait_for(lambda: "Pass 3 of 3" in status.inner_text(), "the third pass to be shown")
    for _ in range(8):
        page.keyboard.press("d")
    wait_for(lambda: served.moves() == ["D"] * 8 + ["R"] + ["D"] * 8 + ["R"] + ["D"] * 8, "the last pass drawn")
    wait_for(lambda: stock.evaluate("(el) => el.classList.contains('spent') && !el.classList.contains('recycle')"),
             "the sign that no pass is left")
    context.close()


def test_a_win_shows_the_same_time_on_the_table_and_in_the_statistics(serve: Callable[..., Served], browser: Any,
                                                                     tmp_path: Path) -> None:
    # A player's game won after 10 min 2.7 s, kept as the server keeps it: the table's clock and the
    # statistics' best time are one clock with one rounding (whole seconds gone by: 10:02).
    import time

    from cardtable.klondike import Variant
    from cardtable.sim.played import record_played
    from cardtable.web.klondike import KlondikeDealer
    from cardtable.web.server import COOKIE

    line = _solved_line(7)
    table = KlondikeDealer(Variant.preset("draw1"), seed=7).first()
    for move in line[:-1]:
        table.apply({"type": "move", "move": move})
    table.started = time.time() - 602.7
    table.apply({"type": "move", "move": line[-1]})
    assert table.game.is_won() and table.won_after is not None and 602.7 <= table.won_after < 603
    player = "p" * 20
    data = tmp_path / "data"
    data.mkdir()
    with ResultsStore(data / "results.sqlite") as store:
        for game in table.take_finished():
            record_played(store, game, player=player)
        store.put_rows("web_games", [{"player": player, "game": "klondike", "saved": table.saved(),
                                      "started": table.started, "updated": "2026-01-01T00:00:00+00:00"}],
                       action="keep a game")
    served = serve("klondike", "--seed", "7", data=data)
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": COOKIE, "value": player, "url": served.url}])
    page = context.new_page()
    page.goto(served.url)
    page.locator("#won").wait_for(state="visible")
    assert page.locator("#st-time").inner_text() == "10:02"
    page.get_by_role("button", name="Statistics").click()
    row = page.locator("#stats-rows tr").first
    wait_for(lambda: row.inner_text().split()[:3] == ["draw1", "1", "1"], "the win in the statistics")
    assert row.inner_text().split()[4] == "10:02"
    context.close()


def test_a_new_visitor_who_reloads_before_the_first_move_sees_the_same_deal(serve: Callable[..., Served],
                                                                           browser: Any) -> None:
    served = serve("klondike")  # a random deal for each new player
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url)
    page.locator("html[data-drawn]").wait_for(state="attached")
    tops = page.evaluate("[...document.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card).sort()")
    assert len(tops) == 7
    page.reload()
    page.locator("html[data-drawn]").wait_for(state="attached")
    assert page.evaluate("[...document.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card).sort()") \
        == tops
    assert served.moves() == []
    context.close()


#: The page's first connection is refused (its address turned to a closed port); the ones after go through.
_FIRST_SOCKET_REFUSED = """(() => {
  const Real = window.WebSocket;
  let first = true;
  window.WebSocket = function (url, protocols) {
    if (first) { first = false; url = "ws://127.0.0.1:9/ws"; }
    return new Real(url, protocols);
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();"""


def test_the_new_game_dialog_opened_before_the_connection_gets_the_rule_sets(serve: Callable[..., Served],
                                                                             browser: Any) -> None:
    """A player quicker than the connection: the dialog asks for the named rule sets again once it is up."""
    served = serve("klondike", "--seed", "7")
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.add_init_script(_FIRST_SOCKET_REFUSED)
    page.goto(served.url)
    page.locator('#table[data-state="connecting"]').wait_for(state="attached")  # the first try failed
    page.get_by_role("button", name="New game").first.click()
    rules = page.locator("dialog#deal").get_by_label("Rules")
    wait_for(lambda: rules.locator("option").count() > 1, "the named rule sets in the dialog")
    assert rules.locator("option").all_inner_texts()[1:] == [PRESET_TITLES[name] for name in PRESETS]
    page.locator('#table[data-state="ready"]').wait_for(state="attached")
    context.close()
