"""Kings Corner at the browser table, in a real browser: Debian's Chromium,
driven by Playwright, against ``cardtable serve kings-corner`` started as a
user starts it.

Two browser contexts (two people, each with their own cookie) share a table
of three: the host on a desktop with the mouse, the guest on a phone with
touch; an expert bot takes the third seat. Each check of the game reads the
engine's state where the server keeps it (the results store's row of the
table), not the page. The screenshots go to ``$CARDTABLE_SCREENSHOTS`` when
it is set (the docs' pictures: ``web-kings-corner.png``,
``web-kings-corner-phone.png``), else to the test's folder.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, free_port, screenshots, start_server, stop_servers, wait_for

from cardtable.kings_corner import KingsCornerGame, parse_action

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


class Served:
    """A running ``cardtable serve kings-corner`` and the table its store keeps."""

    def __init__(self, process: subprocess.Popen[str], port: int, data: Path) -> None:
        self.process = process
        self.url = f"http://127.0.0.1:{port}/"
        self.data = data

    def table(self) -> dict[str, Any] | None:
        """The one shared table in the store (None: none kept yet)."""
        store_path = self.data / "results.sqlite"
        if not store_path.exists():
            return None
        # Read-only, straight through SQLite: polling never competes with the server's writes.
        with contextlib.closing(sqlite3.connect(f"file:{store_path}?mode=ro", uri=True, timeout=5)) as db:
            try:
                rows = db.execute("SELECT player, saved FROM web_games ORDER BY player").fetchall()
            except sqlite3.OperationalError:  # the server is still making the store
                return None
        tables = [json.loads(saved) for player, saved in rows if player.startswith("table:")]
        assert len(tables) <= 1, "one table"
        return tables[0] if tables else None

    def actions(self) -> list[str]:
        table = self.table()
        return [] if table is None or table["actions"] is None else list(table["actions"])

    def game(self) -> KingsCornerGame:
        """The hand in play, replayed from the store."""
        table = self.table()
        assert table is not None
        from cardtable.kings_corner import KingsCornerSession

        session = KingsCornerSession([None] * table["seats"], table["seed"], hand=table["hand"])
        for action in table["actions"]:
            session.game.play(parse_action(action))
        return session.game


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[subprocess.Popen[str]] = []

    def start(*options: str) -> Served:
        port = free_port()
        data = tmp_path / "data"
        process = start_server(port, data, "kings-corner", *options, stderr=(tmp_path / "stderr.txt").open("w"))
        started.append(process)
        return Served(process, port, data)

    yield start
    stop_servers(started)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def centre(locator: Any) -> tuple[float, float]:
    """The middle of the element (found again if the page redrew it meanwhile)."""
    box = wait_for(locator.bounding_box, "the element's box")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, source: Any, target: Any) -> None:
    """Press on ``source`` (near its left edge: a fanned card shows only that), move to ``target`` in steps
    (pointer events), release."""
    box = wait_for(source.bounding_box, "the element's box")
    x, y = box["x"] + 10, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    tx, ty = centre(target)
    page.mouse.move(tx, ty, steps=10)
    page.mouse.up()


class Seat:
    """A person's page and every table message it received."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[str] = []
        self.sent: list[str] = []
        self.errors: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: self.sent.append(str(payload))))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames.append(str(payload))))

    def views(self) -> list[dict[str, Any]]:
        self.page.wait_for_timeout(5)  # let Playwright deliver the frames received meanwhile
        return [m["view"] for m in map(json.loads, self.frames) if m.get("type") == "table"]

    def view(self) -> dict[str, Any]:
        views = self.views()
        return views[-1] if views else {}


def own_cards_only(seat: Seat) -> None:
    """Every card named in a message this page received is in its own hand or on a pile then."""
    for frame in seat.frames:
        message = json.loads(frame)
        if message.get("type") != "table":
            continue
        view = message["view"]
        public = {card for pile in view.get("piles", []) for card in pile}
        for step in message["steps"]:
            public.update(card for pile in step["piles"] for card in pile)
        allowed = public | set(view.get("hand", []))
        named = set(CARD.findall(frame))
        assert named <= allowed, f"a message named cards this seat cannot see: {sorted(named - allowed)}"


