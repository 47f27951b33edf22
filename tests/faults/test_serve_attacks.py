"""``cardtable serve`` attacked, as the attack of issue 50 ran it: real server
processes on 127.0.0.1, real clients.

- The terminal page (``--terminal``) makes the card table's checks: a
  request for another ``Host`` (DNS rebinding) and a WebSocket from another
  site's page (``Origin``) get 403 and start no game; at most ``--sessions``
  games run at once, and a page beyond them is told the server is full.
- What a page sends on the terminal's WebSocket puts no traceback in the log.
- A bad ``--url`` or ``--host`` is one line and exit 2, before anything is served.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from browser_helpers import Served, free_port, serving
from faults.fault_helpers import alive, children

TERMINAL = ("--terminal", "--seed", "7", "--no-autosave", "--no-stats")


class Terminal(Served):
    """A terminal server: its games too."""

    def games(self) -> list[int]:
        """The processes the server started (each session's shell and game), children of children too."""
        found, todo = [], children(self.process.pid)
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children(pid)
        return found


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    yield from serving(tmp_path, Terminal)


def assert_clean(log: str) -> None:
    assert "Traceback" not in log and "Error" not in log and "exception" not in log.lower(), log


def test_the_terminal_page_refuses_other_hosts_and_other_sites(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(*TERMINAL)

    async def attack() -> None:
        async with aiohttp.ClientSession() as client:
            for host in ("evil.example", f"evil.example:{served.port}", "localhost.evil.example"):
                async with client.get(f"{served.base}/", headers={"Host": host}) as response:
                    assert response.status == 403 and "unknown host" in await response.text()
            for host in (f"localhost:{served.port}", f"127.0.0.1:{served.port}"):
                async with client.get(f"{served.base}/", headers={"Host": host}) as response:
                    assert response.status == 200
            for _ in range(12):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"{served.base}/ws?width=80&height=24",
                                            headers={"Origin": "http://evil.example"})
                assert refused.value.status == 403
            for headers in ({"Host": "evil.example"}, {"Origin": "http://localhost:1"}):  # another local server
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"{served.base}/ws", headers=headers)
                assert refused.value.status == 403

    asyncio.run(attack())
    assert served.games() == []  # no game was started for them
    assert_clean(served.log())


def test_the_terminal_page_runs_at_most_its_sessions(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(*TERMINAL, "--sessions", "2")

    async def attack() -> None:
        async with aiohttp.ClientSession() as client:
            first = await client.ws_connect(f"{served.base}/ws?width=80&height=24", headers={"Origin": served.base})
            second = await client.ws_connect(f"{served.base}/ws?width=80&height=24")
            for page in (first, second):  # each game has drawn its screen
                frame = await page.receive(timeout=60)
                assert frame.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), frame
            running = len(served.games())
            assert running >= 2
            for _ in range(10):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"{served.base}/ws?width=80&height=24")
                assert refused.value.status == 503
            async with client.get(f"{served.base}/") as response:
                assert response.status == 503
                assert await response.text() == \
                    "every session of this server is in use (2 at once): try again when one ends\n"
            assert len(served.games()) == running  # the refused pages started nothing
            await first.close()
            for _ in range(100):  # a session ended: its place is free again
                async with client.get(f"{served.base}/") as response:
                    if response.status == 200:
                        break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the closed session's place never came free")
            third = await client.ws_connect(f"{served.base}/ws?width=80&height=24")
            assert (await third.receive(timeout=60)).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
            await second.close()
            await third.close()

    asyncio.run(attack())
    assert_clean(served.log())


def test_what_a_page_sends_puts_no_traceback_in_the_log(serve) -> None:  # type: ignore[no-untyped-def]
    served = serve(*TERMINAL)

    async def attack() -> None:
        async with aiohttp.ClientSession() as client, \
                client.ws_connect(f"{served.base}/ws?width=99999999&height=-5") as page:
            await page.receive(timeout=60)
            for text in ("[" * 2000 + "]" * 2000, "{not json", "{}", "[]", "[1]", '["stdin"]', '["stdin", 5]',
                         '["resize", {"width": 1e308, "height": "x"}]', '["resize", 3]', '["ping", {"a": [1]}]',
                         '["resize", {"width": 4000000, "height": 3000000}]',
                         '["resize", {"width": 499, "height": 199}]', '["resize", {"width": 500, "height": 200}]'):
                await page.send_str(text)
            await page.send_bytes(b"\x00\xff")
            await page.send_str('["ping", "still here"]')
            for _ in range(200):
                frame = await page.receive(timeout=30)
                if frame.type == aiohttp.WSMsgType.TEXT and frame.data == '["pong", "still here"]':
                    break
                assert frame.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), frame
            else:
                raise AssertionError("the session stopped answering")
            games.extend(served.games())

    games: list[int] = []
    asyncio.run(attack())
    assert games
    # The page went and the server stopped straight after, while its game was busy drawing a screen of
    # 500 by 200 cells: the game ends all the same (it used to live on, spinning, with nobody to serve).
    assert_clean(served.log())
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in games) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in games if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "a session's game outlived its page and the server"


def serve_once(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``cardtable serve ARGV``, which must end by itself (a server that serves is killed after 30 s)."""
    return subprocess.run([sys.executable, "-m", "cardtable", "serve", "--port", str(free_port()), *argv],
                          env={**os.environ, "CARDTABLE_DATA": str(tmp_path)}, capture_output=True, text=True,
                          timeout=30, check=False)


@pytest.mark.parametrize(("argv", "words"), [
    (["--url", "::::"], "--url '::::': not a web address"),
    (["--terminal", "--url", "::::"], "--url '::::': not a web address"),
    (["--url", "cards.example"], "not a web address (http:// or https:// and a host)"),
    (["--url", "http://[::1"], "--url 'http://[::1': not a web address"),
    (["--url", "http://cards.example:99999/"], "not a web address (Port out of range"),
    (["--url", "http://cards.example:0/"], "port 0 is no port"),
    (["--url", "http://cards.example/?a=b"], "an address is a scheme, a host, a port and a path"),
    (["--url", "http://cards example/"], "an address is a scheme, a host, a port and a path"),
    (["--host", "::::"], "--host ::::: not an address of this machine"),
    (["--host", ""], "--host '': not an address of this machine"),
    (["--host", "localhost:80"], "--host localhost:80: not an address of this machine"),
    (["--sessions", "0", "--terminal"], "--sessions"),
    (["--sessions", "3"], "--sessions is an option of the terminal page: add --terminal"),
])
def test_a_bad_address_is_one_line_and_exit_2(tmp_path: Path, argv: list[str], words: str) -> None:
    try:
        done = serve_once(tmp_path, *argv)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve {' '.join(argv)} served")
    assert done.returncode == 2 and done.stdout == "", done
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr and "Serving" not in done.stderr
