"""The card table's server under attack, as the attack of issue 50 ran it: a
real ``cardtable serve`` process on 127.0.0.1 and real clients, several of
them from other loopback addresses (127.0.0.2, 127.0.0.3, ... are this
machine too, and reach a server listening on 127.0.0.1 from addresses of
their own).

- A message nested thousands deep is refused in one line and the server's
  log stays clean; so does a page that drops while its hint is searched.
- Pages of people without a seat cannot fill a Kings Corner table against
  its seated people, nor push them out.
- Tables are opened at a bounded rate per client address and per server,
  cookies or none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from browser_helpers import Served, serving

from cardtable.web.kings_corner import MAX_ONLOOKERS, MAX_PAGES, ONLOOKERS_PER_ADDRESS, OPEN_PER_HOUR, OPEN_PER_MINUTE

NESTED = "[" * 2000 + "]" * 2000  # 4,000 bytes: under the size limit, 2,000 deep


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    yield from serving(tmp_path, Served)


def session(address: int = 1, *, cookies: bool = True) -> aiohttp.ClientSession:
    """A client from 127.0.0.ADDRESS, with a cookie jar of its own (or one that keeps nothing)."""
    jar: aiohttp.abc.AbstractCookieJar = aiohttp.CookieJar(unsafe=True) if cookies else aiohttp.DummyCookieJar()
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{address}", 0)),
                                 cookie_jar=jar)


async def open_table(client: aiohttp.ClientSession, base: str) -> aiohttp.ClientResponse:
    """``POST /kc/new`` from this server's page; the response (read, closed)."""
    async with client.post(f"{base}/kc/new", data={"seats": "2", "name": "Ann"}, headers={"Origin": base},
                           allow_redirects=False) as response:
        await response.read()
        return response


def assert_clean(log: str) -> None:
    assert "Traceback" not in log and "Error handling request" not in log, log
    assert "RecursionError" not in log and "ConnectionResetError" not in log, log


# ----- item 21: what a client sends cannot put a traceback in the log --------------------------------------------