def test_two_browsers_share_a_table_with_a_bot(serve: Callable[..., Served], browser: Any, tmp_path: Path) -> None:
    served = serve("--seed", "11", "--opponents", "2", "--target", "1", "--seat-timeout", "30")
    host_context = browser.new_context(viewport=DESKTOP)
    host = Seat(host_context.new_page())
    host.page.add_init_script("localStorage.setItem('cardtable.kc-pace', '0')")
    host.page.goto(served.url)
    assert host.page.title() == "cardtable: Kings Corner"
    host.page.locator("#open input[name=name]").fill("Ann")
    host.page.locator("#open-seats").select_option("3")
    host.page.get_by_role("button", name="Open the table").click()
    host.page.locator("#lobby").wait_for()
    link = host.page.url
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/kc/[A-Za-z0-9_-]{10,32}", link)

    guest_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    guest = Seat(guest_context.new_page())
    guest.page.add_init_script("localStorage.setItem('cardtable.kc-pace', '0')")
    guest.page.goto(link)
    guest.page.locator("#sit-name").fill("Bob")
    guest.page.get_by_role("button", name="Take a seat").tap()
    wait_for(lambda: "Bob" in host.page.locator("#lobby-seats").inner_text(), "the host to see the guest seated")
    assert guest.page.locator("#start").is_hidden(), "only the host starts the match"
    host.page.get_by_role("button", name="Start the match").click()
    wait_for(lambda: host.view().get("phase") == "playing" and guest.view().get("phase") == "playing",
             f"the match to start on both pages ({host.page.locator('#message').inner_text()}, {host.frames[-1:]})")
    names = [p["name"] for p in host.view()["players"]]
    assert sorted(names) == ["Ann", "Bob", "Expert bot 3"]
    # The players' row wraps on a phone: the table still fits the window, nothing overlaps.
    for seat in (host, guest):
        assert layout_problem(seat.page) is None, layout_problem(seat.page)
    guest.page.set_viewport_size({"width": 360, "height": 640})  # a small phone
    with contextlib.suppress(BaseException):
        wait_for(lambda: layout_problem(guest.page) is None, "the table to fit a small phone", timeout=5)
    assert layout_problem(guest.page) is None, layout_problem(guest.page)
    guest.page.set_viewport_size(PHONE)

    # Each page shows its own hand, and only it.
    game = served.game()
    for seat in (host, guest):
        mine = seat.view()["you"]
        shown = sorted(seat.page.locator(".hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        wait_for(lambda seat=seat, mine=mine: sorted(  # type: ignore[misc]
            seat.page.locator(".hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
            == sorted(str(c) for c in served.game().hand(mine)), "the page's hand to be its seat's hand")
        shown = sorted(seat.page.locator(".hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert shown == sorted(str(card) for card in game.hand(mine))
    assert host.page.get_by_role("button", name=f"{game.hand(host.view()['you'])[0].name()}, your hand").count() == 1

    # An illegal drop changes nothing: a card the north pile's top does not take.
    wait_for(lambda: host.view().get("yourTurn") or guest.view().get("yourTurn"), "a person's turn")
    before = served.actions()
    if host.view()["yourTurn"]:
        north_top = host.view()["piles"][0][-1]
        legal = set(host.view()["legal"])
        wrong = next((c for c in host.view()["hand"] if f"play {c} N" not in legal), None)
        if wrong is not None and north_top:
            drag(host.page, host.page.locator(f'.hand [data-card="{wrong}"]'), host.page.locator('[data-pile="N"]'))
            wait_for(lambda: "Illegal action" in host.page.locator("#message").inner_text(), "the refusal")
            assert served.actions() == before

    # Play the hand: the host drags with the mouse, the guest taps on the phone; turns pass between them.
    acted = {"host": 0, "guest": 0}
    ways: set[tuple[str, str]] = set()  # (how, what): the ways cards and piles were played
    reloaded = animated = False
    for _ in range(400):
        wait_for(lambda: host.view().get("played") == guest.view().get("played") == len(served.actions()),
                 "both pages to show the table as the engine holds it")
        wait_for(lambda: host.view().get("yourTurn") or guest.view().get("yourTurn")
                 or host.view().get("phase") != "playing", "a person's turn or the end of the hand")
        if host.view()["phase"] != "playing":
            break
        who = "host" if host.view()["yourTurn"] else "guest"
        if who == "guest" and acted["guest"] == 2 and not reloaded:
            reload_takes_the_seat_back(guest)
            reloaded = True
        if who == "host" and acted["host"] == 8:
            host.page.screenshot(path=str(screenshots(tmp_path) / "web-kings-corner.png"))
        if who == "guest" and acted["guest"] == 8:
            guest.page.screenshot(path=str(screenshots(tmp_path) / "web-kings-corner-phone.png"))
        how = ("finger" if acted["guest"] % 2 else "touch") if who == "guest" else \
            "keys" if acted["host"] % 2 else "mouse"
        legal = (host if who == "host" else guest).view()["legal"]
        ends_turn = not [a for a in legal if a.startswith(("play", "move"))]
        watch = who == "guest" and ends_turn and acted["guest"] >= 4 and not animated
        if watch:  # the host watches the others' plays at the slow pace
            host.page.locator("#pace").select_option("1200")
        keep_focus = who == "guest" and acted["guest"] == 3
        if keep_focus:  # a keyboard player waiting on the north pile keeps it when the page redraws
            host.page.locator('[data-pile="N"]').focus()
            host.page.evaluate("document.activeElement.dataset.before = 'yes'")
        done = take_turn(served, host if who == "host" else guest, how=how)
        if keep_focus:
            wait_for(lambda: host.page.evaluate(
                "(() => { const el = document.activeElement;"
                " return Boolean(el && el.dataset.pile === 'N' && !el.dataset.before); })()"),
                "the host's focus to come back to the north pile, redrawn")
        ways.add((how, done.split()[0]))
        if watch:
            skip = host.page.get_by_role("button", name="Skip")
            wait_for(skip.is_visible, "the host's page to show the plays one by one")
            assert host.page.locator("#message").inner_text().startswith(("Bob ", "Expert bot 3 "))
            host.page.keyboard.press("s")
            wait_for(skip.is_hidden, "Skip to show the table as it is")
            host.page.locator("#pace").select_option("0")
            animated = True
        assert not host.errors and not guest.errors, (host.errors, guest.errors)
        acted[who] += 1
    assert acted["host"] > 8 and acted["guest"] > 8 and reloaded and animated
    assert (screenshots(tmp_path) / "web-kings-corner.png").exists()
    assert (screenshots(tmp_path) / "web-kings-corner-phone.png").exists()
    assert {("mouse", "move"), ("mouse", "play"), ("keys", "play"), ("finger", "play")} <= ways, ways

    # The match (to 1 point) is over: the result stays, with a New match button and the hand's record.
    wait_for(lambda: host.view().get("phase") == "match-over", "the match to end")
    host.page.locator("#result").wait_for()
    assert host.page.get_by_role("button", name="New match").is_visible()
    table = served.table()
    assert table is not None
    seats = [name for _, name in table["entries"]]
    game = served.game()
    bot_seat = next(s for s in range(3) if s == (seats.index("Expert bot 3") + table["hand"]) % 3)
    assert any(game_action for game_action in _actions_by_seat(game, bot_seat)), "the bot played its seat"
    record = served.data / "kings-corner" / "tables" / f"{table['id']}-match-1-hand-1.txt"
    assert record.is_file()
    replay = subprocess.run([sys.executable, "-m", "cardtable", "kings-corner", "replay", str(record)],
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert re.search(r"wins in turn|stalemate after", replay.stdout)
    download = host.page.request.get(f"{served.url}kc/{table['id']}/match-1/hand-1.txt")
    assert download.ok and download.text() == record.read_text()

    # Statistics (the key t, or the button): the hand counted for this person, at this kind of table.
    host.page.keyboard.press("t")
    current = host.page.locator("#stats-rows tr.current")
    wait_for(lambda: current.count() == 1, "the host's statistics")
    cells = current.locator("th, td").all_inner_texts()
    assert cells[:2] == ["1 person and 1 expert bot, to 1 point", "1"] and cells[4] == "1", cells
    host.page.screenshot(path=str(screenshots(tmp_path) / "web-kings-corner-stats.png"))
    host.page.keyboard.press("Escape")
    guest.page.get_by_role("button", name="Statistics").tap()
    wait_for(lambda: guest.page.locator("#stats-rows tr.current").count() == 1, "the guest's statistics")

    for seat in (host, guest):
        own_cards_only(seat)

    # Back at /kc, the guest finds the table again under Your tables, and its link leads to it.
    table_url = guest.page.url
    guest.page.goto(f"{served.url}kc")
    mine = guest.page.locator("#mine-list li")
    wait_for(lambda: mine.count() == 1, "the guest's table listed at /kc")
    assert "Ann" in mine.first.inner_text() and "Bob" in mine.first.inner_text(), mine.first.inner_text()
    guest.page.screenshot(path=str(screenshots(tmp_path) / "web-kings-corner-your-tables.png"))
    mine.first.get_by_role("link").tap()
    guest.page.wait_for_url(table_url)
    host_context.close()
    guest_context.close()


def hand_shown(page: Any) -> list[str]:
    return sorted(page.locator(".hand [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))


def reload_takes_the_seat_back(seat: Seat) -> None:
    """Reload the page: the same seat, with the same hand, comes back."""
    hand_before = sorted(seat.view()["hand"])
    frames = len(seat.frames)
    seat.page.reload()
    wait_for(lambda: len(seat.frames) > frames and len(hand_shown(seat.page)) == len(hand_before),
             f"the reloaded page's hand {hand_before} {hand_shown(seat.page)} {seat.frames[-1][:300]} {seat.errors}"
             f" {seat.page.locator('#kc').inner_text()[:300]}")
    assert hand_shown(seat.page) == hand_before, "a reload takes the seat back with its hand"
    assert seat.page.locator(".seat.you").count() == 1


def touch(page: Any, points: list[tuple[float, float]]) -> None:
    """One finger through Chromium's DevTools protocol: down on the first point, along the others, lifted
    (the page receives pointer events of type touch)."""
    cdp = page.context.new_cdp_session(page)
    try:
        (x, y), rest = points[0], points[1:]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
        for x, y in rest:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 1}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """A finger on ``source`` (near its left edge), moved to ``target`` in steps and lifted."""
    box = wait_for(source.bounding_box, "the element's box")
    x, y = box["x"] + 10, box["y"] + box["height"] / 2
    tx, ty = centre(target)
    touch(page, [(x, y), *((x + (tx - x) * step / 10, y + (ty - y) * step / 10) for step in range(1, 11))])


def tap(page: Any, target: Any) -> None:
    """A finger down and up on ``target``."""
    target.wait_for(state="visible")
    touch(page, [centre(target)])


def layout_problem(page: Any) -> str | None:
    """What is wrong with the table's layout, if anything: the players' row, the
    cross of piles, the hand, the End turn button and the message line must be
    stacked inside the window, each below the last, none overlapping."""
    parts = {"the players": page.locator("#seats"), "the cross": page.locator("#cross"),
             "the hand": page.locator("#hand"), "End turn": page.get_by_role("button", name=re.compile(r"End turn")),
             "the message line": page.locator("#message")}
    boxes = {name: wait_for(locator.bounding_box, f"the box of {name}") for name, locator in parts.items()}
    names = list(boxes)
    for above, below in itertools.pairwise(names):
        if boxes[above]["y"] + boxes[above]["height"] > boxes[below]["y"] + 1:
            return f"{above} {boxes[above]} overlaps {below} {boxes[below]}"
    bottom = boxes[names[-1]]["y"] + boxes[names[-1]]["height"]
    height = page.evaluate("window.innerHeight")
    return f"the message line ends at {bottom:.0f}, below the window's {height}" if bottom > height + 1 else None


def take_turn(served: Served, seat: Seat, *, how: str) -> str:
    """Play the first card or pile the seat may play (``how``: a drag with the ``mouse`` or a ``finger``;
    ``touch``: tap, then tap; ``keys``: Enter on the focused card, then on the focused pile), else end the
    turn with the button (or the ``d`` key); check that the engine took it. The action played."""
    page, view, count = seat.page, seat.view(), len(served.actions())
    plays = [a for a in view["legal"] if a.startswith(("play", "move"))]
    if plays:
        words = plays[0].split()
        source = page.locator(f'.hand [data-card="{words[1]}"]') if words[0] == "play" \
            else page.locator(f'[data-pile="{words[1]}"]')
        target = page.locator(f'[data-pile="{words[2]}"]')
        if how == "touch":
            source.tap(position={"x": 10, "y": 30})
            target.tap()
        elif how == "finger":
            touch_drag(page, source, target)
        elif how == "keys":
            source.focus()
            page.keyboard.press("Enter")
            target.focus()
            page.keyboard.press("Enter")
        else:
            drag(page, source, target)
        wait_for(lambda: served.actions()[count:count + 1] == plays[:1], f"{plays[0]} to reach the engine")
        return plays[0]
    else:
        button = page.get_by_role("button", name=re.compile(r"End turn"))
        if how in ("touch", "finger"):
            tap(page, button)
        elif how == "keys":
            page.keyboard.press("d")
        else:
            button.click()
        wait_for(lambda: len(served.actions()) > count,
                 f"the end of the turn to reach the engine ({how}: {page.locator('#message').inner_text()})"
                 f" {seat.sent[-3:]} {seat.frames[-1][-300:]}")
        return "draw"


def _actions_by_seat(game: KingsCornerGame, seat: int) -> list[str]:
    """The actions seat ``seat`` played in ``game`` (replayed from the start)."""
    replay = KingsCornerGame(game.players, game.initial_deck)
    played = []
    for action in game.history:
        if replay.turn == seat:
            played.append(str(action))
        replay.play(action)
    return played
