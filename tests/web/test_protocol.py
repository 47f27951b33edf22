"""The browser table's protocol, spoken by a real aiohttp server on 127.0.0.1
and a real client (no browser): bad messages get a one-line error and change
nothing, a flood is closed, a cross-site page is refused, and no message ever
names a card its player cannot see."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from cardtable.bots.klondike import make_player
from cardtable.cards import new_deck
from cardtable.klondike import Position, Variant
from cardtable.runs.store import ResultsStore
from cardtable.web.klondike import KlondikeDealer
from cardtable.web.protocol import MAX_MESSAGE_BYTES
from cardtable.web.server import COOKIE, MAX_PAGES, TableServer

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def serving(tmp_path: Path, test: Callable[[str], Awaitable[None]], *, seed: int = 7,
            server_box: list[TableServer] | None = None, winnable: bool = False) -> None:
    """Run ``test(base_url)`` against a table server on a free loopback port."""
    async def main() -> None:
        dealer = KlondikeDealer(Variant.preset("draw1"), seed=seed, winnable=winnable)
        server = TableServer(dealer, store_path=tmp_path / "store.db", url="http://localhost:0",
                             title="cardtable: Klondike")
        if server_box is not None:
            server_box.append(server)
        runner = web.AppRunner(server.application(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            await test(f"http://127.0.0.1:{port}")
        finally:
            await runner.cleanup()

    asyncio.run(main())


async def first_view(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    reply = await ws.receive_json(timeout=10)
    assert reply["type"] == "view"
    return dict(reply["view"])


def test_bad_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            before = await first_view(ws)
            for text, words in [("{not json", "malformed JSON"), ("[1, 2]", "a JSON object, not a list"),
                                ('{"kind": "draw"}', '"type" string'),
                                ('{"type": "teleport"}', "unknown message type 'teleport'"),
                                ('{"type": "move", "move": "1>2"}',
                                 "the four of diamonds cannot go on the six of diamonds: a card must be one rank"),
                                ('{"type": "move", "move": "9>9"}', "9>9"),
                                ('{"type": "move"}', '"move"'),
                                ('{"type": "undo"}', "nothing to undo"),
                                ('{"type": "new", "deal": -3}', '"deal" must be'),
                                (json.dumps({"type": "draw", "pad": "x" * MAX_MESSAGE_BYTES}), "message too large")]:
                await ws.send_str(text)
                reply = await ws.receive_json(timeout=10)
                assert reply["type"] == "error" and words in reply["message"], (text, reply)
                assert "\n" not in reply["message"] and "Traceback" not in reply["message"]
            await ws.send_json({"type": "view"})
            assert (await ws.receive_json(timeout=10))["view"] == before  # nothing changed
            await ws.send_json({"type": "move", "move": "7>F"})
            after = (await ws.receive_json(timeout=10))["view"]
            assert after["foundation"] == [1, 0, 0, 0] and after["moves"] == 1

    serving(tmp_path, test)


def test_a_flood_is_throttled_then_closed_and_others_are_still_served(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as flooder, flooder.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            for _ in range(400):
                await ws.send_str('{"type": "view"}')
            kinds = []
            while True:
                frame = await ws.receive(timeout=10)
                if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
                kinds.append(json.loads(frame.data)["type"])
            assert "error" in kinds and ws.close_code == 1008
        async with aiohttp.ClientSession() as other, other.ws_connect(f"{base}/ws") as ws2:
            assert (await first_view(ws2))["stock"] == 24

    serving(tmp_path, test)


def test_a_cross_site_page_and_a_foreign_host_are_refused(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            try:
                await session.ws_connect(f"{base}/ws", headers={"Origin": "http://evil.example"})
            except aiohttp.WSServerHandshakeError as error:
                assert error.status == 403
            else:
                raise AssertionError("a cross-site WebSocket was accepted")
            async with session.get(f"{base}/", headers={"Host": "rebound.example:80"}) as response:
                assert response.status == 403
            async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                assert (await first_view(ws))["stock"] == 24

    serving(tmp_path, test)


def test_the_page_sets_an_http_only_player_cookie_and_the_game_is_kept(tmp_path: Path) -> None:
    async def play(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(f"{base}/") as response:
                assert "<title>cardtable: Klondike</title>" in await response.text()
                cookie = response.cookies[COOKIE]
                assert cookie["httponly"] and cookie["samesite"] == "Lax"
            async with session.ws_connect(f"{base}/ws") as ws:
                await first_view(ws)
                await ws.send_json({"type": "draw"})
                assert (await ws.receive_json(timeout=10))["view"]["moves"] == 1
            (tmp_path / "cookie").write_text(cookie.value)

    serving(tmp_path, play)

    async def back(base: str) -> None:  # a new server on the same store: the same game at the same move
        cookies = {COOKIE: (tmp_path / "cookie").read_text()}
        async with aiohttp.ClientSession(cookies=cookies, cookie_jar=aiohttp.CookieJar(unsafe=True)) as session, \
                session.ws_connect(f"{base}/ws") as ws:
            view = await first_view(ws)
            assert view["moves"] == 1 and len(view["waste"]) == 1 and view["deal"] == 7
        async with aiohttp.ClientSession() as stranger, stranger.ws_connect(f"{base}/ws") as ws:
            assert (await first_view(ws))["moves"] == 0  # another player has their own game

    serving(tmp_path, back)


def test_no_message_names_a_card_the_player_cannot_see(tmp_path: Path) -> None:
    boxes: list[TableServer] = []

    async def test(base: str) -> None:
        bot = make_player("greedy")
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            game = next(iter(boxes[0]._players.values())).table.game
            messages = 0
            for _ in range(150):
                if game.is_over():
                    break
                await asyncio.sleep(1 / 45)  # under the server's rate limit, as a quick player is
                move = bot.choose(game.view())
                if move is None:
                    break
                await ws.send_json({"type": "move", "move": str(move)})
                text = await ws.receive_str(timeout=10)
                while json.loads(text)["type"] == "notice":  # a verdict may come between: read on to the view
                    assert not CARD.findall(text)
                    text = await ws.receive_str(timeout=10)
                assert json.loads(text)["type"] == "view", text
                messages += 1
                visible = {str(card) for card in game.waste}
                for pile in range(7):
                    visible.update(str(card) for card in game.face_up(pile))
                for suit, rank in enumerate(game.foundation):
                    visible.update(f"{'A23456789TJQK'[r - 1]}{'cdhs'[suit]}" for r in range(1, rank + 1))
                named = set(CARD.findall(text)) | {str(card) for card in new_deck() if card.name() in text}
                assert named <= visible, f"hidden cards sent: {named - visible}"
            assert messages > 20

    serving(tmp_path, test, seed=3, server_box=boxes)


def test_hint_undo_redo_restart_new_and_autofinish(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)

            async def ask(message: dict[str, object]) -> dict[str, Any]:
                await ws.send_json(message)
                return dict(await ws.receive_json(timeout=30))

            hint = await ask({"type": "hint"})
            assert hint["type"] == "hint" and hint["move"] in (await ask({"type": "view"}))["view"]["legal"]
            assert hint["text"].startswith("Hint: ") and "the expert" in hint["text"]  # from the player's view
            played = await ask({"type": "move", "move": "7>F"})
            assert played["said"] == "Ace of clubs from pile 7 to its foundation, turning up the six of spades."
            undone = await ask({"type": "undo"})
            assert undone["view"]["moves"] == 0 and undone["view"]["canRedo"]
            assert (await ask({"type": "redo"}))["view"]["foundation"] == [1, 0, 0, 0]
            assert (await ask({"type": "autofinish"}))["message"] == "no card can go to the foundations now"
            restarted = await ask({"type": "restart"})
            assert restarted["view"]["moves"] == 0 and restarted["view"]["deal"] == 7
            fresh = await ask({"type": "new", "deal": 12})
            assert fresh["view"]["deal"] == 12 and fresh["said"] == "New deal 12."

    serving(tmp_path, test)


def test_one_player_may_not_open_pages_without_end(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.get(f"{base}/"):
                pass
            pages = [await session.ws_connect(f"{base}/ws") for _ in range(MAX_PAGES)]
            for ws in pages:
                await first_view(ws)
            extra = await session.ws_connect(f"{base}/ws")
            reply = await extra.receive_json(timeout=10)
            assert reply == {"type": "error", "message": f"too many pages open (at most {MAX_PAGES})"}
            await extra.receive(timeout=10)
            assert extra.closed and extra.close_code == 1008
            await pages[0].send_json({"type": "draw"})  # the open pages play on, and all of them see it
            for ws in pages:
                assert (await ws.receive_json(timeout=10))["view"]["moves"] == 1
            for ws in pages:
                await ws.close()

    serving(tmp_path, test)


def test_winnable_deals_are_dealt(tmp_path: Path) -> None:
    from cardtable.solver import winnable_deal

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)  # a stand-in while the first deal is searched for (test_table_deals.py)
            assert await ws.receive_json(timeout=30) == {"type": "dealing", "text": "Finding a proven winnable deal…"}
            view = (await ws.receive_json(timeout=30))["view"]
            assert view["winnable"] and view["deal"] == 5
            await ws.send_json({"type": "new", "deal": 6})
            assert await ws.receive_json(timeout=30) == {"type": "dealing", "text": "Finding a proven winnable deal…"}
            fresh = (await ws.receive_json(timeout=30))["view"]
            assert fresh["winnable"] and fresh["deal"] == 6
            # The game the server holds starts from the sixth winnable deal.
            (player,) = boxes[0]._players.values()
            assert player.table.game.start == winnable_deal(6, Variant.preset("draw1"))

    boxes: list[TableServer] = []
    serving(tmp_path, test, seed=5, server_box=boxes, winnable=True)


def test_a_new_game_may_choose_its_rules_and_winnable_deals(tmp_path: Path) -> None:
    from cardtable.klondike.variant import PRESET_TITLES, PRESETS
    from cardtable.solver import winnable_deal

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            view = await first_view(ws)
            assert view["variant"] == "draw1" and not view["winnable"]

            async def ask(message: dict[str, object]) -> dict[str, Any]:
                await ws.send_json(message)
                reply = dict(await ws.receive_json(timeout=60))
                if reply["type"] == "dealing":  # a winnable deal is searched for: the view comes after
                    reply = dict(await ws.receive_json(timeout=60))
                return reply

            rules = await ask({"type": "rules"})
            assert rules == {"type": "rules", "rules": [{"name": name, "title": PRESET_TITLES[name]}
                                                        for name in PRESETS]}
            fresh = await ask({"type": "new", "deal": 3, "rules": "seed-001", "winnable": True})
            seed_001 = Variant.preset("seed-001")
            assert fresh["view"]["variant"] == seed_001.label and fresh["view"]["draw"] == 3
            assert fresh["view"]["winnable"] and fresh["view"]["deal"] == 3
            assert fresh["said"] == f"New winnable deal 3 ({seed_001.title})."
            (player,) = boxes[0]._players.values()
            assert player.table.game.start == winnable_deal(3, seed_001)
            again = await ask({"type": "new", "deal": 4})  # no choice given: the same rules, winnable still
            assert again["view"]["variant"] == seed_001.label and again["view"]["winnable"]
            assert again["said"] == "New winnable deal 4."
            plain = await ask({"type": "new", "deal": 4, "winnable": False})
            assert not plain["view"]["winnable"] and plain["said"] == "New deal 4."
            assert player.table.game.start == Position.from_seed(4)
            for bad, said in (({"rules": "klondike-9"}, '"rules" must be the name of a rule set'),
                              ({"rules": 3}, '"rules" must be the name of a rule set'),
                              ({"winnable": "yes"}, '"winnable" must be true or false')):
                reply = await ask({"type": "new", "deal": 1, **bad})
                assert reply["type"] == "error" and reply["message"].startswith(said), reply
            assert (await ask({"type": "view"}))["view"]["deal"] == 4  # nothing changed

    boxes: list[TableServer] = []
    serving(tmp_path, test, server_box=boxes)


def test_a_huge_message_closes_only_its_own_socket(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws, \
                session.ws_connect(f"{base}/ws") as other:
            await first_view(ws)
            await first_view(other)
            await ws.send_str(json.dumps({"type": "draw", "pad": "x" * 1_000_000}))
            frame = await ws.receive(timeout=10)
            assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
            await other.send_json({"type": "draw"})
            assert (await other.receive_json(timeout=10))["view"]["moves"] == 1

    serving(tmp_path, test)


def test_a_lost_game_with_hidden_cards_gets_no_notice(tmp_path: Path) -> None:
    # Deal 21 (draw 1) cannot be won, but saying so while cards are hidden
    # would tell the player where they lie: the verdict waits until every card is seen.
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "draw"})
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            await asyncio.sleep(2)  # the verdict has had its time
            await ws.send_json({"type": "view"})
            assert (await ws.receive_json(timeout=10))["type"] == "view"  # no notice came first

    serving(tmp_path, test, seed=21)


def test_a_game_that_can_be_won_gets_no_notice(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "move", "move": "7>F"})
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            await asyncio.sleep(0.5)  # the verdict has had its time
            await ws.send_json({"type": "view"})
            assert (await ws.receive_json(timeout=10))["type"] == "view"  # no notice came first

    serving(tmp_path, test)


def test_finished_games_count_in_each_players_statistics(tmp_path: Path) -> None:
    # A win counts once (undo and win again: still one), a game left for a new one after a move is a loss, a
    # new game without a move is nothing; each player (cookie) sees their own figures, from play_stats.
    from cardtable.klondike import Position
    from cardtable.sim.played import play_stats
    from cardtable.solver import solve

    line = [str(move) for move in solve(Position.from_seed(7), Variant.preset("draw1")).moves]

    async def stats_of(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
        await ws.send_json({"type": "stats"})
        reply = await ws.receive_json(timeout=10)
        assert reply["type"] == "stats", reply
        return dict(reply)

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as alice, aiohttp.ClientSession() as bob, \
                alice.ws_connect(f"{base}/ws") as ws, bob.ws_connect(f"{base}/ws") as other:
            await first_view(ws)
            await first_view(other)
            assert (await stats_of(ws)) == {"type": "stats", "variant": "draw1", "stats": [], "daily": []}
            for move in line:
                await asyncio.sleep(0.022)  # within the rate a client may send
                await ws.send_json({"type": "move", "move": move})
                reply = await ws.receive_json(timeout=10)
                while reply["type"] == "notice":
                    reply = await ws.receive_json(timeout=10)
                assert reply["type"] == "view", reply
            assert reply["view"]["won"] and reply["view"]["seconds"] is not None
            for kind in ("undo", "autofinish", "new"):  # won again: counted once; then a fresh deal
                await ws.send_json({"type": kind})
                assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_json({"type": "new"})  # no move made: not a game
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_json({"type": "draw"})
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_json({"type": "new"})  # left after a move: a loss
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            (figures,) = (await stats_of(ws))["stats"]
            assert (figures["variant"], figures["played"], figures["won"], figures["win_rate"]) == \
                ("draw1", 2, 1, 0.5)
            assert (figures["current_streak"], figures["best_streak"], figures["fewest_moves"]) == (0, 1, len(line))
            assert figures["best_seconds"] >= 0
            assert (await stats_of(other))["stats"] == []  # bob played nothing

    serving(tmp_path, test)
    with ResultsStore(tmp_path / "store.db", create=False) as store:
        assert play_stats(store) == []  # the terminal's person played none of these
        players = store.select("played", ("player",), action="read")
    assert len({player for (player,) in players}) == 1 and len(players) == 2
