"""Kings Corner's shared tables over the protocol, spoken by a real aiohttp
server on 127.0.0.1 and real clients (no browser), one cookie jar per person:
bad and out-of-turn messages get a one-line error and change nothing, a flood
is closed, a cross-site page is refused, a seat left empty is played by a bot
until its person returns, a server restart finds the table at the same action,
and no message names a card its player cannot see."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from yarl import URL

from cardtable.kings_corner import HandRecord, KingsCornerGame
from cardtable.klondike import Variant
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import hand_stats, played_hands
from cardtable.web.kings_corner import KingsCornerHouse, SharedTable
from cardtable.web.klondike import KlondikeDealer
from cardtable.web.protocol import MAX_MESSAGE_BYTES
from cardtable.web.server import COOKIE, TableServer

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def serving(tmp_path: Path, test: Callable[[str], Awaitable[None]], *, seat_timeout: float = 30.0) -> None:
    """Run ``test(base_url)`` against a table server on a free loopback port."""
    async def main() -> None:
        house = KingsCornerHouse(seats=3, level="greedy", target=1, seed=5, seat_timeout=seat_timeout)
        server = TableServer(KlondikeDealer(Variant.preset("draw1")), store_path=tmp_path / "store.db",
                             url="http://localhost:0", title="cardtable: Kings Corner", kings=house,
                             home="kings-corner")
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


class Person:
    """A browser of one person: their cookie jar and their socket at a table."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.received: list[str] = []
        self.last: dict[str, Any] = {}

    async def open_table(self, **form: str) -> str:
        async with self.session.get(f"{self.base}/kc"):
            pass  # the cookie
        async with self.session.post(f"{self.base}/kc/new", data=form, headers={"Origin": self.base},
                                     allow_redirects=False) as response:
            assert response.status == 303, await response.text()
            return response.headers["Location"].rsplit("/", 1)[1]

    async def join(self, table: str) -> dict[str, Any]:
        self.ws = await self.session.ws_connect(f"{self.base}/kc/ws?table={table}")
        return await self.reply()

    async def reply(self) -> dict[str, Any]:
        assert self.ws is not None
        text = await self.ws.receive_str(timeout=10)
        self.received.append(text)
        message = json.loads(text)
        if message["type"] == "table":
            self.last = message["view"]
        return dict(message)

    async def say(self, message: dict[str, Any] | str) -> dict[str, Any]:
        assert self.ws is not None
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))
        return await self.reply()

    async def until(self, condition: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Read messages until the view meets ``condition``."""
        if self.last and condition(self.last):
            return self.last
        for _ in range(500):
            message = await self.reply()
            if message["type"] == "table" and condition(message["view"]):
                return dict(message["view"])
        raise AssertionError(f"never saw {what}")


@asynccontextmanager
async def people(base: str, count: int) -> AsyncIterator[list[Person]]:
    sessions = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(count)]
    try:
        yield [Person(session, base) for session in sessions]
    finally:
        for session in sessions:
            await session.close()


async def seated_match(host: Person, guest: Person) -> str:
    """A table of three: the host and the guest seated, the match started (a greedy bot in seat 3)."""
    table = await host.open_table(name="Ann", seats="3", level="greedy", target="1")
    assert (await host.join(table))["view"]["phase"] == "lobby"
    await guest.join(table)
    reply = await guest.say({"type": "sit", "name": "Bob"})
    assert reply["said"] == "Bob took seat 2."
    await host.until(lambda v: len(v["players"]) == 2, "the guest seated")
    await host.say({"type": "start"})
    await host.until(lambda v: v["phase"] == "playing", "the match started")
    await guest.until(lambda v: v["phase"] == "playing", "the match started")
    return table


def stored_table(tmp_path: Path) -> dict[str, Any]:
    with ResultsStore(tmp_path / "store.db", create=False) as store:
        rows = store.select("web_games", ("player", "saved"), order="player", action="read")
    tables = [json.loads(saved) for player, saved in rows if player.startswith("table:")]
    assert len(tables) == 1
    return tables[0]


def test_bad_and_out_of_turn_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 2) as (host, guest):
            await seated_match(host, guest)
            mover, waiter = (host, guest) if host.last["yourTurn"] else (guest, host)
            assert mover.last["yourTurn"] and not waiter.last["yourTurn"]
            before = stored_table(tmp_path)
            play = next(a for a in mover.last["legal"])
            wrong_card = next(c for c in mover.last["hand"] if f"play {c} N" not in mover.last["legal"])
            for person, text, words in [
                (mover, "{not json", "malformed JSON"),
                (mover, "[1]", "a JSON object, not a list"),
                (mover, '{"type": "teleport"}', "unknown message type 'teleport'"),
                (mover, json.dumps({"type": "view", "pad": "x" * MAX_MESSAGE_BYTES}), "message too large"),
                (mover, '{"type": "action"}', '"action"'),
                (mover, '{"type": "action", "action": "fly"}', "unknown action 'fly'"),
                (mover, json.dumps({"type": "action", "action": f"play {wrong_card} N"}), "illegal action"),
                (mover, '{"type": "sit"}', "you have a seat at this table already"),
                (mover, '{"type": "next"}', "the hand is not over"),
                (mover, '{"type": "newmatch"}', "the match is not over"),
                (waiter, json.dumps({"type": "action", "action": play}), "it is not your turn"),
                (waiter, '{"type": "action", "action": "draw"}', "it is not your turn"),
                (guest, '{"type": "start"}', "the match has started already" if guest is host
                 else "only the host starts the match"),
            ]:
                reply = await person.say(text)
                assert reply["type"] == "error" and words in reply["message"], (text, reply)
                assert "\n" not in reply["message"] and "Traceback" not in reply["message"]
            assert stored_table(tmp_path) == before
            # A stranger who opens the link watches: no hand, no seat, no action.
            async with people(base, 1) as (stranger,):
                view = (await stranger.join(before["id"]))["view"]
                assert "hand" not in view and view["you"] is None
                reply = await stranger.say({"type": "action", "action": "draw"})
                assert reply["message"] == "you have no seat at this table"
                reply = await stranger.say({"type": "sit"})
                assert reply["message"] == "the match has started: every seat is taken"
            reply = await mover.say({"type": "action", "action": play})
            assert reply["type"] == "table"
            await mover.until(lambda v: v["played"] >= 1, "the action played")
            assert stored_table(tmp_path)["actions"] == [play]

    serving(tmp_path, test)


def test_a_flood_is_closed_and_the_table_is_still_served(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 2) as (host, guest):
            table = await host.open_table(name="Ann", seats="2")
            await host.join(table)
            assert host.ws is not None
            for _ in range(400):
                await host.ws.send_str('{"type": "view"}')
            kinds = []
            while True:
                frame = await host.ws.receive(timeout=10)
                if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
                kinds.append(json.loads(frame.data).get("message", ""))
            assert "too many messages: slow down" in kinds and host.ws.close_code == 1008
            assert (await guest.join(table))["view"]["canSit"]

    serving(tmp_path, test)


def test_cross_site_requests_and_unknown_tables_are_refused(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 1) as (person,):
            for headers in ({}, {"Origin": "http://evil.example"}):
                async with person.session.post(f"{base}/kc/new", data={"seats": "2"}, headers=headers,
                                               allow_redirects=False) as response:
                    assert response.status == 403
            try:
                await person.session.ws_connect(f"{base}/kc/ws?table=abcdefghijkl",
                                                headers={"Origin": "http://evil.example"})
            except aiohttp.WSServerHandshakeError as error:
                assert error.status == 403
            else:
                raise AssertionError("a cross-site WebSocket was accepted")
            for seats, level, words in [("9", "expert", "2 to 6 seats"), ("x", "expert", "whole numbers"),
                                        ("3", "genius", "unknown bot")]:
                async with person.session.post(f"{base}/kc/new", data={"seats": seats, "level": level},
                                               headers={"Origin": base}, allow_redirects=False) as response:
                    assert response.status == 400 and words in await response.text()
            async with person.session.post(f"{base}/kc/new", data={"seats": "2"}, headers={"Origin": base},
                                           allow_redirects=False) as response:
                assert response.status == 303
            for _ in range(20):  # a flood of new tables is refused
                async with person.session.post(f"{base}/kc/new", data={"seats": "2"}, headers={"Origin": base},
                                               allow_redirects=False) as response:
                    status = response.status
            assert status == 429
            reply = await person.join("abcdefghijkl")
            assert reply == {"type": "error", "message": "no such table: open a new one at /kc"}
            async with person.session.get(f"{base}/kc/abcdefghijkl/match-1/hand-1.txt") as response:
                assert response.status == 404

    serving(tmp_path, test)


def test_an_empty_seat_is_played_by_a_bot_until_its_person_returns(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 2) as (host, guest):
            table = await seated_match(host, guest)
            hand = sorted(guest.last["hand"])
            guest_seat = guest.last["you"]
            assert guest.ws is not None
            await guest.ws.close()
            # The host ends turns; the guest's seat waits (the timeout), then a bot plays it.
            sent, stand_in_played = -1, False
            for _ in range(200):
                view = host.last
                if view["phase"] != "playing" or (stand_in_played and view["players"][guest_seat]["away"]):
                    break
                if view["yourTurn"] and view["played"] != sent:
                    sent = view["played"]
                    await host.ws.send_str(json.dumps({"type": "action", "action": "draw" if view["deck"] else "pass"}))
                message = await host.reply()
                stand_in_played |= any(step["seat"] == guest_seat for step in message.get("steps", []))
            assert stand_in_played, "a bot played the empty seat"
            away = host.last["players"][guest_seat]
            assert away["away"] and not away["present"]
            # The guest comes back: the same seat, a bot no more.
            view = (await guest.join(table))["view"]
            assert view["you"] == guest_seat and not view["players"][guest_seat]["away"]
            assert view["players"][guest_seat]["present"] and len(view["hand"]) >= 1 and hand

    serving(tmp_path, test, seat_timeout=0.2)


def test_a_restart_finds_the_table_at_the_same_action(tmp_path: Path) -> None:
    kept: dict[str, Any] = {}

    async def play(base: str) -> None:
        async with people(base, 2) as (host, guest):
            kept["table"] = await seated_match(host, guest)
            mover = host if host.last["yourTurn"] else guest
            action = mover.last["legal"][0]
            await mover.say({"type": "action", "action": action})
            kept["played"] = mover.last["played"]
            kept["hand"] = mover.last["hand"]
            kept["cookies"] = {c.key: c.value for c in mover.session.cookie_jar}

    serving(tmp_path, play)

    async def back(base: str) -> None:
        async with aiohttp.ClientSession(cookies=kept["cookies"]) as session:
            person = Person(session, base)
            view = (await person.join(kept["table"]))["view"]
            assert view["played"] == kept["played"] and sorted(view["hand"]) == sorted(kept["hand"])

    serving(tmp_path, back)


def test_a_whole_match_through_the_protocol_names_no_hidden_card(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 2) as (host, guest):
            table = await seated_match(host, guest)
            for _ in range(300):
                if host.last["phase"] != "playing":
                    break
                mover = host if host.last["yourTurn"] else guest if guest.last["yourTurn"] else None
                if mover is None:
                    await host.reply()
                    continue
                await mover.say({"type": "action", "action": mover.last["legal"][0]})
                await (guest if mover is host else host).until(
                    lambda v, n=mover.last["played"]: v.get("played") == n, "the other page's view")
            assert host.last["phase"] == "match-over" and host.last["winners"]
            for person in (host, guest):
                for text in person.received:
                    message = json.loads(text)
                    if message["type"] != "table":
                        continue
                    view = message["view"]
                    seen = {c for pile in view.get("piles", []) for c in pile} | set(view.get("hand", []))
                    for step in message["steps"]:
                        seen.update(c for pile in step["piles"] for c in pile)
                    assert set(CARD.findall(text)) <= seen
            record = tmp_path / "kings-corner" / "tables" / f"{table}-match-1-hand-1.txt"
            replayed: KingsCornerGame = HandRecord.from_text(record.read_text()).replay()
            assert replayed.is_over() and len(replayed.history) == host.last["played"]
            async with host.session.get(f"{base}/kc/{table}/match-1/hand-1.txt") as response:
                assert response.status == 200 and await response.text() == record.read_text()
            # The hand is kept in each person's statistics, and each page's Statistics shows theirs alone.
            outcome = host.last["outcome"]
            label = "1 person and 1 greedy bot, to 1 point"
            for person in (host, guest):
                reply = await person.say({"type": "stats"})
                assert reply["type"] == "stats" and reply["label"] == label
                seat = person.last["you"]
                mine, = reply["stats"]
                assert (mine["label"], mine["hands"], mine["matches"]) == (label, 1, 1)
                assert mine["hands_won"] == int(outcome["winner"] == seat)
                assert mine["mean_penalty"] == outcome["penalties"][seat]
                name = person.last["players"][seat]["name"]
                assert mine["matches_won"] == int(name in person.last["winners"])
            ids = {p: p.session.cookie_jar.filter_cookies(URL(base))[COOKIE].value for p in (host, guest)}
            with ResultsStore(tmp_path / "store.db", create=False) as store:
                assert hand_stats(store) == []  # the terminal app's person played nothing
                kept = {p: played_hands(store, player=ids[p]) for p in (host, guest)}
            for person, (hand,) in kept.items():
                seat = person.last["you"]
                assert (hand.label, hand.hand, hand.won, hand.penalty) == (
                    label, 1, outcome["winner"] == seat, outcome["penalties"][seat])
                assert hand.match_won is not None and 0 <= hand.seconds < 60

    serving(tmp_path, test)


def test_each_person_seated_gets_their_hand_and_a_bot_none() -> None:
    table = SharedTable.open("T" * 12, host="h" * 16, seats=3, level="random", target=1, seed=3)
    table.sit("h" * 16, "Ann")
    table.start("h" * 16)
    table.present.add("h" * 16)
    for _ in range(300):
        if table.phase != "playing":
            break
        table.act("h" * 16, table.view("h" * 16)["legal"][0])
    assert table.phase == "match-over" and table.session is not None
    outcome = table.session.game.outcome()
    assert outcome is not None
    (player, hand), = table.take_hands()
    assert player == "h" * 16 and table.take_hands() == []
    seat = table.seat_of("h" * 16)
    assert seat is not None
    assert (hand.label, hand.won, hand.penalty) == ("2 random bots, to 1 point", outcome.winner == seat,
                                                    outcome.penalties[seat])
    assert hand.match_won == (table.session.score.totals[0] == min(table.session.score.totals))


def test_a_saved_table_reads_back() -> None:
    table = SharedTable.open("T" * 12, host="h" * 16, seats=2, level="random", target=5, seed=9)
    table.sit("h" * 16, "Ann, the host")
    table.start("h" * 16)
    assert table.session is not None
    table.act("h" * 16, "draw")
    again = SharedTable.restore(table.saved())
    assert again.saved() == table.saved() and again.view("h" * 16) == table.view("h" * 16)
    assert again.entries[0].name == "Ann the host"


def test_a_person_who_left_the_lobby_is_played_by_a_bot_once_the_match_starts(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with people(base, 2) as (host, guest):
            table = await host.open_table(name="Ann", seats="2")
            await host.join(table)
            await guest.join(table)
            await guest.say({"type": "sit", "name": "Bob"})
            assert guest.ws is not None
            await guest.ws.close()
            await asyncio.sleep(0.5)  # longer than the seat timeout, in the lobby
            await host.until(lambda v: len(v["players"]) == 2 and not v["players"][1]["present"], "the guest gone")
            await host.say({"type": "start"})
            sent = -1
            for _ in range(200):  # the host ends turns; the guest's turns are played for them
                view = host.last
                other = view["players"][1 - view["you"]] if view.get("players") and view.get("you") is not None \
                    else {}
                if view["phase"] != "playing" or (other.get("away") and view["played"] > 2):
                    break
                if view.get("yourTurn") and view["played"] != sent:
                    sent = view["played"]
                    await host.ws.send_str(json.dumps({"type": "action", "action": "draw" if view["deck"] else "pass"}))
                await host.reply()
            other = host.last["players"][1 - host.last["you"]]
            assert other["name"] == "Bob" and other["away"] and host.last["played"] > 2

    serving(tmp_path, test, seat_timeout=0.2)


@pytest.mark.parametrize(("level", "searches"), [("greedy", False), ("random", False), ("expert", True)])
def test_only_a_searching_bot_is_handed_to_a_thread(level: str, searches: bool) -> None:
    """A person's play is checked and played at once; the bots' turn that
    follows an end of turn is a thread's work only when the bot searches."""
    table = SharedTable.open("T" * 12, host="h" * 16, seats=2, level=level, target=25, seed=4)
    table.sit("h" * 16, "Ann")
    table.start("h" * 16)
    table.present.add("h" * 16)
    table.advance()
    session = table.session
    assert session is not None and session.game.turn == table.seat_of("h" * 16)
    assert not table.bots_will_search()  # the person is to play: nothing for a bot
    [step] = table.play("h" * 16, "draw")  # the end of the turn: the bot is next, and has not played
    assert step["action"] == "draw" and session.game.turn != table.seat_of("h" * 16)
    assert table.bots_will_search() is searches
    steps, _ = table.advance()
    assert steps and all(step["seat"] != table.seat_of("h" * 16) for step in steps)
    assert not table.bots_will_search()


def test_each_person_finds_their_tables_again(tmp_path: Path) -> None:
    """``/kc/mine`` lists the tables a person opened or sat at, newest first,
    with where each stands; another person's tables are not theirs."""
    async def mine(person: Person) -> list[dict[str, Any]]:
        async with person.session.get(f"{person.base}/kc/mine") as response:
            assert response.status == 200
            return list((await response.json())["tables"])

    async def test(base: str) -> None:
        async with people(base, 3) as (ann, bob, cat):
            assert await mine(cat) == []  # a first visit: no tables, and no cookie yet
            first = await ann.open_table(seats="3", name="Ann")
            second = await ann.open_table(seats="2", name="Ann")
            listed = await mine(ann)
            assert [t["id"] for t in listed] == [second, first]
            assert listed[1] == {"id": first, "phase": "lobby", "seats": 3, "players": ["Ann"], "match": 1,
                                 "hand": None, "yourTurn": False, "host": True}
            await bob.join(first)  # Bob looks at Ann's first table, then sits: it is his too
            assert await mine(bob) == []
            await bob.say({"type": "sit", "name": "Bob"})
            assert [t["id"] for t in await mine(bob)] == [first]
            await ann.join(first)
            await ann.say({"type": "start"})
            view = await bob.until(lambda v: v["phase"] == "playing", "the match under way")
            [table] = await mine(bob)
            assert table["phase"] == "playing" and table["players"] == [p["name"] for p in view["players"]]
            assert table["hand"] == 1 and table["yourTurn"] == view["yourTurn"] and not table["host"]
            assert [t["id"] for t in await mine(ann)] == [second, first]  # starting a match reorders nothing
            assert await mine(cat) == []

    serving(tmp_path, test)
