"""The Klondike table's deals, through a real server and client: a new
visitor's first deal is kept before any move; a graded deal is proven
winnable and says so; and a deal that takes a search is found away from
the event loop while every table, the asking player's too, is answered."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import aiohttp
from web.test_protocol import first_view, serving

from cardtable.klondike import KlondikeRecord, Position
from cardtable.runs.store import ResultsStore
from cardtable.solver import solve, winnable_deal
from cardtable.web.server import TableServer


def _kept(store_path: Path) -> dict[str, KlondikeRecord]:
    """Every player's game in the store, by player."""
    with ResultsStore(store_path, create=False) as store:
        rows = store.select("web_games", ("player", "saved"), order="player", action="read")
    return {str(player): KlondikeRecord.parse(str(saved)) for player, saved in rows}


def test_a_new_visitor_who_reloads_before_any_move_gets_the_same_deal(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(f"{base}/") as page:  # the page names the new player in its cookie
                assert page.status == 200
            async with session.ws_connect(f"{base}/ws") as ws:
                first = await first_view(ws)
            for _ in range(3):  # reloads, no move between them
                async with session.ws_connect(f"{base}/ws") as ws:
                    again = await first_view(ws)
                assert (again["deal"], again["piles"]) == (first["deal"], first["piles"])
        (record,) = _kept(tmp_path / "store.db").values()
        assert record.headers.get("Seed") == str(first["deal"]) and not record.moves

    serving(tmp_path, test, seed=None)


def test_a_new_visitors_first_winnable_deal_is_found_as_every_searched_deal_is(tmp_path: Path) -> None:
    # A server of proven winnable deals searches for a new visitor's first deal in its process pool,
    # as for any searched deal: the page is told, and its questions are answered meanwhile.
    box: list[TableServer] = []

    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.ws_connect(f"{base}/ws") as ws:
                stand_in = await first_view(ws)
                assert await ws.receive_json(timeout=10) == {"type": "dealing",
                                                              "text": "Finding a proven winnable deal…"}
                await ws.send_json({"type": "move", "move": stand_in["legal"][0]})
                refused = await ws.receive_json(timeout=10)
                assert refused["type"] == "error" and "a new deal is being found" in refused["message"]
                await ws.send_json({"type": "stats"})
                assert (await ws.receive_json(timeout=10))["type"] == "stats"
                async with session.ws_connect(f"{base}/ws") as second:  # another page of theirs is told too
                    await first_view(second)
                    assert (await second.receive_json(timeout=10))["type"] == "dealing"
                    dealt = await _next_of(ws, "view", timeout=120)
                    assert dealt["said"] == "New winnable deal 5."
                    assert dealt["view"]["winnable"] and dealt["view"]["deal"] == 5 and dealt["view"]["moves"] == 0
                    assert (await _next_of(second, "view"))["view"] == dealt["view"]
            (server,) = box
            assert server._searches is not None  # found in the server's own processes, not in a thread
            async with session.ws_connect(f"{base}/ws") as ws:  # a reload: the deal found, kept
                assert await first_view(ws) == dealt["view"]
        (record,) = _kept(tmp_path / "store.db").values()
        assert record.headers.get("Winnable") == "5" and record.start == winnable_deal(5, record.variant)

    serving(tmp_path, test, seed=5, winnable=True, server_box=box)


def test_a_graded_deal_asked_to_be_winnable_is_proven_winnable_and_says_so(tmp_path: Path) -> None:
    # Deal 2 of draw 1 is easy (the grader proves every deal it grades winnable first).
    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.ws_connect(f"{base}/ws") as ws:
                assert not (await first_view(ws))["winnable"]
                await ws.send_json({"type": "new", "deal": 2, "difficulty": "easy", "winnable": True})
                reply = await _next_of(ws, "view", timeout=300)
                assert reply["said"] == "New deal 2, graded easy: proven winnable."
                assert reply["view"]["winnable"] and reply["view"]["grade"] == "easy" and reply["view"]["deal"] == 2
            async with session.ws_connect(f"{base}/ws") as ws:  # a reload: still the graded, winnable deal
                again = await first_view(ws)
                assert again["winnable"] and again["grade"] == "easy" and again["deal"] == 2
        (record,) = _kept(tmp_path / "store.db").values()
        assert record.start == Position.from_seed(2) and record.headers.get("Grade") == "easy"
        assert solve(record.start, record.variant).result == "won"

    serving(tmp_path, test)


def test_the_daily_deal_is_proven_winnable_and_says_so(tmp_path: Path) -> None:
    # daily_deal deals only a deal the solver has won: the view and the message say what is true.
    today = datetime.date.today().isoformat()

    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.ws_connect(f"{base}/ws") as ws:
                assert not (await first_view(ws))["winnable"]
                await ws.send_json({"type": "new", "daily": True})
                reply = await _next_of(ws, "view", timeout=300)
                assert reply["said"] == f"The daily deal of {today}: proven winnable."
                assert reply["view"]["winnable"] and reply["view"]["daily"] == today
            async with session.ws_connect(f"{base}/ws") as ws:  # a reload: still the daily deal, proven winnable
                again = await first_view(ws)
                assert again["winnable"] and again["daily"] == today
        (record,) = _kept(tmp_path / "store.db").values()
        assert solve(record.start, record.variant).result == "won"

    serving(tmp_path, test)


async def _next_of(ws: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of type ``kind`` (notices of the game's verdict and of a deal being found skipped)."""
    while True:
        reply = dict(await ws.receive_json(timeout=timeout))
        if reply["type"] == kind:
            return reply
        assert reply["type"] in ("notice", "dealing"), reply


def test_a_graded_deal_is_found_while_every_table_is_answered(tmp_path: Path) -> None:
    # Deal 6 of draw 1 is hard: grading it takes seconds of search.
    box: list[TableServer] = []

    async def test(base: str) -> None:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as asker, aiohttp.ClientSession(
                cookie_jar=aiohttp.CookieJar(unsafe=True)) as other, asker.ws_connect(f"{base}/ws") as ws, \
                other.ws_connect(f"{base}/ws") as ws2:
            await first_view(ws)
            await first_view(ws2)
            await ws.send_json({"type": "new", "deal": 6, "difficulty": "hard"})
            # The asking page is told at once that the deal is being found.
            assert await ws.receive_json(timeout=10) == {"type": "dealing", "text": "Finding a hard deal…"}
            # Its game, about to be left, takes no move meanwhile; its other questions are answered.
            await ws.send_json({"type": "move", "move": "7>F"})
            refused = await ws.receive_json(timeout=10)
            assert refused["type"] == "error" and "a new deal is being found" in refused["message"]
            await ws.send_json({"type": "stats"})
            assert (await ws.receive_json(timeout=10))["type"] == "stats"
            # Another player's table is answered move by move while the search goes on.
            for move in ("7>F", "2>4", "5>1"):
                await ws2.send_json({"type": "move", "move": move})
                assert (await _next_of(ws2, "view"))["view"]["moves"] > 0
            (server,) = box
            assert [player.dealing for player in server._players.values()].count("Finding a hard deal…") == 1
            # A second page of the asking player (a reload) says so too.
            async with asker.ws_connect(f"{base}/ws") as reloaded:
                await first_view(reloaded)
                assert await reloaded.receive_json(timeout=10) == {"type": "dealing", "text": "Finding a hard deal…"}
                dealt = await _next_of(ws, "view", timeout=300)
                assert dealt["said"] == "New deal 6, graded hard: proven winnable."
                assert dealt["view"]["moves"] == 0 and dealt["view"]["deal"] == 6
                assert (await _next_of(reloaded, "view"))["view"] == dealt["view"]
            await ws.send_json({"type": "move", "move": "D"})  # the new game takes moves
            assert (await _next_of(ws, "view"))["view"]["moves"] == 1
        kept = _kept(tmp_path / "store.db")
        assert sorted(len(record.moves) for record in kept.values()) == [1, 3]
        assert any(record.start == Position.from_seed(6) and record.headers.get("Grade") == "hard"
                   for record in kept.values())

    serving(tmp_path, test, server_box=box)


def _alive_in_group(group: int) -> list[str]:
    """The processes of process group ``group`` still running (not zombies), as ``pid command`` lines."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(f"{stat.parent.name} {(stat.parent / 'cmdline').read_bytes()!r}")
    return alive


def test_a_server_stopped_while_a_deal_is_searched_for_stops_its_search_too(tmp_path: Path) -> None:
    import asyncio
    import signal

    from browser_helpers import free_port, start_server, wait_for

    port = free_port()
    server = start_server(port, tmp_path / "data", "klondike", "--seed", "7")

    async def ask() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "new", "deal": 1, "difficulty": "expert"})
            assert await ws.receive_json(timeout=30) == {"type": "dealing", "text": "Finding an expert deal…"}

    asyncio.run(ask())
    wait_for(lambda: any(b"spawn_main" in line.encode() for line in _alive_in_group(server.pid)),
             "the search's process to start")
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=30) == 0
    assert "Traceback" not in server.communicate()[1]
    # Every process the server started (in its own group) ends with it: the search's is sent SIGTERM.
    wait_for(lambda: not _alive_in_group(server.pid), "no process of the server's to be left", timeout=10)


def test_a_server_killed_outright_while_a_deal_is_searched_for_takes_its_search_with_it(tmp_path: Path) -> None:
    import asyncio
    import os
    import signal
    from contextlib import suppress

    from browser_helpers import free_port, start_server, wait_for

    port = free_port()
    server = start_server(port, tmp_path / "data", "klondike", "--seed", "7", "--variant", "seed-001")
    try:
        async def ask() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                await first_view(ws)
                # No deal of seed-001 from 96 to 117 is easy: the search grades 23 deals, tens of seconds.
                await ws.send_json({"type": "new", "deal": 96, "difficulty": "easy"})
                assert await ws.receive_json(timeout=30) == {"type": "dealing", "text": "Finding an easy deal…"}

        asyncio.run(ask())
        wait_for(lambda: any("spawn_main" in line for line in _alive_in_group(server.pid)),
                 "the search's process to start")
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        # The search is not finished for nobody: its process dies with the server (as the store's and
        # multiprocessing's helpers do).
        wait_for(lambda: not _alive_in_group(server.pid), "no process of the killed server's to be left", timeout=5)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)  # an orphan too, should one be left
        server.communicate(timeout=10)