def test_a_deeply_nested_message_is_refused_in_one_line(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve("--seed", "7")

    async def attack() -> None:
        async with session() as client, client.ws_connect(f"{served.base}/ws") as ws:
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            for text in (NESTED, '{"type": "draw", "x": ' + "{\"a\": " * 500 + "1" + "}" * 500 + "}",
                         '{"type": "draw", "x": [[1]]}'):
                await ws.send_str(text)
                reply = await ws.receive_json(timeout=10)
                assert reply == {"type": "error",
                                 "message": "message nested too deep (at most 2 levels of objects and lists)"}
            # Brackets inside a string are text, not nesting; the socket still plays.
            await ws.send_str('{"type": "draw", "note": "' + "[" * 1000 + '"}')
            assert (await ws.receive_json(timeout=10))["type"] == "view"
        async with session() as client:
            response = await open_table(client, served.base)
            table = response.headers["Location"].rsplit("/", 1)[1]
            async with client.ws_connect(f"{served.base}/kc/ws?table={table}") as ws:
                assert (await ws.receive_json(timeout=10))["type"] == "table"
                await ws.send_str(NESTED)
                reply = await ws.receive_json(timeout=10)
                assert reply["type"] == "error" and "nested too deep" in reply["message"]

    asyncio.run(attack())
    assert_clean(served.log())


def test_a_page_that_drops_while_its_hint_is_searched_leaves_the_log_clean(serve) -> None:  # type: ignore[no-untyped-def]
    # Deal 11: the expert finds its opening hint in about half the time deal 7's takes, and each search still
    # outlives its page.
    served = serve("--seed", "11")

    async def attack() -> None:
        for _ in range(5):
            async with session() as client:
                ws = await client.ws_connect(f"{served.base}/ws")
                assert (await ws.receive_json(timeout=10))["type"] == "view"
                await ws.send_str('{"type": "hint"}')
                assert ws._response is not None and ws._response.connection is not None
                transport = ws._response.connection.transport
                assert transport is not None
                transport.abort()  # the page is gone before its hint is found
            await asyncio.sleep(0.5)
        async with session() as client, client.ws_connect(f"{served.base}/ws") as ws:  # still serving
            assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_str('{"type": "hint"}')
            assert (await ws.receive_json(timeout=60))["type"] == "hint"

    asyncio.run(attack())
    assert_clean(served.log())


# ----- item 17: a Kings Corner table belongs to its seated people ------------------------------------------------

def test_pages_without_a_seat_cannot_lock_the_seated_people_out(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve("kings-corner", "--seed", "3", "--opponents", "1")

    async def attack() -> None:
        async with session() as host:
            response = await open_table(host, served.base)
            assert response.status == 303
            table = response.headers["Location"].rsplit("/", 1)[1]
            url = f"{served.base}/kc/ws?table={table}"
            async with host.ws_connect(url) as ws:
                assert (await ws.receive_json(timeout=10))["view"]["players"][0]["you"]
            # The host has left; 64 pages with cookies of their own: 12 from 127.0.0.2, then from others.
            addresses = [2] * 12 + [3, 4, 5, 6, 7, 8] * 4 + [9, 10] * 14
            kept: list[tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]] = []
            admitted: list[aiohttp.ClientWebSocketResponse] = []
            refusals: list[str] = []
            try:
                for address in addresses:
                    client = session(address)
                    ws = await client.ws_connect(url)
                    kept.append((client, ws))
                    reply = await ws.receive_json(timeout=10)
                    if reply["type"] == "table":
                        admitted.append(ws)
                    else:
                        refusals.append(reply["message"])
                # ONLOOKERS_PER_ADDRESS pages from 127.0.0.2, and MAX_ONLOOKERS in all.
                assert len(admitted) == MAX_ONLOOKERS
                assert refusals.count("too many pages without a seat open at this table from your address "
                                      f"(at most {ONLOOKERS_PER_ADDRESS})") == 12 - ONLOOKERS_PER_ADDRESS
                assert refusals.count(f"this table has as many onlookers as it takes ({MAX_ONLOOKERS}): "
                                      "try again later") == 28
                # The seated host comes back to every page they want, up to their own cap.
                pages = [await host.ws_connect(url) for _ in range(MAX_PAGES + 1)]
                replies = [await page.receive_json(timeout=10) for page in pages]
                assert all(r["type"] == "table" and r["view"]["isHost"] for r in replies[:MAX_PAGES]), replies
                assert replies[-1] == {"type": "error",
                                       "message": f"too many pages open at this table (at most {MAX_PAGES} of yours)"}
                # ... and none of the onlookers' pages was pushed out for them.
                for ws in admitted:
                    await ws.send_json({"type": "view"})
                    reply = await ws.receive_json(timeout=10)
                    assert reply["type"] == "table" and "hand" not in reply["view"]
                await pages[0].send_json({"type": "start"})
                for _ in range(50):
                    reply = await pages[0].receive_json(timeout=10)
                    if reply["type"] == "table" and reply["view"]["phase"] == "playing":
                        break
                else:
                    raise AssertionError("the match never started")
                for page in pages:
                    await page.close()
            finally:
                for client, ws in kept:
                    await ws.close()
                    await client.close()

    asyncio.run(attack())
    assert_clean(served.log())


def test_opening_tables_is_limited_per_address_and_per_server(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve("kings-corner")

    async def attack() -> None:
        # Cookieless: each request is a new player, so only the address and the server can count them.
        async with session(2, cookies=False) as client:
            statuses = [(await open_table(client, served.base)).status for _ in range(3 * OPEN_PER_MINUTE)]
            refused = await open_table(client, served.base)
            words = await refused.text()
        assert statuses == [303] * OPEN_PER_MINUTE + [429] * (2 * OPEN_PER_MINUTE)
        assert words == f"at most {OPEN_PER_MINUTE} tables a minute from one address: try again soon\n"
        assert 1 <= int(refused.headers["Retry-After"]) <= 61
        # Another address opens its own, until the server's hourly count is reached.
        opened = OPEN_PER_MINUTE
        for address in range(3, 3 + OPEN_PER_HOUR // OPEN_PER_MINUTE):
            async with session(address, cookies=False) as client:
                results = await asyncio.gather(*(open_table(client, served.base) for _ in range(OPEN_PER_MINUTE)))
            opened += sum(1 for response in results if response.status == 303)
            if opened >= OPEN_PER_HOUR:
                break
        assert opened == OPEN_PER_HOUR
        async with session(250, cookies=False) as client:  # an address that has opened nothing
            response = await open_table(client, served.base)
            assert response.status == 429
            assert (await response.text()).startswith(f"this server opens at most {OPEN_PER_HOUR} tables an hour")
            # A table already open is still served.
            async with client.get(f"{served.base}/kc") as page:
                assert page.status == 200

    asyncio.run(attack())
    assert_clean(served.log())
